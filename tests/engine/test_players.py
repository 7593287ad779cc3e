"""Three to five players (rules.md §2, §2.3, §2.4, §8, §11): the deal for each count, the order of the
setup decisions and of turns, Life loss to several rivals with their Reacts, powers that choose a
rival, the draft passing both ways, shared victories, and what each player knows of each rival."""

from __future__ import annotations

import random

import pytest

import amigos
from amigos import actions as A
from amigos import cards as C
from amigos.codes import (
    AVAILABLE,
    BEING_CHOSEN,
    DECK,
    DISCARD,
    DRAFTING,
    HAND,
    IN_PLAY,
    MONUMENT_DECK,
    SETUP_CHOOSE_ITEMS,
    SETUP_DRAFT,
)
from amigos.config import GameConfig
from amigos.determinize import determinize
from amigos.errors import SetupError
from amigos.flow import reshuffle
from amigos.position import build_position


def _ids(s, where, owner=None, kind=None) -> list[str]:
    return sorted(s.cards[e].id for e in range(len(s.loc))
                  if s.loc[e] == where and (owner is None or s.owner[e] == owner)
                  and (kind is None or s.cards[e].kind == kind))


def _game(seed: int, players: int, variant: str = "standard", lux: bool = False) -> amigos.GameState:
    return amigos.deal(seed, GameConfig.parse(variant, expansions=("lux",) if lux else (), players=players))


# -- the deal ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4])
def test_the_base_game_deals_each_player_two_mages_and_eight_artifacts_and_uses_the_whole_centre(players):
    for seed in range(4):
        s = _game(seed, players)
        assert s.n_players == players and 0 <= s.first_player < players
        assert len(_ids(s, AVAILABLE, kind=C.PLACE_OF_POWER)) == 5
        assert len(_ids(s, AVAILABLE, kind=C.MONUMENT)) == 2 and len(_ids(s, MONUMENT_DECK)) == 8
        for p in range(players):
            assert len(_ids(s, HAND, p)) == 3 and len(_ids(s, DECK, p)) == 5
            assert len(_ids(s, BEING_CHOSEN, p, C.MAGE)) == 2
            assert s.pool_of(p) == (1, 1, 1, 1, 1)
        artifacts = [c.id for c in s.cards if c.kind == C.ARTIFACT]
        assert len(artifacts) == len(set(artifacts)) == 8 * players


@pytest.mark.parametrize("players,monuments,places", [(2, 7, 4), (3, 10, 5), (4, 12, 6), (5, 14, 7)])
def test_the_expansion_s_centre_follows_the_player_count_table(players, monuments, places):
    s = _game(3, players, lux=True)
    assert len(_ids(s, AVAILABLE, kind=C.PLACE_OF_POWER)) == places
    assert len(_ids(s, AVAILABLE, kind=C.MONUMENT)) + len(_ids(s, MONUMENT_DECK)) == monuments
    assert len({c.id for c in s.cards if c.kind == C.MAGE}) == 2 * players


def test_a_two_player_game_is_dealt_as_it_always_was():
    for seed in range(5):
        assert _game(seed, 2).digest() == amigos.new_game(seed).digest()


@pytest.mark.parametrize("words,message", [
    ({"players": 5}, "2 to 4 players"), ({"players": 1}, "2 to 4 players"),
    ({"players": 6, "expansions": ("lux",)}, "5 with Lux"),
    ({"players": 5, "expansions": ("lux",), "variant": "first_game"}, "at most 4 players"),
])
def test_a_player_count_the_rules_do_not_allow_is_refused(words, message):
    with pytest.raises(SetupError, match=message):
        GameConfig.parse(**words)


@pytest.mark.parametrize("players", [3, 4])
def test_a_first_game_deals_that_many_preset_hands(players):
    presets = {h["mage"]: h for h in C.FIRST_GAME["preset_hands"]}
    for seed in range(4):
        s = _game(seed, players, "first_game")
        mages = [_ids(s, BEING_CHOSEN, p, C.MAGE) for p in range(players)]
        assert all(len(m) == 1 and m[0] in presets for m in mages)
        assert len({m[0] for m in mages}) == players
        for p, (mage,) in enumerate(mages):
            assert _ids(s, HAND, p) == sorted(presets[mage]["artifacts"])
            assert len(_ids(s, DECK, p)) == 5


# -- the order of decisions -------------------------------------------------------------------------------

def test_magic_items_are_chosen_counter_clockwise_from_the_first_player_s_right():
    for seed in range(6):
        s = _game(seed, 4)
        fp = s.first_player
        while s.phase != SETUP_CHOOSE_ITEMS:
            s.apply(s.legal_actions()[0])
        order = []
        while s.phase == SETUP_CHOOSE_ITEMS:
            order.append(s.current_player())
            s.apply(s.legal_actions()[0])
        assert order == [(fp - k) % 4 for k in range(1, 5)]  # the first player chooses last


def test_turns_go_clockwise_from_the_first_player_and_skip_who_has_passed():
    s = build_position([{"mage": "seer", "hand": ["hawk", "prism"]}, {"mage": "healer", "hand": ["vault", "crypt"]},
                        {"mage": "witch", "hand": ["treant"]}], first_player=1)

    def play(kind: int) -> None:
        s.apply(next(a for a in s.legal_actions() if A.kind(a) == kind))

    assert s.current_player() == 1
    play(A.DISCARD)
    assert s.current_player() == 2
    play(A.PASS)  # the first to pass takes the First Player token
    assert s.current_player() == 0 and s.first_player == 2
    play(A.DISCARD)
    assert s.current_player() == 1
    play(A.DISCARD)
    assert s.current_player() == 0  # (player 2 has passed)


def test_the_draft_passes_left_then_right():
    s = _game(5, 3, "draft")
    assert s.phase == SETUP_DRAFT
    first = [{s.cards[e].id for e in range(s.n_art) if s.loc[e] == DRAFTING and s.owner[e] == p} for p in range(3)]
    for _ in range(3):  # everyone keeps one: the packets move to the left (+1)
        s.apply(s.legal_actions()[0])
    for p in range(3):
        now = {s.cards[e].id for e in range(s.n_art) if s.loc[e] == DRAFTING and s.owner[e] == p}
        assert now <= first[(p - 1) % 3] and len(now) == 3
    while s.draft_stage < 3:
        s.apply(s.legal_actions()[0])
    second = [{s.cards[e].id for e in range(s.n_art) if s.loc[e] == DRAFTING and s.owner[e] == p} for p in range(3)]
    for _ in range(3):  # the second packets move to the right (-1)
        s.apply(s.legal_actions()[0])
    for p in range(3):
        now = {s.cards[e].id for e in range(s.n_art) if s.loc[e] == DRAFTING and s.owner[e] == p}
        assert now <= second[(p + 1) % 3] and len(now) == 3
    while s.phase == SETUP_DRAFT:
        s.apply(s.legal_actions()[0])
    for p in range(3):
        assert len(_ids(s, HAND, p)) + len(_ids(s, DECK, p)) == 8


# -- rivals -----------------------------------------------------------------------------------------------

def _attack_position(passed: tuple[bool, bool, bool, bool]) -> amigos.GameState:
    """Four players; player 0 has Fire Dragon in play (each rival loses 2 Life; the rider: pay 1 Calm);
    player 2 has Guard Dog (a React that ignores Life loss); players 1 and 3 have Life to pay."""
    return build_position([
        {"mage": "seer", "in_play": ["fire_dragon"], "passed": passed[0]},
        {"mage": "healer", "pool": {"life": 3, "calm": 1}, "passed": passed[1], "turned": ["healer"]},
        {"mage": "witch", "in_play": ["guard_dog"], "pool": {"life": 2}, "passed": passed[2]},
        {"mage": "druid", "pool": {"life": 3}, "passed": passed[3]},
    ])


def test_life_loss_reaches_every_rival_who_has_not_passed_each_reacting_in_turn_order():
    s = _attack_position((False, False, False, False))
    attack = next(a for a in s.legal_actions() if A.kind(a) == A.POWER and s.cards[A.subject(a)].id == "fire_dragon")
    s.apply(attack)
    asked = []
    while s.stack:
        p = s.current_player()
        asked.append(p)
        legal = s.legal_actions()
        assert all(A.player(a) == p for a in legal)
        if p == 2:  # Guard Dog's React ignores the whole loss
            react = [a for a in legal if A.kind(a) == A.LL_REACT]
            assert react
            s.apply(react[0])
        elif p == 1:  # the Dragon's rider: pay 1 Calm instead of the Life
            s.apply(next(a for a in legal if A.kind(a) == A.LL_REACT and A.payment(a) == (0, 0, 1, 0, 0)))
        else:
            s.apply(next(a for a in legal if A.kind(a) == A.LL_CHOICE))
    assert asked == [1, 2, 3]
    assert s.pool_of(1)[C.LIFE] == 3 and s.pool_of(1)[C.CALM] == 0  # (paid the rider)
    assert s.pool_of(2)[C.LIFE] == 2  # (ignored)
    assert s.pool_of(3)[C.LIFE] == 1  # lost 2 Life


def test_a_rival_who_has_passed_ignores_life_loss():
    s = _attack_position((False, True, False, True))
    attack = next(a for a in s.legal_actions() if A.kind(a) == A.POWER and s.cards[A.subject(a)].id == "fire_dragon")
    s.apply(attack)
    asked = []
    while s.stack:
        asked.append(s.current_player())
        s.apply(s.legal_actions()[-1])
    assert asked == [2]
    assert s.pool_of(1)[C.LIFE] == 3 and s.pool_of(3)[C.LIFE] == 3


def test_a_power_that_chooses_a_rival_offers_every_rival():
    s = build_position([{"mage": "seer", "in_play": ["treant"]}, {"mage": "healer", "pool": {"calm": 2}},
                        {"mage": "witch", "pool": {"calm": 4}}])
    uses = [a for a in s.legal_actions() if A.kind(a) == A.POWER and s.cards[A.subject(a)].id == "treant"]
    assert {A.rival(a) for a in uses} == {1, 2}


# -- the victory check ------------------------------------------------------------------------------------

def _check_position(third_pool: dict[str, int]) -> amigos.GameState:
    """Three players, players 0 and 2 at 10 points (Gold counting twice, player 0's pool is worth 2),
    player 1 (the First Player token, 3 points) the only one still to pass."""
    s = build_position([
        {"mage": "seer", "monuments": ["great_pyramid", "colossus", "oracle"], "places": ["coral_castle"],
         "pool": {"gold": 1}, "passed": True},
        {"mage": "healer", "monuments": ["hanging_gardens", "solomons_mine"]},
        {"mage": "witch", "monuments": ["mausoleum", "temple", "library", "obelisk"],
         "places": ["sacred_grove", "sacrificial_pit"], "pool": third_pool, "passed": True},
    ], first_player=1)
    assert s.victory_points() == [10, 3, 10]
    s.apply(next(a for a in s.legal_actions() if A.kind(a) == A.PASS))
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    return s


def test_a_tie_for_most_points_and_essences_is_shared_by_everyone_tied():
    assert _check_position({"elan": 2}).winners() == [0, 2]


def test_a_tie_for_most_points_goes_to_the_most_essences_gold_counting_twice():
    assert _check_position({"elan": 3}).winners() == [2]
    assert _check_position({"elan": 1}).winners() == [0]


# -- what each player knows of each rival -----------------------------------------------------------------

def test_a_reshuffled_discard_pile_is_known_to_be_that_rival_s_and_dealt_only_to_them():
    """Three players: player 1's discard pile goes into their deck; players 0 and 2 know those cards are
    player 1's, and a determinisation for player 0 deals them to player 1's hidden places only."""
    s = build_position([
        {"mage": "seer", "hand": ["hawk"]},
        {"mage": "healer", "discard": ["fire_dragon", "elvish_bow", "prism"], "hand": ["vault"]},
        {"mage": "witch", "hand": ["guard_dog", "crypt"], "deck": ["treant", "dancing_sword"]},
    ])
    pile = [e for e in range(s.n_art) if s.loc[e] == DISCARD and s.owner[e] == 1]
    reshuffle(s, 1, pile)
    s._legal = s._groups = None
    known = {"fire_dragon", "elvish_bow", "prism"}
    assert s.known_held[0][1] == s.known_held[2][1] == known
    assert not s.known_held[0][2] and not s.known_held[1][1]
    assert set(s.observation(0)["players"][1]["known_artifacts"]) == known
    assert not s.observation(0)["players"][2]["known_artifacts"]
    for seed in range(40):
        world = determinize(s, 0, seed)
        theirs = {world.cards[e].id for e in range(world.n_art) if world.owner[e] == 1
                  and world.loc[e] in (HAND, DECK)}
        assert known <= theirs
        rivals = {world.cards[e].id for e in range(world.n_art) if world.owner[e] == 2
                  and world.loc[e] in (HAND, DECK)}
        assert not known & rivals
        assert world.observation(0) == s.observation(0)


def test_a_card_seen_in_a_three_player_draft_may_be_with_either_rival_but_the_last_one_passed_is_known():
    s = _game(8, 3, "draft")
    rng = random.Random(1)
    while s.phase == SETUP_DRAFT:
        s.apply(rng.choice(s.legal_actions()))
    for p in range(3):
        for r in range(3):
            for card in s.known_held[p][r]:
                e = next(x for x in range(s.n_art) if s.cards[x].id == card)
                assert s.owner[e] == r  # what ``p`` knows ``r`` holds, ``r`` holds
        assert len(set().union(*s.known_held[p])) == 2  # the last card of each half, passed on
    seen_elsewhere = {c for c in s.known_decks[0] if c not in {s.cards[e].id for e in range(s.n_art) if s.owner[e] == 0}}
    places = {1: 0, 2: 0}
    for seed in range(60):
        world = determinize(s, 0, seed)
        assert world.observation(0) == s.observation(0)
        for e in range(world.n_art):
            if world.cards[e].id in seen_elsewhere and world.owner[e] in places:
                places[world.owner[e]] += 1
    assert places[1] and places[2]  # (either rival may hold a card player 0 saw and passed on)


def test_a_spectator_sees_no_hand_deck_or_knowledge_of_anyone():
    from amigos.observe import SPECTATOR, observation
    for players, lux in ((2, False), (3, False), (5, True)):
        for variant in ("standard", "draft", "first_game"):
            if players == 5 and variant == "first_game":
                continue
            s = _game(4, players, variant, lux)
            rng = random.Random(players)
            for step in range(120):
                if s.is_terminal():
                    break
                seen = observation(s, SPECTATOR)
                text = repr(seen)
                for e in range(s.n_art):
                    if s.loc[e] in (HAND, DECK, DRAFTING) or s.loc[e] == BEING_CHOSEN:
                        assert f"'{s.cards[e].id}'" not in text, (variant, step, s.cards[e].id)
                assert all("hand" not in entry and "known_artifacts" not in entry for entry in seen["players"])
                s.apply(rng.choice(s.legal_actions()))


def test_observations_of_every_seat_hide_every_rival_s_hand_and_deck():
    for players, lux in ((3, False), (4, False), (5, True)):
        s = _game(2, players, lux=lux)
        rng = random.Random(players)
        for _ in range(60):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
        for p in range(players):
            text = repr(s.observation(p))
            for e in range(s.n_art):
                if s.owner[e] != p and s.loc[e] in (HAND, DECK) and s.cards[e].id not in s.known_decks[p]:
                    assert f"'{s.cards[e].id}'" not in text


def test_random_games_of_three_to_five_players_end_with_winners_at_the_most_points():
    for players, lux in ((3, False), (4, False), (4, True), (5, True)):
        for seed in range(3):
            s = _game(seed, players, lux=lux)
            rng = random.Random(seed)
            while not s.is_terminal():
                s.apply(rng.choice(s.legal_actions()))
            vp = s.victory_points()
            assert s.winners() and all(vp[w] == max(vp) for w in s.winners())
            assert all(s.loc[e] != IN_PLAY or s.owner[e] in range(players) for e in range(len(s.loc)))
