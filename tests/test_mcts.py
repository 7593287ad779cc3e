"""The search's tree and rollouts: the rival's moves named by card, leaves after a whole Collect, and
what a player knows of the rival's reshuffled discard pile."""

from __future__ import annotations

import random

import amigos
from ai import mcts as M
from amigos import actions as A
from amigos.determinize import Determinizer
from amigos.position import build_position
from amigos.state import ACTIONS, COLLECT, DECK, HAND

RIVAL_HAND = ["fire_dragon", "mermaid", "dancing_sword"]


def known_hand_position():
    """Player 0 to act; player 1's hand is known exactly (their deck is empty and player 0 knows the
    three cards, as after a redraft), yet determinisation deals the three to their entities afresh."""
    s = build_position([
        {"mage": "druid", "item": "research", "in_play": ["chalice_of_fire"], "hand": ["hawk"],
         "pool": {"elan": 2, "life": 2, "calm": 2, "gold": 1}},
        {"mage": "duelist", "item": "protection", "hand": RIVAL_HAND,
         "pool": {"elan": 6, "life": 4, "calm": 3, "death": 2, "gold": 2}},
    ], seed=3)
    s.known_decks = (frozenset(RIVAL_HAND), frozenset())
    return s


def test_the_rivals_moves_are_keyed_by_card_in_every_determinisation():
    s = known_hand_position()
    s.apply(next(a for a in s.legal_actions() if a[0] == A.PASS))  # now the rival acts
    deal = Determinizer(s, 0).deal
    seen = {}
    for seed in range(12):
        world = deal(seed)
        for key, variants in M.group(world, 0).items():
            if key[0] == A.PLACE + M._CARD_KIND:
                card = world.cards[variants[0][2]].id
                assert seen.setdefault(key, card) == card  # one key, one card, whatever entity holds it
    assert set(seen.values()) <= set(RIVAL_HAND) and len(set(seen.values())) >= 2


def test_the_searchers_own_moves_keep_their_entity_keys():
    s = known_hand_position()
    assert M.group(s, 0) == M.group(s)
    assert all(key[0] < M._CARD_KIND for key in M.group(s, 0))


def test_a_rollout_ends_after_the_next_collect_not_in_it():
    rng = random.Random(1)
    ended = 0
    for seed in range(8):
        s = amigos.new_game(seed)
        while not (s.phase == ACTIONS and s.round >= 2 and not s.stack):
            s.apply(rng.choice(s.legal_actions()))
        start = s.round
        M._rollout(s, 400, rng)
        assert s.is_terminal() or (s.round == start + 1 and s.phase == ACTIONS and not s.stack)
        ended += not s.is_terminal()
    assert ended >= 6


def test_a_rollout_from_a_collect_ends_when_that_collect_is_done():
    rng = random.Random(2)
    for seed in range(30):
        s = amigos.new_game(seed)
        while not s.is_terminal() and not (s.phase == COLLECT and s.stack and s.round >= 2):
            s.apply(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        start = s.round
        M._rollout(s, 400, rng)
        assert s.round == start and s.phase == ACTIONS
        return
    raise AssertionError("no Collect choice found")


def test_a_reshuffled_discard_pile_stays_known_to_the_rival():
    s = build_position([
        {"mage": "druid", "item": "research", "pool": {"elan": 1}},
        {"mage": "duelist", "item": "protection", "hand": ["hawk"], "discard": ["vault", "crypt", "prism"]},
    ], turn=1, seed=5)
    assert not s.known_decks[0]
    s.apply(next(a for a in s.legal_actions() if a[0] == A.PASS))  # draws 1: the pile becomes the deck
    while s.stack:
        s.apply(s.legal_actions()[0])
    assert {"vault", "crypt", "prism"} <= s.known_decks[0]
    assert {"vault", "crypt", "prism"} <= set(s.observation(0)["players"][1]["known_artifacts"])
    deal = Determinizer(s, 0).deal
    for seed in range(20):
        world = deal(seed)
        rival = {world.cards[e].id for e in range(world.n_art) if world.owner[e] == 1 and world.loc[e] in (HAND, DECK)}
        assert {"vault", "crypt", "prism"} <= rival  # (the Hawk it held was never seen)
