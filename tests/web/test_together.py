"""Steps the players take at once at a table (`amigos.together`, `amigos_cli.table.model`): every person
is asked their mage (and their Collect choices) at the same time, nobody's view shows another's choice
before all have chosen, and the match file records the decisions in seat order, so a replay is exact."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from amigos import actions as A
from amigos.codes import SETUP_CHOOSE_MAGES
from amigos.config import GameConfig
from amigos_cli.table.model import Table
from amigos_cli.table.view import view
from matches.match import Match
from matches.session import history

NAMES = ["Ann", "Bob", "Cy"]


def _table(tmp_path: Path, specs: list[str], seed: int) -> Table:
    match = Match.new(seed, specs, GameConfig(players=len(specs)), fmt="game", names=NAMES[:len(specs)])
    return Table.new(match, tmp_path / "table.amigos")


def _wait(check: Any, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "the table did not get there"
        time.sleep(0.01)


def _views(table: Table) -> dict[Any, dict[str, Any]]:
    snap = table.snapshot
    return {seat: view(snap.state, seat, NAMES[:len(table.tokens)], table.steps(snap), snap.asked,
                       [{}] * len(table.tokens), together=snap.together)
            for seat in [*range(len(table.tokens)), None]}


def _mage_ids(data: dict[str, Any], seat: int) -> list[str]:
    return [c["id"] for c in data["position"]["players"][seat]["in_play"]]


def test_three_people_choose_their_mages_at_once_and_see_them_revealed_together(tmp_path):
    table = _table(tmp_path, ["human", "human", "human"], seed=21)
    table.start(lambda: None)
    try:
        _wait(lambda: table.snapshot.together is not None and len(table.snapshot.together.offers) == 2)
        views = _views(table)
        # Every seat has its choice of two mages now, not only the one the engine asks first.
        asks, chosen = {}, {}
        for seat in range(3):
            groups = views[seat]["choices"]["groups"]
            assert [g["act"] for g in groups] == [groups[0]["act"]] * 2 and len({g["card"] for g in groups}) == 2
            asks[seat] = views[seat]["choices"]["ask"]
            assert views[seat]["deciding"] == [0, 1, 2]
        assert len(set(asks.values())) == 3
        waited = table.snapshot.asked[0]
        early = sorted(set(range(3)) - {waited}, reverse=True)
        # The two seats asked ahead answer (the later one first): the match still waits for the third.
        for seat in early:
            chosen[seat] = views[seat]["choices"]["groups"][1]["card"]
            assert table.choose(seat, asks[seat], 1, 0) is None
            assert table.choose(seat, asks[seat], 0, 0) is not None  # (answered: refused)
        views = _views(table)
        for seat in early:
            assert views[seat]["choices"] is None and views[seat]["deciding"] == [waited]
            assert views[seat]["note"] == f"Waiting for {NAMES[waited]}: choosing mages at once"
            own = views[seat]["position"]["players"][seat]
            assert chosen[seat] in [c["id"] for c in own["in_play"]] and len(own["mage_options"]) < 2
        assert table.match.record["games"][0]["decisions"] == []
        # Nobody sees another's choice yet (nor the spectators), in the position or the log.
        for viewer in (0, 1, 2, None):
            for seat, mage in chosen.items():
                if seat != viewer:
                    assert mage not in str(views[viewer]["position"]) and mage not in str(views[viewer]["log"])
        # The third answers: the decisions are made in seat order, and all are revealed together.
        chosen[waited] = views[waited]["choices"]["groups"][0]["card"]
        assert table.choose(waited, asks[waited], 0, 0) is None
        _wait(lambda: table.snapshot.state.phase != SETUP_CHOOSE_MAGES and table.snapshot.together is None)
        made = table.match.record["games"][0]["decisions"][:3]
        assert sorted(d[0] for d in made) == [0, 1, 2]
        after = _views(table)
        for viewer in (0, 1, 2, None):
            for seat in range(3):
                assert chosen[seat] in [c["id"] for c in after[viewer]["position"]["players"][seat]["in_play"]]
        # The file replays to the same decisions, in the engine's order.
        replayed = history(table.match.record)[:3]
        assert [s.actor for s in replayed] == [d[0] for d in made]
        assert all(s.kind == A.CHOOSE_MAGE for s in replayed)
    finally:
        table.stop()
