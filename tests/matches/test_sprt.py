"""The SPRT (`matches.sprt`) and ``--sprt`` in tournaments and strength runs: the log-likelihood ratio of
pentanomial pair counts, its bounds and verdicts, and runs that stop at the verdict."""

from __future__ import annotations

import json
import math
import random

import pytest

from matches import report as R
from matches import sprt as S
from matches import tournament as T
from matches.arena import strength
from matches.sprt import SprtTest
from tests.matches.test_tournament import _cli


def _normal_llr(counts, elo0, elo1):
    """The normal approximation of the pentanomial GSPRT: N (s1 - s0)(2s - s0 - s1) / (2 var)."""
    n = sum(counts)
    values = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(c * v for c, v in zip(counts, values)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / n
    s0, s1 = S.expected_score(elo0), S.expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


@pytest.mark.parametrize("counts", [[10, 40, 100, 40, 10], [5, 30, 100, 50, 15], [20, 50, 80, 30, 20],
                                    [3, 20, 60, 20, 3]])
def test_llr_agrees_with_the_normal_approximation_for_small_elo_bounds(counts):
    exact = S.llr(counts, 0, 10)
    assert exact == pytest.approx(_normal_llr(counts, 0, 10), rel=0.05, abs=0.02)


def test_llr_grows_with_wins_and_is_zero_without_pairs():
    assert S.llr([0, 0, 0, 0, 0], 0, 10) == 0.0
    assert S.llr([5, 10, 30, 10, 5], 0, 10) < 0  # even: nearer H0 than H1
    assert S.llr([5, 10, 30, 20, 10], 0, 10) > S.llr([5, 10, 30, 10, 5], 0, 10)
    assert S.llr([0, 0, 0, 0, 30], 0, 10) > 0  # unbeaten: H1, whatever zeros the counts hold


def test_bounds_and_elo():
    lower, upper = S.bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(-lower)
    assert S.expected_score(0) == 0.5
    assert S.elo_of(S.expected_score(123.0)) == pytest.approx(123.0)
    elo, low, high = S.elo_estimate([10, 20, 40, 20, 10])
    assert elo == pytest.approx(0.0, abs=1e-9) and low < 0 < high


def _simulate(p_win: float, pairs: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [float(rng.random() < p_win) + float(rng.random() < p_win) for _ in range(pairs)]


def test_a_clearly_better_agent_is_accepted_and_an_equal_one_rejected():
    better = S.sprt_over_pairs(_simulate(0.65, 2000, 1), 0, 30)
    assert better.result == "H1" and better.llr >= better.upper and better.pairs < 2000
    equal = S.sprt_over_pairs(_simulate(0.5, 2000, 2), 0, 30)
    assert equal.result == "H0" and equal.llr <= equal.lower


def test_the_test_stops_at_the_first_crossing_and_ignores_pairs_after_a_gap():
    scores = _simulate(0.8, 200, 3)
    test = S.sprt_over_pairs(scores, 0, 50)
    assert test.result == "H1"
    # The same prefix decides whatever follows it; an unfinished pair (None) ends the count.
    assert S.sprt_over_pairs(scores[:test.pairs] + [0.0] * 50, 0, 50).record() == test.record()
    gap = S.sprt_over_pairs(scores[:3] + [None] + scores[3:], 0, 50)
    assert gap.pairs == 3 and gap.result == "continue"


def test_record_has_the_summary_keys():
    record = S.sprt_over_pairs([2.0, 1.0, 1.5], 0, 10, 0.1, 0.2).record()
    assert {"elo0", "elo1", "alpha", "beta", "llr", "lower", "upper", "result"} <= set(record)
    assert record["result"] == "continue" and record["pentanomial"] == [0, 0, 1, 1, 1]
    assert record["lower"] == pytest.approx(math.log(0.2 / 0.9), abs=1e-4)


@pytest.mark.parametrize("bad", ["10", "a,b", "10,0", "5,5", "inf,3", "1,2,3"])
def test_bad_bounds_are_refused(bad):
    with pytest.raises(ValueError):
        S.parse_bounds(bad)


# -- runs -----------------------------------------------------------------------------------------------

SPRT = SprtTest(0.0, 150.0, 0.05, 0.05)


def test_a_tournament_with_sprt_stops_at_the_verdict_and_records_it(tmp_path):
    out = tmp_path / "t"
    T.run(out, T.TournamentSpec(["greedy", "random"], 400, 3, sprt=SPRT), jobs=1)
    played = sorted(p.stem for p in out.glob("*.amigos"))
    settings, outcomes = T.collect(out)
    test = T.sprt_of(settings, outcomes)
    assert test.result == "H1"
    assert len(played) == 2 * test.pairs < 400  # stopped at the verdict, on a whole pair
    summary = json.loads(R.write_summary(out) and (out / "summary.json").read_text())
    assert summary["sprt"]["result"] == "H1" and summary["sprt"]["llr"] >= summary["sprt"]["upper"]
    # Resumed, a decided tournament plays nothing more.
    T.run(out, T.TournamentSpec(["greedy", "random"], 400, 3, sprt=SPRT), jobs=1, resume=True)
    assert sorted(p.stem for p in out.glob("*.amigos")) == played


def test_parallel_and_serial_sprt_runs_reach_the_same_verdict(tmp_path):
    records = []
    for jobs in (1, 2):
        out = tmp_path / f"j{jobs}"
        T.run(out, T.TournamentSpec(["greedy", "random"], 400, 4, sprt=SPRT), jobs=jobs)
        records.append(T.sprt_of(*T.collect(out)).record())
    assert records[0] == records[1] and records[0]["result"] == "H1"


def test_sprt_needs_exactly_two_agents(tmp_path):
    with pytest.raises(T.TournamentError):
        T.run(tmp_path / "x", T.TournamentSpec(["greedy", "random", "random"], 4, 1, sprt=SPRT))


def test_cli_sprt_prints_the_verdict(tmp_path):
    out = tmp_path / "s"
    proc = _cli("tournament", "--agent", "greedy", "--agent", "random", "--sprt", "0,150", "--seed", "3",
                "--jobs", "2", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "H1 accepted" in " ".join(proc.stdout.split())
    assert json.loads((out / "summary.json").read_text())["sprt"]["result"] == "H1"


@pytest.mark.parametrize("args", [["--sprt", "10,0"], ["--sprt", "x"], ["--sprt", "0,10", "--alpha", "0"],
                                  ["--sprt", "0,10", "--agent", "greedy"]])
def test_cli_bad_sprt_is_one_line(tmp_path, args):
    out = tmp_path / "never"
    proc = _cli("tournament", "--agent", "greedy", "--agent", "random", *args, "--out", str(out))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("amigos: "), proc.stderr
    assert not out.exists()


def test_a_strength_run_with_sprt_stops_at_the_verdict():
    result = strength("greedy", "random", 400, seed=3, sprt=SPRT)
    assert result["sprt"]["result"] == "H1"
    assert result["games"] == 2 * result["sprt"]["pairs"] < 400
