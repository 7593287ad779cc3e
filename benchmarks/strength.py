"""Win rate of agent A against agent B, in seat-swapped pairs on the same deals.

    python benchmarks/strength.py --a mcts:time=1 --b random --games 200 --jobs 2 --record runs/r.jsonl

Prints a progress line after every pair and a final line with the 95% Wilson interval.  ``--record``
appends each pair's result as a JSON line; `benchmarks/tally.py` combines records of a run split by
``--first-pair`` and compares two runs deal by deal.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import amigos  # noqa: E402
from ai.arena import strength  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="agent spec, e.g. mcts:time=1")
    ap.add_argument("--b", required=True, help="agent spec, e.g. random")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--variant", default="standard", choices=amigos.VARIANTS)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--first-pair", type=int, default=0,
                    help="play the deals from this pair on (to split one run across machines)")
    ap.add_argument("--record", type=Path, help="append each pair's result to this file as a JSON line")
    args = ap.parse_args(argv)
    sink = None
    if args.record is not None:
        try:
            args.record.parent.mkdir(parents=True, exist_ok=True)
            sink = args.record.open("a", encoding="utf-8")
        except OSError as e:
            print(f"error: cannot write {args.record}: {e.strerror}", file=sys.stderr)
            return 2

    def record(pair: dict) -> None:
        sink.write(json.dumps(pair) + "\n")
        sink.flush()

    try:
        result = strength(args.a, args.b, args.games, args.variant, args.jobs, args.seed,
                          out=lambda line: print(line, flush=True), first=args.first_pair,
                          record=record if sink else None)
    finally:
        if sink is not None:
            sink.close()
    print(f"final: {result['a']} vs {result['b']}: {result['score']:g}/{result['games']} = {result['rate']:.1%} "
          f"(95% interval {result['low']:.1%}-{result['high']:.1%}) in {result['seconds']:.0f} s"
          + (f"; {result['adjudicated']} adjudicated at the round limit" if result["adjudicated"] else ""))
    print(f"{result['a']} thought {result['a_seconds_per_choice']:.3f} s a decision on average "
          "(over decisions among two or more legal actions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
