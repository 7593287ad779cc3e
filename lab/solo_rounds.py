"""Rounds the AI plays alone (every rival has passed): its points when the round ends against the most
points any line of moves reaches (issue 50's measure), over positions from self-play.

    python -m lab.solo_rounds --agent mcts:iters=1000 --positions 100 [--budget 20000]

For each game of the agent against itself, the first position of each round where the mover plays
alone is taken; the most points the rest of the round can reach is found by `ai.planner.Planner` valued
by points (the moves as the search sees them, on the true position: chance as it will fall), and the
agent then plays the round out on a copy of the position.  A line a position: the round, the points
the best line reaches, the agent's; then how many are equal, and the mean shortfall.  Positions whose
best line is past ``--budget`` positions are skipped (counted).
"""

from __future__ import annotations

import argparse

from ai.agents import make_agent
from ai.evaluator import default_evaluator
from ai.planner import Planner, alone
from amigos.config import GameConfig
from amigos.state import GameState
from matches.match import Match


def points(player: int) -> object:
    """The value of a position where a plan stops: ``player``'s points."""
    return lambda s: float(s.victory_points()[player])


def played_out(state: GameState, agent: object, player: int) -> int:
    """``player``'s points once ``agent`` has played the rest of the round from a copy of ``state``."""
    s = state.clone()
    start = s.round
    while not s.is_terminal() and s.round == start and s.current_player() == player:
        legal = s.legal_actions()
        s.apply(legal[0] if len(legal) == 1 else agent.select(s))  # type: ignore[attr-defined]
    return s.victory_points()[player]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="mcts:iters=1000")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=700)
    args = parser.parse_args()
    evaluator = default_evaluator()
    equal = short = skipped = 0
    shortfall = 0
    game = 0
    while equal + short < args.positions:
        match = Match.new(args.seed + game, [args.agent] * 2, GameConfig(), fmt="game")
        agents = [make_agent(args.agent, seed=match.decision_seed(p)) for p in range(2)]
        seen: set[tuple[int, int]] = set()
        while not match.is_over() and equal + short < args.positions:
            p = match.to_act()
            if match.is_over():
                break
            state = match.state
            if alone(state, p) and (state.round, p) not in seen and len(state.legal_actions()) > 1:
                seen.add((state.round, p))
                planner = Planner(p, points(p), evaluator, args.budget)  # type: ignore[arg-type]
                best = planner.first_moves(state.clone())
                if best is None:
                    skipped += 1
                else:
                    top = int(max(v for _, v in best.values()))
                    mine = played_out(state, make_agent(args.agent, seed=match.decision_seed(p)), p)
                    equal += mine >= top
                    short += mine < top
                    shortfall += max(0, top - mine)
                    print(f"game {game + 1}, round {state.round}: best {top}, the agent {mine}", flush=True)
            match.decide(agents[p].select(state))
        game += 1
    print(f"{equal + short} positions ({skipped} past the budget, skipped): {equal} equal to the best line, "
          f"{short} short of it, {shortfall / max(1, equal + short):.2f} points short on average")


if __name__ == "__main__":
    main()
