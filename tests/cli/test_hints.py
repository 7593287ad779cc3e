"""A hint says why in a player's words: what the move buys, what it stops, what it costs, what an attack
makes the rival lose, what a pass's magic item does, and how the search rated it against the next best
(in words when nothing else can be said)."""

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
    for_death = next(a for a in s.legal_actions() if A.kind(a) == A.DISCARD and A.subject(a) == hawk and A.gain(a)[3] == 2)
    assert reasons(s, for_death) == ["then you can pay for Dragon Teeth"]
    for_calm = next(a for a in s.legal_actions() if A.kind(a) == A.DISCARD and A.subject(a) == hawk and A.gain(a)[2] == 2)
    assert reasons(s, for_calm) == []
    assert not any(A.kind(a) == A.PLACE and A.subject(a) == teeth for a in s.legal_actions())  # (not before it)


def test_a_claim_the_rival_could_make_says_so_and_a_first_pass_takes_the_start():
    both = {"life": 8, "calm": 4}
    s = build_position([{"mage": "seer", "item": "research", "pool": both},
                        {"mage": "healer", "item": "protection", "pool": both}], places_of_power=["sacred_grove"])
    claim = next(a for a in s.legal_actions() if A.kind(a) == A.CLAIM_POP)
    assert "before the rival, who can pay for it too" in reasons(s, claim)
    poor = build_position([{"mage": "seer", "item": "research", "pool": both},
                           {"mage": "healer", "item": "protection"}], places_of_power=["sacred_grove"])
    claim = next(a for a in poor.legal_actions() if A.kind(a) == A.CLAIM_POP)
    assert "before the rival, who can pay for it too" not in reasons(poor, claim)
    passing = next(a for a in poor.legal_actions() if A.kind(a) == A.PASS)
    assert reasons(poor, passing)[0] == "passing first, you start the next round"


def test_the_hint_line_gives_the_reasons_then_the_chance_against_the_next_best():
    s = build_position([{"mage": "seer", "item": "research", "hand": ["dragon_teeth", "hawk"], "pool": {"elan": 1}},
                        {"mage": "healer", "item": "protection"}])
    hawk = _find(s, "hawk")
    move = next(a for a in s.legal_actions() if A.kind(a) == A.DISCARD and A.subject(a) == hawk and A.gain(a)[3] == 2)
    other = next(a for a in s.legal_actions() if A.kind(a) == A.PASS)
    passing = action_text(s, other)  # ("Pass, taking Alchemy")
    line = hint_text(s, move, {"iterations": 600, "value": 0.612,
                               "runner_up": {"action": other, "visits": 100, "value": 0.55}})
    assert line == ("Hint: Discard Hawk for 2 death. Then you can pay for Dragon Teeth; about 61% to win "
                    f"(next best: {passing}, 55%).")
    item = s.cards[A.subject(other)]
    assert hint_text(s, other, {}) == (f"Hint: {passing}. Passing first, you start the next round; {item.name} next "
                                       f"round: {item.text[0].lower()}{item.text[1:].rstrip('.')}.")


def test_an_attack_says_what_the_rival_loses_and_holds_against_it():
    s = build_position([{"mage": "seer", "item": "research", "in_play": ["sea_serpent"]},
                        {"mage": "healer", "item": "protection", "pool": {"life": 1}}])
    serpent = _find(s, "sea_serpent")
    attack = next(a for a in s.legal_actions() if A.kind(a) == A.POWER and A.subject(a) == serpent)
    assert reasons(s, attack) == ["the rival loses 2 Life unless they destroy one of their artifacts (they have 1 Life, "
                                  "so each Life missing costs them 2 other essences; their Healer or Protection can "
                                  "ignore it)"]


def test_a_pass_says_what_the_magic_item_taken_does():
    s = build_position([{"mage": "seer", "item": "research"}, {"mage": "healer", "item": "protection"}])
    s.passed[1] = True
    s._legal = s._groups = None
    death_life = next(a for a in s.legal_actions() if A.kind(a) == A.PASS and s.cards[A.subject(a)].name == "Death / Life")
    assert hint_text(s, death_life, {}) == ("Hint: Pass, taking Death / Life. Death / Life next round: collects 1 Death "
                                            "or 1 Life (your choice).")


def test_a_move_with_no_other_reason_is_compared_with_the_next_best_in_words():
    s = build_position([{"mage": "seer", "item": "research", "hand": ["hawk"], "pool": {"elan": 1}},
                        {"mage": "healer", "item": "protection"}])
    hawk = _find(s, "hawk")
    move = next(a for a in s.legal_actions() if A.kind(a) == A.DISCARD and A.subject(a) == hawk and A.gain(a)[2] == 2)
    other = next(a for a in s.legal_actions() if A.kind(a) == A.PASS)
    assert reasons(s, move) == []
    line = hint_text(s, move, {"iterations": 600, "value": 0.16,
                               "runner_up": {"action": other, "visits": 100, "value": 0.12}})
    assert line == (f"Hint: Discard Hawk for 2 calm. The search rates it above the next best, "
                    f"{action_text(s, other)}: about 16% to win against 12%.")
    assert hint_text(s, move, {"iterations": 600, "value": 0.16}) == ("Hint: Discard Hawk for 2 calm. The search found "
                                                                      "no move as good: about 16% to win.")


def test_a_collect_cost_hint_says_what_turning_means():
    from amigos.apply import settle
    from amigos.flow import start_round
    s = build_position([{"mage": "seer", "item": "research", "places": ["cursed_forge"], "pool": {"death": 1}}])
    start_round(s)
    settle(s)
    s._legal = s._groups = None
    turn = (A.COLLECT_COST, 0, _find(s, "cursed_forge"), A.PAY_TURN)
    assert hint_text(s, turn, {}) == ("Hint: Turn Cursed Forge for its collect cost instead of paying 1 death. You keep "
                                      "the 1 death, but turned it cannot use its power this round.")


def test_a_discard_names_the_power_its_essences_pay_for():
    """Discarding for the Elan and Death that pay Dwarven Mines' second power names that power."""
    s = build_position([{"mage": "seer", "item": "research", "hand": ["hawk"]},
                        {"mage": "transmuter", "item": "death_life", "hand": ["tree_of_life"], "places": ["dwarven_mines"],
                         "pool": {"elan": 2, "life": 2, "calm": 1, "death": 2}}], turn=1)
    tree, mines = _find(s, "tree_of_life"), _find(s, "dwarven_mines")
    for_mines = next(a for a in s.legal_actions() if A.kind(a) == A.DISCARD and A.subject(a) == tree and A.gain(a) == (1, 0, 0, 1, 0))
    assert reasons(s, for_mines) == ["then you can pay for Dwarven Mines' power"]
    for_gold = next(a for a in s.legal_actions() if A.kind(a) == A.DISCARD and A.subject(a) == tree and A.gain(a) == (0, 0, 0, 0, 1))
    assert reasons(s, for_gold) == []
    s.turned[mines] = 1  # (a turned Mines: its power is no purchase)
    assert reasons(s, for_mines) == []
