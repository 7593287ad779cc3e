"""Determinisation: a full game state consistent with what one player can see.

`determinize(state, player, seed)` clones the state and re-deals every card ``player`` cannot see into
the same hidden places, then reseeds the chance RNG.  The result depends only on ``player``'s
observation and ``seed``: two states that differ only in what ``player`` cannot see give the same
determinisation (a test checks this), so an agent that searches determinisations cannot peek.

Hidden from ``player``: the rival's hand, deck and draft packet (their size is public), the draft
packets not yet opened, the rival's undecided mage options, the order of every deck (except the top
cards ``player`` put back by scrying their own deck, or the monument deck when ``player`` scried it
last), and in a First Game the cards of ``player``'s own deck dealt face down that they have not seen
yet (`amigos.observe.unseen_deck`).  Cards known to be the rival's (passed to them in the draft, taken
into their hand or deck from a public place, or all eight in games 2 and 3 of a match) are dealt back
among the rival's hidden places -- the draft packet ``player`` just passed only into the packet the
rival now holds; the rest are drawn from the artifacts ``player`` has not seen.  ``player``'s own unseen cards stay in their deck and are drawn from the
artifacts ``player`` has not seen that a First Game deals face down (none of a preset hand).  With an
expansion, the monument deck's unseen cards are dealt from every monument nobody has seen (the ones
boxed at setup are unknown to both players).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import cards as C
from . import rng as R
from .codes import (
    BEING_CHOSEN,
    DECK,
    DECK_MONUMENT,
    DRAFT_RESERVE,
    DRAFTING,
    HAND,
    MONUMENT_DECK,
    OUT_OF_GAME,
    P_SCRYORDER,
)
from .draft import passing_step
from .observe import unseen_deck
from .setup import PRESET_ARTIFACTS

if TYPE_CHECKING:
    from .state import GameState

_HIDDEN_LOCS = (HAND, DECK, DRAFTING)


def determinize(state: GameState, player: int, seed: int) -> GameState:
    """A copy of ``state`` with everything ``player`` cannot see re-dealt at random from ``seed``."""
    return Determinizer(state, player).deal(seed)


class Determinizer:
    """Determinisations of one state for one player: what ``player`` can see is worked out once, so
    that each `deal` only draws and places the hidden cards (a search deals one per iteration)."""

    state: GameState
    face_down: list[int]                 # ``player``'s own deck places dealt face down, unseen
    unseen: list[C.Card]                 # the artifacts ``player`` has not seen
    face_down_pool: list[C.Card]         # what a face-down card of ``player``'s may be
    reserve: list[int]                   # the draft's reserve packets' places
    known_cards: list[C.Card]            # cards known to be the rival's, for its hidden places
    short: int                           # the rival's hidden places no known card fills
    slots: list[tuple[int, int, int]]    # the rival's hidden places: (entity, location, owner)
    held: list[tuple[list[tuple[int, int, int]], list[C.Card]]]  # three players or more: a rival's
    # hidden places and the cards ``player`` knows that rival holds (`GameState.known_held`)
    packet_slots: list[tuple[int, int, int]]  # the places of the packet ``player`` passed on
    packet_cards: list[C.Card]           # the cards of that packet
    rival_mages: list[int]               # the rival's undecided mage options
    mage_candidates: list[C.Card]        # what they may be
    forget_order: list[int]              # cards in a deck whose order ``player`` was not told
    monument_slots: list[int]            # with an expansion: the monument deck's unseen places
    monument_pool: list[C.Card]          # and the monuments they may be
    changes_cards: bool                  # whether a deal changes any card (else only orders)

    def __init__(self, state: GameState, player: int) -> None:
        self.state = state
        loc, owner, cards = state.loc, state.owner, state.cards
        # Hidden artifact places, in a canonical order (by place, then entity index), so that which
        # entity holds which hidden card -- itself hidden -- does not matter.
        hidden = []
        for e in range(state.n_art):
            where = loc[e]
            if (where in _HIDDEN_LOCS and owner[e] != player) or where == DRAFT_RESERVE:
                hidden.append(e)
        # ``player``'s own deck cards dealt face down and not seen yet (a First Game): their places
        # stay, their cards are re-dealt.
        self.face_down = unseen_deck(state, player)
        hidden_set = set(hidden) | set(self.face_down)
        visible_ids = {cards[e].id for e in range(len(loc)) if e not in hidden_set}
        known = [cid for cid in sorted(state.known_decks[player]) if cid not in visible_ids]
        known_set = set(known)
        self.unseen = [c for c in C.set_cards(C.ARTIFACT, state.sets)
                       if c.id not in visible_ids and c.id not in known_set]
        # What such a card may be: an unseen artifact of those a First Game deals face down, never a
        # preset hand's (so never a card some player records having seen, as `unseen_deck` needs).
        self.face_down_pool = [c for c in self.unseen if c.id not in PRESET_ARTIFACTS] if self.face_down else []
        self._plan_rival_places(player, hidden, known, known_set)
        self._plan_held(player)
        self._plan_mages(player)
        # Deck orders nobody told ``player`` (the rival's deck is re-dealt with no order anyway).
        self.forget_order = [e for e in range(len(loc)) if state.order[e] >= 0 and (
            (loc[e] == MONUMENT_DECK and state.mon_seer != player) or (loc[e] == DECK and owner[e] != player))]
        self._plan_monuments(player)
        self.changes_cards = bool(self.slots or self.held or self.packet_slots or self.reserve or self.rival_mages
                                  or self.face_down or self.monument_slots)

    def _plan_rival_places(self, player: int, hidden: list[int], known: list[str], known_set: set[str]) -> None:
        """Known rival cards go to the rival's hand, deck and packet; reserve packets get unseen cards."""
        state = self.state
        loc, owner = state.loc, state.owner
        rival_places = [e for e in hidden if loc[e] != DRAFT_RESERVE]
        self.reserve = [e for e in hidden if loc[e] == DRAFT_RESERVE]
        self.known_cards = [C.BY_ID[cid] for cid in known][:len(rival_places)]
        self.short = len(rival_places) - len(self.known_cards)
        counts: dict[tuple[int, int], int] = {}
        for e in rival_places:
            counts[(loc[e], owner[e])] = counts.get((loc[e], owner[e]), 0) + 1
        slots = iter(rival_places)  # ascending entity order
        self.slots = [(next(slots), where, who) for (where, who), count in sorted(counts.items())
                      for _ in range(count)]
        # In a draft, the packet the next player picks from is the one ``player`` passed them
        # (perhaps less the card they have kept already): it is dealt only cards of that packet.
        self.packet_slots, self.packet_cards = [], []
        passed = state.passed_packet[player] & known_set
        if passed:
            receiver = (player + passing_step(state.draft_stage)) % state.n_players
            packet_slots = [slot for slot in self.slots if slot[1] == DRAFTING and slot[2] == receiver]
            if 0 < len(packet_slots) <= len(passed):
                self.packet_slots = packet_slots
                self.slots = [slot for slot in self.slots if slot not in packet_slots]
                self.packet_cards = [C.BY_ID[cid] for cid in sorted(passed)]
                self.known_cards = [c for c in self.known_cards if c.id not in passed]

    def _plan_held(self, player: int) -> None:
        """With three players or more a card ``player`` has seen may be with any rival, but one they
        know a given rival holds (`GameState.known_held`) is dealt only among that rival's hidden
        places; the rest of that rival's places join the others'.  (With two players every known card
        is the one rival's: nothing to plan.)"""
        self.held = []
        state = self.state
        if state.n_players <= 2:
            return
        known_ids = [c.id for c in self.known_cards]
        for rival in range(state.n_players):
            if rival == player:
                continue
            slots = [slot for slot in self.slots if slot[2] == rival]
            cards = [C.BY_ID[cid] for cid in known_ids if cid in state.known_held[player][rival]][:len(slots)]
            if cards:
                self.held.append((slots, cards))
                self.slots = [slot for slot in self.slots if slot[2] != rival]
                taken = {c.id for c in cards}
                known_ids = [cid for cid in known_ids if cid not in taken]
        if self.held:
            self.known_cards = [C.BY_ID[cid] for cid in known_ids]
            self.short = len(self.slots) + sum(len(slots) - len(cards) for slots, cards in self.held) \
                - len(self.known_cards)

    def _plan_mages(self, player: int) -> None:
        """The rival's undecided mage options, and the mages they may be."""
        state = self.state
        cards, n = state.cards, len(state.loc)
        self.rival_mages = sorted(e for e in range(state.n_art, n) if cards[e].kind == C.MAGE
                                  and state.owner[e] != player and state.loc[e] in (BEING_CHOSEN, OUT_OF_GAME))
        self.mage_candidates = []
        if self.rival_mages:
            seen_mages = {cards[e].id for e in range(state.n_art, n) if cards[e].kind == C.MAGE
                          and e not in self.rival_mages}
            self.mage_candidates = [c for c in C.set_cards(C.MAGE, state.sets) if c.id not in seen_mages]

    def _plan_monuments(self, player: int) -> None:
        """With an expansion only some monuments are in the game, the rest boxed unseen: the deck's
        cards ``player`` has not seen may be any monument nobody has seen.  (In the base game every
        monument is in it, and the deck holds exactly the ones not in view.)"""
        self.monument_slots, self.monument_pool = [], []
        state = self.state
        if len(state.sets) == 1:
            return
        loc, order, cards, n = state.loc, state.order, state.cards, len(state.loc)
        looking = {e for top in state.stack if top[0] == P_SCRYORDER and top[1] == player
                   and top[2] == DECK_MONUMENT for e in top[3]}  # (being put back: in view)
        deck = [e for e in range(n) if loc[e] == MONUMENT_DECK and e not in looking
                and not (order[e] >= 0 and state.mon_seer == player)]
        in_view = {cards[e].id for e in range(n) if cards[e].kind == C.MONUMENT and e not in deck}
        pool = [c for c in C.set_cards(C.MONUMENT, state.sets) if c.id not in in_view]
        if len(pool) > len(deck):
            self.monument_slots, self.monument_pool = deck, pool

    def deal(self, seed: int) -> GameState:
        """A copy of the state with the hidden cards dealt from ``seed``."""
        s = self.state.clone()
        _, rng = R.next_u64(seed & R.MASK64)
        loc, owner, order = s.loc, s.owner, s.order
        cards = list(s.cards)
        short = self.short
        drawn, rng = R.sample(rng, self.unseen, short + len(self.reserve))
        deal = self.known_cards + drawn[:short]
        if self.packet_slots:
            packet, rng = R.sample(rng, self.packet_cards, len(self.packet_slots))
            deal += [c for c in self.packet_cards if c not in packet]
            for (e, where, who), card in zip(self.packet_slots, packet):
                loc[e] = where
                owner[e] = who
                order[e] = -1
                cards[e] = card
        slots = self.slots
        if self.held:
            slots = list(slots)
            for places, known in self.held:  # (each known card in a random one of its holder's places)
                shuffled, rng = R.sample(rng, places, len(places))
                for (e, where, who), card in zip(shuffled, known):
                    loc[e] = where
                    owner[e] = who
                    order[e] = -1
                    cards[e] = card
                slots += shuffled[len(known):]
        rng = R.shuffle(rng, deal)
        for e, where, who in slots:
            loc[e] = where
            owner[e] = who
            order[e] = -1
            cards[e] = deal.pop()
        for e, card in zip(self.reserve, drawn[short:]):
            cards[e] = card
        if self.face_down:  # (only then, so that every other game draws as it always did)
            taken = {c.id for c in drawn}
            pool = [c for c in self.face_down_pool if c.id not in taken]
            if len(pool) < len(self.face_down):
                # The rivals' places took too many of the cards a face-down one may be (four players:
                # 24 places dealt from 37 cards, 28 of them of the pool, leave fewer than 5): that deal
                # cannot be, and another is made (a deal conditioned on being possible).
                retry, _ = R.next_u64(rng)
                return self.deal(retry)
            own, rng = R.sample(rng, pool, len(self.face_down))
            for e, card in zip(self.face_down, own):
                cards[e] = card
        if self.rival_mages:
            picked, rng = R.sample(rng, self.mage_candidates, len(self.rival_mages))
            for e, card in zip(self.rival_mages, picked):
                cards[e] = card
        if self.monument_slots:
            picked_monuments, rng = R.sample(rng, self.monument_pool, len(self.monument_slots))
            for e, card in zip(self.monument_slots, picked_monuments):
                cards[e] = card
        for e in self.forget_order:
            order[e] = -1
        if self.changes_cards:
            s.cards = tuple(cards)
            s.names = None  # rebuilt by `GameState.find` if anyone asks
        s.rng, _ = R.next_u64(rng)
        s._legal = s._groups = None
        return s


def recast(past: GameState, world: GameState) -> GameState:
    """A copy of ``past``, an earlier position of the game ``world`` determinises a later position of,
    with every component the card ``world`` deals it: that position as it was in the world's history.
    Components are fixed places (entities), and a world changes only which card a hidden one is, so a
    card revealed since ``past`` keeps its identity and a hidden one takes the world's, wherever it
    moved (a card drawn since is the one the world has in hand)."""
    if len(past.cards) != len(world.cards):
        raise ValueError("recast: the positions are not of one game")
    s = past.clone()
    if s.cards is not world.cards:
        s.cards = world.cards
        s.names = None  # rebuilt by `GameState.find` if anyone asks
        s._legal = s._groups = None
    return s
