"""A match: one game, or the best-of-three with the face-up redraft between games (rules.md §2.5).

The match owns the record that goes into its file (see `matches.record`) and the current game's
state.  Every decision — in a game, of who starts, of each redraft pick — is applied with `decide`,
which appends it to the record; a game's end sets up the next game.  Decisions with a single legal
action are applied automatically and not recorded (a replay applies them the same way).

Shared victories: a shared game is drawn and nobody scores it.  The first player to win two games wins
the match; if three games are played without that, the one with more wins takes the match, and equal
wins make a drawn (shared) match.  The loser of a game chooses the first player of the next; after a
drawn game, the player who went second in it chooses.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any, Callable, cast

import amigos
from ai.agent import Agent
from amigos import cards as C
from amigos.adjudicate import ROUND_LIMIT, adjudicated  # noqa: F401 - ROUND_LIMIT is part of this module's interface
from amigos.codes import IN_PLAY, SETUP_CHOOSE_FIRST, SETUP_REDRAFT
from amigos.config import Action, GameConfig
from amigos.rng import derive_seed
from amigos.setup import EXPANSION_NAMES, card_sets
from amigos.state import GameState
from amigos.steps import action_from_json, action_json

from .events import GameOver, MatchEvent, MatchOver, Moved, TurnBegins
from .play import play_out

FORMAT = "amigos.match"
VERSION = 3
FORMATS = ("game", "match")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def config_of(record: dict[str, Any]) -> GameConfig:
    """The `GameConfig` a match record or a tournament manifest states (its ``variant``, ``ruleset``,
    ``expansions`` and players: a record's list of players, a manifest's ``table``, two where neither
    is); `amigos.SetupError` for a word or a player count this Amigos does not know."""
    players = record.get("players")
    count = len(players) if isinstance(players, list) else record.get("table", 2)
    return GameConfig.parse(record["variant"], record.get("ruleset", "official"), record.get("expansions") or (),
                            count)


def card_digest(expansions: Sequence[str] = ()) -> str:
    """A digest of the card data a game with these expansions plays with (a match file records it):
    every component of the base game and of each expansion, as the packaged data describes it."""
    import hashlib
    import json
    sets = card_sets(expansions)
    data = json.dumps([c.raw for c in C.CARDS if c.set in sets], sort_keys=True)
    return hashlib.blake2b(data.encode(), digest_size=8).hexdigest()


def expansion_title(expansions: Sequence[str]) -> str:
    """"Lux et Tenebrae" for ``("lux",)`` (the names joined with "and"); "" for the base game."""
    return " and ".join(EXPANSION_NAMES.get(name, name) for name in expansions)


class Match:
    """A match in progress or finished.  Build one with `Match.new` or `Match.from_record`."""

    def __init__(self, record: dict[str, Any]):
        self.record = record
        # None only until `_start_game`, which `new` and `from_record` call before anything reads it.
        self.state: GameState = cast("GameState", None)
        self.previous_state: GameState | None = None  # the final position of the previous game
        self.first_players: list[int] = []   # the first player of each game's round 1
        self.redrafted: list[list[str]] | None = None  # each player's 8 artifacts (ids) from the redraft before game 2
        self.told: list[tuple[GameState, Action]] = []  # the current game's decisions and their positions

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def new(cls, seed: int, specs: list[str], config: GameConfig = GameConfig(), fmt: str = "match",
            names: list[str] | None = None) -> "Match":
        """A new match (``fmt`` "match", a best of three) or single game (``fmt`` "game") of games set
        up by ``config``.  Its expansions are recorded in the file as ``"expansions"``; the base game's
        file has no such key (as files had before there were expansions)."""
        if fmt not in FORMATS:
            raise amigos.AmigosError(f"unknown format {fmt!r} (expected game or match)")
        n = config.players
        if fmt == "match" and n != 2:
            raise amigos.AmigosError("a best-of-three match (with the redraft) is for two players: "
                                     "play a single game with more")
        if len(specs) != n:
            raise amigos.AmigosError(f"{n} players need {n} agents or people, not {len(specs)}")
        variant, ruleset, expansions = config.variant, config.ruleset, list(config.expansions)
        stamp = now()
        record = {
            "format": FORMAT, "version": VERSION, "rules_version": amigos.RULES_VERSION,
            "app_version": amigos.__version__, "card_digest": card_digest(expansions),
            "created_at": stamp, "updated_at": stamp,
            "seed": int(seed), "variant": variant, "best_of": 3 if fmt == "match" else 1, "ruleset": ruleset,
            "players": [{"name": (names or [f"player {p + 1}" for p in range(n)])[p], "spec": specs[p]}
                        for p in range(n)],
            "status": "unfinished", "games": [], "result": None,
        }
        if expansions:
            record["expansions"] = expansions
        match = cls(record)
        match._start_game()
        return match

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "Match":
        """Rebuild a match by replaying every recorded decision; raises `ReplayError` on any mismatch."""
        match = cls(dict(record, games=[], status="unfinished", result=None))
        games = record["games"]
        if not games:
            raise ReplayError(1, 0, "the file holds no game")
        for gi, game in enumerate(games):
            if gi == 0:
                match._start_game(expected_seed=game["seed"])
            elif match.game_number != gi + 1:
                raise ReplayError(gi + 1, 0, "a game the earlier results do not lead to")
            elif match.record["games"][gi]["seed"] != game["seed"]:
                raise ReplayError(gi + 1, 0, "game seed does not follow from the match seed")
            for di, decision in enumerate(game["decisions"]):
                match._advance_forced()
                state = match.state
                if match.is_over() or match.game_number != gi + 1:
                    raise ReplayError(gi + 1, di, "a decision after the end of its game")
                actor, step, think = decision[0], decision[1], decision[2]
                try:
                    action = action_from_json(state, step)
                except amigos.AmigosError as exc:
                    raise ReplayError(gi + 1, di, f"undecodable decision: {exc}") from None
                if actor != state.current_player():
                    raise ReplayError(gi + 1, di, "decision by a player who was not to act")
                if action not in state.legal_actions():
                    raise ReplayError(gi + 1, di, "illegal decision")
                match.decide(action, think=think / 1000, info=_info_of(decision), stamp=False)
            match._advance_forced()
            if match.game_number > gi + 1:  # this game ended and the next one began
                played = match.record["games"][gi]
            else:
                played = None
            digest = game.get("final_digest")
            ended = played is not None or match.is_over()
            if game.get("result") is not None:
                if not ended:
                    raise ReplayError(gi + 1, len(game["decisions"]), "the game does not end where the file says")
                mine = played if played is not None else match.record["games"][gi]
                if digest is not None and digest != mine.get("final_digest"):
                    raise ReplayError(gi + 1, len(game["decisions"]), "final position digest mismatch")
                for field in ("winners", "vp", "rounds"):
                    if game["result"].get(field) != mine["result"][field]:
                        raise ReplayError(gi + 1, len(game["decisions"]),
                                          f"the recorded {field} differ from the replay")
                if bool(game["result"].get("adjudicated")) != bool(mine["result"].get("adjudicated")):
                    raise ReplayError(gi + 1, len(game["decisions"]), "the recorded result's adjudicated flag "
                                                                      "differs from the replay")
            elif ended:
                raise ReplayError(gi + 1, len(game["decisions"]), "the file says unfinished but the game ended")
        stored = record.get("result")
        if stored is not None and match.record["result"] is not None:
            for field in ("score", "winner", "shared"):
                if stored.get(field) != match.record["result"][field]:
                    raise ReplayError(len(games), len(games[-1]["decisions"]),
                                      f"the recorded match result's {field} differs from the replay")
        elif stored is not None and record.get("status") != "finished":  # (a finished one: `load` says so)
            raise ReplayError(len(games), len(games[-1]["decisions"]), "the file has a match result but the "
                                                                       "match is not over")
        match.record["created_at"] = record.get("created_at")
        match.record["updated_at"] = record.get("updated_at")
        return match

    # -- flow ------------------------------------------------------------------------------------

    @property
    def expansions(self) -> tuple[str, ...]:
        """The expansions the match plays with: () for the base game (a file without the key)."""
        return tuple(self.record.get("expansions") or ())

    @property
    def config(self) -> GameConfig:
        """How the match's games are set up, as its record says (`SetupError` for a word it does not
        know)."""
        return config_of(self.record)

    @property
    def game_number(self) -> int:
        return len(self.record["games"])

    def is_over(self) -> bool:
        return self.record["status"] == "finished"

    def score(self) -> list[int]:
        wins = [0] * len(self.record["players"])
        for game in self.record["games"]:
            result = game.get("result")
            if result and len(result["winners"]) == 1:
                wins[result["winners"][0]] += 1
        return wins

    def decision_seed(self, seat: int) -> int:
        """The seed an agent in ``seat`` uses for the coming decision: a function of the match seed and
        the position in the record only."""
        return derive_seed(self.record["seed"], "decision", seat, self.game_number,
                           len(self.record["games"][-1]["decisions"]))

    def history(self) -> list[tuple[GameState, Action]]:
        """The current game's decisions (not its forced moves), each with the position it was made in."""
        return list(self.told)

    def to_act(self) -> int:
        """The player whose decision the match waits for (after forced moves are applied)."""
        self._advance_forced()
        return self.state.current_player()

    def decide(self, action: Action, think: float = 0.0, info: dict[str, Any] | None = None,
               stamp: bool = True) -> None:
        """Apply a decision of the acting player and record it; raises `IllegalAction` if not legal."""
        state = self.state
        actor = state.current_player()
        entry = [actor, action_json(state, action), int(round(float(think) * 1000))]
        before = state.clone()
        state.apply(action)
        self.told.append((before, action))
        if info and info.get("iterations"):
            entry.append(int(info["iterations"]))
            value = info.get("value")
            entry.append(None if value is None else round(float(value), 4))
        self.record["games"][-1]["decisions"].append(entry)
        self._after_move()
        if stamp:
            self.record["updated_at"] = now()

    def _advance_forced(self) -> None:
        state = self.state
        while not self.is_over() and not state.is_terminal() and self.record["games"][-1].get("result") is None:
            legal = state.legal_actions()
            if len(legal) != 1:
                return
            state.apply(legal[0])
            self._after_move()
            state = self.state

    def _after_move(self) -> None:
        state = self.state
        game = self.record["games"][-1]
        if len(self.first_players) < self.game_number and state.round >= 1:
            self.first_players.append(state.first_player)
        if self.game_number == 2 and self.redrafted is None and state.phase not in (SETUP_CHOOSE_FIRST, SETUP_REDRAFT):
            # The redraft is over: each knows the other's 8 (and nothing else has happened yet).
            self.redrafted = [[c.id for c in state.cards[:state.n_art] if c.id in state.known_decks[1 - p]]
                              for p in range(2)]
        if not state.is_terminal():
            return
        if game.get("result") is None:
            game["result"] = {"winners": state.winners(), "vp": state.victory_points(), "rounds": state.round}
            if adjudicated(state):
                game["result"]["adjudicated"] = True
            game["final_digest"] = state.digest()
        wins = self.score()
        played = self.game_number
        needed = (self.record["best_of"] + 1) // 2
        if max(wins) >= needed or played >= self.record["best_of"]:
            self._finish(wins)
        else:
            self._start_game()

    def _finish(self, wins: list[int]) -> None:
        result: dict[str, Any]
        leaders = [p for p, w in enumerate(wins) if w == max(wins)]
        if len(leaders) > 1:
            result = {"score": wins, "winner": None, "shared": True}
        else:
            result = {"score": wins, "winner": leaders[0], "shared": False}
        self.record["result"] = result
        self.record["status"] = "finished"

    def _start_game(self, expected_seed: int | None = None) -> None:
        index = self.game_number + 1
        seed = derive_seed(self.record["seed"], "game", index)
        if expected_seed is not None and expected_seed != seed:
            raise ReplayError(index, 0, "game seed does not follow from the match seed")
        config = self.config
        if index == 1:
            self.state = amigos.deal(seed, config)
        else:
            previous = self.previous_state = self.state
            chooser = self._chooser(previous)
            mages = [_mage_of(previous, p) for p in range(2)]
            if index == 2:
                artifacts: list[Any] = [c.id for c in previous.cards[:previous.n_art]]
                redraft = True
            else:
                # The decks redrafted before game 2, not who owns what at its end: Sorcerer's Bestiary
                # can move a Dragon to the rival.
                # (Set in game 2 once its redraft is over, which is before game 2 can end.)
                assert self.redrafted is not None
                artifacts = self.redrafted
                redraft = False
            # Only the first game uses the first-game sides (rules.md §2.1 step 2), also in a match.
            self.state = amigos.next_game(seed, mages, artifacts, chooser, redraft, config, previous=previous)
        self.record["games"].append({"index": index, "seed": seed, "decisions": [], "result": None})
        self.told = []
        self._advance_forced()

    def _chooser(self, previous: GameState) -> int:
        winners = previous.winners()
        if len(winners) == 1:
            return 1 - winners[0]
        first = self.first_players[-1] if self.first_players else 0
        return 1 - first

    # -- views -------------------------------------------------------------------------------------

    def redraft_picks(self) -> list[dict[str, Any]]:
        """The redraft before game 2, from the record: [{player, card}]."""
        if self.game_number < 2:
            return []
        picks = []
        for d in self.record["games"][1]["decisions"]:
            if d[1]["__type__"] == "RedraftPick":
                picks.append({"player": d[0], "card": d[1]["artifact_name"]})
        return picks


class ReplayError(amigos.AmigosError):
    """A match file whose decisions do not replay: names the game and decision index."""

    def __init__(self, game: int, index: int, problem: str):
        super().__init__(f"game {game}, decision {index}: {problem}")
        self.game = game
        self.index = index


def _mage_of(state: GameState, p: int) -> str:
    for e, c in enumerate(state.cards):
        if c.kind == C.MAGE and state.owner[e] == p and state.loc[e] == IN_PLAY:
            return c.id
    raise amigos.AmigosError("no mage in play")


def _info_of(decision: list[Any]) -> dict[str, Any]:
    """The AI details of a recorded decision ``[actor, step, think_ms, iterations?, value?]``."""
    if len(decision) >= 5:
        return {"iterations": decision[3], "value": decision[4]}
    return {}


def play(match: Match, controllers: Sequence[Agent], on_event: Callable[[MatchEvent], object] | None = None,
         save: Callable[[Match], object] | None = None) -> Match:
    """Play ``match`` to the end (`matches.play.play_out`): ``controllers[p]`` decides for seat ``p``, an
    `ai.agent.Agent` (an AI or a person's seat), reseeded with `Match.decision_seed` before each decision
    so that a resumed match plays on exactly as an uninterrupted one; ``save(match)`` runs after every
    decision; ``on_event`` hears of turns, moves and results (`matches.events`)."""
    emit = on_event or (lambda event: None)
    play_out(_Watched(match, emit, save), controllers, seed_of=match.decision_seed)
    if save is not None:
        save(match)
    emit(MatchOver(match.record["result"]))
    return match


class _Watched:
    """A match as the `ai.agent.Table` that `play` plays: each turn and move told to ``emit``, the match
    saved after every decision."""

    match: Match
    emit: Callable[[MatchEvent], object]
    save: Callable[[Match], object] | None

    def __init__(self, match: Match, emit: Callable[[MatchEvent], object],
                 save: Callable[[Match], object] | None) -> None:
        self.match = match
        self.emit = emit
        self.save = save

    @property
    def state(self) -> GameState:
        return self.match.state

    def is_over(self) -> bool:
        return self.match.is_over()

    def to_act(self) -> int:
        match = self.match
        p = match.to_act()
        if not match.is_over():
            self.emit(TurnBegins(p, match.state))
        return p

    def history(self) -> list[tuple[GameState, Action]]:
        return self.match.history()

    def decide(self, action: Action, think: float, info: dict[str, Any]) -> None:
        match = self.match
        p = match.state.current_player()
        before = match.game_number
        text = amigos.action_text(match.state, action)
        match.decide(action, think=think, info=info)
        if self.save is not None:  # (saved, then told: a move a player has seen is never lost)
            self.save(match)
        self.emit(Moved(p, action, text, think, info))
        if match.game_number != before or match.is_over():
            self.emit(GameOver(before, match.record["games"][before - 1]["result"], match.score()))
