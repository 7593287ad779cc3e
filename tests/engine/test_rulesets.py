"""The official rules and the reference engine's ruleset, where they differ (cards/DIFFERENCES.md rows 1-5).

Games play by the official rules; the bridge uses ``reference`` so that its move lists match the
reference engine.  Each difference is tested under both rulesets.
"""

import pytest

from amigos import actions as A
from amigos.apply import settle
from amigos.codes import CHECK_END_OF_ROUND, COLLECT, VICTORY_CHECK
from amigos.errors import IllegalAction
from amigos.flow import evaluate_victory, start_round
from amigos.position import build_position

RULESETS = ("official", "reference")


def find(s, card_id):
    return next(e for e, c in enumerate(s.cards) if c.id == card_id)


def use(s, card_id, power=None):
    e = find(s, card_id)
    for a in s.legal_actions():
        if A.kind(a) == A.POWER and A.subject(a) == e and (power is None or A.power_index(a) == power):
            s.apply(a)
            return a
    raise AssertionError(f"no power step for {card_id}")


def attack(ruleset, victim_pool):
    s = build_position([
        {"mage": "alchemist", "item": "alchemy", "in_play": ["fire_dragon"]},
        {"mage": "seer", "item": "research", "pool": victim_pool},
    ], ruleset=ruleset)
    use(s, "fire_dragon")
    assert s.current_player() == 1
    return s


def loss_payments(s):
    return sorted(A.payment(a) for a in s.legal_actions() if A.kind(a) == A.LL_CHOICE)


# Row 1: paying a Life loss.

@pytest.mark.parametrize("ruleset", RULESETS)
def test_life_is_lost_first_officially(ruleset):
    s = attack(ruleset, {"life": 3, "gold": 2})
    pays = loss_payments(s)
    if ruleset == "official":
        assert pays == [(0, 2, 0, 0, 0)]
    else:
        assert pays == [(0, 1, 0, 0, 2), (0, 2, 0, 0, 0)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_missing_life_costs_two_other_essences(ruleset):
    s = attack(ruleset, {"elan": 4, "life": 1})
    pays = loss_payments(s)
    if ruleset == "official":
        assert pays == [(2, 1, 0, 0, 0)]
    else:
        assert pays == [(2, 1, 0, 0, 0), (4, 0, 0, 0, 0)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_short_pool_loses_all_it_has(ruleset):
    s = attack(ruleset, {"elan": 1, "calm": 2})
    assert loss_payments(s) == [(1, 0, 2, 0, 0)]


def test_official_shortfall_lets_victim_choose_which_others():
    s = attack("official", {"elan": 2, "gold": 1})  # no Life: 4 others needed, only 3 held
    assert loss_payments(s) == [(2, 0, 0, 0, 1)]
    s = attack("official", {"elan": 2, "death": 1, "gold": 2})  # 4 of 5 others, victim's choice
    assert loss_payments(s) == [(1, 0, 0, 1, 2), (2, 0, 0, 0, 2), (2, 0, 0, 1, 1)]


def test_gold_can_pay_for_missing_life():
    s = attack("official", {"gold": 2})
    assert loss_payments(s) == [(0, 0, 0, 0, 2)]
    s.apply((A.LL_CHOICE, 1, (0, 0, 0, 0, 2)))
    assert s.pool_of(1) == (0, 0, 0, 0, 0)


# Row 2: three-card draws from a short deck.

def divination(ruleset):
    s = build_position([{"mage": "seer", "item": "divination", "deck": ["hawk"],
                         "discard": ["prism", "vault", "athanor"], "hand": ["crypt"]}],
                       ruleset=ruleset, auto_chance=False)
    use(s, "divination")
    return s


@pytest.mark.parametrize("ruleset", RULESETS)
def test_short_deck_draw(ruleset):
    s = divination(ruleset)
    hawk = find(s, "hawk")
    outcomes = [a for a in s.legal_actions() if A.kind(a) == A.R_DRAW]
    assert all(len(A.revealed(a)) == 3 for a in outcomes)
    if ruleset == "official":
        assert len(outcomes) == 3 and all(hawk in A.revealed(a) for a in outcomes)
    else:
        assert len(outcomes) == 4 and any(hawk not in A.revealed(a) for a in outcomes)


def test_official_draw_refuses_an_outcome_that_skips_the_deck():
    s = divination("official")
    skip = (A.R_DRAW, 0, (), tuple(sorted(find(s, c) for c in ("prism", "vault", "athanor"))))
    with pytest.raises(IllegalAction):
        s.apply(skip)
    s2 = divination("reference")
    s2.apply((A.R_DRAW, 0, (), tuple(sorted(find(s2, c) for c in ("prism", "vault", "athanor")))))
    assert s2.stack[-1][0] == 5  # the discard choice follows


# Row 3: a Vault holding essences but no Gold.

@pytest.mark.parametrize("ruleset", RULESETS)
def test_vault_without_gold_at_collect(ruleset):
    s = build_position([{"mage": "seer", "item": "research", "in_play": ["vault"],
                         "essences_on": {"vault": {"calm": 2}}}], ruleset=ruleset)
    start_round(s)
    settle(s)
    s._legal = s._groups = None
    if ruleset == "official":
        assert s.phase == COLLECT
        take = (A.TAKE, 0, find(s, "vault"), A.TAKE_STORED)
        assert take in s.legal_actions()
        s.apply(take)
        assert s.pool_of(0)[2] == 2 + 1  # the stored Calm and the Seer's Calm
    else:
        assert s.essences_on(find(s, "vault"))[2] == 2
        assert not any(A.kind(a) == A.TAKE for a in s.legal_actions())


def test_vault_with_gold_left_on_pays_interest_in_both():
    for ruleset in RULESETS:
        s = build_position([{"mage": "seer", "item": "research", "in_play": ["vault"],
                             "essences_on": {"vault": {"gold": 1}}}], ruleset=ruleset)
        start_round(s)
        settle(s)
        s._legal = s._groups = None
        s.apply((A.TAKE, 0, find(s, "vault"), A.LEAVE_STORED))
        gains = [a for a in s.legal_actions() if A.kind(a) == A.GAIN]
        assert len(gains) == 10 and all(sum(A.gain(a)) == 2 and A.gain(a)[4] == 0 for a in gains)


# Row 4: skipping a straighten effect that has a target.

@pytest.mark.parametrize("ruleset", RULESETS)
def test_druid_must_straighten_a_turned_creature(ruleset):
    s = build_position([{"mage": "druid", "item": "research", "in_play": ["hawk"], "turned": ["hawk"]}],
                       ruleset=ruleset)
    druid = find(s, "druid")
    targets = [A.target(a) for a in s.legal_actions() if A.kind(a) == A.POWER and A.subject(a) == druid]
    if ruleset == "official":
        assert targets == [find(s, "hawk")]
    else:
        assert targets == [find(s, "hawk"), -1]


def test_druid_without_a_turned_creature_may_be_used_for_nothing():
    for ruleset in RULESETS:
        s = build_position([{"mage": "druid", "item": "research", "in_play": ["hawk"]}], ruleset=ruleset)
        druid = find(s, "druid")
        assert [A.target(a) for a in s.legal_actions() if A.kind(a) == A.POWER and A.subject(a) == druid] == [-1]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_witch_targets(ruleset):
    s = build_position([{"mage": "witch", "item": "research", "in_play": ["hawk"], "turned": ["hawk"],
                         "pool": {"elan": 2}}], ruleset=ruleset)
    witch = find(s, "witch")
    targets = [A.target(a) for a in s.legal_actions() if A.kind(a) == A.POWER and A.subject(a) == witch]
    expected = [find(s, "hawk"), witch]
    if ruleset == "reference":
        expected.append(-1)
    assert targets == expected


# Row 5: declining a placement after paying.

@pytest.mark.parametrize("ruleset", RULESETS)
def test_dragon_teeth_placement_decline(ruleset):
    s = build_position([{"mage": "seer", "item": "research", "in_play": ["dragon_teeth"], "hand": ["fire_dragon"],
                         "pool": {"elan": 3}}], ruleset=ruleset)
    use(s, "dragon_teeth", power=1)
    kinds = [A.kind(a) for a in s.legal_actions()]
    assert A.PLACE in kinds
    assert (A.DECLINE in kinds) == (ruleset == "reference")


def test_decline_offered_when_nothing_can_be_placed():
    s = build_position([{"mage": "seer", "item": "research", "in_play": ["dragon_teeth"], "hand": ["hawk"],
                         "pool": {"elan": 3}}], ruleset="official")
    use(s, "dragon_teeth", power=1)
    assert [A.kind(a) for a in s.legal_actions()] == [A.DECLINE]


# Victory: shared victory and the pool tie-break with Gold counting double.

def check(pools, on_cards=None):
    """Both players at 10 VP (first player token included); pools decide."""
    s = build_position([
        {"mage": "seer", "item": "research", "monuments": ["great_pyramid", "colossus", "oracle", "temple"],
         "pool": pools[0]},
        {"mage": "healer", "item": "protection", "monuments": ["mausoleum", "golden_statue", "library"],
         "places": ["coral_castle"], "in_play": ["nightingale", "fire_dragon"], "pool": pools[1],
         "essences_on": on_cards or {}},
    ], first_player=1)
    assert s.victory_points() == [9, 10]
    s.temp_vp[0] = 1  # as if a Golden Statue had been used: 10 each
    s.phase = VICTORY_CHECK
    s.victory_check = CHECK_END_OF_ROUND
    evaluate_victory(s)
    return s.winners()


def test_tie_break_counts_gold_double():
    assert check([{"gold": 2}, {"elan": 3}]) == [0]
    assert check([{"gold": 1}, {"elan": 3}]) == [1]


def test_full_tie_is_a_shared_victory():
    assert check([{"gold": 1, "calm": 1}, {"elan": 3}]) == [0, 1]


def test_essences_on_cards_do_not_count_in_the_tie_break():
    assert check([{"gold": 1}, {"elan": 1}], on_cards={"fire_dragon": {"gold": 5}}) == [0]


# Where the rules are silent: essences on a magic item returned when passing.

@pytest.mark.parametrize("ruleset", RULESETS)
def test_essences_on_a_returned_magic_item(ruleset):
    """A Mermaid puts Gold on its owner's magic item, who then passes and returns it.  Officially the
    Gold goes back to the supply with the item (no rival inherits it); the reference leaves it on."""
    s = build_position([{"mage": "seer", "item": "research", "in_play": ["mermaid"], "pool": {"gold": 1}},
                        {"mage": "healer", "item": "protection"}], ruleset=ruleset)
    research = find(s, "research")
    s.apply(next(a for a in s.legal_actions() if A.kind(a) == A.POWER and A.subject(a) == find(s, "mermaid")
                 and A.target(a) == research))
    assert s.essences_on(research) == (0, 0, 0, 0, 1)
    s.apply(next(a for a in s.legal_actions() if A.kind(a) == A.PASS))  # seat 1
    s.apply(next(a for a in s.legal_actions() if A.kind(a) == A.PASS and A.subject(a) != research))  # seat 0 returns it
    assert s.owner[research] != 0
    assert s.essences_on(research) == ((0, 0, 0, 0, 0) if ruleset == "official" else (0, 0, 0, 0, 1))
