"""How many search iterations an MCTS agent makes in a second of a real game: the budget that stands for
"1 s a choice" in the strength evaluation (`evaluate.py --iters-per-second`).

    python -m lab.calibrate --agent mcts --games 4                 # this checkout's agent
    python -m lab.calibrate --agent mcts --commit 1088fd9 --games 4   # an earlier commit's

Plays ``--games`` games of the agent with a budget of ``--iters`` iterations against itself (one
process, so run it on an otherwise idle machine) and divides the iterations of the searches that used
the whole budget by the time they took.  Mid-game positions of random play (`mcts_speed.py`) are
cheaper to search than the positions agents reach, hence a command of its own.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import amigos
from ai.agents import make_agent
from amigos.rng import derive_seed


def calibrate(spec: str, iters: int, games: int, seed: int,
              make: Callable[..., Any] = make_agent) -> tuple[float, int]:
    """(iterations per second over the full-budget searches, number of such searches)."""
    done = seconds = 0.0
    searches = 0
    for k in range(games):
        game_seed = derive_seed(seed, "calibrate", k)
        state = amigos.new_game(game_seed)
        agents = [make(f"{spec}:iters={iters}", seed=derive_seed(game_seed, "seat", p)) for p in range(2)]
        while not state.is_terminal():
            agent = agents[state.current_player()]
            start = time.perf_counter()
            action = agent.select(state)
            elapsed = time.perf_counter() - start
            if agent.info.get("iterations") == iters:
                done += iters
                seconds += elapsed
                searches += 1
            state.apply(action)
        for agent in agents:
            agent.close()
    return (done / seconds if seconds else 0.0), searches


def main(argv: list[str] | None = None) -> int:
    from lab.run_report import say_build
    say_build()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", default="mcts", help="the agent kind, without a budget")
    ap.add_argument("--commit", help="the agent of this commit's ai/ (on today's engine)")
    ap.add_argument("--iters", type=int, default=2000)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    spec, make = args.agent, make_agent
    if args.commit:
        from lab.against_commit import Then
        spec, make = f"{args.commit}:{args.agent}", Then(args.commit, f"{args.commit}:")
    rate, searches = calibrate(spec, args.iters, args.games, args.seed, make)
    print(f"{spec}: {rate:,.0f} iterations/s over {searches} searches of {args.iters} iterations "
          f"({args.games} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
