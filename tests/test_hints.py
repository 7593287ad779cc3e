"""A hint says why in a player's words: what the move buys, what it stops, what it costs, and how the
search rated it against the next best."""

from __future__ import annotations

from amigos import actions as A
from amigos.position import build_position
from amigos.text import action_text
from amigos_cli.views.hints import hint_text, reasons


def _find(s, card_id):
    return next(e for e, c in enumerate(s.cards) if c.id == card_id)


def test_a_discard_names_what_its_essences_pay_for():
    s = build_position([{"mage": "seer", "item": "research", "hand": ["dragon_teeth", "hawk"], "pool": {"elan": 1}},
                        {"mage": "healer", "item": "protection"}])
    hawk, teeth = _find(s, "hawk"), _find(s, "dragon_teeth")
    for_death = next(a for a in s.legal_actions() if a[0] == A.DISCARD and a[2] == hawk and a[3][3] == 2)
    assert reasons(s, for_death) == ["then you can pay for Dragon Teeth"]
    for_calm = next(a for a in s.legal_actions() if a[0] == A.DISCARD and a[2] == hawk and a[3][2] == 2)
    assert reasons(s, for_calm) == []
    assert not any(a[0] == A.PLACE and a[2] == teeth for a in s.legal_actions())  # (not before it)


def test_a_claim_the_rival_could_make_says_so_and_a_first_pass_takes_the_start():
    both = {"life": 8, "calm": 4}
    s = build_position([{"mage": "seer", "item": "research", "pool": both},
                        {"mage": "healer", "item": "protection", "pool": both}], places_of_power=["sacred_grove"])
    claim = next(a for a in s.legal_actions() if a[0] == A.CLAIM_POP)
    assert "before the rival, who can pay for it too" in reasons(s, claim)
    poor = build_position([{"mage": "seer", "item": "research", "pool": both},
                           {"mage": "healer", "item": "protection"}], places_of_power=["sacred_grove"])
    claim = next(a for a in poor.legal_actions() if a[0] == A.CLAIM_POP)
    assert "before the rival, who can pay for it too" not in reasons(poor, claim)
    passing = next(a for a in poor.legal_actions() if a[0] == A.PASS)
    assert reasons(poor, passing) == ["passing first, you start the next round"]


def test_the_hint_line_gives_the_reasons_then_the_chance_against_the_next_best():
    s = build_position([{"mage": "seer", "item": "research", "hand": ["dragon_teeth", "hawk"], "pool": {"elan": 1}},
                        {"mage": "healer", "item": "protection"}])
    hawk = _find(s, "hawk")
    move = next(a for a in s.legal_actions() if a[0] == A.DISCARD and a[2] == hawk and a[3][3] == 2)
    other = next(a for a in s.legal_actions() if a[0] == A.PASS)
    passing = action_text(s, other)  # ("Pass, taking Alchemy")
    line = hint_text(s, move, {"iterations": 600, "value": 0.612,
                               "runner_up": {"action": other, "visits": 100, "value": 0.55}})
    assert line == ("Hint: Discard Hawk for 2 death. Then you can pay for Dragon Teeth; about 61% to win "
                    f"(next best: {passing}, 55%).")
    assert hint_text(s, other, {}) == f"Hint: {passing}. Passing first, you start the next round."
