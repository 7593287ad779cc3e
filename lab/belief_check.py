"""Whether the belief tells the rival's real cards from the worlds a search deals.

    AMIGOS_POLICY_NET=lab/results/policy-1.npz python lab/belief_check.py --games 10 --worlds 31

Plays games of ``--agent`` against itself; at every third decision of player 1 (once the rival has
made a choice) it deals ``--worlds`` worlds for player 1, adds the real position as one more, and
weighs them all (`ai.belief.Belief.weights`).  A belief that knows something gives the real position
more than an equal share: the mean of (its share x the number of worlds) is above 1.  Prints that mean,
its median, and the effective number of worlds, for each temper given.

With ``--records FILE`` (games as `amigos-train neural` keeps them) it measures the model alone: at
every other decision of the first 60 games, the log-likelihood of the move made with the mover's
real cards and with their hidden cards dealt again at that moment (a world of the rival's).
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


def sensitivity(records: Path) -> str:
    """The model's log-likelihood of the moves made, with the real hand and with a dealt one."""
    import json

    from ai.policy import moves_of
    from amigos.actions import macro_key
    from amigos.determinize import determinize
    policy = default_policy()
    real, dealt, impossible = [], [], 0
    for line in records.read_text(encoding="utf-8").splitlines()[:60]:
        game = json.loads(line)
        state = amigos.deal(game["seed"], GameConfig(expansions=tuple(game["expansions"])))
        for i, index in enumerate(game["choices"]):
            action = state.legal_actions()[index]
            moves = moves_of(state)
            if len(moves) > 1 and state.round >= 1 and i % 2 == 0:
                move, mover = macro_key(action), state.current_player()
                world = determinize(state, 1 - mover, i)
                theirs = moves_of(world)
                if move in theirs:
                    real.append(float(np.log(policy.probabilities(state, moves)[moves.index(move)])))
                    dealt.append(float(np.log(policy.probabilities(world, theirs)[theirs.index(move)])))
                else:
                    impossible += 1
            state.apply(action)
    return (f"{len(real) + impossible} decisions: the move made has log-likelihood {statistics.mean(real):.3f} "
            f"with the real hand and {statistics.mean(dealt):.3f} with a dealt one; it is not legal in "
            f"{impossible} of the dealt worlds")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--worlds", type=int, default=31)
    ap.add_argument("--agent", default="mcts:iters=200")
    ap.add_argument("--temper", type=float, nargs="+", default=[B.TEMPER])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--records", type=Path, help="measure the model alone on these games' decisions")
    args = ap.parse_args()
    if args.records is not None:
        print(sensitivity(args.records))
        return 0
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
