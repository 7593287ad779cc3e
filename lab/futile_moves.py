"""How often an agent plays a move that only spends (`ai.futile`): self-play games of one agent spec,
every decision among two moves or more checked.

    python -m lab.futile_moves --agent mcts:iters=300 --games 100 [--players 2] [--unfiltered]

``--unfiltered`` plays with the search's filter of futile moves turned off (today's agent as it was
before the filter), for the figure to compare with.  Prints a line a game and the totals: decisions,
those that offered a futile move, and the futile moves chosen (the target is 0).
"""

from __future__ import annotations

import argparse
import time

import amigos
from ai import mcts
from ai.agents import make_agent
from ai.futile import futile
from amigos.config import GameConfig
from matches.match import Match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="mcts:iters=300")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--unfiltered", action="store_true")
    parser.add_argument("--show", action="store_true", help="print each futile move chosen")
    args = parser.parse_args()
    if args.unfiltered:
        mcts.useful = lambda state, groups: groups  # type: ignore[assignment,misc,unused-ignore]
    decisions = offered = chosen = 0
    start = time.perf_counter()
    for g in range(args.games):
        match = Match.new(args.seed + g, [args.agent] * args.players, GameConfig(players=args.players), fmt="game")
        agents = [make_agent(args.agent, seed=match.decision_seed(p)) for p in range(args.players)]
        mine = 0
        while not match.is_over():
            p = match.to_act()
            if match.is_over():
                break
            state = match.state
            legal = state.legal_actions()
            action = agents[p].select(state)
            if len(legal) > 1:
                decisions += 1
                if any(futile(state, a) for a in legal):
                    offered += 1
                    if futile(state, action):
                        chosen += 1
                        mine += 1
                        if args.show:
                            print(f"  round {state.round}, {state.vp(p)} points: {amigos.action_text(state, action)}")
            match.decide(action)
        print(f"game {g + 1}: {mine} futile moves chosen", flush=True)
    print(f"{args.games} games of {args.agent} ({'unfiltered' if args.unfiltered else 'filtered'}), "
          f"{time.perf_counter() - start:.0f} s: {decisions} decisions, {offered} offered a futile move, "
          f"{chosen} futile moves chosen")


if __name__ == "__main__":
    main()
