"""The strength harness: seat-swapped pairs, the Wilson interval, and splitting a run by pairs."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from amigos.adjudicate import ROUND_LIMIT
from amigos.config import GameConfig
from matches.arena import paired_difference, play_game, score_for, strength, tally, wilson
from matches.sprt import sprt_over_pairs
from tests.helpers import ROOT


def test_wilson_interval_known_values():
    low, high = wilson(159, 200)
    assert (round(low, 3), round(high, 3)) == (0.734, 0.845)
    assert wilson(200, 200)[1] == 1.0 and wilson(0, 10)[0] == 0.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_score_counts_a_shared_win_half():
    assert score_for({"winners": [0]}, 0) == 1.0
    assert score_for({"winners": [0, 1]}, 1) == 0.5
    assert score_for({"winners": [1]}, 0) == 0.0


def test_a_game_reports_its_result():
    r = play_game(5, GameConfig(), ["random", "random"])
    assert r["winners"] and r["decisions"] > 0 and len(r["vp"]) == 2
    assert max(r["vp"]) >= 10 or r["rounds"] > 0
    # Both seats had real choices, and forced moves (one legal action) are not counted as choices.
    assert all(c > 0 for c in r["chose"]) and sum(r["chose"]) < r["decisions"]


def test_splitting_a_run_by_pairs_plays_the_same_deals():
    whole = strength("greedy", "random", 6, seed=3)
    parts = [strength("greedy", "random", 2, seed=3, first=i) for i in range(3)]
    assert whole["games"] == 6
    assert whole["score"] == sum(p["score"] for p in parts)
    assert whole["low"] <= whole["rate"] <= whole["high"]


def test_pairs_swap_seats_on_one_deal():
    # The same deterministic agent in both seats: each seat's game is the same game, so the pair scores
    # exactly one point whoever wins it.
    r = strength("greedy", "greedy", 2, seed=9)
    assert r["score"] == pytest.approx(1.0)


def test_a_game_that_never_ends_is_adjudicated_at_the_round_limit():
    # Two greedy players on this deal hoard essences and pass forever; the game ends at the check of
    # the last round, which ranks the players as at 10 points (`amigos.adjudicate`).
    r = play_game(15282502483002881163, GameConfig(), ["greedy", "greedy"])
    assert r["adjudicated"] and r["rounds"] == ROUND_LIMIT
    best = max(r["vp"])
    assert r["winners"] and all(r["vp"][p] == best for p in r["winners"])


def test_pair_records_add_up_to_the_run_and_to_its_split_parts():
    records = []
    whole = strength("greedy", "random", 6, seed=3, record=records.append)
    assert [r["pair"] for r in records] == [0, 1, 2]
    assert all(r["seed"] == 3 and r["a"] == "greedy" and len(r["games"]) == 2 for r in records)
    t = tally(records)
    assert (t["games"], t["score"], t["low"], t["high"]) == (6, whole["score"], whole["low"], whole["high"])
    assert t["a_seconds_per_choice"] == pytest.approx(whole["a_seconds_per_choice"], abs=1e-3)
    parts = []
    for i in (2, 0, 1):  # played in any order, by pairs, they make up the same run
        strength("greedy", "random", 2, seed=3, first=i, record=parts.append)
    assert tally(parts)["score"] == whole["score"]
    assert tally(records + parts)["games"] == 6  # a pair recorded twice counts once


def test_a_pair_recorded_twice_with_different_results_is_refused():
    r = {"pair": 0, "seed": 1, "points": 2.0, "games": []}
    with pytest.raises(ValueError, match="recorded twice"):
        tally([r, dict(r, points=1.0)])


def test_paired_difference_compares_the_deals_both_runs_played():
    a = {0: 2.0, 1: 2.0, 2: 1.0, 3: 2.0, 9: 0.0}
    b = {0: 1.0, 1: 2.0, 2: 1.0, 3: 0.0}
    d = paired_difference(a, b)
    assert d["deals"] == 4 and (d["a_better"], d["b_better"]) == (2, 0)
    assert d["per_100_games"] == pytest.approx(37.5)  # 3 points over 4 deals of 2 games
    assert 0 < d["half_width"] < 100
    with pytest.raises(ValueError):
        paired_difference({0: 1.0}, {0: 2.0})


def test_tally_command_combines_records_and_printed_runs(tmp_path):
    records = tmp_path / "run.jsonl"
    records.write_text("".join(json.dumps(r) + "\n" for r in [
        {"pair": 0, "seed": 5, "a": "x", "b": "y", "points": 2.0,
         "games": [{"a_thought": 1.0, "a_chose": 4, "adjudicated": False}] * 2},
        {"pair": 1, "seed": 5, "a": "x", "b": "y", "points": 1.0,
         "games": [{"a_thought": 1.0, "a_chose": 4, "adjudicated": True}] * 2}]))
    printed = tmp_path / "run.txt"
    printed.write_text("x vs y: 1/2 = 50.0% (95% 9.5%-90.5%), 3 s\nx vs y: 1/4 = 25.0% (95% 4.6%-69.9%), 5 s\n"
                       "final: x vs y: 1/4 = 25.0% (95% interval 4.6%-69.9%) in 5 s\n")
    script = "lab.tally"
    run = subprocess.run([sys.executable, "-m", script, str(records), "--against", f"{printed}@0", "--seed", "5"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    first, second, paired = run.stdout.splitlines()
    assert first.startswith("x vs y: 3/4 = 75.0%") and "2 adjudicated" in first and "0.250 s a choice" in first
    assert second.startswith("x vs y: 1/4 = 25.0%")
    assert "on 2 deals: +50.0 points per 100 games" in paired
    bad = subprocess.run([sys.executable, "-m", script, str(tmp_path / "missing.jsonl")], capture_output=True, text=True,
                         cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.startswith("error: cannot read") and "Traceback" not in bad.stderr
    partial = tmp_path / "partial.jsonl"
    partial.write_text('{"pair": 0, "seed": 5}\n')
    bad = subprocess.run([sys.executable, "-m", script, str(partial)], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "not a pair record" in bad.stderr and "Traceback" not in bad.stderr


def test_tally_command_judges_a_continued_run_by_one_sprt(tmp_path):
    def pairs(first: int, points: list[float]) -> str:
        return "".join(json.dumps({"pair": first + k, "seed": 9, "a": "x", "b": "y", "points": p,
                                   "games": [{"a_thought": 1.0, "a_chose": 4, "adjudicated": False}] * 2}) + "\n"
                       for k, p in enumerate(points))
    part1, part2 = tmp_path / "part1.jsonl", tmp_path / "part2.jsonl"
    won = [2.0, 1.0, 1.0] * 10  # a third of the pairs won, the rest split: H1 after 28 pairs
    part1.write_text(pairs(0, won[:12]))
    part2.write_text(pairs(12, won[12:] + [0.0]))
    script = "lab.tally"

    def sprt(*files: Path) -> str:
        run = subprocess.run([sys.executable, "-m", script, *map(str, files), "--sprt", "0,40"],
                             capture_output=True, text=True, cwd=ROOT)
        assert run.returncode == 0, run.stderr
        return run.stdout.splitlines()[1]
    alone = sprt(part1)
    assert "no verdict yet after 12 pairs [0, 0, 8, 0, 4]" in alone
    both = sprt(part1, part2)  # the test crosses its upper bound before the recorded pairs run out
    assert "H1 accepted after 28 pairs" in both and "(of 31 pairs recorded)" in both
    assert sprt_over_pairs(won + [0.0], 0, 40).pairs == 28
    gap = tmp_path / "gap.jsonl"
    gap.write_text(pairs(0, [2.0]) + pairs(2, won))
    assert "after 1 pairs" in sprt(gap)  # the deals after a missing one wait for it
    bad = subprocess.run([sys.executable, "-m", script, str(part1), "--sprt", "40,0"], capture_output=True, text=True,
                         cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.startswith("error:") and "Traceback" not in bad.stderr


def test_strength_command_records_its_pairs_and_refuses_an_unwritable_record(tmp_path):
    out = tmp_path / "runs" / "r.jsonl"
    run = subprocess.run([sys.executable, "-m", "lab.strength", "--a", "greedy", "--b", "random",
                          "--games", "4", "--seed", "3", "--record", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["pair"] for r in records] == [0, 1]
    assert f"{tally(records)['score']:g}/4" in run.stdout.splitlines()[-2]
    (tmp_path / "file").write_text("")
    bad = subprocess.run([sys.executable, "-m", "lab.strength", "--a", "random", "--b", "random",
                          "--record", str(tmp_path / "file" / "r.jsonl")], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.startswith("error: cannot write") and "Traceback" not in bad.stderr


def test_against_a_commit_plays_the_deals_and_seeds_strength_plays(tmp_path):
    """The earlier commit's agent, here this very commit's, plays exactly the games today's would."""
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode:
        pytest.skip("not a git checkout")
    out = tmp_path / "r.jsonl"
    run = subprocess.run([sys.executable, "-m", "lab.against_commit", "--commit", "HEAD",
                          "--a", "random", "--b", "greedy", "--pairs", "2", "--seed", "9", "--jobs", "1",
                          "--record", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    then = [json.loads(line) for line in out.read_text().splitlines()]
    now = []
    strength("random", "greedy", 4, seed=9, record=now.append)
    assert [r["b"] for r in then] == ["HEAD:greedy"] * 2
    assert [(r["pair"], r["points"], r["games"][0]["vp"], r["games"][1]["vp"]) for r in then] == \
        [(r["pair"], r["points"], r["games"][0]["vp"], r["games"][1]["vp"]) for r in now]
    bad = subprocess.run([sys.executable, "-m", "lab.against_commit", "--commit", "no-such-commit",
                          "--a", "random", "--b", "random"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.startswith("error: cannot export") and "Traceback" not in bad.stderr


def test_evaluation_goes_on_from_the_first_pair_it_has_not_played(tmp_path):
    def evaluate(*extra):
        return subprocess.run([sys.executable, "-m", "lab.evaluate", "--out", str(tmp_path),
                               "--iters-per-second", "8", "--only", "greedy", "--jobs", "1", *extra],
                              capture_output=True, text=True, cwd=ROOT)

    first = evaluate("--games", "2")
    assert first.returncode == 0, first.stderr
    path = tmp_path / "greedy.jsonl"
    assert [json.loads(line)["pair"] for line in path.read_text().splitlines()] == [0]
    assert "greedy     mcts:iters=8 vs greedy: " in first.stdout and "[2 of 100 games]" not in first.stdout
    again = evaluate("--games", "4")
    assert again.returncode == 0, again.stderr
    pairs = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["pair"] for r in pairs] == [0, 1]
    assert "pairs 1-1" in again.stdout
    assert evaluate("--games", "4").stdout.count("pairs ") == 0  # nothing left to play
    summary = evaluate("--summary")
    assert f"{tally(pairs)['score']:g}/4" in summary.stdout and "[4 of 100 games]" in summary.stdout
    other = subprocess.run([sys.executable, "-m", "lab.evaluate", "--out", str(tmp_path),
                            "--iters-per-second", "9", "--only", "greedy"], capture_output=True, text=True, cwd=ROOT)
    assert other.returncode == 2 and "not of mcts:iters=9 vs greedy" in other.stderr
    assert "Traceback" not in other.stderr and len(path.read_text().splitlines()) == 2  # the records kept
    unknown = evaluate("--only", "greedyy")
    assert unknown.returncode == 2 and unknown.stderr.startswith("error: no matchup 'greedyy'")
