"""Card statistics of a tournament (``--card-stats``), from its match files alone: for every card, how
often a player who drafted, played or claimed it won the game, with 95% intervals; written beside the
summary as ``card_stats.csv`` and ``card_stats.json``.

Every count is of games (each game of a match counts), once per player and card:

- drafted: the card was one of the player's 8 artifacts when the game's first round began (dealt,
  drafted in the draft variant, or taken in a match's redraft before game 2);
- played: the player put it into play at least once in the game, having drafted it.  A card can be
  placed again in the same game (destroyed or discarded, it comes back when the discard pile is
  reshuffled, or through Crypt or a retrieve), and a rival can place it from its drafter's discard pile
  (Sorcerer's Bestiary, a Dragon): neither counts twice, so played <= drafted for every card;
- claimed: a monument or place of power the player has at the game's end, or a scroll (of the *Lux et
  Tenebrae* expansion) the player held at some time in the game (a used scroll goes back to the
  centre, so the end alone would miss it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, NamedTuple, cast

from amigos import cards as C
from amigos import files
from amigos.codes import IN_PLAY
from amigos.state import GameState
from matches.arena import wilson

from . import tournament as T
from .manifest import TournamentError
from .match import Match
from .report import write_csv

CARD_STATS_JSON = "card_stats.json"
CARD_STATS_CSV = "card_stats.csv"
HOW = ("drafted", "played", "claimed")


def card_stats(out: Path) -> list[dict[str, Any]]:
    """One row per card seen, by name: {"card" (id), "name", and for each of `HOW` {"games",
    "win_rate" (None without games), "low", "high"}}; a game's win is shared by its winners."""
    settings = T.read_manifest(out)
    tally: dict[str, dict[str, list[float]]] = {}

    def add(card_id: str, how: str, won: float) -> None:
        row = tally.setdefault(card_id, {h: [0, 0.0] for h in HOW})
        row[how][0] += 1
        row[how][1] += won

    for job in settings["schedule"]:
        file = T.game_path(out, job, settings)
        if not file.exists():
            continue
        match, problem = T.scheduled_match(file, job, settings)
        if problem is not None or not cast("Match", match).is_over():  # (a match whenever no problem)
            continue
        for game in _replayed_games(cast("Match", match)):
            won = game.result["winners"]
            for p in range(game.final.n_players):
                share = (1.0 / len(won)) if p in won else 0.0
                for cid in game.dealt[p]:
                    add(cid, "drafted", share)
                for cid in game.placed[p] & game.dealt[p]:
                    add(cid, "played", share)
                final = game.final
                for e, c in enumerate(final.cards):
                    if c.kind in (C.MONUMENT, C.PLACE_OF_POWER) and final.owner[e] == p and final.loc[e] == IN_PLAY:
                        add(c.id, "claimed", share)
                for cid in game.scrolls[p]:
                    add(cid, "claimed", share)
    rows = []
    for card_id, counts in tally.items():
        row: dict[str, Any] = {"card": card_id, "name": C.BY_ID[card_id].name}
        for how in HOW:
            n, w = int(counts[how][0]), counts[how][1]
            low, high = wilson(w, n)
            row[how] = {"games": n, "win_rate": w / n if n else None, "low": low, "high": high}
        rows.append(row)
    return sorted(rows, key=lambda r: r["name"])


def write_card_stats(out: Path, rows: list[dict[str, Any]]) -> list[Path]:
    """Write ``rows`` (`card_stats`) to ``card_stats.json`` ({"cards": rows}) and ``card_stats.csv``
    (one line a card: for each of `HOW`, games, win rate, low, high) in ``out``; the files written."""
    files.write_atomic(out / CARD_STATS_JSON, json.dumps({"cards": rows}, indent=1).encode(),
                       error=TournamentError)
    table = []
    for r in rows:
        cells = [r["card"], r["name"]]
        for how in HOW:
            x = r[how]
            rate = "" if x["win_rate"] is None else f"{x['win_rate']:.4f}"
            cells += [x["games"], rate, f"{x['low']:.4f}", f"{x['high']:.4f}"]
        table.append(cells)
    write_csv(out / CARD_STATS_CSV, ["card", "name"] + [f"{how}_{x}" for how in HOW
                                                         for x in ("games", "win_rate", "low", "high")], table)
    return [out / CARD_STATS_JSON, out / CARD_STATS_CSV]


class _Game(NamedTuple):
    """What the statistics need of one game of a match."""
    final: GameState          # its last position
    dealt: list[set[str]]     # per player: the artifacts (ids) they had as the first round began
    placed: list[set[str]]    # per player: the artifacts they put into play at some time
    scrolls: list[set[str]]   # per player: the scrolls they held at some time
    result: dict[str, Any]    # the game's result in the record


class _Replayed(Match):
    """A match replayed (`Match.from_record`) that watches every position of each game, forced moves
    included (those are not in the record): who had which artifacts when round 1 began, who put which
    into play, who held which scroll, and the final position."""

    def __init__(self, record: dict[str, Any]) -> None:
        super().__init__(record)
        self.finals: list[GameState] = []
        self.dealt: list[list[set[str]]] = []
        self.placed: list[list[set[str]]] = []
        self.scrolls: list[list[set[str]]] = []
        self._cards: tuple[C.Card, ...] | None = None  # the card list of the game the watch below belongs to
        self._scroll_entities: list[int] = []
        self._in_play: set[int] = set()  # the artifacts in play after the move before

    def _start_game(self, expected_seed: int | None = None) -> None:
        players = len(self.record["players"])
        self.placed.append([set() for _ in range(players)])
        self.scrolls.append([set() for _ in range(players)])
        super()._start_game(expected_seed)

    def _after_move(self) -> None:
        state = self.state
        if self._cards is not state.cards:  # a new game: its entities are numbered anew
            self._cards = state.cards
            self._scroll_entities = [e for e, c in enumerate(state.cards) if c.kind == C.SCROLL]
            self._in_play = set()
        if len(self.dealt) < self.game_number and state.round >= 1:
            # The first position of round 1: every draft and redraft is over and nothing is placed yet.
            self.dealt.append([{state.cards[e].id for e in range(state.n_art) if state.owner[e] == p}
                               for p in range(state.n_players)])
        in_play = {e for e in range(state.n_art) if state.loc[e] == IN_PLAY}
        for e in in_play - self._in_play:
            self.placed[-1][state.owner[e]].add(state.cards[e].id)
        self._in_play = in_play
        held = self.scrolls[-1]
        for e in self._scroll_entities:
            if state.loc[e] == IN_PLAY and 0 <= state.owner[e] < state.n_players:
                held[state.owner[e]].add(state.cards[e].id)
        if state.is_terminal() and len(self.finals) < self.game_number:
            self.finals.append(state)  # (the next game gets a state of its own)
        super()._after_move()


def _replayed_games(match: Match) -> Iterator[_Game]:
    """Every game of a finished match, from one replay of its record."""
    watched = cast("_Replayed", _Replayed.from_record(match.record))
    for gi, game in enumerate(match.record["games"]):
        yield _Game(watched.finals[gi], watched.dealt[gi], watched.placed[gi], watched.scrolls[gi], game["result"])
