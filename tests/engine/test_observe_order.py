"""A player's components in play are listed in an order that tells nothing of the deal: the entities'
order is the deal's (a player's first three artifacts were their dealt hand), so two positions that
differ only in which entity holds which played card are the same to every viewer."""

from __future__ import annotations

import pytest

from amigos.codes import IN_PLAY
from amigos.config import GameConfig
from amigos.observe import SPECTATOR
from amigos.state import GameState
from tests.helpers import random_positions


def _swapped(state: GameState, a: int, b: int) -> GameState:
    """``state`` with the played artifacts ``a`` and ``b`` (one owner's) in each other's entity."""
    twin = state.clone()
    cards = list(twin.cards)
    cards[a], cards[b] = cards[b], cards[a]
    twin.cards = tuple(cards)
    twin.turned[a], twin.turned[b] = twin.turned[b], twin.turned[a]
    for k in range(5):
        twin.ess[5 * a + k], twin.ess[5 * b + k] = twin.ess[5 * b + k], twin.ess[5 * a + k]
    twin.names = {c.id: e for e, c in enumerate(cards)}
    twin._legal = twin._groups = None
    return twin


def _late_position(seed: int, players: int) -> tuple[GameState, int, int] | None:
    """A position of a random game with a player holding two artifacts in play, and those two."""
    for state in random_positions(seed, GameConfig(players=players), limit=400):
        for p in range(players):
            played = [e for e in range(state.n_art) if state.loc[e] == IN_PLAY and state.owner[e] == p]
            if len(played) >= 2 and state.round >= 3:
                return state.clone(), played[0], played[-1]
    return None


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 2), (3, 3), (4, 4)])
def test_played_cards_are_listed_without_the_deal_order(seed: int, players: int) -> None:
    found = _late_position(seed, players)
    assert found is not None
    state, a, b = found
    twin = _swapped(state, a, b)
    assert twin.digest() != state.digest()
    for viewer in [*range(players), SPECTATOR]:
        assert twin.observation(viewer) == state.observation(viewer)
