"""A First Game deals each player's deck face down (rules.md §2.2): the five cards beside the preset hand
are unseen by both players, their owner too, until they are drawn, looked at by scrying or shuffled back
in from the discard pile.  The observation names none of them, determinisations re-deal them, and the
screen does not show them; in a standard game and a draft each player has seen all eight of theirs.

What a player has seen is worked out here from the game's history (`FaceDown`, in tests/test_invariants),
not from the engine's own reckoning (`amigos.observe.unseen_deck`)."""

from __future__ import annotations

import json
import random

import pytest

import amigos
from amigos import cards as C
from amigos.codes import (
    ACTIONS,
    DECK,
    DECK_ARTIFACT,
    DISCARD,
    HAND,
    IN_PLAY,
    P_SCRYORDER,
    SETUP_CHOOSE_FIRST,
    SETUP_DRAFT,
    SETUP_REDRAFT,
)
from amigos.determinize import determinize
from amigos.state import GameState
from amigos_cli.views.board import face_down_line, hand_view, known_deck
from tests.engine.test_invariants import FaceDown

PRESET_HANDS = {h["mage"]: h["artifacts"] for h in C.FIRST_GAME["preset_hands"]}
PRESETS = {a for hand in PRESET_HANDS.values() for a in hand}
WORLDS = 30  # determinisations drawn per position


def ids(s: GameState, entities) -> list[str]:
    return sorted(s.cards[e].id for e in entities)


def own(s: GameState, p: int, where: int) -> list[int]:
    return [e for e in range(s.n_art) if s.owner[e] == p and s.loc[e] == where]


def played(seed: int, steps: int, variant: str = "first_game", ruleset: str = "official"):
    """A game after ``steps`` random decisions (fewer if it ends), with its `FaceDown` oracle."""
    s = amigos.new_game(seed, variant, ruleset)
    watch = FaceDown(s, variant)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
        watch.update(s)
    return s, watch


def mid_first_game(seed: int, steps: int) -> tuple[GameState, FaceDown]:
    """A First Game after at least ``steps`` random decisions, in the action phase, where the player to
    act has seen some of the cards dealt face down into their deck and not yet the others."""
    s = amigos.new_game(seed, "first_game")
    watch = FaceDown(s, "first_game")
    rng = random.Random(seed)
    n = 0
    while True:
        p = s.current_player()
        if (n >= steps and s.phase == ACTIONS and len(s.legal_actions()) >= 2
                and 0 < len(watch.unseen[p]) < 5):
            return s, watch
        assert not s.is_terminal()
        s.apply(rng.choice(s.legal_actions()))
        watch.update(s)
        n += 1


# -- the observation -----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_a_first_game_deals_both_decks_face_down(seed):
    s = amigos.new_game(seed, "first_game")
    face_down = [ids(s, own(s, p, DECK)) for p in range(2)]
    assert all(len(deck) == 5 and not set(deck) & PRESETS for deck in face_down)
    for p in range(2):
        obs = s.observation(p)
        mine = obs["players"][p]
        assert mine["deck"] == [] and mine["deck_size"] == 5
        assert mine["hand"] == sorted(PRESET_HANDS[mine["mage_options"][0]])
        text = json.dumps(obs)
        for deck in face_down:  # neither the own deck nor the rival's
            assert not [i for i in deck if f'"{i}"' in text], f"player {p} sees a face-down card"
        # nor the screen (the setup line names the hand, and says the deck is unseen)
        assert known_deck(s, p) == []
        assert face_down_line(s, p) == "5 cards dealt face down, not seen yet"
        shown = hand_view(s, p).plain
        assert "5 cards dealt face down" in shown
        assert not [c for c in face_down[p] if C.BY_ID[c].name in shown]


@pytest.mark.parametrize("ruleset", ["official", "reference"])
@pytest.mark.parametrize("seed", range(4))
def test_face_down_cards_show_once_seen(seed, ruleset):
    """Through a whole random game, a player's observation (and screen) names exactly the deck cards
    they have seen: drawn and shuffled back in, or never dealt face down."""
    s = amigos.new_game(seed, "first_game", ruleset)
    watch = FaceDown(s, "first_game")
    dealt = [set(own(s, p, DECK)) for p in range(2)]
    rng = random.Random(seed)
    back = 0  # cards of a face-down deal seen, then in the deck again
    while not s.is_terminal():
        for p in range(2):
            deck = own(s, p, DECK)
            seen = [e for e in deck if e not in watch.unseen[p]]
            assert s.observation(p)["players"][p]["deck"] == ids(s, seen)
            assert known_deck(s, p) == sorted(s.cards[e].name for e in seen)
            back += sum(1 for e in seen if e in dealt[p])
        s.apply(rng.choice(s.legal_actions()))
        watch.update(s)
    assert back > 0
    assert not any(watch.unseen)  # (these games last long enough for every card to be drawn)


def test_a_face_down_card_looked_at_by_scrying_is_seen():
    """The Seer or Hawk looks at the top of its owner's deck: the cards are in view while being put back,
    and known afterwards."""
    found = 0
    for seed in range(40):
        s = amigos.new_game(seed, "first_game")
        watch = FaceDown(s, "first_game")
        rng = random.Random(seed)
        while not s.is_terminal() and s.round < 12:
            before = [set(u) for u in watch.unseen]
            s.apply(rng.choice(s.legal_actions()))
            top = s.stack[-1] if s.stack else None
            if top and top[0] == P_SCRYORDER and top[2] == DECK_ARTIFACT and set(top[3]) & before[top[1]]:
                p, looked = top[1], [s.cards[e].id for e in top[3]]
                obs = s.observation(p)
                assert obs["pending"]["cards"] == looked
                assert set(looked) <= set(obs["players"][p]["deck"])
                rival_view = json.dumps(s.observation(1 - p))  # the face-down ones stay hidden from the rival
                assert not [i for i in ids(s, set(top[3]) & before[p]) if f'"{i}"' in rival_view]
                s.apply(s.legal_actions()[0])
                assert set(looked) <= set(s.observation(p)["players"][p]["deck_top_known"])
                found += 1
                break
            watch.update(s)
        if found >= 2:
            break
    assert found >= 2


# -- determinisations ----------------------------------------------------------------------------------

def _first_game_positions():
    """The deal, and positions of a few games where the player to act has seen part of their deck."""
    s = amigos.new_game(5, "first_game")
    yield s, FaceDown(s, "first_game")
    for seed in range(3):
        yield mid_first_game(seed, 10 * seed)


@pytest.mark.parametrize("k", range(4))
def test_determinisations_re_deal_the_own_face_down_deck(k):
    s, watch = list(_first_game_positions())[k]
    p = s.current_player()
    unseen = sorted(watch.unseen[p])
    mine = [e for e in range(s.n_art) if s.owner[e] == p]
    fixed = [e for e in mine if e not in unseen]
    visible = {s.cards[e].id for e in range(s.n_art)
               if e in fixed or s.loc[e] in (IN_PLAY, DISCARD)} | s.known_decks[p]
    decks = set()
    for seed in range(WORLDS):
        world = determinize(s, p, seed)
        assert world.observation(p) == s.observation(p)
        assert determinize(s, p, seed).digest() == world.digest()  # the seed reproduces it
        # what ``p`` has seen stays where it is: hand, play area, discards, the deck cards seen
        assert [world.cards[e] for e in fixed] == [s.cards[e] for e in fixed]
        assert [world.loc[e] for e in mine] == [s.loc[e] for e in mine]
        dealt = [world.cards[e].id for e in unseen]
        assert not set(dealt) & (PRESETS | visible)  # a face-down deal, of cards ``p`` can't have seen
        decks.add(tuple(sorted(dealt)))
    assert len(decks) >= 5  # re-dealt, not kept


def test_a_first_game_determinisation_depends_only_on_the_observation():
    """Other cards in ``p``'s face-down deck and in the rival's hand and deck: the same observation, so
    the same determinisations."""
    s, watch = mid_first_game(1, 10)
    p = s.current_player()
    rival_unknown = [e for e in range(s.n_art) if s.owner[e] == 1 - p and s.loc[e] in (HAND, DECK)
                     and s.cards[e].id not in s.known_decks[p]]
    hidden = sorted(watch.unseen[p]) + rival_unknown
    in_game = {c.id for c in s.cards}
    spare = [c for c in C.ARTIFACTS if c.id not in in_game and c.id not in PRESETS
             and c.id not in s.known_decks[p]]
    twin = s.clone()
    cards = list(twin.cards)
    for e, card in zip(hidden, reversed(spare)):
        cards[e] = card
    twin.cards = tuple(cards)
    twin.names = None
    twin._legal = twin._groups = None
    assert twin.digest() != s.digest()
    assert twin.observation(p) == s.observation(p)
    for seed in range(5):
        assert determinize(twin, p, seed).digest() == determinize(s, p, seed).digest()


# -- every other game: the whole deal is seen ----------------------------------------------------------

def _seen_whole():
    """Standard games at the deal and later, a draft as it ends, games 2 and 3 of a match."""
    yield amigos.new_game(3)
    yield played(3, 40, "standard")[0]
    s = amigos.new_game(4, "draft")
    rng = random.Random(4)
    while s.phase == SETUP_DRAFT:
        s.apply(rng.choice(s.legal_actions()))
    yield s
    yield played(4, 60, "draft")[0]
    game2 = amigos.next_game(6, ["seer", "druid"], [c.id for c in C.ARTIFACTS[:16]], 0, True)
    while game2.phase in (SETUP_CHOOSE_FIRST, SETUP_REDRAFT):
        game2.apply(game2.legal_actions()[0])
    yield game2
    drafted = [[c.id for c in C.ARTIFACTS[8 * p:8 * p + 8]] for p in range(2)]
    yield amigos.next_game(6, ["seer", "druid"], drafted, 1, False)


@pytest.mark.parametrize("k", range(6))
def test_other_games_keep_the_own_deck_known(k):
    s = list(_seen_whole())[k]
    assert own(s, 0, DECK) or own(s, 1, DECK)
    for p in range(2):
        deck = own(s, p, DECK)
        assert s.observation(p)["players"][p]["deck"] == ids(s, deck)
        assert known_deck(s, p) == sorted(s.cards[e].name for e in deck)
        assert face_down_line(s, p) == ""
        for seed in range(10):  # determinisations keep every card of the player's own
            world = determinize(s, p, seed)
            assert [world.cards[e] for e in range(s.n_art) if s.owner[e] == p] == \
                   [s.cards[e] for e in range(s.n_art) if s.owner[e] == p]
            assert world.observation(p) == s.observation(p)
