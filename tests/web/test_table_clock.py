"""Move clocks at a table (``amigos host --clock MINUTES``, `amigos_cli.table.clock`): a bank of time per
person for the match, running only while the table waits for them; a seat out of time is shown so, and
handed to the AI only when the host named one; the time left is kept in the file for a resumed table."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from amigos.config import GameConfig
from amigos_cli.table.clock import ClockError, Clocks
from amigos_cli.table.model import TABLE_KEY, Table, TableError
from amigos_cli.table.server import TableServer
from matches.match import Match

from .test_table_links import refused


def test_a_bank_runs_only_while_its_seat_is_asked_and_runs_out_once():
    clocks = Clocks.new([0, 2], minutes=1.0)
    clocks.start(0, now=100.0)
    clocks.start(0, now=105.0)  # (asked again while it runs: it runs on from the first start)
    assert clocks.remaining(0, now=110.0) == 50.0 and clocks.remaining(2, now=110.0) == 60.0
    clocks.stop(0, now=110.0)
    assert clocks.remaining(0, now=500.0) == 50.0  # (stopped: the time between counts for nothing)
    clocks.start(0, now=500.0)
    assert clocks.run_out(now=549.0) == [] and clocks.run_out(now=551.0) == [0] and clocks.run_out(now=600.0) == []
    assert clocks.view(3, now=551.0) == [{"left": 0.0, "running": True, "out": True}, None,
                                         {"left": 60.0, "running": False, "out": False}]
    again = Clocks.from_record(clocks.record(now=551.0), seats=3)
    assert again.left == {0: 0.0, 2: 60.0} and again.out == {0} and again.since == {}


@pytest.mark.parametrize("kept", [None, [], {"left": []}, {"left": {"0": -1}}, {"left": {"9": 5}},
                                  {"left": {"0": True}}, {"left": {"0": 5}, "agent": 3},
                                  {"left": {"0": 5}, "out": [1]}, {"left": {"x": 5}}])
def test_a_broken_clock_in_a_file_is_refused_in_one_line(kept):
    with pytest.raises(ClockError, match="broken clock"):
        Clocks.from_record(kept, seats=2)


def _table(tmp_path: Path, minutes: float, agent: str | None) -> Table:
    match = Match.new(3, ["human", "random"], GameConfig(players=2), fmt="game", names=["Ann", "Random"])
    return Table.new(match, tmp_path / "clock.amigos", clock_minutes=minutes, clock_agent=agent)


def _wait(check, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "not in time"
        time.sleep(0.02)


def test_a_person_out_of_time_is_shown_so_and_plays_on_when_the_host_named_no_agent(tmp_path):
    table = _table(tmp_path, minutes=0.002, agent=None)  # (0.12 s)
    table.start(lambda: None)
    try:
        _wait(lambda: table.clocks is not None and 0 in table.clocks.since)
        time.sleep(0.2)
        assert table.clocks_run_out() == [0] and table.clocks_run_out() == []
        assert table.handed == {} and table.clocks is not None and table.clocks.out == {0}
        seats = TableServer(table).view_for(0, table.snapshot)["clocks"]
        assert seats[0]["out"] and seats[1] is None
        assert table.match.record[TABLE_KEY]["clock"]["out"] == [0]
    finally:
        table.stop()


def test_a_person_out_of_time_is_played_by_the_agent_the_host_named(tmp_path):
    table = _table(tmp_path, minutes=0.002, agent="random")
    table.start(lambda: None)
    try:
        _wait(lambda: table.clocks is not None and 0 in table.clocks.since)
        time.sleep(0.2)
        assert table.clocks_run_out() == [0]
        assert table.handed == {0: "random"}
        _wait(lambda: table.match.is_over(), seconds=60)  # (the agent plays the seat to the game's end)
    finally:
        table.stop()


def test_the_time_left_is_kept_in_the_file_and_a_resumed_table_goes_on_with_it(tmp_path):
    table = _table(tmp_path, minutes=10.0, agent=None)
    table.start(lambda: None)
    try:
        _wait(lambda: table.clocks is not None and 0 in table.clocks.since)
        time.sleep(0.3)
        ask = table.asked[1] if table.asked is not None else table.snapshot.together.offers[0]  # type: ignore[union-attr]
        assert table.choose(0, ask, 0, 0) is None
        _wait(lambda: table.match.record["games"][0]["decisions"] and table.match.record[TABLE_KEY]["clock"]
              ["left"]["0"] < 600.0)
    finally:
        table.stop()
    left = table.match.record[TABLE_KEY]["clock"]["left"]["0"]
    assert 590.0 < left < 600.0
    resumed = Table.resumed(Match.from_record(table.match.record), tmp_path / "clock.amigos")
    assert resumed.clocks is not None and resumed.clocks.left == {0: left}
    broken = dict(table.match.record, table=dict(table.match.record[TABLE_KEY], clock={"left": {"0": "a"}}))
    with pytest.raises(TableError, match="broken clock"):
        Table.resumed(Match.from_record(broken), tmp_path / "clock.amigos")


def test_bad_clocks_on_the_command_line_are_one_line_and_exit_2(tmp_path, capsys):
    for args, words in ((["--clock", "0"], "more than 0"), (["--clock", "-3"], "more than 0"),
                        (["--clock", "100000"], "at most"), (["--clock-agent", "random"], "give --clock"),
                        (["--clock", "5", "--clock-agent", "human"], "names an agent"),
                        (["--clock", "5", "--clock-agent", "nosuch"], "nosuch")):
        refused(["host", "--save", "x.amigos", *args], tmp_path, words, capsys)
    refused(["host", "--resume", "x.amigos", "--clock", "5"], tmp_path, "--clock is for a new table", capsys)
