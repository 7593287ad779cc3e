"""Tournaments (``matches.tournament`` and ``amigos tournament``): the seat-swapped schedule, the match
files and the summary rebuilt from them, resume, the standings (win rate, Elo), card statistics and
the command line.  Cheap agents only (random, greedy, mcts:iters=10).  The other reports (crosstable,
games.csv, charts, ``show DIR``) and the files' names: tests/matches/test_tournament_reports.py."""

from __future__ import annotations

import csv
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from ai.agents import SpecError
from amigos import cards as C
from amigos.config import GameConfig
from matches import cardstats as CS
from matches import report as R
from matches import tournament as T
from matches.record import load
from matches.sprt import SprtTest

AGENTS = ["random", "greedy", "mcts:iters=10"]
SEED = 5


# -- the schedule ------------------------------------------------------------------------------------------

def test_schedule_is_a_function_of_the_seed():
    a = T.schedule(AGENTS, 2, SEED)
    assert a == T.schedule(AGENTS, 2, SEED)
    other = T.schedule(AGENTS, 2, SEED + 1)
    assert [j["id"] for j in other] == [j["id"] for j in a]
    assert [j["seed"] for j in other] != [j["seed"] for j in a]
    assert T.manifest(T.TournamentSpec(AGENTS, 2, SEED)) == \
        T.manifest(T.TournamentSpec(AGENTS, 2, SEED))


def test_round_robin_pairs_every_deal_with_seats_swapped():
    jobs = T.schedule(AGENTS, 2, SEED)
    assert len(jobs) == 6
    assert len({j["id"] for j in jobs}) == 6
    by_seed = {}
    for j in jobs:
        by_seed.setdefault(j["seed"], []).append(tuple(j["seats"]))
    assert len(by_seed) == 3  # one deal per pairing, played twice
    for seats in by_seed.values():
        assert len(seats) == 2 and seats[0] == tuple(reversed(seats[1]))
    pairs = {frozenset(s) for seats in by_seed.values() for s in seats}
    assert pairs == {frozenset(p) for p in [(0, 1), (0, 2), (1, 2)]}
    for agent in range(3):  # everyone plays 4 games, 2 in each seat
        assert sum(j["seats"][0] == agent for j in jobs) == 2
        assert sum(j["seats"][1] == agent for j in jobs) == 2


def test_odd_games_round_up_to_whole_pairs():
    assert len(T.schedule(AGENTS[:2], 1, SEED)) == 2
    assert len(T.schedule(AGENTS[:2], 3, SEED)) == 4
    deals = [j["seed"] for j in T.schedule(AGENTS[:2], 4, SEED)]
    assert len(set(deals)) == 2 and Counter(deals) == Counter({deals[0]: 2, deals[2]: 2})


def test_gauntlet_pits_the_first_against_each_other():
    agents = AGENTS + ["random"]
    jobs = T.schedule(agents, 2, SEED, gauntlet=True)
    assert len(jobs) == 6
    for j in jobs:
        assert 0 in j["seats"]
    assert Counter(max(j["seats"]) for j in jobs) == Counter({1: 2, 2: 2, 3: 2})
    # the gauntlet's deals are the round robin's for the same pairings
    robin = {j["id"]: j for j in T.schedule(agents, 2, SEED)}
    assert all(robin[j["id"]] == j for j in jobs)


def test_bad_settings_are_refused():
    with pytest.raises(T.TournamentError):
        T.schedule(["random"], 2, SEED)
    with pytest.raises(T.TournamentError):
        T.schedule(AGENTS, 0, SEED)
    with pytest.raises(SpecError):
        T.schedule(["random", "nonsense"], 2, SEED)


# -- a small tournament ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 3-agent round robin, 2 games per pairing, 2 processes, with its summary written."""
    out = tmp_path_factory.mktemp("tournament") / "t"
    calls = []
    results = T.run(out, T.TournamentSpec(AGENTS, 2, SEED), jobs=2, on_result=lambda r, done, total: calls.append((r["id"], done, total)))
    rows = R.write_summary(out)["standings"]
    return out, results, rows, calls


def _copy(played, tmp_path) -> Path:
    out = tmp_path / "copy"
    shutil.copytree(played[0], out)
    return out


def _files(out: Path) -> dict:
    """Every match file in ``out`` by the schedule id it holds."""
    return {match.record["tournament"]["id"]: match for match in map(load, sorted(out.glob("*.amigos")))}


def _path(out: Path, job_id: str) -> Path:
    """The file of the scheduled game ``job_id`` in ``out``."""
    settings = T.read_manifest(out)
    return T.game_path(out, next(j for j in settings["schedule"] if j["id"] == job_id), settings)


def _moves(match) -> list:
    """Every decision of a match without its thinking time: [actor, action, iterations?, value?]."""
    return [[d[0], d[1]] + list(d[3:]) for g in match.record["games"] for d in g["decisions"]]


def test_run_writes_one_match_file_per_job_and_the_manifest(played):
    out, results, _, calls = played
    settings = json.loads((out / T.MANIFEST).read_text())
    assert settings == T.manifest(T.TournamentSpec(AGENTS, 2, SEED))
    ids = {j["id"] for j in settings["schedule"]}
    assert set(_files(out)) == ids
    assert {r["id"] for r in results} == ids
    assert sorted(c[1] for c in calls) == list(range(1, 7)) and {c[2] for c in calls} == {6}
    for job in settings["schedule"]:
        path = out / T.game_file(job, settings)
        assert T.game_path(out, job, settings) == path
        match = load(path)
        assert match.record["tournament"] == {"id": job["id"]}
        assert match.is_over() and match.record["best_of"] == 1
        assert match.record["seed"] == job["seed"]
        assert [p["spec"] for p in match.record["players"]] == [AGENTS[a] for a in job["seats"]]
    assert not list(out.glob(".*.tmp"))


def test_summary_json_csv_and_files_agree(played):
    out, results, rows, _ = played
    data = json.loads((out / "summary.json").read_text())
    assert data["played"] == data["scheduled"] == 6
    assert data["agents"] == AGENTS and data["seed"] == SEED
    assert data["standings"] == json.loads(json.dumps(rows))
    with open(out / "summary.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert [r["agent"] for r in table] == [r["agent"] for r in data["standings"]]
    for line, row in zip(table, data["standings"]):
        for key in ("games", "wins", "losses", "shared"):
            assert int(line[key]) == row[key]
        assert float(line["win_rate"]) == pytest.approx(row["rate"], abs=1e-4)
        assert float(line["rate_low"]) == pytest.approx(row["low"], abs=1e-4)
        assert float(line["rate_high"]) == pytest.approx(row["high"], abs=1e-4)
        assert float(line["elo"]) == pytest.approx(row["elo"], abs=0.05)
        assert row["low"] <= row["rate"] <= row["high"]

    # the same numbers counted from the match files directly
    settings = json.loads((out / T.MANIFEST).read_text())
    count = {i: Counter() for i in range(len(AGENTS))}
    for job in settings["schedule"]:
        result = load(T.game_path(out, job, settings)).record["result"]
        for seat, agent in enumerate(job["seats"]):
            count[agent]["games"] += 1
            if result["shared"]:
                count[agent]["shared"] += 1
            elif result["winner"] == seat:
                count[agent]["wins"] += 1
            else:
                count[agent]["losses"] += 1
    for row in data["standings"]:
        c = count[row["index"]]
        assert (row["games"], row["wins"], row["losses"], row["shared"]) == \
            (c["games"], c["wins"], c["losses"], c["shared"])
        assert row["wins"] + row["losses"] + row["shared"] == row["games"] == 4
    assert sum(r["wins"] for r in rows) == sum(r["losses"] for r in rows)
    assert sum(r["games"] for r in rows) == 2 * 6
    # the results returned by run() are the files' outcomes
    _, outcomes = T.collect(out)
    key = lambda o: o["id"]  # noqa: E731
    assert sorted(outcomes, key=key) == sorted(results, key=key)


def test_summary_is_rebuilt_from_the_files_alone(played, tmp_path):
    out = _copy(played, tmp_path)
    before = {name: (out / name).read_bytes() for name in ("summary.json", "summary.csv", "games.csv")}
    for name in before:
        (out / name).unlink()
    R.write_summary(out)
    assert {name: (out / name).read_bytes() for name in before} == before


def test_resume_plays_only_the_missing_games(played, tmp_path):
    out = _copy(played, tmp_path)
    original = _files(out)
    summary = (out / "summary.json").read_text()
    missing = ["0-1-0-0", "0-2-0-1"]
    for job_id in missing:
        _path(out, job_id).unlink()
    (out / "summary.json").unlink()
    results = T.run(out, T.TournamentSpec(AGENTS, 2, SEED), jobs=2, resume=True)
    assert sorted(r["id"] for r in results) == missing
    R.write_summary(out)
    assert (out / "summary.json").read_text() == summary
    again = _files(out)
    assert set(again) == set(original)
    for job_id in missing:  # same seed, same games, decision by decision
        assert _moves(again[job_id]) == _moves(original[job_id])
        assert again[job_id].record["result"] == original[job_id].record["result"]
    # nothing left to play
    assert T.run(out, T.TournamentSpec(AGENTS, 2, SEED), jobs=2, resume=True) == []


def test_an_unfinished_match_file_is_played_again_on_resume(played, tmp_path):
    out = _copy(played, tmp_path)
    job_id = "0-1-0-1"
    match = load(_path(out, job_id))
    record = json.loads(json.dumps(match.record))
    record["games"][0]["decisions"] = record["games"][0]["decisions"][:10]
    record["games"][0]["result"] = None
    record["games"][0].pop("final_digest", None)
    record["status"], record["result"] = "unfinished", None
    from matches.match import Match
    from matches.record import save
    save(Match.from_record(record), _path(out, job_id))
    assert [o["id"] for o in T.collect(out)[1]].count(job_id) == 0
    results = T.run(out, T.TournamentSpec(AGENTS, 2, SEED), jobs=1, resume=True)
    assert [r["id"] for r in results] == [job_id]
    assert _moves(load(_path(out, job_id))) == _moves(match)


def test_an_existing_folder_needs_resume(played, tmp_path):
    out = _copy(played, tmp_path)
    with pytest.raises(T.TournamentError, match="--resume"):
        T.run(out, T.TournamentSpec(AGENTS, 2, SEED), jobs=1)


@pytest.mark.parametrize("change", [dict(seed=SEED + 1), dict(games=4), dict(agents=AGENTS[:2]),
                                    dict(variant="draft"), dict(gauntlet=True)])
def test_a_folder_with_another_tournament_is_refused(played, tmp_path, change):
    out = _copy(played, tmp_path)
    args: dict = dict(agents=AGENTS, games=2, seed=SEED, gauntlet=False)
    args.update(change)
    if "variant" in args:
        args["config"] = GameConfig(args.pop("variant"))
    for resume in (False, True):
        with pytest.raises(T.TournamentError, match="different tournament"):
            T.run(out, T.TournamentSpec(**args), jobs=1, resume=resume)
    assert _files(out).keys() == _files(played[0]).keys()


def test_a_corrupt_manifest_is_refused(tmp_path):
    out = tmp_path / "t"
    out.mkdir()
    (out / T.MANIFEST).write_text("{not json")
    with pytest.raises(T.TournamentError, match="not a tournament manifest"):
        T.run(out, T.TournamentSpec(AGENTS[:2], 2, SEED), resume=True)
    with pytest.raises(T.TournamentError):
        R.write_summary(tmp_path / "nothing here")


def test_a_tournament_spec_checks_its_settings(tmp_path):
    with pytest.raises(T.TournamentError, match="--format must be game or match"):
        T.TournamentSpec(AGENTS[:2], 2, SEED, fmt="league")  # type: ignore[arg-type]
    with pytest.raises(T.TournamentError, match="exactly two --agent"):
        T.TournamentSpec(AGENTS, 2, SEED, sprt=SprtTest(0, 50))
    with pytest.raises(T.TournamentError, match="at least 1"):
        T.run(tmp_path / "a", T.TournamentSpec(AGENTS[:2], 0, SEED))
    assert not (tmp_path / "a").exists()
    spec = T.TournamentSpec(list(AGENTS), 2, SEED)
    assert spec.agents == tuple(AGENTS) and hash(spec) == hash(T.TournamentSpec(tuple(AGENTS), 2, SEED))


def test_a_ruleset_other_than_the_official_is_kept_and_played(tmp_path):
    spec = T.TournamentSpec(AGENTS[:2], 2, SEED, config=GameConfig(ruleset="reference"))
    assert T.manifest(spec)["ruleset"] == "reference" and "ruleset" not in T.manifest(T.TournamentSpec(AGENTS[:2], 2, SEED))
    T.run(tmp_path / "t", spec, jobs=1)
    records = [load(f).record for f in (tmp_path / "t").glob("*" + T.MATCH_SUFFIX)]
    assert len(records) == 2 and all(r["ruleset"] == "reference" for r in records)
    with pytest.raises(T.TournamentError, match="different tournament"):
        T.run(tmp_path / "t", T.TournamentSpec(AGENTS[:2], 2, SEED), resume=True)


# -- standings ---------------------------------------------------------------------------------------------

def _outcome(a, b, winner):
    """Agent ``a`` in seat 0 against ``b``; ``winner`` is a seat or None."""
    return {"id": f"{a}-{b}", "seats": [a, b], "winner": winner, "score": [0, 0], "games": []}


def test_standings_from_hand_made_outcomes():
    agents = ["ace", "mid", "low"]
    outcomes = [
        _outcome(0, 1, 0), _outcome(1, 0, 1),      # ace beats mid in both seats
        _outcome(0, 2, 0), _outcome(2, 0, 1),      # ace beats low in both seats
        _outcome(1, 2, 0), _outcome(2, 1, None),   # mid beats low once, one shared game
    ]
    rows = T.standings(agents, outcomes)
    by = {r["agent"]: r for r in rows}
    assert (by["ace"]["games"], by["ace"]["wins"], by["ace"]["losses"], by["ace"]["shared"]) == (4, 4, 0, 0)
    assert (by["mid"]["games"], by["mid"]["wins"], by["mid"]["losses"], by["mid"]["shared"]) == (4, 1, 2, 1)
    assert (by["low"]["games"], by["low"]["wins"], by["low"]["losses"], by["low"]["shared"]) == (4, 0, 3, 1)
    assert by["ace"]["rate"] == 1.0
    assert by["mid"]["rate"] == pytest.approx(1.5 / 4)
    assert by["low"]["rate"] == pytest.approx(0.5 / 4)
    for r in rows:
        assert 0.0 <= r["low"] <= r["rate"] <= r["high"] <= 1.0
        assert r["low"] < r["high"]
        assert math.isfinite(r["elo"]) and math.isfinite(r["elo_error"]) and r["elo_error"] > 0
    assert [r["agent"] for r in rows] == ["ace", "mid", "low"]
    assert by["ace"]["elo"] > by["mid"]["elo"] > by["low"]["elo"]
    assert sum(r["elo"] for r in rows) == pytest.approx(0.0, abs=1e-6)  # mean 0


def test_standings_without_games():
    rows = T.standings(["a", "b"], [])
    assert [r["agent"] for r in rows] == ["a", "b"]
    for r in rows:
        assert (r["games"], r["wins"], r["losses"], r["shared"], r["rate"]) == (0, 0, 0, 0, 0.0)
        assert (r["low"], r["high"]) == (0.0, 1.0)
        assert r["elo"] == 0.0 and r["elo_error"] == float("inf")


def test_equal_records_give_equal_ratings():
    rows = T.standings(["a", "b"], [_outcome(0, 1, 0), _outcome(1, 0, 0)])
    assert rows[0]["elo"] == pytest.approx(rows[1]["elo"], abs=1e-6)
    assert [r["wins"] for r in rows] == [1, 1]


# -- card statistics ---------------------------------------------------------------------------------------

def test_card_stats_agree_with_the_match_files(played):
    out = played[0]
    rows = CS.card_stats(out)
    assert [r["name"] for r in rows] == sorted(r["name"] for r in rows)
    by_id = {r["card"]: r for r in rows}
    placed = Counter()  # games in which a player placed the card (once a game however often)
    games = 0
    for match in _files(out).values():
        for game in match.record["games"]:
            games += 1
            placed.update({(d[0], C.BY_NAME[d[1]["artifact_name"]].id) for d in game["decisions"]
                           if d[1]["__type__"] == "PlaceArtifact"})
    placed = Counter(cid for _, cid in placed.elements())
    assert games == 6
    assert sum(r["played"]["games"] for r in rows) == sum(placed.values()) > 0
    for cid, n in placed.items():
        assert by_id[cid]["played"]["games"] == n
    assert sum(r["drafted"]["games"] for r in rows) == 16 * games  # 8 artifacts a player, 2 players
    assert sum(r["claimed"]["games"] for r in rows) > 0
    for r in rows:
        assert r["name"] == C.BY_ID[r["card"]].name
        for how in ("drafted", "played", "claimed"):
            x = r[how]
            if x["games"]:
                assert 0.0 <= x["low"] <= x["win_rate"] <= x["high"] <= 1.0
            else:
                assert x["win_rate"] is None
        if r["claimed"]["games"]:
            assert C.BY_ID[r["card"]].kind in (C.MONUMENT, C.PLACE_OF_POWER)
        if r["drafted"]["games"] or r["played"]["games"]:
            assert C.BY_ID[r["card"]].kind not in (C.MONUMENT, C.PLACE_OF_POWER)


# -- best-of-three draft tournament ------------------------------------------------------------------------

def test_draft_tournament_of_best_of_three_matches(tmp_path):
    out = tmp_path / "draft"
    results = T.run(out, T.TournamentSpec(["random", "greedy"], 2, SEED, fmt="match", config=GameConfig("draft")), jobs=2)
    assert len(results) == 2
    files = _files(out)
    assert len(files) == 2
    for match in files.values():
        record = match.record
        assert record["best_of"] == 3 and record["variant"] == "draft"
        assert match.is_over() and record["status"] == "finished"
        assert 2 <= len(record["games"]) <= 3
        assert max(record["result"]["score"]) == 2 or record["result"]["shared"] or len(record["games"]) == 3
    rows = R.write_summary(out)["standings"]
    assert sum(r["games"] for r in rows) == 4  # 2 matches, 2 agents each
    data = json.loads((out / "summary.json").read_text())
    assert data["format"] == "match" and data["variant"] == "draft"
    stats = CS.card_stats(out)
    played_games = sum(len(m.record["games"]) for m in files.values())
    assert sum(r["drafted"]["games"] for r in stats) == 16 * played_games


# -- the command line --------------------------------------------------------------------------------------

def _amigos() -> list[str]:
    script = Path(sys.executable).parent / "amigos"
    return [str(script)] if script.exists() else [sys.executable, "-m", "amigos_cli"]


def _cli(*args, cwd=None, columns=200):
    env = dict(os.environ, COLUMNS=str(columns), TERM="dumb")
    env.pop("NO_COLOR", None)
    return subprocess.run(_amigos() + list(args), capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=120, env=env, cwd=cwd)


TWO = ["--agent", "random", "--agent", "greedy", "--games", "2", "--jobs", "2"]


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "T"
    proc = _cli("tournament", *TWO, "--out", str(out), columns=80)
    return out, proc


def test_cli_tournament_runs_and_prints_the_standings(cli_run):
    out, proc = cli_run
    assert proc.returncode == 0, proc.stderr
    assert "Final standings" in proc.stdout
    for name in ("random", "greedy"):
        assert name in proc.stdout
    flat = " ".join(proc.stdout.split())
    assert f"amigos tournament {' '.join(TWO)} --out {out} --resume" in flat
    charts = ["standings.png"] if importlib.util.find_spec("matplotlib") else []
    assert sorted(p.name for p in out.iterdir()) == \
        sorted(["games.csv", "greedy-vs-random-deal000-b.amigos", "random-vs-greedy-deal000-a.amigos",
                "summary.csv", "summary.json", "tournament.json"] + charts)
    data = json.loads((out / "summary.json").read_text())
    assert data["played"] == 2 and sum(r["games"] for r in data["standings"]) == 4


def test_cli_second_run_needs_resume(cli_run):
    out, _ = cli_run
    proc = _cli("tournament", *TWO, "--out", str(out))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("amigos: ") and "--resume" in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_cli_refused_run_prints_nothing_but_the_error(cli_run):
    out, _ = cli_run
    proc = _cli("tournament", *TWO, "--out", str(out))
    assert proc.returncode == 2
    assert proc.stdout == ""


def test_cli_resume_and_card_stats(cli_run):
    out, _ = cli_run
    summary = (out / "summary.json").read_text()
    proc = _cli("tournament", *TWO, "--out", str(out), "--resume", "--card-stats")
    assert proc.returncode == 0, proc.stderr
    assert "Final standings" in proc.stdout and "Card statistics" in proc.stdout
    assert "drafted" in proc.stdout and "claimed" in proc.stdout
    stats = CS.card_stats(out)
    assert stats and all(r["name"] in proc.stdout for r in stats)
    assert (out / "summary.json").read_text() == summary  # nothing replayed, same summary


def test_cli_bad_agent_is_one_line_and_creates_nothing(tmp_path):
    out = tmp_path / "never"
    proc = _cli("tournament", "--agent", "random", "--agent", "bogus", "--games", "2", "--out", str(out))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("amigos: ") and "bogus" in lines[0], proc.stderr
    assert proc.stdout == ""
    assert not out.exists()


@pytest.mark.parametrize("args", [["--agent", "random"], TWO[:4] + ["--games", "0"], TWO[:4] + ["--format", "league"]])
def test_cli_bad_settings_are_one_line_and_create_nothing(tmp_path, args):
    out = tmp_path / "never"
    proc = _cli("tournament", *args, "--out", str(out))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("amigos: "), proc.stderr
    assert not out.exists()


def test_cli_final_standings_start_on_their_own_line(cli_run):
    _, proc = cli_run
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if "Final standings" in line]
    assert lines, proc.stdout  # (printed at all: a run that prints nothing must fail here)
    for line in lines:
        assert line.strip().startswith("Final standings"), line


def test_cli_resume_command_is_on_one_line(cli_run):
    _, proc = cli_run  # run with COLUMNS=80
    assert any(line.strip().startswith("amigos tournament") and line.strip().endswith("--resume")
               for line in proc.stdout.splitlines()), proc.stdout


def test_a_damaged_match_file_is_played_again_on_resume(played, tmp_path):
    out = _copy(played, tmp_path)
    original = load(_path(out, "0-1-0-0"))
    _path(out, "0-1-0-0").write_bytes(b"garbage")
    results = T.run(out, T.TournamentSpec(AGENTS, 2, SEED), jobs=1, resume=True)
    assert [r["id"] for r in results] == ["0-1-0-0"]
    assert _moves(load(_path(out, "0-1-0-0"))) == _moves(original)


def test_cli_resume_replays_a_damaged_match_file(tmp_path):
    out = tmp_path / "T"
    assert _cli("tournament", *TWO, "--out", str(out)).returncode == 0
    _path(out, "0-1-0-0").write_bytes(b"garbage")
    proc = _cli("tournament", *TWO, "--out", str(out), "--resume")
    assert proc.returncode == 0, proc.stderr
    assert load(_path(out, "0-1-0-0")).is_over()


def test_cli_unbuildable_agent_creates_no_folder(tmp_path):
    out = tmp_path / "never"
    proc = _cli("tournament", "--agent", "random", "--agent", "expectimax:depth=0", "--games", "2", "--out", str(out))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not out.exists()


def test_cli_ctrl_c_while_summing_up_prints_the_resume_command(tmp_path, monkeypatch, capsys):
    """Stopped after the last game, before the summary (the usability audit's finding 9): exit 130 with the
    command that continues, which then writes the summary."""
    from amigos_cli import app as app_module
    monkeypatch.chdir(tmp_path)
    out = Path("T")  # (in the working folder: the console folds a long path, even mid-word)
    argv = ["tournament", "--agent", "random", "--agent", "random", "--games", "2", "--seed", "4", "--out", str(out)]
    real = R.write_files

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(R, "write_files", interrupted)
    monkeypatch.setattr(sys, "argv", ["amigos", *argv])  # the command prints its own arguments back
    with pytest.raises(SystemExit) as exit_info:
        app_module.main(argv)
    assert exit_info.value.code == 130
    printed = " ".join(capsys.readouterr().out.split())
    assert f"Stopped. Finished games are kept in {out}/; continue with:" in printed
    assert f"amigos tournament {' '.join(argv[1:])} --resume" in printed
    assert not (out / "summary.json").exists()
    monkeypatch.setattr(R, "write_files", real)
    with pytest.raises(SystemExit) as exit_info:
        app_module.main(argv + ["--resume"])
    assert exit_info.value.code == 0
    assert (out / "summary.json").exists() and "Final standings" in capsys.readouterr().out


def test_cli_help_gives_the_default_folder(capsys):
    from amigos_cli import app as app_module
    with pytest.raises(SystemExit):
        app_module.main(["tournament", "--help"])
    assert "tournament-SEED" in " ".join(capsys.readouterr().out.split())
