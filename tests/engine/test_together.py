"""`amigos.together`: the steps every player takes at once (mages, draft picks, Collect).  The engine
takes them in seat order; `ahead` finds a player's decision before the players ahead of them have
chosen.  Checked on random games, every player count and both game variants: whatever the players
ahead choose, the player's options at their next decision are the ones `ahead` found, and an answer
given ahead is legal when the engine comes to it."""

from __future__ import annotations

import random

import pytest

import amigos
from amigos.codes import ACTIONS, COLLECT
from amigos.config import GameConfig
from amigos.together import ahead, deciding, together

CONFIGS = [GameConfig(players=n) for n in (2, 3, 4)] + [
    GameConfig(players=5, expansions=("lux",)), GameConfig(players=3, variant="draft"),
    GameConfig(players=2, expansions=("lux",))]


def _steps_taken_together(config: GameConfig, seed: int, limit: int = 3000):
    """Every position of a random game where a step taken together begins (with the game's rng)."""
    state = amigos.deal(seed, config)
    rng = random.Random(seed)
    last = None
    for _ in range(limit):
        if state.is_terminal():
            return
        key = together(state)
        if key is not None and key != last:
            yield state.clone(), rng.random()
        last = key
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p-{c.variant}-{'+'.join(c.expansions)}")
def test_a_players_options_ahead_are_theirs_whatever_the_others_choose(config):
    checked = collects = 0
    for seed in range(3):
        for start, r in _steps_taken_together(config, seed):
            rng = random.Random(r)
            for seat in deciding(start):
                answers: list = []
                place = ahead(start, seat, answers)
                assert place is not None and place[1]
                # The players take the step in seat order, choosing at random; ``seat`` answers as
                # it did ahead, and each of its options is the one found ahead.
                state = start.clone()
                while together(state) == together(start):
                    acts = state.legal_actions()
                    if state.current_player() == seat:
                        assert place is not None and place[1]
                        assert acts == place[0].legal_actions()
                        answer = rng.choice(acts)
                        answers.append(answer)
                        state.apply(answer)
                        place = ahead(start, seat, answers)
                        checked += 1
                        collects += start.phase == COLLECT
                    else:
                        state.apply(rng.choice(acts))
                assert place is not None and not place[1]  # (no decision left for the seat)
    assert checked > 10
    if config.variant != "draft":
        assert collects > 0


def test_outside_a_step_taken_together_there_is_nothing_ahead():
    state = amigos.deal(4, GameConfig(players=2))
    rng = random.Random(4)
    while state.phase != ACTIONS:
        state.apply(rng.choice(state.legal_actions()))
    assert together(state) is None and ahead(state, 0, []) is None and deciding(state) == []


def test_an_answer_that_belongs_to_no_position_of_the_step_is_refused():
    state = amigos.deal(5, GameConfig(players=2))
    other = amigos.deal(6, GameConfig(players=2))
    seat = state.current_player()
    wrong = next(a for a in other.legal_actions() if a not in ahead(state, seat, [])[0].legal_actions())
    assert ahead(state, seat, [wrong]) is None
