"""Win rate of agent A against agent B, in seat-swapped pairs on the same deals.

    python -m lab.strength --a mcts:time=1 --b random --games 200 --jobs 2 --record runs/r.jsonl
    python -m lab.strength --a mcts:iters=2000 --b greedy --games 200 --scheduler tcp://HOST:8786

Prints a progress line after every pair and a final line with the 95% Wilson interval.  ``--record``
appends each pair's result as a JSON line; `lab/tally.py` combines records of a run split by
``--first-pair`` and compares two runs deal by deal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import amigos
from amigos.config import (
    EXPANSIONS,
    GameConfig,
)
from lab.run_report import add_sprt_options, final_lines, open_record, sprt_settings
from matches.arena import strength
from matches.runner import RunnerError


def main(argv=None) -> int:
    from lab.run_report import say_build
    say_build()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="agent spec, e.g. mcts:time=1")
    ap.add_argument("--b", required=True, help="agent spec, e.g. random")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--variant", default="standard", choices=amigos.VARIANTS)
    ap.add_argument("--expansion", action="append", default=[], choices=EXPANSIONS,
                    help="play with this expansion (lux: Lux et Tenebrae)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--scheduler", help="play on the Dask cluster of this scheduler (tcp://HOST:8786), not --jobs")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--first-pair", type=int, default=0,
                    help="play the deals from this pair on (to split one run across machines)")
    ap.add_argument("--record", type=Path, help="append each pair's result to this file as a JSON line")
    add_sprt_options(ap)
    args = ap.parse_args(argv)
    sprt = sprt_settings(args)
    record = open_record(args.record)
    try:
        config = GameConfig.parse(args.variant, expansions=args.expansion)
        result = strength(args.a, args.b, args.games, config, args.jobs, args.seed,
                          out=lambda line: print(line, flush=True), first=args.first_pair, record=record, sprt=sprt,
                          scheduler=args.scheduler)
    except RunnerError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        if record is not None:
            record.close()
    print("\n".join(final_lines(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
