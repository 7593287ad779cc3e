"""The setup decisions taken during play: the draft variant's picks (`start_draft`, `draft_pick`)
and, in games 2 and 3 of a match, the choice of first player and the face-up redraft
(`choose_first`, `redraft_pick`).  `amigos.setup` deals the games; `amigos.apply` applies the picks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import rng as R
from .codes import (
    DECK,
    DRAFT_RESERVE,
    DRAFTING,
    FACE_UP,
    HAND,
    SETUP_CHOOSE_ITEMS,
    SETUP_CHOOSE_MAGES,
    SETUP_DRAFT,
    SETUP_REDRAFT,
)
from .flow import move

if TYPE_CHECKING:
    from .state import GameState


# -- the draft -----------------------------------------------------------------------------------------

def start_draft(s: GameState) -> None:
    """Artifacts 0-3 of each player's deal form the first packet, 4-7 the second (held back)."""
    for p in range(s.n_players):
        mine = [e for e in range(s.n_art) if s.owner[e] == p]
        for i, e in enumerate(mine):
            move(s, e, DRAFTING if i < 4 else DRAFT_RESERVE, p)
    s.phase = SETUP_DRAFT
    s.draft_stage = 0
    s.draft_picked = [False] * s.n_players
    s.turn = 0
    _see_packets(s)


def _see_packets(s: GameState) -> None:
    """Each player has now seen the packet they hold: remember those cards (for hidden information,
    every card a player saw and did not keep went to the rival)."""
    seen = [set(k) for k in s.known_decks]
    for e in range(s.n_art):
        if s.loc[e] == DRAFTING:
            seen[s.owner[e]].add(s.cards[e].id)
    s.known_decks = tuple(frozenset(k) for k in seen)


def _learn_held(s: GameState, observer: int, holder: int, card_id: str) -> None:
    """``observer`` now knows that ``holder`` holds the artifact ``card_id`` (`GameState.known_held`)."""
    held = s.known_held[observer]
    row = held[:holder] + (held[holder] | {card_id},) + held[holder + 1:]
    s.known_held = s.known_held[:observer] + (row,) + s.known_held[observer + 1:]


def passing_step(draft_stage: int) -> int:
    """Where the packets of this draft stage go: +1 (to the left) in the first half, -1 in the second."""
    return 1 if draft_stage < 3 else -1


def turn_to_undecided(s: GameState, decided: list[bool]) -> bool:
    """Give the turn to the first player in seat order who has not decided yet (a choice every player
    makes at once: a mage, a draft pick); False, the turn unchanged, once all have."""
    for q in range(s.n_players):
        if not decided[q]:
            s.turn = q
            return True
    return False


def draft_pick(s: GameState, p: int, e: int) -> None:
    """``p`` keeps artifact ``e`` from the packet they hold (it joins their deck)."""
    move(s, e, DECK, p)
    s.draft_picked[p] = True
    if turn_to_undecided(s, s.draft_picked):
        return
    # Everyone picked: pass the packets.
    step = passing_step(s.draft_stage)
    held = [(e2, s.owner[e2]) for e2 in range(s.n_art) if s.loc[e2] == DRAFTING]
    passed: list[set[str]] = [set() for _ in range(s.n_players)]
    for e2, q in held:
        move(s, e2, DRAFTING, (q + step) % s.n_players)
        passed[q].add(s.cards[e2].id)
    s.passed_packet = tuple(frozenset(k) for k in passed)
    s.draft_stage += 1
    s.draft_picked = [False] * s.n_players
    _see_packets(s)
    if s.draft_stage in (3, 6):
        # One card left in each packet: the last card received is kept, which its passer now knows.
        for e2, q in held:
            _learn_held(s, q, s.owner[e2], s.cards[e2].id)
        for e2 in range(s.n_art):
            if s.loc[e2] == DRAFTING:
                move(s, e2, DECK, s.owner[e2])
        s.passed_packet = tuple(frozenset() for _ in range(s.n_players))
        if s.draft_stage == 3:
            for e2 in range(s.n_art):
                if s.loc[e2] == DRAFT_RESERVE:
                    move(s, e2, DRAFTING, s.owner[e2])
            _see_packets(s)  # the second packets, as dealt
        else:
            _finish_draft(s)
            return
    s.turn = 0


def _finish_draft(s: GameState) -> None:
    """Each player shuffles their 8, draws 3, then the mage choice begins."""
    for p in range(s.n_players):
        deck = [e for e in range(s.n_art) if s.loc[e] == DECK and s.owner[e] == p]
        hand, s.rng = R.sample(s.rng, deck, 3)
        for e in hand:
            move(s, e, HAND, p)
    s.phase = SETUP_CHOOSE_MAGES
    s.turn = s.first_player


# -- games 2 and 3 of a match: the first player, the face-up redraft ------------------------------

def redraft_order(first: int) -> list[int]:
    """Who takes each of the 16 picks: first player 1, then 2 each alternately, first player the last."""
    other = 1 - first
    return [first] + [other, other, first, first] * 3 + [other, other, first]


def choose_first(s: GameState, first: int) -> None:
    """The chooser names the first player; then the redraft (game 2) or the hands (game 3)."""
    s.first_player = first
    if redraft_picks_made(s) is not None:  # game 2: the 16 artifacts lie face up
        s.phase = SETUP_REDRAFT
        s.turn = redraft_order(first)[0]
    else:
        _deal_hands(s)


def redraft_pick(s: GameState, p: int, e: int) -> None:
    """``p`` takes face-up artifact ``e`` into their deck (the rival saw it taken: `move`)."""
    move(s, e, DECK, p)
    made = redraft_picks_made(s)
    order = redraft_order(s.first_player)
    if made is not None and made < len(order):
        s.turn = order[made]
    else:
        _deal_hands(s)


def redraft_picks_made(s: GameState) -> int | None:
    """How many artifacts have been taken in the face-up redraft (0 before it begins), or None when
    no card lies face up (no redraft, or the last card taken)."""
    face_up = sum(1 for e in range(s.n_art) if s.loc[e] == FACE_UP)
    return s.n_art - face_up if face_up else None


def _deal_hands(s: GameState) -> None:
    """Each player shuffles their 8 and draws 3; both know each other's 8; magic items next."""
    ids = []
    for p in range(s.n_players):
        deck = [e for e in range(s.n_art) if s.loc[e] == DECK and s.owner[e] == p]
        hand, s.rng = R.sample(s.rng, deck, 3)
        for e in hand:
            move(s, e, HAND, p)
        ids.append(frozenset(s.cards[e].id for e in deck))
    s.known_decks = (ids[1], ids[0])
    s.known_held = ((frozenset(), ids[1]), (ids[0], frozenset()))
    s.phase = SETUP_CHOOSE_ITEMS
    s.item_picks = 0
    s.turn = (s.first_player - 1) % s.n_players
