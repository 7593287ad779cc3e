"""Does the search's choice settle as the budget grows?  For mid-game positions, searches each budget
with several seeds and reports how often all seeds pick the same move and how far apart the values
of the top moves are.

    python -m lab.stability [--positions 12] [--budgets 400,1600,6400] [--seeds 3]

Near-equal top values with choices that keep changing mean the evaluation, not the budget, limits the
play: more iterations cannot separate moves the leaf value rates alike.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time

from ai.mcts import group, search
from benchmarks.bench_positions import search_position as mid_game


def positions(count: int) -> list:
    """Mid-game decisions with at least three actions to choose from, from different games."""
    out = []
    for seed in range(count):
        s = mid_game(seed, 25 + 4 * seed)
        if not s.is_terminal() and len(group(s)) > 2:
            out.append(s)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--budgets", default="400,1600,6400")
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args(argv)
    states = positions(args.positions)
    print(f"{len(states)} positions, {args.seeds} seeds each")
    for iters in (int(b) for b in args.budgets.split(",")):
        start = time.perf_counter()
        agree = 0
        gaps = []
        for s in states:
            p = s.current_player()
            picks = []
            for k in range(args.seeds):
                stats, _ = search(s, p, iters, None, 100 + k)
                picks.append(max(stats, key=lambda m: stats[m]))
                values = sorted((w / n for n, w in stats.values() if n >= 10), reverse=True)
                gaps.append(values[0] - values[min(2, len(values) - 1)])
            agree += collections.Counter(picks).most_common(1)[0][1] == args.seeds
        print(f"{iters:6d} iterations: all seeds agree on {agree}/{len(states)} positions; "
              f"mean value gap best to third {sum(gaps) / len(gaps):.3f}; {time.perf_counter() - start:.0f} s",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
