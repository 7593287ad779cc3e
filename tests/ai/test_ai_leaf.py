"""The search's shortcut evaluation of leaves agrees exactly with applying the action and evaluating."""

import random

import pytest

import amigos
from ai.evaluate import evaluate
from ai.leaf import leaf_value


@pytest.mark.parametrize("seed", range(12))
def test_leaf_value_equals_real_child(seed):
    rnd = random.Random(seed)
    s = amigos.new_game(seed, ("standard", "draft", "first_game")[seed % 3],
                        ruleset=("official", "reference")[seed % 2])
    s.auto_chance = False  # chance outcomes are enumerated, as in the bridge
    checked = 0
    steps = 0
    while not s.is_terminal() and steps < 400:
        legal = s.legal_actions()
        for a in legal:
            for q in range(s.n_players):
                fast = leaf_value(s, a, q)
                if fast is not None:
                    child = s.clone()
                    child.apply_unchecked(a)
                    assert fast == evaluate(child, q), (a, q)
                    checked += 1
        s.apply(legal[rnd.randrange(len(legal))])
        steps += 1
    assert checked > 100
