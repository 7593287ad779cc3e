"""MCTS throughput: ``python benchmarks/mcts_speed.py [--seconds 3]`` prints iterations per second with
1 and 2 worker processes from a mid-game position, and the cost of one determinisation."""

from __future__ import annotations

import argparse
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai.agents import make_agent  # noqa: E402
from amigos.determinize import determinize  # noqa: E402
from test_ai_speed import mid_game  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rollout", type=int, default=30)
    args = ap.parse_args(argv)
    s = mid_game()
    for workers in (1, 2):
        agent = make_agent(f"mcts:time={args.seconds},workers={workers},seed=1,rollout={args.rollout}")
        if workers > 1:
            agent.select(s)  # warm the worker processes up
        start = time.perf_counter()
        agent.select(s)
        elapsed = time.perf_counter() - start
        print(f"workers={workers}: {agent.info['iterations'] / elapsed:,.0f} iterations/s "
              f"({agent.info['iterations']} in {elapsed:.2f} s, rollout={args.rollout})")
        close = getattr(agent, "close", None)
        if close:
            close()
    p = s.current_player()
    n = 2000
    print(f"determinize: {min(timeit.repeat(lambda: determinize(s, p, 7), number=n, repeat=3)) / n * 1e6:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
