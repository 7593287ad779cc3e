"""Tournaments of games of three to five players (issue 38): every table of that many agents, each deal
played in every rotation of the seats; standings with the mean place and OpenSkill's Plackett-Luce
rating; the crosstable as head-to-head places; games.csv with a column a seat; card statistics; resume;
the command line."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from amigos.config import GameConfig
from matches import cardstats as CS
from matches import manifest as M
from matches import report as R
from matches import tournament as T
from matches.record import load

AGENTS = ["random", "greedy", "mcts:iters=8", "expectimax:depth=1"]


def test_every_table_of_three_plays_each_deal_in_every_rotation():
    jobs = T.schedule(AGENTS, 3, 7, table=3)
    tables = {tuple(sorted(j["seats"])) for j in jobs}
    assert tables == {(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)}
    assert len(jobs) == 4 * 3  # one deal (3 games) a table
    for k in range(0, len(jobs), 3):
        deal = jobs[k:k + 3]
        assert len({j["seed"] for j in deal}) == 1
        first = deal[0]["seats"]
        assert [j["seats"] for j in deal] == [first[r:] + first[:r] for r in range(3)]
        for p in range(3):  # each agent in each seat once
            assert sorted(j["seats"][p] for j in deal) == sorted(first)
    assert T.schedule(AGENTS, 4, 7, table=3) == T.schedule(AGENTS, 6, 7, table=3)  # (whole deals)
    assert all(0 in j["seats"] for j in T.schedule(AGENTS, 3, 7, gauntlet=True, table=3))


def test_a_two_player_schedule_is_the_one_it_always_was():
    jobs = T.schedule(AGENTS[:3], 2, 5)
    assert [j["id"] for j in jobs][:4] == ["0-1-0-0", "0-1-0-1", "0-2-0-0", "0-2-0-1"]
    assert jobs[1]["seats"] == list(reversed(jobs[0]["seats"]))


def test_places_put_the_winners_first_then_the_rest_by_their_points():
    outcome = {"seats": [3, 1, 0], "winner": None, "games": [{"winners": [0, 2], "vp": [10, 7, 10]}]}
    assert T.places(outcome) == [1, 3, 1]
    outcome = {"seats": [3, 1, 0, 2], "winner": 2, "games": [{"winners": [2], "vp": [6, 6, 11, 9]}]}
    assert T.places(outcome) == [3, 3, 1, 2]
    assert T.places({"seats": [0, 1], "winner": 1, "games": []}) == [2, 1]
    assert T.places({"seats": [0, 1], "winner": None, "games": []}) == [1, 1]


def test_more_players_than_agents_and_a_best_of_three_of_more_are_refused():
    with pytest.raises(T.TournamentError, match="at least 4 agents"):
        T.schedule(AGENTS[:3], 2, 1, table=4)
    with pytest.raises(T.TournamentError, match="best-of-three match is for two players"):
        T.TournamentSpec(tuple(AGENTS), 2, fmt="match", config=GameConfig(players=3))
    with pytest.raises(T.TournamentError, match="sprt"):
        T.TournamentSpec(tuple(AGENTS[:2]) * 2, 2, config=GameConfig(players=3),
                         sprt=T.SprtTest(0, 50, 0.05, 0.05))


@pytest.fixture(scope="module")
def four(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("four") / "t"
    T.run(out, T.TournamentSpec(tuple(AGENTS), 4, 3, config=GameConfig(players=4)), jobs=2)
    return out


def test_a_four_player_tournament_writes_its_games_and_reports(four):
    settings = json.loads((four / M.NAME).read_text())
    assert settings["table"] == 4 and len(settings["schedule"]) == 4
    data = R.write_summary(four)
    assert data["played"] == 4 and data["table"] == 4
    rows = {r["agent"]: r for r in data["standings"]}
    assert sum(r["wins"] + r["shared"] > 0 for r in rows.values()) >= 1
    assert all(r["games"] == 4 and 1.0 <= r["mean_place"] <= 4.0 for r in rows.values())
    assert abs(sum(r["elo"] for r in rows.values())) < 1e-6 and all(r["elo_error"] > 0 for r in rows.values())
    assert sum(r["rate"] for r in rows.values()) == pytest.approx(1.0)  # (a game's point goes to its winners)
    for name, cells in data["crosstable"].items():
        for other, cell in cells.items():
            mirror = data["crosstable"][other][name]
            assert cell["games"] == 4 and (cell["wins"], cell["shared"]) == (mirror["losses"], mirror["shared"])
    with open(four / R.GAMES_CSV, newline="") as f:
        games = list(csv.DictReader(f))
    assert list(games[0])[:6] == ["id", "deal", "p1", "p2", "p3", "p4"] and len(games) == 4
    for row in games:
        match = load(four / row["file"])
        assert [row[f"p{k}"] for k in range(1, 5)] == [p["spec"] for p in match.record["players"]]
        assert [int(row[f"vp{k}"]) for k in range(1, 5)] == match.record["games"][0]["result"]["vp"]
    cards = CS.card_stats(four)
    drafted = sum(r["drafted"]["games"] for r in cards)
    assert drafted == 4 * 4 * 8  # every player's 8 artifacts in every game


def test_a_four_player_tournament_resumes_where_it_stopped(four, tmp_path):
    out = tmp_path / "t"
    shutil.copytree(four, out)
    files = sorted(p for p in out.glob("*.amigos"))
    kept = {p.name: p.read_bytes() for p in files[1:]}
    digest = load(files[0]).state.digest()
    files[0].unlink()
    played = T.run(out, T.TournamentSpec(tuple(AGENTS), 4, 3, config=GameConfig(players=4)), resume=True)
    assert len(played) == 1
    assert load(files[0]).state.digest() == digest  # (the same game again: iteration budgets)
    assert {p.name: p.read_bytes() for p in files[1:]} == kept


def test_a_manifest_whose_seats_do_not_fit_its_table_is_refused(four, tmp_path):
    settings = json.loads((four / M.NAME).read_text())
    settings["schedule"][0]["seats"] = settings["schedule"][0]["seats"][:3]
    with pytest.raises(T.TournamentError, match="4 different agents"):
        M.check(settings, "x")
    settings = json.loads((four / M.NAME).read_text())
    settings["table"] = 6
    with pytest.raises(T.TournamentError, match="'table'"):
        M.check(settings, "x")


def test_the_command_plays_games_of_three(tmp_path):
    amigos = [sys.executable, "-m", "amigos_cli"]
    done = subprocess.run(amigos + ["tournament", "--agent", "random", "--agent", "greedy", "--agent", "random",
                                    "--players", "3", "--games", "3", "--out", str(tmp_path / "t")],
                          capture_output=True, text=True, env=dict(os.environ, COLUMNS="160"), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "mean place" in done.stdout and "P3 " in done.stdout
    refused = subprocess.run(amigos + ["tournament", "--agent", "random", "--agent", "greedy", "--players", "6",
                                       "--out", str(tmp_path / "u")], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "2 to 4 players" in refused.stderr and "Traceback" not in refused.stderr
