"""A tournament's reports and files (``matches.report``, ``matches.cardstats``, ``matches.charts``,
``amigos show DIR``): the crosstable, ``games.csv`` and the live per-game lines, the card statistics'
files and counts, the charts and the hint without matplotlib, distinct names for a spec given twice,
match files named after the agents and the deal with the schedule id inside, and folders of older
tournaments whose files are named by id.  Cheap agents only (random, greedy)."""

from __future__ import annotations

import csv
import json
import re
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

from amigos_cli import app as app_module
from matches import cardstats as CS
from matches import charts
from matches import report as R
from matches import tournament as T
from matches.match import Match
from matches.record import load, save
from tests.matches.test_tournament import _cli

TWINS = ["random", "greedy", "greedy"]
SEED = 1  # its random-greedy deal has a game in which a card is placed twice (see the card statistics)
GAME_LINE = re.compile(r"(\d+)/(\d+)  P1 (\S+) (1-0|0-1|½-½) P2 (\S+)  VP (\d+)-(\d+)  (\d+) rounds?  deal (\d+[ab])")


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    """random and greedy twice, 2 games per pairing (6 games), with every report written."""
    out = tmp_path_factory.mktemp("twins") / "t"
    T.run(out, T.TournamentSpec(TWINS, 2, SEED))
    return out, R.write_summary(out)


def _copy(folder: Path, tmp_path: Path) -> Path:
    out = tmp_path / "copy"
    shutil.copytree(folder, out)
    return out


def _jobs(out: Path) -> tuple[dict, list[dict]]:
    settings = T.read_manifest(out)
    return settings, settings["schedule"]


# -- names and files ------------------------------------------------------------------------------------------

def test_a_spec_given_twice_gets_numbered_names():
    assert T.agent_names(["greedy", "random", "greedy"]) == ["greedy#1", "random", "greedy#2"]
    assert T.agent_names(["a", "b", "a", "a"]) == ["a#1", "b", "a#2", "a#3"]
    assert T.agent_names(["random", "greedy"]) == ["random", "greedy"]


def test_file_name_parts_are_safe():
    assert T.file_name_part("mcts:iters=60") == "mcts_iters=60"
    assert T.file_name_part("greedy#2") == "greedy_2"
    assert T.file_name_part("a/b\\c d*?") == "a_b_c_d__"
    assert T.file_name_part(".hidden") == "_hidden"
    assert len(T.file_name_part("x" * 500)) == T.MAX_NAME_IN_FILE


def test_game_files_are_named_after_the_agents_and_the_deal_and_unique():
    settings = T.manifest(T.TournamentSpec(["greedy", "mcts:iters=60", "greedy"], 8, 0))
    names = [T.game_file(job, settings) for job in settings["schedule"]]
    assert names[:3] == ["greedy_1-vs-mcts_iters=60-deal000-a.amigos", "mcts_iters=60-vs-greedy_1-deal000-b.amigos",
                         "greedy_1-vs-mcts_iters=60-deal001-a.amigos"]
    assert names[-1] == "greedy_2-vs-mcts_iters=60-deal011-b.amigos"
    assert "greedy_2-vs-greedy_1-deal007-b.amigos" in names
    assert len(set(names)) == len(names) == 24
    assert all(re.fullmatch(r"[A-Za-z0-9._=+-]+\.amigos", n) and not n.startswith(".") for n in names)


def test_the_twins_play_under_distinct_names_everywhere(twins):
    out, data = twins
    settings, jobs = _jobs(out)
    names = ["random", "greedy#1", "greedy#2"]
    assert data["names"] == names
    assert sorted(r["agent"] for r in data["standings"]) == sorted(names)
    assert {r["agent"]: r["spec"] for r in data["standings"]} == dict(zip(names, TWINS))
    assert set(data["crosstable"]) == set(names)
    files = sorted(p.name for p in out.glob("*.amigos"))
    assert files == sorted(T.game_file(job, settings) for job in jobs) and len(files) == 6
    assert "greedy_1-vs-greedy_2-deal002-a.amigos" in files and "greedy_2-vs-greedy_1-deal002-b.amigos" in files
    with open(out / "summary.csv", newline="") as f:
        assert sorted(r["agent"] for r in csv.DictReader(f)) == sorted(names)


def test_each_file_keeps_its_schedule_id_and_a_wrong_one_is_refused(twins, tmp_path):
    out = _copy(twins[0], tmp_path)
    settings, jobs = _jobs(out)
    for job in jobs:
        assert load(T.game_path(out, job, settings)).record["tournament"] == {"id": job["id"]}
    job = jobs[0]
    path = T.game_path(out, job, settings)
    record = dict(load(path).record, tournament={"id": jobs[2]["id"]})
    save(Match.from_record(record), path)
    match, problem = T.scheduled_match(path, job, settings)
    assert match is None and "id differs" in problem
    assert [o["id"] for o in T.collect(out)[1]] == [j["id"] for j in jobs[1:]]


def _to_old_names(out: Path) -> None:
    """Make ``out`` a folder as tournaments wrote before the new names: ``ID.amigos``, no id inside."""
    settings, jobs = _jobs(out)
    for job in jobs:
        path = T.game_path(out, job, settings)
        record = dict(load(path).record)
        del record["tournament"]
        save(Match.from_record(record), out / f"{job['id']}.amigos")
        path.unlink()


def test_a_folder_of_files_named_by_id_still_counts_and_resumes(twins, tmp_path):
    out = _copy(twins[0], tmp_path)
    settings, jobs = _jobs(out)
    _to_old_names(out)
    assert sorted(p.name for p in out.glob("*.amigos")) == sorted(f"{j['id']}.amigos" for j in jobs)
    assert T.collect(out)[1] == T.collect(twins[0])[1]
    assert T.run(out, T.TournamentSpec(TWINS, 2, SEED), resume=True) == []
    assert R.write_summary(out)["standings"] == twins[1]["standings"]
    (out / f"{jobs[3]['id']}.amigos").unlink()  # one lost: played again, under its new name
    assert [r["id"] for r in T.run(out, T.TournamentSpec(TWINS, 2, SEED), resume=True)] == [jobs[3]["id"]]
    assert (out / T.game_file(jobs[3], settings)).exists()
    data = R.write_summary(out)
    assert data["standings"] == twins[1]["standings"] and data["played"] == 6
    with open(out / "games.csv", newline="") as f:
        files = [row["file"] for row in csv.DictReader(f)]
    assert files == [T.game_file(j, settings) if k == 3 else f"{j['id']}.amigos" for k, j in enumerate(jobs)]


# -- the crosstable -------------------------------------------------------------------------------------------

def _named(names: list[str], gauntlet: bool) -> dict:
    """The settings of a 2-games-a-pairing tournament of three agents, named ``names`` for reading."""
    return dict(T.manifest(T.TournamentSpec(["random", "greedy", "random"], 2, 0, gauntlet=gauntlet)), agents=names)


def _outcome(a, b, winner, job_id):
    return {"id": job_id, "seats": [a, b], "winner": winner, "score": [0, 0], "games": []}


def test_crosstable_from_hand_made_outcomes():
    settings = _named(["ace", "mid", "low"], gauntlet=False)
    ids = [j["id"] for j in settings["schedule"]]  # 0-1-0-0, 0-1-0-1, 0-2-0-0, 0-2-0-1, 1-2-0-0, 1-2-0-1
    outcomes = [_outcome(0, 1, 0, ids[0]), _outcome(1, 0, 1, ids[1]),     # ace beats mid twice
                _outcome(0, 2, None, ids[2]),                            # ace and low share one, the other unplayed
                _outcome(1, 2, 1, ids[4]), _outcome(2, 1, None, ids[5])]  # low beats mid, one shared
    table = R.crosstable(settings, outcomes)
    assert list(table) == ["ace", "mid", "low"] and list(table["ace"]) == ["mid", "low"]
    assert table["ace"]["mid"] == {"games": 2, "wins": 2, "losses": 0, "shared": 0, "points": 2.0}
    assert table["mid"]["ace"] == {"games": 2, "wins": 0, "losses": 2, "shared": 0, "points": 0.0}
    assert table["ace"]["low"] == {"games": 1, "wins": 0, "losses": 0, "shared": 1, "points": 0.5}
    assert table["low"]["mid"] == {"games": 2, "wins": 1, "losses": 0, "shared": 1, "points": 1.5}
    assert table["mid"]["low"] == {"games": 2, "wins": 0, "losses": 1, "shared": 1, "points": 0.5}


def test_a_gauntlet_crosstable_has_only_the_pairings_played():
    settings = _named(["hero", "a", "b"], gauntlet=True)
    table = R.crosstable(settings, [])
    assert list(table["hero"]) == ["a", "b"] and list(table["a"]) == ["hero"] and list(table["b"]) == ["hero"]
    assert table["a"]["hero"]["games"] == 0


def test_the_crosstable_agrees_with_the_standings(twins):
    _, data = twins
    table = data["crosstable"]
    for row in data["standings"]:
        cells = table[row["agent"]].values()
        assert sum(c["games"] for c in cells) == row["games"] == 4
        assert sum(c["wins"] for c in cells) == row["wins"]
        assert sum(c["losses"] for c in cells) == row["losses"]
        assert sum(c["shared"] for c in cells) == row["shared"]
        assert sum(c["points"] for c in cells) == pytest.approx(row["rate"] * row["games"])
    for name, cells in table.items():
        for other, cell in cells.items():
            mirror = table[other][name]
            assert (cell["wins"], cell["losses"], cell["shared"], cell["games"]) == \
                (mirror["losses"], mirror["wins"], mirror["shared"], mirror["games"])
            assert cell["points"] + mirror["points"] == cell["games"]


# -- games.csv and the per-game lines -------------------------------------------------------------------------

def test_games_csv_has_a_row_per_game_that_agrees_with_its_file(twins):
    out, _ = twins
    settings, jobs = _jobs(out)
    names = T.agent_names(TWINS)
    with open(out / "games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == R.games_columns(2) == ["id", "deal", "p1", "p2", "winner", "points1", "points2",
                                                     "score", "vp1", "vp2", "rounds", "file"]
    assert [r["id"] for r in rows] == [j["id"] for j in jobs]
    for row, job in zip(rows, jobs):
        match = load(out / row["file"])
        assert match.record["tournament"]["id"] == row["id"]
        result = match.record["games"][0]["result"]
        assert [row["p1"], row["p2"]] == [names[a] for a in job["seats"]]
        assert [int(row["vp1"]), int(row["vp2"])] == result["vp"] and int(row["rounds"]) == result["rounds"]
        if len(result["winners"]) == 2:
            assert row["winner"] == "shared" and row["points1"] == row["points2"] == "0.5"
        else:
            w = result["winners"][0]
            assert row["winner"] == [row["p1"], row["p2"]][w]
            assert [row["points1"], row["points2"]] == (["1", "0"] if w == 0 else ["0", "1"])
        deal, side = T.deal_of(job, settings)
        assert row["deal"] == f"{deal}{side}"


def test_games_csv_is_complete_after_a_resume(twins, tmp_path):
    out = _copy(twins[0], tmp_path)
    before = (out / "games.csv").read_text()
    settings, jobs = _jobs(out)
    for job in jobs[1:3]:
        T.game_path(out, job, settings).unlink()
    R.write_summary(out)
    assert len((out / "games.csv").read_text().splitlines()) == 1 + 4
    T.run(out, T.TournamentSpec(TWINS, 2, SEED), resume=True)
    R.write_summary(out)
    assert (out / "games.csv").read_text() == before


def test_game_line_of_a_match_lists_its_games():
    row = {"players": ["a", "b"], "points": [0.5, 0.5], "score": [1, 1], "vp": [[10, 4], [3, 11], [9, 9]],
           "rounds": [8, 9, 12], "deal": "2b"}
    assert R.game_line(row, 3, 10) == "3/10  P1 a ½-½ P2 b  games 1-1  VP 10-4 3-11 9-9  8 9 12 rounds  deal 2b"


# -- card statistics ------------------------------------------------------------------------------------------

def test_a_card_placed_twice_in_a_game_counts_once_and_played_never_exceeds_drafted(twins):
    out, _ = twins
    again = Counter()  # (file, game, player, card) placed more than once in one game
    games = 0
    for path in out.glob("*.amigos"):
        for gi, game in enumerate(load(path).record["games"]):
            games += 1
            placed = Counter((d[0], d[1]["artifact_name"]) for d in game["decisions"]
                             if d[1]["__type__"] == "PlaceArtifact")
            again.update({(path.name, gi, *k): n for k, n in placed.items() if n > 1})
    assert again, "no card placed twice in one game: the test would not see the double count"
    rows = CS.card_stats(out)
    for r in rows:
        assert r["played"]["games"] <= r["drafted"]["games"], r
    assert sum(r["drafted"]["games"] for r in rows) == 16 * games
    for path in out.glob("*.amigos"):
        for game in CS._replayed_games(load(path)):
            assert [len(d) for d in game.dealt] == [8, 8] and not game.dealt[0] & game.dealt[1]
            for p in range(2):
                assert game.placed[p] <= game.dealt[p] | game.dealt[1 - p]


def test_card_stats_files_hold_the_table(twins, tmp_path):
    out = _copy(twins[0], tmp_path)
    rows = CS.card_stats(out)
    written = CS.write_card_stats(out, rows)
    assert [p.name for p in written] == ["card_stats.json", "card_stats.csv"]
    assert json.loads((out / "card_stats.json").read_text()) == {"cards": json.loads(json.dumps(rows))}
    with open(out / "card_stats.csv", newline="") as f:
        lines = list(csv.DictReader(f))
    assert [line["card"] for line in lines] == [r["card"] for r in rows]
    for line, r in zip(lines, rows):
        assert line["name"] == r["name"]
        for how in CS.HOW:
            assert int(line[f"{how}_games"]) == r[how]["games"]
            if r[how]["games"]:
                assert float(line[f"{how}_win_rate"]) == pytest.approx(r[how]["win_rate"], abs=1e-4)
            else:
                assert line[f"{how}_win_rate"] == ""


# -- charts ---------------------------------------------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n"


def test_charts_are_drawn_with_matplotlib(twins, tmp_path):
    pytest.importorskip("matplotlib")
    out = _copy(twins[0], tmp_path)
    cards = CS.card_stats(out)
    written = charts.write_charts(out, twins[1]["standings"], cards)
    assert [p.name for p in written] == ["standings.png", "card_stats.png"]
    for path in written:
        assert path.read_bytes().startswith(PNG)
    assert "matplotlib.pyplot" not in sys.modules  # drawn on figures of their own: no pyplot state


def test_without_matplotlib_the_tournament_says_how_to_get_the_charts(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # an import of it now fails, as when not installed
    with pytest.raises(charts.ChartsUnavailable, match=re.escape(charts.INSTALL_HINT)):
        charts.write_charts(tmp_path, [])
    out = tmp_path / "t"
    argv = ["tournament", "--agent", "random", "--agent", "greedy", "--games", "2", "--card-stats", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", ["amigos", *argv])
    with pytest.raises(SystemExit) as exit_info:
        app_module.main(argv)
    assert exit_info.value.code == 0
    printed = capsys.readouterr().out
    hints = [line for line in printed.splitlines() if "amigos[plots]" in line]
    assert hints == ["Charts (standings.png, card_stats.png) need matplotlib: pip install 'amigos[plots]'"]
    names = {p.name for p in out.iterdir()}
    assert {"summary.json", "summary.csv", "games.csv", "card_stats.csv", "card_stats.json"} <= names
    assert not any(n.endswith(".png") for n in names)


# -- the command line -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def narrow_run(tmp_path_factory):
    """A tournament run with --card-stats in a terminal 40 columns wide."""
    out = tmp_path_factory.mktemp("narrow") / "a-rather-long-folder-name-for-a-narrow-terminal"
    proc = _cli("tournament", "--agent", "random", "--agent", "greedy", "--games", "4", "--seed", str(SEED),
                "--card-stats", "--out", str(out), columns=40)
    return out, proc


def test_cli_prints_a_line_per_game_as_games_csv_holds_it(narrow_run):
    out, proc = narrow_run
    assert proc.returncode == 0, proc.stderr
    lines = [m for m in map(GAME_LINE.fullmatch, proc.stdout.splitlines()) if m]
    assert sorted(int(m[1]) for m in lines) == [1, 2, 3, 4] and {m[2] for m in lines} == {"4"}
    with open(out / "games.csv", newline="") as f:
        rows = {r["deal"]: r for r in csv.DictReader(f)}
    for m in lines:  # one process: the games end in schedule order
        row = rows[m[9]]
        assert (m[3], m[5], m[6], m[7], m[8]) == (row["p1"], row["p2"], row["vp1"], row["vp2"], row["rounds"])
        assert m[4] == {"1": "1-0", "0": "0-1", "0.5": "½-½"}[row["points1"]]


def test_cli_prints_the_standings_once_then_the_crosstable(narrow_run):
    out, proc = narrow_run
    assert proc.stdout.count("Standings") == 0 and proc.stdout.count("Final standings") == 1
    assert proc.stdout.count("Crosstable") == 1
    assert proc.stdout.index("Final standings") < proc.stdout.index("Crosstable") < proc.stdout.index("Card statistics")
    data = json.loads((out / "summary.json").read_text())
    assert data["crosstable"]["random"]["greedy"]["games"] == 4
    assert {"card_stats.csv", "card_stats.json", "games.csv"} <= {p.name for p in out.iterdir()}


def test_cli_resume_command_is_one_line_in_a_narrow_terminal(narrow_run):
    out, proc = narrow_run
    command = (f"amigos tournament --agent random --agent greedy --games 4 --seed {SEED} --card-stats --out {out} "
               "--resume")
    assert f"  {command}" in proc.stdout.splitlines()


def test_cli_stopped_prints_the_resume_command_on_one_line(tmp_path, monkeypatch, capsys):
    out = tmp_path / "a-long-folder-name-that-does-not-fit"
    argv = ["tournament", "--agent", "random", "--agent", "random", "--games", "2", "--out", str(out)]

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setenv("COLUMNS", "30")
    monkeypatch.setattr(R, "write_files", interrupted)
    monkeypatch.setattr(sys, "argv", ["amigos", *argv])
    with pytest.raises(SystemExit) as exit_info:
        app_module.main(argv)
    assert exit_info.value.code == 130
    command = f"  amigos tournament {' '.join(argv[1:])} --resume"
    assert capsys.readouterr().out.splitlines().count(command) == 2  # at the start and when stopped


def test_show_a_tournament_folder(twins, tmp_path):
    out = _copy(twins[0], tmp_path)
    settings, jobs = _jobs(out)
    T.game_path(out, jobs[4], settings).unlink()
    proc = _cli("show", str(out))
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())
    assert f"{out}: round robin of 3 agents, 2 games per pairing, standard, seed {SEED}" in flat
    assert "Agents: random, greedy#1, greedy#2" in flat
    assert "Progress: 5 of 6 games played" in flat
    for name in ("random", "greedy#1", "greedy#2", "Crosstable", "win rate"):
        assert name in proc.stdout
    proc = _cli("show", str(out), "--json")
    data = json.loads(proc.stdout)
    assert data["played"] == 5 and data["scheduled"] == 6 and set(data["crosstable"]) == set(data["names"])
    assert json.loads((out / "summary.json").read_text())["played"] == 6  # shown, not written
    proc = _cli("show", str(T.game_path(out, jobs[0], settings)))  # a match file, as ever
    assert proc.returncode == 0 and " vs " in proc.stdout


@pytest.mark.parametrize("manifest", [None, "{not json", '{"format": "something else"}'])
def test_show_a_folder_without_a_tournament_is_one_line(tmp_path, manifest):
    folder = tmp_path / "f"
    folder.mkdir()
    if manifest is not None:
        (folder / T.MANIFEST).write_text(manifest)
    proc = _cli("show", str(folder))
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"amigos: {folder}"), proc.stderr
