"""The proof behind the puzzle ``discard-egg-for-calm-1``: every first move of the AI in the play-test
position (``tests/data/p202.amigos``, game 1 after 63 decisions, round 5) that wins the game this
round whatever chance deals, with the rival playing its recorded moves, and answering freely where
they are no longer legal; and its tests: its bound on our points is never below what a winning line
scores, its search finds that line's win, and the puzzle's answers are the moves it proves.  The whole
proof takes minutes: ``python -m lab.egg_proof`` runs it with this module's `Proof`.

An exhaustive search of the AI's moves (each rival answer and each chance outcome must lead to a
win), with a transposition table where a position is won with more essences and fewer of our own
components turned whenever it is won with less and more.  Two cuts keep it within minutes:

- `Proof.bound`: the most points we can still score this round, counted from what could pay for each
  way to score in this position (the Water Dragon from the discard pile through Sorcerer's Bestiary,
  a monument, Coral Castle, the Egg placed, the First Player token); a line that cannot reach the
  rival's points is lost.  It is written for this position's cards alone.
- our dragons attack only once the rival has passed (`ATTACKERS`): before, the rival may answer by
  paying, after which its recorded moves no longer apply and the search of every other answer is out
  of reach; an attack then helps only our tie-break, which it helps as much after the rival's pass.
  The first move Bone Dragon is the exception, searched with every answer (``--moves "Bone Dragon"``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from amigos import action_json
from amigos import actions as A
from amigos import codes as C
from amigos.cards import ESSENCES
from amigos.codes import CHANCE_PENDING
from amigos.position import build_position, describe
from amigos.state import GameState
from matches.match import Match
from matches.puzzles import is_best, matches
from matches.record import read_record
from tests.helpers import DATA

MATCH = DATA / "p202.amigos"
GAME, CUT = 0, 63  # (game 1, after 63 decisions)
ME = 0
RIVAL = 1
CALM, GOLD = ESSENCES.index("calm"), ESSENCES.index("gold")
ATTACKERS = ("bone_dragon", "water_dragon")
Key = tuple[Any, ...]


def load() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The position (`amigos.position.describe`) and the rival's recorded moves after it."""
    record = read_record(MATCH)
    game = record["games"][GAME]
    cut = dict(record, games=[dict(game, decisions=game["decisions"][:CUT], result=None)], result=None,
               status="unfinished")
    position = describe(Match.from_record(cut).state)
    script = [d[1] for d in game["decisions"][CUT:] if d[0] == RIVAL]
    return position, script


class Proof:
    """The search from one position; `wins(state, k)`: whether we win from ``state`` with the rival's
    ``k``-th recorded move next."""

    def __init__(self, root: GameState, script: list[dict[str, Any]]) -> None:
        self.script = script
        self.round = root.round
        self.ids = {n: root.find(n) for n in ("dragon_egg", "water_dragon", "sorcerers_bestiary", "magical_shard",
                                              "tree_of_life", "transmuter", "sacred_grove", "alchemy", "coral_castle")}
        self.won: dict[Key, list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
        self.lost: dict[Key, list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
        self.exact: dict[tuple[Key, tuple[int, ...], tuple[int, ...]], bool] = {}
        self.nodes = 0

    def straight(self, s: GameState, name: str) -> int:
        e = self.ids[name]
        return int(s.loc[e] == C.IN_PLAY and s.owner[e] == ME and not s.turned[e])

    def bound(self, s: GameState) -> int:
        """The most points we can have at the round's end: each way to score counted if what could pay
        for it this round (essences now, plus every gain still usable) covers it."""
        pool = s.pool[5 * ME:5 * ME + 5]
        egg = s.loc[self.ids["dragon_egg"]] == C.HAND
        total = sum(pool) + 3 * self.straight(s, "tree_of_life") + self.straight(s, "magical_shard") \
            + self.straight(s, "transmuter")
        calm = pool[CALM] + self.straight(s, "magical_shard") + 3 * self.straight(s, "transmuter")
        gold = pool[GOLD] + 2 * self.straight(s, "alchemy")
        dragon = s.loc[self.ids["water_dragon"]] == C.DISCARD and self.straight(s, "sorcerers_bestiary")
        coral = s.loc[self.ids["coral_castle"]] != C.IN_PLAY
        best = 0
        for grove in range(self.straight(s, "sacred_grove") + 1):  # (5 Life for 1 Calm)
            for wd in range(int(dragon) + 1):  # (+3: 4 essences and 6 Calm)
                for cc in range(int(coral) + 1):  # (+3: 5 Elan, 5 Life, 5 Calm)
                    for placed in range(int(egg) + 1):  # (+1 for 1 Gold; else discarded for 2)
                        discarded = 2 * (egg and not placed)
                        t, c = total + discarded + 4 * grove, calm + discarded - grove
                        g = gold + (1 if egg and not placed else 0) - placed
                        spent = 10 * wd + 15 * cc + placed
                        if 6 * wd + 5 * cc > c or g < 0 or t < spent:
                            continue
                        monuments = min(g // 4, (t - spent) // 4)  # (4 Gold each, 3 points at most)
                        best = max(best, 3 * wd + 3 * cc + placed + 3 * monuments)
        return s.victory_points()[ME] + best + self.token_open(s)

    @staticmethod
    def token_open(s: GameState) -> int:
        """1 while the First Player token (1 point) may still pass from the rival to us."""
        return int(s.first_player == RIVAL and not s.passed[RIVAL] and not s.passed[ME])

    def key(self, s: GameState, k: int) -> tuple[Key, tuple[int, ...], tuple[int, ...]]:
        """(everything but our pool and our turned components, our pool, our turned components)."""
        ours = [e for e in range(len(s.loc)) if s.owner[e] == ME]
        theirs = tuple(s.turned[e] for e in range(len(s.loc)) if s.owner[e] != ME)
        pool = s.pool
        rest = (tuple(s.loc), tuple(s.owner), theirs, tuple(s.ess), tuple(s.passed), tuple(s.temp_vp), s.phase,
                s.turn, repr(s.stack), s.round, s.won, s.turn_done, s.victory_check, s.first_player,
                tuple(pool[5 * RIVAL:5 * RIVAL + 5]), s.mon_seer, k)
        return rest, tuple(pool[5 * ME:5 * ME + 5]), tuple(s.turned[e] for e in ours)

    def known(self, rest: Key, pool: tuple[int, ...], turned: tuple[int, ...]) -> bool | None:
        if (rest, pool, turned) in self.exact:
            return self.exact[(rest, pool, turned)]
        for p, t in self.won.get(rest, ())[-24:]:
            if all(x >= y for x, y in zip(pool, p)) and all(x <= y for x, y in zip(turned, t)):
                return True
        for p, t in self.lost.get(rest, ())[-24:]:
            if all(x <= y for x, y in zip(pool, p)) and all(x >= y for x, y in zip(turned, t)):
                return False
        return None

    def wins(self, s: GameState, k: int) -> bool:
        self.nodes += 1
        if s.is_terminal():
            return s.winners() == [ME]
        if s.round > self.round:
            return False  # (a win in a later round is not one this puzzle asks for)
        if not s.stack and self.bound(s) < s.victory_points()[RIVAL] - self.token_open(s):
            return False
        rest, pool, turned = self.key(s, k)
        known = self.known(rest, pool, turned)
        if known is not None:
            return known
        result = self._search(s, k)
        (self.won if result else self.lost).setdefault(rest, []).append((pool, turned))
        self.exact[(rest, pool, turned)] = result
        return result

    def _search(self, s: GameState, k: int) -> bool:
        legal = s.legal_actions()
        if s.stack and s.stack[-1][0] in C.CHANCE_PENDING:  # every outcome must win
            return all(self._after(s, a, k) for a in legal)
        if s.current_player() == ME:
            early = not s.passed[RIVAL]
            return any(self._after(s, a, k) for a in sorted(legal, key=lambda a: _promise(s, a))
                       if not (early and A.kind(a) == A.POWER and s.cards[A.subject(a)].id in ATTACKERS))
        want = self.script[k] if k < len(self.script) else None
        recorded = [a for a in legal if want is not None and matches(want, action_json(s, a))]
        if recorded:
            return self._after(s, recorded[0], k + 1)
        return all(self._after(s, a, k) for a in legal)  # (every answer of the rival)

    def _after(self, s: GameState, action: tuple[Any, ...], k: int) -> bool:
        t = s.clone()
        t.apply(action)
        return self.wins(t, k)


def _promise(s: GameState, action: tuple[Any, ...]) -> float:
    """The order our moves are tried in (a win is found sooner): scoring moves first, passing last,
    and among the rest those that gain Calm (the Water Dragon's) before those that pay it."""
    step = action_json(s, action)
    kind = step["__type__"]
    if kind == "Pass":
        return 9.0
    if kind in ("ClaimMonument", "ClaimTopMonument", "ClaimPlaceOfPower", "PlaceArtifact"):
        return 0.0
    if kind == "UsePower" and step.get("card_name") == "Sorcerer's Bestiary":
        return 0.0 if step.get("power_index") == 1 else 8.0
    return 3.0 - 0.1 * step.get("gain", {}).get("calm", 0) + 0.1 * step.get("pay", {}).get("calm", 0)


# -- the tests --------------------------------------------------------------------------------------

PUZZLE = json.loads((DATA / "puzzles" / "discard-egg-for-calm-1.json").read_text(encoding="utf-8"))

# A winning line (the puzzle's "why"), each of our moves told by its protocol form.
LINE: list[Callable[[dict[str, Any]], bool]] = [
    lambda j: j["__type__"] == "DiscardForEssences" and j["gain"] == {"calm": 2},
    lambda j: j.get("card_name") == "Magical Shard" and j["gain"] == {"calm": 1},
    lambda j: j.get("card_name") == "Transmuter" and j["pay"] == {"life": 2} and j["gain"] == {"calm": 3},
    lambda j: j.get("card_name") == "Sorcerer's Bestiary" and j.get("power_index") == 1
    and j["pay"] == {"elan": 2, "death": 2},
    lambda j: j["__type__"] == "PlaceArtifact" and j["artifact_name"] == "Water Dragon",
    lambda j: j.get("card_name") == "Tree of Life",
    lambda j: j.get("card_name") == "Alchemy" and j["pay"] == {"life": 4},
    lambda j: j["__type__"] == "ClaimMonument" and j["monument_name"] == "Colossus",
]


def _play_line(proof: Proof, s: GameState) -> list[tuple[GameState, int]]:
    """Every position of the line with the rival's recorded moves in between: (position, next rival move)."""
    seen, k = [], 0
    for ours in LINE:
        while s.current_player() == 1:
            if s.stack and s.stack[-1][0] in CHANCE_PENDING:  # (the card drawn on passing)
                s.apply(s.legal_actions()[0])
                continue
            s.apply(next(a for a in s.legal_actions() if matches(proof.script[k], action_json(s, a))))
            k += 1
        seen.append((s.clone(), k))
        s.apply(next(a for a in s.legal_actions() if ours(action_json(s, a))))
    seen.append((s.clone(), k))
    return seen


def test_the_bound_never_falls_below_the_winning_line_and_the_search_finds_its_win():
    position, script = load()
    root = build_position(**position, seed=0).clone_offering_chance()
    proof = Proof(root, script)
    line = _play_line(proof, root.clone())
    final = line[-1][0]
    assert final.victory_points() == [11, 10]
    for s, _ in line:
        assert s.stack or proof.bound(s) >= 11
    s, k = line[-4]  # (the Water Dragon in play, three moves to go: a search of seconds)
    assert proof.wins(s.clone(), k)


def test_the_puzzle_is_the_play_test_position_and_its_answers_keep_a_calm_from_the_egg():
    position, _ = load()
    assert PUZZLE["position"] == json.loads(json.dumps(position))
    s = build_position(**PUZZLE["position"], seed=0)
    egg = {json.dumps(action_json(s, a)["gain"]): is_best(PUZZLE, s, a) for a in s.legal_actions()
           if action_json(s, a)["__type__"] == "DiscardForEssences"}
    assert egg['{"gold": 1}'] is False  # (the move played)
    assert all(best == ("calm" in gain) for gain, best in egg.items())
    placing = next(a for a in s.legal_actions() if action_json(s, a)["__type__"] == "PlaceArtifact")
    assert not is_best(PUZZLE, s, placing)
