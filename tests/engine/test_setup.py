"""Setup variants: what `new_game` deals, and the order of the setup decisions."""

import random

import pytest

import amigos
from amigos import actions as A
from amigos import cards as C
from amigos.codes import (
    ACTIONS,
    AVAILABLE,
    BEING_CHOSEN,
    DECK,
    DRAFTING,
    HAND,
    IN_PLAY,
    MONUMENT_DECK,
    SETUP_CHOOSE_ITEMS,
    SETUP_CHOOSE_MAGES,
    SETUP_DRAFT,
)


def ids_at(s, where, owner=None, kind=None):
    return sorted(s.cards[e].id for e in range(len(s.loc))
                  if s.loc[e] == where and (owner is None or s.owner[e] == owner)
                  and (kind is None or s.cards[e].kind == kind))


@pytest.mark.parametrize("seed", range(5))
def test_standard_deal(seed):
    s = amigos.new_game(seed)
    assert s.phase == SETUP_CHOOSE_MAGES
    assert s.current_player() == s.first_player
    pops = ids_at(s, AVAILABLE, kind=C.PLACE_OF_POWER)
    assert len(pops) == 5
    tiles = {C.BY_ID[i].tile for i in pops}
    assert len(tiles) == 5, "one side of each tile"
    assert len(ids_at(s, AVAILABLE, kind=C.MONUMENT)) == 2
    assert len(ids_at(s, MONUMENT_DECK)) == 8
    for p in range(2):
        assert len(ids_at(s, HAND, p)) == 3
        assert len(ids_at(s, DECK, p)) == 5
        assert len(ids_at(s, BEING_CHOSEN, p, C.MAGE)) == 2
        assert s.pool_of(p) == (1, 1, 1, 1, 1)
    every = [c.id for c in s.cards if c.kind == C.ARTIFACT]
    assert len(set(every)) == 16


def test_seeds_give_different_and_repeatable_deals():
    a, b, c = amigos.new_game(1), amigos.new_game(1), amigos.new_game(2)
    assert a.digest() == b.digest()
    assert a.digest() != c.digest()


def test_random_sides_vary_between_seeds():
    sides = {tuple(ids_at(amigos.new_game(seed), AVAILABLE, kind=C.PLACE_OF_POWER)) for seed in range(20)}
    assert len(sides) > 1


def test_setup_decision_order_mage_then_items_counter_clockwise():
    s = amigos.new_game(3)
    fp = s.first_player
    other = 1 - fp
    assert s.current_player() == fp
    s.apply(s.legal_actions()[0])
    assert s.current_player() == other
    s.apply(s.legal_actions()[0])
    assert s.phase == SETUP_CHOOSE_ITEMS
    # Magic items start right of the first player: with two players, the other player picks first.
    assert s.current_player() == other
    first_pick = s.legal_actions()[0]
    assert len(s.legal_actions()) == 8
    s.apply(first_pick)
    assert s.current_player() == fp
    assert len(s.legal_actions()) == 7
    assert A.subject(first_pick) not in [A.subject(a) for a in s.legal_actions()]
    s.apply(s.legal_actions()[0])
    assert s.round == 1


def test_first_game_presets_and_sides():
    for seed in range(6):
        s = amigos.new_game(seed, "first_game")
        pops = ids_at(s, AVAILABLE, kind=C.PLACE_OF_POWER)
        assert sorted(pops) == sorted(C.FIRST_GAME["places_of_power_first_game_sides"])
        presets = {h["mage"]: h for h in C.FIRST_GAME["preset_hands"]}
        preset_cards = {a for h in presets.values() for a in h["artifacts"]}
        for p in range(2):
            mages = ids_at(s, BEING_CHOSEN, p, C.MAGE)
            assert len(mages) == 1 and mages[0] in presets
            assert ids_at(s, HAND, p) == sorted(presets[mages[0]]["artifacts"])
            deck = ids_at(s, DECK, p)
            assert len(deck) == 5
            assert not set(deck) & preset_cards


def play_random(s, rnd, limit=5000):
    n = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply(legal[rnd.randrange(len(legal))])
        n += 1
        assert n < limit
    return n


def test_draft_picks_are_decisions_and_give_eight_each():
    s = amigos.new_game(11, "draft")
    assert s.phase == SETUP_DRAFT
    picks = {0: [], 1: []}
    sizes = []
    while s.phase == SETUP_DRAFT:
        legal = s.legal_actions()
        assert all(A.kind(a) == A.DRAFT_PICK for a in legal)
        p = s.current_player()
        sizes.append(len(legal))
        # The packet a player picks from is hidden from the rival, except the cards the rival passed on.
        rival_obs = s.observation(1 - p)
        for a in legal:
            card = s.cards[A.subject(a)].id
            assert (card in rival_obs["players"][p]["known_artifacts"]) == (card in s.known_decks[1 - p])
            if card not in s.known_decks[1 - p]:
                assert card not in repr(rival_obs)
        picks[p].append(s.cards[A.subject(legal[0])].id)
        s.apply(legal[0])
    assert sizes == [4, 4, 3, 3, 2, 2, 4, 4, 3, 3, 2, 2]
    assert s.phase == SETUP_CHOOSE_MAGES
    for p in range(2):
        mine = ids_at(s, DECK, p) + ids_at(s, HAND, p)
        assert len(mine) == 8
        assert set(picks[p]) <= set(mine)
        assert len(ids_at(s, HAND, p)) == 3
    assert not ids_at(s, DRAFTING)


def test_after_a_draft_each_player_knows_every_card_they_held():
    """All that a player saw in a packet and did not keep went to the rival: it is known, in the
    observation and to determinisation (the second packets as dealt were once forgotten)."""
    for seed in range(5):
        s = amigos.new_game(seed, "draft")
        rng = random.Random(seed)
        held = [set(), set()]
        while s.phase == SETUP_DRAFT:
            for e in range(s.n_art):
                if s.loc[e] == DRAFTING:
                    held[s.owner[e]].add(s.cards[e].id)
            s.apply(rng.choice(s.legal_actions()))
        for p in range(2):
            rivals = {s.cards[e].id for e in range(s.n_art) if s.owner[e] == 1 - p}
            assert held[p] <= s.known_decks[p]
            assert held[p] & rivals <= set(s.observation(p)["players"][1 - p]["known_artifacts"])
            assert len(held[p] & rivals) == 6  # all but the rival's first pick of each half


def test_draft_passes_packets_between_players():
    s = amigos.new_game(12, "draft")
    first_packet_p0 = {s.cards[A.subject(a)].id for a in s.legal_actions()}
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    # Player 0 now holds what is left of player 1's first packet, and vice versa.
    now = {s.cards[A.subject(a)].id for a in s.legal_actions()}
    assert s.current_player() == 0
    assert not now & first_packet_p0


@pytest.mark.parametrize("variant", amigos.VARIANTS)
def test_every_variant_plays_to_the_end(variant):
    s = amigos.new_game(21, variant)
    play_random(s, random.Random(4))
    assert s.winners()
    assert max(s.victory_points()) >= 10


def test_unknown_variant_and_ruleset_are_refused():
    with pytest.raises(amigos.SetupError):
        amigos.new_game(1, "chaos")
    with pytest.raises(amigos.SetupError):
        amigos.new_game(1, ruleset="house")


def test_round_one_starts_with_first_player_after_collect():
    s = amigos.new_game(5)
    while s.phase != ACTIONS:
        s.apply(s.legal_actions()[0])
    assert s.round == 1
    assert s.current_player() == s.first_player
    assert all(s.loc[e] == IN_PLAY for e in range(len(s.loc)) if s.cards[e].kind == C.MAGE
               and s.loc[e] != 0)
