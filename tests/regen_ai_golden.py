"""The golden AI games of tests/ai/test_ai_golden.py: whole games of seeded agents with iteration budgets,
every decision in protocol form.

They pin what the AI plays, so that a refactoring meant to keep its moves keeps them, and so that
the compiled build plays exactly the moves of the pure source (CI runs the test against both).  Run
``.venv/bin/python tests/regen_ai_golden.py`` to rewrite ``tests/golden/ai_games.json`` only after a
change meant to change the AI's play, and say so in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script from anywhere
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import amigos  # noqa: E402
from ai.agents import make_agent  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden" / "ai_games.json"
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
    GOLDEN.write_text(json.dumps([record(*game) for game in GAMES], indent=0) + "\n")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
