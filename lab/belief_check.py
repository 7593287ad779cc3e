"""Whether the belief tells the rival's real cards from the worlds a search deals.

    AMIGOS_POLICY_NET=lab/results/policy-1.npz python lab/belief_check.py --games 10 --worlds 31

Plays games of ``--agent`` against itself; at every third decision of player 1 (once the rival has
made a choice) it deals ``--worlds`` worlds for player 1, adds the real position as one more, and
weighs them all (`ai.belief.Belief.weights`).  A belief that knows something gives the real position
more than an equal share: the mean of (its share x the number of worlds) is above 1.  Prints that mean,
its median, and the effective number of worlds, for each temper given.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # (an installed build, if any, first)

import numpy as np  # noqa: E402

import amigos  # noqa: E402
from ai import belief as B  # noqa: E402
from ai.agents import make_agent  # noqa: E402
from ai.policy import default_policy  # noqa: E402
from amigos.config import GameConfig  # noqa: E402
from amigos.determinize import Determinizer  # noqa: E402

SEARCHER = 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--worlds", type=int, default=31)
    ap.add_argument("--agent", default="mcts:iters=200")
    ap.add_argument("--temper", type=float, nargs="+", default=[B.TEMPER])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    policy = default_policy()
    found: dict[float, tuple[list[float], list[float]]] = {t: ([], []) for t in args.temper}
    for seed in range(args.seed, args.seed + args.games):
        state = amigos.deal(seed, GameConfig())
        agents = [make_agent(args.agent, seed=2 * seed + p) for p in range(2)]
        belief = B.Belief()
        k = 0
        while not state.is_terminal():
            mover = state.current_player()
            if mover == SEARCHER and len(state.legal_actions()) > 1 and belief.rival_choices(SEARCHER) and k % 3 == 0:
                dealer = Determinizer(state, SEARCHER)
                worlds = [dealer.deal(s) for s in range(args.worlds)] + [state]
                for temper in args.temper:
                    B.TEMPER = temper
                    shares = belief.weights(worlds, policy, SEARCHER)
                    found[temper][0].append(float(shares[-1]) * len(worlds))
                    found[temper][1].append(float(1.0 / np.sum(shares * shares)))
            k += 1
            action = agents[mover].select(state)
            belief.observe(state, action)
            state.apply(action)
    for temper, (ratios, ess) in found.items():
        print(f"temper {temper:g}: {len(ratios)} positions, the real cards' share x {args.worlds + 1}: mean "
              f"{statistics.mean(ratios):.3f}, median {statistics.median(ratios):.3f}; effective worlds "
              f"{statistics.mean(ess):.1f} of {args.worlds + 1}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
