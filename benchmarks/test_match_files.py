"""Match-file speed (pytest-benchmark): ``python -m pytest benchmarks/test_match_files.py --benchmark-only``.

- loading the best-of-three fixture ``tests/data/match_v2.amigos``: read, check, replay every decision
  (`matches.record.load`); its size, games and decisions in ``extra_info``;
- parsing it only (msgpack + checks, no replay);
- saving it (atomic write with fsync), the cost paid after every decision of a match.
"""

from __future__ import annotations

from pathlib import Path

from matches.record import load, parse, save

ROOT = Path(__file__).resolve().parents[1]

FIXTURE = ROOT / "tests" / "data" / "match_v2.amigos"


def _info(benchmark, match) -> None:
    games = match.record["games"]
    benchmark.extra_info["file"] = str(FIXTURE.relative_to(ROOT))
    benchmark.extra_info["file_bytes"] = FIXTURE.stat().st_size
    benchmark.extra_info["games"] = len(games)
    benchmark.extra_info["decisions"] = sum(len(g["decisions"]) for g in games)


def test_load_and_replay_best_of_three(benchmark):
    match = benchmark.pedantic(load, args=(FIXTURE,), rounds=20, iterations=1, warmup_rounds=1)
    assert match.is_over() and len(match.record["games"]) == 3
    _info(benchmark, match)
    benchmark.extra_info["bytes_per_decision"] = round(
        benchmark.extra_info["file_bytes"] / benchmark.extra_info["decisions"], 1)


def test_parse_only(benchmark):
    data = FIXTURE.read_bytes()
    record = benchmark(parse, data)
    assert record["status"] == "finished"
    benchmark.extra_info["file_bytes"] = len(data)


def test_save_best_of_three(benchmark, tmp_path):
    match = load(FIXTURE)
    path = tmp_path / "m.amigos"
    benchmark.pedantic(save, args=(match, path), rounds=20, iterations=1, warmup_rounds=1)
    assert load(path).record == match.record
    _info(benchmark, match)
