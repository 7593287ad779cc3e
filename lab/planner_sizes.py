"""How large the rest of a round is where the mover plays alone (`ai.planner`): self-play games of an
agent, and for every decision where every rival has passed, the positions a plan expands in one
determinisation (up to ``--budget``) and its time.

    python -m lab.planner_sizes --agent mcts:iters=200,solo=0 --games 4 [--budget 5000]

Prints a line a position (legal actions, positions expanded, seconds; "over" past the budget) and a
summary.
"""

from __future__ import annotations

import argparse
import time

from ai.agents import make_agent
from ai.evaluator import default_evaluator
from ai.planner import Planner, alone
from amigos.config import GameConfig
from amigos.determinize import Determinizer
from matches.match import Match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="mcts:iters=200,solo=0")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--budget", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=300)
    args = parser.parse_args()
    evaluator = default_evaluator()
    sizes: list[int] = []
    over = 0
    for g in range(args.games):
        match = Match.new(args.seed + g, [args.agent] * 2, GameConfig(), fmt="game")
        agents = [make_agent(args.agent, seed=match.decision_seed(p)) for p in range(2)]
        while not match.is_over():
            p = match.to_act()
            if match.is_over():
                break
            state = match.state
            if alone(state, p) and len(state.legal_actions()) > 1:
                world = Determinizer(state, p).deal(7)
                planner = Planner(p, lambda s, q=p: evaluator.leaf(2, q)(s)[q], evaluator, args.budget)
                start = time.perf_counter()
                planned = planner.first_moves(world)
                seconds = time.perf_counter() - start
                print(f"{len(state.legal_actions())} legal actions: {planner.expanded} positions, {seconds:.3f} s"
                      + ("" if planned is not None else " (over)"), flush=True)
                sizes.append(planner.expanded)
                over += planned is None
            match.decide(agents[p].select(state))
    done = sorted(s for s in sizes if s <= args.budget)
    print(f"{len(sizes)} positions: {over} over {args.budget}; the others' median "
          f"{done[len(done) // 2] if done else 0}, largest {done[-1] if done else 0}")


if __name__ == "__main__":
    main()
