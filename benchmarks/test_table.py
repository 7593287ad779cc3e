"""The online table's cost of a change (pytest-benchmark): ``python -m pytest benchmarks/test_table.py
--benchmark-only``.

After every decision the host sends each connection its view (`amigos_cli.table.view.view`, then JSON):
measured for a seat of a late position of a game of two and of five players (with the expansion), with the table's log
already kept for that seat (as the host keeps it: a view pays for the latest decision's lines only),
and the view's size in ``extra_info``.  The whole round trip through a browser is
``python -m benchmarks.table_speed``.
"""

from __future__ import annotations

import json

import pytest

from ai.agents import make_agent
from amigos.config import GameConfig
from amigos_cli.table.view import LogBook, view
from matches.match import Match, play
from matches.session import history


def _late_game(players: int) -> tuple[Match, list]:
    """A finished random game of ``players`` (seed 7) and its log steps."""
    config = GameConfig(players=players, expansions=("lux",) if players > 4 else ())  # (five: the expansion)
    match = Match.new(7, ["random"] * players, config, fmt="game",
                      names=[f"P{p + 1}" for p in range(players)])
    play(match, [make_agent("random", seed=p) for p in range(players)])
    return match, history(match.record)


@pytest.mark.parametrize("players", [2, 5])
def test_a_seats_view_of_a_late_position(benchmark, players):
    match, steps = _late_game(players)
    before = steps[:-1]
    state = before[-1].after
    names = [p["name"] for p in match.record["players"]]
    seats = [{"kind": "person", "connected": True} for _ in range(players)]
    book = LogBook(names, [True] * players)
    asked = (state.current_player(), len(before))
    view(state, 0, names, before, asked, seats, book=book)  # (the host's log of the seat, kept)

    def change() -> str:
        return json.dumps(view(state, 0, names, before, asked, seats, book=book))

    sent = benchmark(change)
    data = json.loads(sent)
    assert data["you"] == 0 and len(data["position"]["players"]) == players and data["log"]
    benchmark.extra_info["view_bytes"] = len(sent)
    benchmark.extra_info["decisions_before"] = len(before)
