"""Versions stay comparable: a seed deals the same game and its decisions keep their protocol form
(`tests/regen_engine_golden.py` writes the golden file; it changes only with the rules)."""

from __future__ import annotations

import json

import pytest

from tests.regen_engine_golden import GAMES, GOLDEN, record

_GOLDEN = {(g["seed"], g["variant"]): g for g in json.loads(GOLDEN.read_text())}


@pytest.mark.parametrize("seed, variant", GAMES)
def test_a_seed_deals_and_plays_the_golden_game(seed, variant):
    golden = _GOLDEN[(seed, variant)]
    now = record(seed, variant)
    assert now["first_legal"] == golden["first_legal"]
    assert now["steps"] == golden["steps"]
    assert now["digests"] == golden["digests"]
