"""Whole games of seeded agents with iteration budgets, every decision in protocol form
(`tests/ai/test_seeded_games.py`: each plays the same twice, and alike in the compiled build and the
pure source).

    python -m tests.ai.seeded_games     # the games as JSON lines, as the build at hand plays them
"""

from __future__ import annotations

import json

import amigos
from ai.agents import make_agent

GAME_2 = "game 2"  # game 2 of a match: the loser of game 1 names the first player, then the redraft
GAMES = [
    (4, "standard", ("mcts:iters=120,seed=4", "greedy")),
    (5, "standard", ("mcts:iters=80,seed=5", "mcts:iters=80,seed=6,value=hand,rollout=30")),
    (6, "draft", ("expectimax:depth=1", "mcts:iters=60,seed=7")),
    (7, "first_game", ("mcts:iters=80,seed=8", "mcts:iters=80,seed=9")),
    (8, GAME_2, ("mcts:iters=60,seed=10,draft=0", "mcts:iters=60,seed=11")),
    (9, "standard", ("mcts:iters=80,seed=12,value=linear", "mcts:iters=80,seed=13")),
]


def game_2(seed: int) -> amigos.GameState:
    """Game 2 of a match whose game 1 dealt the first 16 artifacts, the loser of game 1 being player 1."""
    from amigos import cards as C
    return amigos.next_game(seed, [C.MAGES[0].id, C.MAGES[1].id], [c.id for c in C.ARTIFACTS[:16]], 1, True)


def record(seed: int, variant: str, specs: tuple[str, ...]) -> dict:
    """Game ``seed`` of ``variant`` played to its end by the agents ``specs`` (seat order): every
    decision in protocol form, the final digest and points."""
    state = game_2(seed) if variant == GAME_2 else amigos.new_game(seed, variant)
    agents = [make_agent(spec) for spec in specs]
    steps = []
    try:
        while not state.is_terminal():
            action = agents[state.current_player()].select(state)
            steps.append(amigos.action_json(state, action))
            state.apply(action)
    finally:
        for agent in agents:
            agent.close()
    return {"seed": seed, "variant": variant, "agents": list(specs), "steps": steps,
            "digest": state.digest(), "points": state.victory_points()}


def main() -> None:
    for game in GAMES:
        print(json.dumps(record(*game)), flush=True)


if __name__ == "__main__":
    main()
