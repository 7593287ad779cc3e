"""Plain speed report: ``python -m benchmarks.speed [--games 50] [--variant standard] [--seed 0]``.

Plays N uniform-random 2-player games (``random.Random(seed)`` choices, ``apply_unchecked``) and prints
decisions per second, then the time of one ``clone()`` and of one ``legal_actions()`` + ``apply_unchecked``
step from a mid-game position, in microseconds.

``--expansion lux`` compares instead: N base games and N games with the expansion, played alternately
(so the machine's load falls on both alike), and prints each one's decisions per CPU second and the
expansion's share of the base game's speed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import timeit

import amigos
from benchmarks.bench_positions import mid_game, random_game


def compare_expansion(games: int, variant: str, first: int, expansions: tuple[str, ...]) -> int:
    """Base and expansion random games alternately; prints decisions per CPU second of each."""
    random_game(first, variant)  # (the card steps' caches fill in a first game of each)
    random_game(first, variant, expansions=expansions)
    decisions = {(): 0, expansions: 0}
    seconds = {(): 0.0, expansions: 0.0}
    for seed in range(first, first + games):
        for which in ((), expansions):
            start = time.process_time()
            decisions[which] += random_game(seed, variant, expansions=which)
            seconds[which] += time.process_time() - start
    base = decisions[()] / seconds[()]
    with_expansion = decisions[expansions] / seconds[expansions]
    print(f"{games} random {variant} games each, decisions per CPU second:")
    print(f"  base game:            {base:,.0f} ({decisions[()]} decisions)")
    print(f"  with {'+'.join(expansions)}:             {with_expansion:,.0f} ({decisions[expansions]} decisions)")
    print(f"  expansion / base:     {with_expansion / base:.0%}")
    return 0


def main(argv=None) -> int:
    from lab.run_report import say_build
    say_build()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--variant", default="standard", choices=amigos.VARIANTS)
    ap.add_argument("--seed", type=int, default=0, help="first game seed")
    ap.add_argument("--expansion", choices=("lux",), help="compare the base game's speed with this expansion's")
    args = ap.parse_args(argv)
    if args.expansion:
        return compare_expansion(args.games, args.variant, args.seed, (args.expansion,))

    counts = []
    t0 = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        counts.append(random_game(seed, args.variant))
    elapsed = time.perf_counter() - t0
    total = sum(counts)
    print(f"{args.games} random {args.variant} games: {total} decisions in {elapsed:.2f} s")
    print(f"  decisions/second: {total / elapsed:,.0f}")
    print(f"  games/second:     {args.games / elapsed:.1f}")
    print(f"  decisions/game:   mean {total / args.games:.0f}, min {min(counts)}, max {max(counts)}")

    mid = mid_game()
    n = 20000
    clone_us = min(timeit.repeat(mid.clone, number=n, repeat=5)) / n * 1e6
    print(f"clone() of a mid-game state (round {mid.round}, {len(mid.clone().legal_actions())} legal actions): "
          f"{clone_us:.2f} us")

    rng = random.Random(0)
    clones = [mid.clone() for _ in range(5000)]
    t0 = time.perf_counter()
    for c in clones:
        legal = c.legal_actions()
        c.apply_unchecked(legal[rng.randrange(len(legal))])
    step_us = (time.perf_counter() - t0) / len(clones) * 1e6
    print(f"legal_actions() + apply_unchecked() from it: {step_us:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
