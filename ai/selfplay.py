"""Self-play games, recorded compactly and replayed as training positions for the learned value
(`ai.learned`).

`selfplay_game(seed, spec)` plays one game of an agent against itself and returns its deal (seed and
variant), the index of every decision in `legal_actions()` and the result.  `positions(game)` replays
it and yields every state of the Collect and action phases where the acting player had a choice,
which `benchmarks/train.py` turns into features (`ai.features`) labelled with the result.  Recording
decisions rather than features lets the features change without playing the games again.  A game is a
function of its seed and the spec (with an iteration budget), so a set of games is reproducible
whatever the number of processes that played it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import amigos
from amigos.rng import derive_seed
from amigos.state import ACTIONS, COLLECT, GameState

from .agent import Agent, Game, play_out
from .agents import make_agent


def selfplay_game(seed: int, spec: str, variant: str = "standard", make: Callable[..., Agent] = make_agent) -> dict:
    """One game of ``spec`` against itself dealt by ``seed``: {"seed", "variant", "spec", "choices",
    "winners", "vp", "rounds"}; ``choices`` holds each decision's index among the legal actions."""
    state = amigos.new_game(seed, variant)
    agents = [make(spec, seed=derive_seed(seed, "selfplay", p)) for p in range(state.n_players)]
    game = Game(state, f"self-play game {seed}")
    play_out(game, agents)
    for agent in agents:
        agent.close()
    return {"seed": seed, "variant": variant, "spec": spec, "choices": game.choices, "winners": state.winners(),
            "vp": state.victory_points(), "rounds": state.round}


def positions(game: dict) -> Iterator[GameState]:
    """The states of ``game`` (a `selfplay_game` record) in the Collect and action phases where the
    acting player chose among two or more actions, in order; each is yielded before its decision
    (do not keep or change it: the replay goes on from it)."""
    state = amigos.new_game(game["seed"], game["variant"])
    for index in game["choices"]:
        legal = state.legal_actions()
        if len(legal) > 1 and state.phase in (ACTIONS, COLLECT):
            yield state
        state.apply(legal[index])


def outcome_for(game: dict, p: int) -> float:
    """Player ``p``'s result: 1 for a win, 0.5 for a shared win, 0 for a loss."""
    won = game["winners"]
    if p not in won:
        return 0.0
    return 1.0 / len(won)
