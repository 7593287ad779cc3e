"""X-identical powers list their steps on demand (`amigos.legal.IdenticalSteps`)."""

from __future__ import annotations

import pickle

import pytest

from amigos import actions as A
from amigos.legal import IdenticalSteps, _identical_power_actions
from amigos.position import build_position


@pytest.mark.parametrize("card", ["philosophers_stone", "prism", "athanor"])
def test_an_identical_power_group_is_listed_only_when_looked_into(card):
    s = build_position([
        {"mage": "witch", "item": "alchemy", "in_play": [card], "essences_on": {"athanor": {"elan": 6}},
         "pool": {"elan": 6, "life": 5, "calm": 4, "death": 3, "gold": 2}},
        {"mage": "healer", "item": "protection"},
    ])
    groups = [g for g in s.legal_groups() if isinstance(g, IdenticalSteps)]
    assert len(groups) == 1
    group = groups[0]
    first = group[0]
    assert group._steps is None  # naming the macro listed nothing
    steps = _identical_power_actions(*group._key)
    assert first == steps[0] and A.kind(first) == A.POWER
    assert len(group) == len(steps) > 20 and list(group) == list(steps) and group == steps
    # The flat list holds exactly these steps, in order, where the group stands.
    flat = s.legal_actions()
    at = flat.index(first)
    assert tuple(flat[at:at + len(steps)]) == steps


@pytest.mark.parametrize("look", [False, True])
def test_an_identical_power_group_pickles_on_either_build(look):
    # A parallel search sends positions holding these groups to its worker processes.
    s = build_position([
        {"mage": "witch", "item": "alchemy", "in_play": ["prism"], "pool": {"elan": 3, "life": 2, "calm": 2}},
        {"mage": "healer", "item": "protection"},
    ])
    group = next(g for g in s.legal_groups() if isinstance(g, IdenticalSteps))
    if look:
        len(group)
    copy = pickle.loads(pickle.dumps(group))
    assert isinstance(copy, IdenticalSteps) and copy.key == group.key
    assert copy[0] == group[0] and list(copy) == list(group)
