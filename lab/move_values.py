"""How a puzzle's moves are valued: by the search at the root, by the learned value one move deep, and
one move deep followed by a search of the reply, each averaged over worlds dealt from what the mover
can see.

    python -m lab.move_values great-pyramid-not-the-blind-top-1 [--iters 8288] [--reply-iters 3000]
        [--worlds 40] [--reply-worlds 12] [--top 4]

When the root's values of two moves are within its noise but the deeper looks tell them apart, the
search, not the value, lost the puzzle; when every look rates them alike, the value did.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

import amigos
from ai.agents import make_agent
from ai.evaluator import packaged_model
from ai.mcts import MCTSAgent, group
from ai.rewards import learned_rewards
from amigos.determinize import Determinizer
from amigos.state import GameState
from lab.puzzles import PUZZLES
from matches.puzzles import load_puzzles, position_of

WORLDS_SEED = 1000  # the dealt worlds are Determinizer deals of seeds 1000, 1001, ...


def root_values(state: GameState, agent: MCTSAgent) -> list[tuple[int, float, tuple]]:
    """(visits, mean value, macro) of every root move the search visited, most visited first."""
    stats, _ = agent.root_stats(state, state.current_player())
    return sorted(((n, w / n, key) for key, (n, w) in stats.items() if n), reverse=True)


def one_move(state: GameState, deal: Callable[[int], GameState], agent: MCTSAgent, variants: list[tuple],
             worlds: int, reply_iters: int = 0) -> list[float]:
    """The mover's value after the move (its way chosen as the agent would) in each of ``worlds``
    worlds that ``deal`` (the mover's `Determinizer`) deals: the learned value, or with ``reply_iters``
    the best value a search of that many iterations finds for whoever moves next (the mover's share
    of it)."""
    me = state.current_player()
    values = []
    for k in range(worlds):
        world = deal(WORLDS_SEED + k)
        world.apply(agent.variant(world, variants))
        if not reply_iters or world.is_terminal():
            values.append(learned_rewards(world, packaged_model())[me])
            continue
        mover = world.current_player()
        best = max(v for _, v, _ in root_values(world, make_agent(f"mcts:iters={reply_iters}", seed=k)))
        values.append(best if mover == me else 1.0 - best)
    return values


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzle", help="a puzzle id (tests/data/puzzles/ID.json)")
    ap.add_argument("--iters", type=int, default=8288, help="the root search's iterations")
    ap.add_argument("--reply-iters", type=int, default=3000, help="the search of the reply to each move")
    ap.add_argument("--worlds", type=int, default=40, help="dealt worlds for the learned value")
    ap.add_argument("--reply-worlds", type=int, default=12, help="dealt worlds searched after each move")
    ap.add_argument("--top", type=int, default=4, help="how many of the root's moves to look deeper at")
    args = ap.parse_args(argv)
    found = [p for p in load_puzzles(PUZZLES) if p["id"] == args.puzzle]
    if not found:
        print(f"error: no puzzle {args.puzzle!r} in {PUZZLES}", file=sys.stderr)
        return 2
    state = position_of(found[0])
    groups = group(state, True)
    agent = make_agent(f"mcts:iters={args.iters}", seed=1)
    assert isinstance(agent, MCTSAgent)
    rows = root_values(state, agent)
    deal = Determinizer(state, state.current_player()).deal
    print(f"{'visits':>7} {'root':>6} {'value':>6} {'reply':>6}  move")
    for n, value, key in rows[:args.top]:
        if key not in groups:
            continue
        static = one_move(state, deal, agent, groups[key], args.worlds)
        replied = one_move(state, deal, agent, groups[key], args.reply_worlds, args.reply_iters)
        print(f"{n:7d} {value:6.3f} {sum(static) / len(static):6.3f} {sum(replied) / len(replied):6.3f}  "
              f"{amigos.action_text(state, groups[key][0])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
