"""The two-player setup with *Lux et Tenebrae* (rules.md §2.3): 7 of the 14 monuments (2 face up), 4 of
the 7 place-of-power tiles on random sides, all 10 magic items, the 8 scrolls face up in the centre;
2 mages and 8 artifacts each from the combined cards; the base game dealt as before without it."""

from __future__ import annotations

import pytest

import amigos
from amigos import cards as C
from amigos.codes import AVAILABLE, MONUMENT_DECK, NOBODY
from amigos.determinize import determinize
from amigos.setup import expansion_counts

LUX = ("lux",)


def _where(s: amigos.GameState, kind: int, loc: int | None = None) -> list[C.Card]:
    return [s.cards[e] for e in range(len(s.loc)) if s.cards[e].kind == kind and (loc is None or s.loc[e] == loc)]


@pytest.mark.parametrize("variant", amigos.VARIANTS)
def test_the_centre_of_a_two_player_expansion_game(variant):
    for seed in range(20):
        s = amigos.new_game(seed, variant, expansions=LUX)
        assert s.sets == ("base", "lux")
        assert len(_where(s, C.MONUMENT, AVAILABLE)) == 2 and len(_where(s, C.MONUMENT, MONUMENT_DECK)) == 5
        places = _where(s, C.PLACE_OF_POWER, AVAILABLE)
        assert len(places) == 4 and len({card.tile for card in places}) == 4  # one side of each tile
        assert {card.id for card in _where(s, C.MAGIC_ITEM, AVAILABLE)} == {
            card.id for card in C.set_cards(C.MAGIC_ITEM, s.sets)}
        scrolls = [e for e in range(len(s.loc)) if s.cards[e].kind == C.SCROLL]
        assert len(scrolls) == 8 and all(s.loc[e] == AVAILABLE and s.owner[e] == NOBODY for e in scrolls)


def test_the_counts_come_from_the_player_count_table():
    assert expansion_counts(2) == (7, 4)
    assert expansion_counts(3) == (10, 5) and expansion_counts(5) == (14, 7)


def test_every_monument_tile_and_new_card_can_be_dealt():
    monuments, tiles, sides, artifacts, mages = set(), set(), set(), set(), set()
    for seed in range(200):
        s = amigos.new_game(seed, expansions=LUX)
        monuments |= {card.id for card in _where(s, C.MONUMENT)}
        tiles |= {card.tile for card in _where(s, C.PLACE_OF_POWER)}
        sides |= {card.id for card in _where(s, C.PLACE_OF_POWER)}
        artifacts |= {card.id for card in _where(s, C.ARTIFACT)}
        mages |= {card.id for card in _where(s, C.MAGE)}
    assert monuments == {card.id for card in C.set_cards(C.MONUMENT, ("base", "lux"))}
    assert len(tiles) == 7 and len(sides) == 14
    assert {card.id for card in C.set_cards(C.ARTIFACT, ("lux",))} <= artifacts
    assert {card.id for card in C.set_cards(C.MAGE, ("lux",))} <= mages


def test_the_same_seed_deals_the_same_game_and_the_base_game_is_untouched():
    assert amigos.new_game(5, expansions=LUX).digest() == amigos.new_game(5, expansions=LUX).digest()
    assert amigos.new_game(5, expansions=()).digest() == amigos.new_game(5).digest()
    assert amigos.new_game(5, expansions=LUX).digest() != amigos.new_game(5).digest()


def test_a_first_game_with_the_expansion_keeps_the_preset_hands_and_first_game_sides():
    for seed in range(10):
        s = amigos.new_game(seed, "first_game", expansions=LUX)
        for card in _where(s, C.PLACE_OF_POWER):
            first_side = next(first for first, _ in C.set_tiles(s.sets) if card in (first, _))
            if card.set == "base":
                assert card is first_side
        for p in range(2):
            assert {s.cards[e].id for e in s.hand(p)} <= {a for hand in C.FIRST_GAME["preset_hands"]
                                                          for a in hand["artifacts"]}


def test_an_unknown_expansion_is_refused():
    with pytest.raises(amigos.SetupError, match="unknown expansion 'dark'"):
        amigos.new_game(1, expansions=("dark",))


def test_a_determinisation_deals_the_unseen_monuments_from_every_unseen_one():
    s = amigos.new_game(2, expansions=LUX)
    in_view = {card.id for card in _where(s, C.MONUMENT, AVAILABLE)}
    dealt: set[str] = set()
    for seed in range(60):
        d = determinize(s, 0, seed)
        deck = {card.id for card in _where(d, C.MONUMENT, MONUMENT_DECK)}
        assert len(deck) == 5 and not deck & in_view
        dealt |= deck
    assert len(dealt) > 5  # boxed monuments too: nobody knows which five are in the deck
    assert dealt == {card.id for card in C.set_cards(C.MONUMENT, s.sets)} - in_view


def test_a_position_of_an_expansion_game_is_refused_by_describe():
    from amigos.codes import ACTIONS
    from amigos.position import describe
    s = amigos.new_game(6, expansions=LUX)
    while not (s.phase == ACTIONS and not s.stack):
        s.apply(s.legal_actions()[0])
    with pytest.raises(amigos.SetupError, match="only a base-game position"):
        describe(s)
