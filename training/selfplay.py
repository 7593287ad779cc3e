"""Self-play games, recorded compactly and replayed as training positions for the learned value
(`ai.learned`).

`selfplay_game(seed, spec)` plays one game of an agent against itself and returns its deal (seed and
variant), the index of every decision in `legal_actions()`, the value the search gave each choice (for
the mover: fitting to it as well as to the result is learning from a deeper look) and the result.
`positions(game)` replays it and yields every state of the Collect and action phases where the acting
player had a choice, which `amigos-train fit` turns into features (`ai.features`) labelled with the
result.  Recording decisions rather than features lets the features change without playing the games
again.  A game is a function of its seed and the spec (with an iteration budget), so a set of games is
reproducible whatever the number of processes that played it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import amigos
from ai.agent import Agent
from ai.agents import make_agent
from amigos.codes import ACTIONS, COLLECT
from amigos.config import GameConfig
from amigos.rng import derive_seed
from amigos.state import GameState
from matches.play import Game

from .records import chosen

Record = dict[str, Any]  # a self-play game as `selfplay_game` records it (plain JSON data)


def selfplay_game(seed: int, spec: str, config: GameConfig = GameConfig(),
                  make: Callable[..., Agent] = make_agent) -> Record:
    """One game of ``config`` of ``spec`` against itself dealt by ``seed``: {"seed", "variant", "spec",
    "choices", "values", "winners", "vp", "rounds"}, and "expansions" where the game has some;
    ``choices`` holds each decision's index among the legal actions, ``values`` the mover's value of it
    by the search (``info["value"]``, a reward in [0, 1], rounded) or None where the agent did not
    search."""
    state = amigos.deal(seed, config)
    agents = [make(spec, seed=derive_seed(seed, "selfplay", p)) for p in range(state.n_players)]
    game = Game(state, f"self-play game {seed}")
    values: list[float | None] = []
    while not game.is_over():
        agent = agents[game.to_act()]
        action = agent.select(state)
        value = agent.info.get("value")
        values.append(None if value is None else round(float(value), VALUE_DIGITS))
        game.decide(action, 0.0, agent.info)
    for agent in agents:
        agent.close()
    record: dict[str, Any] = {"seed": seed, "variant": config.variant, "spec": spec, "choices": game.choices,
                              "values": values, "winners": state.winners(), "vp": state.victory_points(),
                              "rounds": state.round}
    if config.expansions:
        record["expansions"] = list(config.expansions)
    return record


def dealt(game: Record) -> GameState:
    """The first position of a self-play record's game (`selfplay_game`)."""
    return amigos.deal(game["seed"], GameConfig.parse(game["variant"], expansions=game.get("expansions") or ()))


VALUE_DIGITS = 4  # a search value's decimals in a record


def positions(game: Record) -> Iterator[GameState]:
    """The states of ``game`` (a `selfplay_game` record) in the Collect and action phases where the
    acting player chose among two or more actions, in order; each is yielded before its decision
    (do not keep or change it: the replay goes on from it)."""
    for state, _ in searched_positions(game):
        yield state


def searched_positions(game: Record) -> Iterator[tuple[GameState, float | None]]:
    """`positions` with the search's value of each for its mover (None where the record has none:
    a record from before values were kept, or a decision the agent made without searching);
    `training.records.RecordError` for a choice the position has not (the record is checked as it
    replays)."""
    state = dealt(game)
    values = game.get("values") or [None] * len(game["choices"])
    for k, (index, value) in enumerate(zip(game["choices"], values)):
        legal = state.legal_actions()
        if len(legal) > 1 and state.phase in (ACTIONS, COLLECT):
            yield state, value
        state.apply(chosen(legal, index, game, k))


def outcome_for(game: Record, p: int) -> float:
    """Player ``p``'s result: 1 for a win, 0.5 for a shared win, 0 for a loss."""
    won = game["winners"]
    if p not in won:
        return 0.0
    return 1.0 / len(won)
