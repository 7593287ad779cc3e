"""Match-file sizes: ``python -m lab.match_sizes --p1 random --p2 random --matches 40`` plays
best-of-three matches and prints the size of their files (the current format), bytes per recorded
decision, and the largest one with its decisions, game lengths and load-and-replay time."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from ai.agents import make_agent
from amigos.rng import derive_seed
from matches.match import Match, play
from matches.record import load, save


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--p1", default="random")
    ap.add_argument("--p2", default="random")
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    specs = [args.p1, args.p2]
    sizes, per_decision, largest = [], [], None
    with tempfile.TemporaryDirectory() as folder:
        for i in range(args.matches):
            seed = args.seed + i
            match = Match.new(seed, specs)
            play(match, [make_agent(s, seed=derive_seed(seed, "seat", p)) for p, s in enumerate(specs)])
            path = Path(folder) / f"{seed}.amigos"
            save(match, path)
            size = path.stat().st_size
            decisions = sum(len(g["decisions"]) for g in match.record["games"])
            sizes.append(size)
            per_decision.append(size / decisions)
            if largest is None or size > largest[0]:
                start = time.perf_counter()
                load(path)
                largest = (size, seed, decisions, [g["result"]["rounds"] for g in match.record["games"]],
                           time.perf_counter() - start)
    size, seed, decisions, rounds, seconds = largest
    print(f"{args.matches} matches {specs[0]} vs {specs[1]}: median {statistics.median(sizes):,.0f} bytes, "
          f"{statistics.mean(per_decision):.1f} bytes/decision; largest {size:,} bytes (seed {seed}, "
          f"{decisions} decisions, rounds {rounds}), loads and replays in {seconds * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
