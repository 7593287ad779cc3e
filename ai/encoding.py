"""What one player may see of a position, as the sparse input of the neural value (`ai.network`).

`encode(state, viewer)` lists ``(input, value)`` pairs over `N_INPUTS` inputs: for every component of
the game (base game and *Lux et Tenebrae*, by card id) where it is as the viewer sees it (`SLOTS`: in
play straight or turned, in the viewer's hand, deck or discard pile, in a rival's tableau or discard
pile, known to be among a rival's hidden cards, in the centre, claimed, on offer to the viewer in a
draft or a mage choice) and the essences on it; then the pools, points, cards in hand and deck, the
First Player token, who has passed and is to move, the round and the phase.

With three players or more, "rival" is every rival for a component (a card in any rival's tableau or
discard pile, known among any rival's hidden cards) and the rival ahead (`rival_of`: most points, then
essences) for the pools, points, card counts and pass: a network per player count reads the same
inputs (`ai.network`).  No rival's hidden card is shown as known there: with three players or more a
determinisation keeps only some of what the viewer knows of who holds which (`amigos.determinize`), and
the view of a position and of its worlds must be the same.

It reads a rival's hand, deck and undecided mages only through what the viewer knows of them
(``known_decks``, the packet the viewer passed on): the encoding of a position and of any
determinisation of it for the viewer (`amigos.determinize`) are the same, which the no-peeking test
checks.  The deck orders and the monument deck's order are never read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from amigos import cards as C
from amigos.codes import (
    ACTIONS,
    AVAILABLE,
    BEING_CHOSEN,
    COLLECT,
    DECK,
    DISCARD,
    DRAFT_RESERVE,
    DRAFTING,
    FACE_UP,
    HAND,
    IN_PLAY,
    SETUP_DRAFT,
    SETUP_REDRAFT,
)
from amigos.observe import unseen_deck

if TYPE_CHECKING:
    from amigos.state import GameState

#: Where a component is, as the viewer sees it (one input per component and slot).
SLOTS: Final = ("mine", "mine_turned", "my_hand", "my_deck", "my_discard", "rival", "rival_turned",
                "rival_known", "rival_discard", "centre", "offered")
MINE, MINE_TURNED, MY_HAND, MY_DECK, MY_DISCARD, RIVAL, RIVAL_TURNED, RIVAL_KNOWN, RIVAL_DISCARD, CENTRE, \
    OFFERED = range(len(SLOTS))
#: The essences on a component in play, mine or a rival's (the sum of the five kinds, Gold counted
#: twice: it is worth two of another), scaled by `ESSENCE_SCALE`.
ON_MINE, ON_RIVAL = len(SLOTS), len(SLOTS) + 1
PER_CARD: Final[int] = len(SLOTS) + 2

CARD_INDEX: Final = {card.id: card.idx for card in C.CARDS}  # (a card's idx: its place in `C.CARDS`)
N_CARDS: Final[int] = len(C.CARDS)
ESSENCE_SCALE: Final = 0.25
POOL_SCALE: Final = 0.2
POINTS_SCALE: Final = 0.1

#: The inputs after the components', for the viewer ("my_") and the rival ("rival_").
GLOBALS: Final = (
    "my_elan", "my_life", "my_calm", "my_death", "my_gold",
    "rival_elan", "rival_life", "rival_calm", "rival_death", "rival_gold",
    "my_points", "rival_points", "my_hand_size", "rival_hand_size", "my_deck_size", "rival_deck_size",
    "my_token", "my_passed", "rival_passed", "my_move", "round", "collect", "actions", "setup", "draft",
    "bias")
G = {name: N_CARDS * PER_CARD + i for i, name in enumerate(GLOBALS)}
N_INPUTS: Final[int] = N_CARDS * PER_CARD + len(GLOBALS)
_MY_POOL: Final = G["my_elan"]
_RIVAL_POOL: Final = G["rival_elan"]
_MY_POINTS: Final = G["my_points"]
_RIVAL_POINTS: Final = G["rival_points"]
_SIZES: Final = G["my_hand_size"]  # (then the rival's hand, my deck, the rival's deck: `GLOBALS`' order)
_FLAGS: Final = tuple(G[name] for name in ("my_token", "my_passed", "rival_passed", "my_move", "collect",
                                           "actions", "setup", "draft", "bias"))
_ROUND: Final = G["round"]
_CENTRE_LOCATIONS = frozenset((AVAILABLE, FACE_UP))
_RIVAL_HIDDEN = frozenset((HAND, DECK, DRAFTING, DRAFT_RESERVE))  # a rival's cards the viewer does not see


def rival_of(state: GameState, viewer: int) -> int:
    """The rival whose pools, points and counts the viewer's view holds: the only one with two players;
    with more, the one ahead (most points, then most essences, Gold counted twice, then the first after
    the viewer in turn order): all of it public."""
    n = state.n_players
    if n == 2:
        return 1 - viewer
    points = state.victory_points()
    pool = state.pool
    best, best_key = -1, (-1, -1)
    for k in range(1, n):
        q = (viewer + k) % n
        at = 5 * q
        key = (points[q], pool[at] + pool[at + 1] + pool[at + 2] + pool[at + 3] + 2 * pool[at + 4])
        if key > best_key:
            best, best_key = q, key
    return best


def encode(state: GameState, viewer: int, rival: int = -1) -> list[tuple[int, float]]:
    """The viewer's view of ``state`` as (input, value) pairs, each input at most once and no value 0
    (see the module docstring); ``rival``: `rival_of`'s, if the caller has it (-1: worked out here)."""
    index, value = encode_inputs(state, viewer, rival)
    return list(zip(index, value))


def encode_inputs(state: GameState, viewer: int, rival: int = -1) -> tuple[list[int], list[float]]:
    """`encode`'s pairs as two lists, the inputs and their values in the same order: what the network's
    leaf reads (no pairs to take apart a leaf)."""
    index: list[int] = []
    value: list[float] = []
    if rival < 0:
        rival = rival_of(state, viewer)
    players = state.n_players
    many = players > 2
    cards, loc, owner, turned, ess = state.cards, state.loc, state.owner, state.turned, state.ess
    known = state.known_decks[viewer]
    passed_on = state.passed_packet[viewer] if state.passed_packet else frozenset()
    hidden = set(unseen_deck(state, viewer))
    hand = deck = rival_hand = rival_deck = 0
    for e in range(len(loc)):
        where, who, card = loc[e], owner[e], cards[e]
        base = card.idx * PER_CARD  # (`CARD_INDEX` of its id)
        slot = -1
        if who == viewer:
            if where == IN_PLAY:
                slot = MINE_TURNED if turned[e] else MINE
                load = _load(ess, e)
                if load:
                    index.append(base + ON_MINE)
                    value.append(load)
            elif where == HAND:
                slot, hand = MY_HAND, hand + 1
            elif where == DECK:
                deck += 1
                slot = -1 if e in hidden else MY_DECK
            elif where == DISCARD:
                slot = MY_DISCARD
            elif where in (BEING_CHOSEN, DRAFTING):
                slot = OFFERED
        elif who == rival or (many and who < players):  # (NOBODY, the supply, is past the seats)
            if where == IN_PLAY:
                slot = RIVAL_TURNED if turned[e] else RIVAL
                load = _load(ess, e)
                if load:
                    index.append(base + ON_RIVAL)
                    value.append(load)
            elif where == DISCARD:
                slot = RIVAL_DISCARD
            elif where in _RIVAL_HIDDEN:
                if who == rival and where == HAND:
                    rival_hand += 1
                elif who == rival and where == DECK:
                    rival_deck += 1
                if not many and e < state.n_art and (card.id in known or card.id in passed_on):
                    slot = RIVAL_KNOWN
        elif where in _CENTRE_LOCATIONS:
            slot = CENTRE
        if slot >= 0:
            index.append(base + slot)
            value.append(1.0)
    _globals(state, viewer, rival, (hand, rival_hand, deck, rival_deck), index, value)
    return index, value


def _load(ess: list[int], e: int) -> float:
    i = 5 * e
    return (ess[i] + ess[i + 1] + ess[i + 2] + ess[i + 3] + 2 * ess[i + 4]) * ESSENCE_SCALE


def _globals(state: GameState, viewer: int, rival: int, sizes: tuple[int, int, int, int],
             index: list[int], value: list[float]) -> None:
    pool = state.pool
    for k in range(5):
        _put(index, value, _MY_POOL + k, pool[5 * viewer + k] * POOL_SCALE)
        _put(index, value, _RIVAL_POOL + k, pool[5 * rival + k] * POOL_SCALE)
    vp = state.victory_points()
    _put(index, value, _MY_POINTS, vp[viewer] * POINTS_SCALE)
    _put(index, value, _RIVAL_POINTS, vp[rival] * POINTS_SCALE)
    for i, size in enumerate(sizes):  # (in `_SIZES` order: hand, the rival's hand, deck, the rival's deck)
        _put(index, value, _SIZES + i, size * POOL_SCALE)
    phase = state.phase
    flags = (state.first_player == viewer, bool(state.passed[viewer]), bool(state.passed[rival]),
             not state.is_terminal() and state.current_player() == viewer, phase == COLLECT, phase == ACTIONS,
             phase not in (COLLECT, ACTIONS), phase in (SETUP_DRAFT, SETUP_REDRAFT), True)
    for i, on in enumerate(flags):  # (in `_FLAGS` order)
        if on:
            _put(index, value, _FLAGS[i], 1.0)
    _put(index, value, _ROUND, min(state.round, 10) * POINTS_SCALE)


def _put(index: list[int], value: list[float], i: int, v: float) -> None:
    """Add input ``i`` with ``v`` unless it is 0 (the input is sparse)."""
    if v:
        index.append(i)
        value.append(v)


def card_input(card_id: str, slot: int) -> int:
    """The input of a component (by card id) in a slot (`SLOTS`): for tests and for reading weights."""
    return CARD_INDEX[card_id] * PER_CARD + slot
