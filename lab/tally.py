"""Totals of strength runs from their records, and two runs compared deal by deal.

    python -m lab.tally runs/g1000.jsonl
    python -m lab.tally runs/g2800-part1.jsonl runs/g2800-part2.jsonl --against runs/g1000.jsonl
    python -m lab.tally runs/t-part1.jsonl runs/t-part2.jsonl --sprt 0,40

A file is either ``strength.py --record`` output (JSON lines) or ``strength.py``'s printed output; for
the latter, which names no deals, give the run's seed with ``--seed`` and the first pair after ``@``
(``g2800.txt@25`` for a run started with ``--first-pair 25``).  The files given first are combined
into one run (a run split by ``--first-pair``); ``--against`` files into another, and the two are
compared on the deals both played.  ``--sprt ELO0,ELO1`` runs the SPRT of `matches.sprt` over the combined
pairs in the order of their deals, so that a test stopped without a verdict can be continued with
``strength.py --first-pair`` and judged as one run.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from lab.run_report import add_sprt_options, sprt_settings
from matches.arena import paired_difference, tally
from matches.sprt import SprtTest, sprt_over_pairs

RECORD_KEYS = ("pair", "seed", "a", "b", "points", "games")  # what `matches.arena.pair_record` writes
PROGRESS = re.compile(r"^(\S+) vs (\S+): ([\d.]+)/(\d+) = ")


class BadFile(Exception):
    pass


def read(spec: str, seed: int) -> list[dict]:
    """The pair records in ``spec`` (``path`` or ``path@first``)."""
    path, _, first = spec.partition("@")
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise BadFile(f"cannot read {path}: {e.strerror}") from None
    records = []
    total = 0.0
    pair = int(first) if first else 0
    for n, line in enumerate(lines, 1):
        if line.startswith("{"):
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                raise BadFile(f"{path}:{n}: not a JSON record") from None
            if not isinstance(r, dict) or any(k not in r for k in RECORD_KEYS):
                raise BadFile(f"{path}:{n}: not a pair record (it needs {', '.join(RECORD_KEYS)})")
            records.append(r)
            continue
        m = PROGRESS.match(line)
        if m:  # a progress line: the running total after one more pair
            now = float(m.group(3))
            records.append({"pair": pair, "seed": seed, "a": m.group(1), "b": m.group(2), "points": now - total,
                            "games": [{"a_thought": 0.0, "a_chose": 0, "adjudicated": False}] * 2})
            total = now
            pair += 1
    if not records:
        raise BadFile(f"{path}: no pair results in it")
    return records


def describe(records: list[dict]) -> str:
    t = tally(records)
    names = sorted({f"{r['a']} vs {r['b']}" for r in records})
    line = (f"{', '.join(names)}: {t['score']:g}/{t['games']} = {t['rate']:.1%} "
            f"(95% interval {t['low']:.1%}-{t['high']:.1%})")
    if t["adjudicated"]:
        line += f"; {t['adjudicated']} adjudicated"
    if t["a_seconds_per_choice"] is not None:
        line += f"; A thought {t['a_seconds_per_choice']:.3f} s a choice"
    return line


def sprt_line(records: list[dict], settings: SprtTest) -> str:
    """The SPRT over ``records`` (one run, every pair of one seed) in the order of their deals; a
    gap in the deals ends the pairs it counts, as an unfinished pair ends a running test's."""
    by_pair = {r["pair"]: r["points"] for r in records}
    if len({r["seed"] for r in records}) > 1:
        raise ValueError("an SPRT is over the pairs of one run; these records are of more than one seed")
    first = min(by_pair)
    scores = [by_pair.get(k) for k in range(first, max(by_pair) + 1)]
    test = sprt_over_pairs(scores, *settings)
    line = test.line()
    if test.pairs < len(by_pair):
        line += f" (of {len(by_pair)} pairs recorded)"
    return line


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="record files of one run (path, or path@first-pair for printed output)")
    ap.add_argument("--against", nargs="+", default=[], help="record files of a run to compare with, deal by deal")
    ap.add_argument("--seed", type=int, default=0, help="the seed of runs given as printed output")
    add_sprt_options(ap)
    args = ap.parse_args(argv)
    settings = sprt_settings(args)
    try:
        mine = [r for spec in args.runs for r in read(spec, args.seed)]
        theirs = [r for spec in args.against for r in read(spec, args.seed)]
        print(describe(mine))
        if settings is not None:
            print(sprt_line(mine, settings))
        if theirs:
            print(describe(theirs))
            d = paired_difference({(r["seed"], r["pair"]): r["points"] for r in mine},
                                  {(r["seed"], r["pair"]): r["points"] for r in theirs})
            print(f"deal by deal, on {d['deals']} deals: {d['per_100_games']:+.1f} points per 100 games "
                  f"(95% {d['per_100_games'] - d['half_width']:+.1f} to {d['per_100_games'] + d['half_width']:+.1f}); "
                  f"the first run scored more on {d['a_better']} deals, the second on {d['b_better']}")
    except (BadFile, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
