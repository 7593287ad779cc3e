"""What one player may see (`observation`), and nothing more."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from . import cards as C
from .codes import (
    AVAILABLE,
    BEING_CHOSEN,
    DECK,
    DECK_ARTIFACT,
    DRAFTING,
    FACE_UP,
    MONUMENT_DECK,
    P_BANK,
    P_CCOST,
    P_GAIN,
    P_LIFE,
    P_PLACE,
    P_SCRYORDER,
    P_TAKE,
    P_VREACT,
    PHASE_NAMES,
    SETUP_REDRAFT,
    TEMPORARY,
    TOKEN,
)
from .flow import hidden_place

if TYPE_CHECKING:
    from .state import GameState

#: The seat of nobody: `observation` of what every player sees (a spectator's).
SPECTATOR: Final = -1


def observation(s: GameState, player: int) -> dict[str, Any]:
    """A plain dict of everything ``player`` may see: their own hand, the cards of their deck they have
    seen (sorted, not its order, except cards whose position they learned by scrying; in a First Game
    not the cards dealt face down until they are seen, `unseen_deck`: ``deck_size`` counts those too),
    the rival's hand and deck sizes, discard piles, everything in play, the face-up monuments and places
    of power, all pools, the pending decision.  Never the rival's hand, deck or undecided mages, nor any
    deck order.  `SPECTATOR` (no player) sees what is public: no hand, deck or knowledge of anyone's.

    Besides, all public: each player's ``points_breakdown`` (`GameState.points_breakdown`: each
    ``{"source": "card" | "first_player" | "this_round", "card": id or None, "points": n}``) and
    ``redraft_taken`` (while a face-up redraft lasts, the artifacts they took from it, in the order they
    lay face up; else empty), the ``scrolls_available`` in the centre (ids) and ``scrolls_in_game``
    (whether the game has scrolls at all)."""
    redraft = s.phase == SETUP_REDRAFT or any(s.loc[e] == FACE_UP for e in range(s.n_art))
    players = []
    for p in range(s.n_players):
        mine = p == player
        hand = s.hand(p)
        deck = s.deck(p)
        entry = {
            "pool": list(s.pool_of(p)),
            "vp": s.vp(p),
            "passed": bool(s.passed[p]),
            "first_player": s.first_player == p,
            "hand_size": len(hand),
            "deck_size": len(deck),
            "discard": sorted(s.cards[e].id for e in s.discard_pile(p)),
            # (by kind, then card id: the entities' order is the deal's, which tells a rival's dealt hand
            # from the cards drawn later)
            "in_play": [_component(s, e) for e in sorted(s.in_play(p), key=lambda e: _public_order(s, e))],
            "points_breakdown": [_points_source(s, source, points) for source, points
                                 in sorted(s.points_breakdown(p), key=lambda sp: _public_order(s, sp[0]))],
            # (while the redraft lasts a deck holds only the cards taken from the face-up ones: public)
            "redraft_taken": [s.cards[e].id for e in s.deck(p)] if redraft else [],
        }
        if mine:
            entry["hand"] = sorted(s.cards[e].id for e in hand)
            unseen = unseen_deck(s, p)
            entry["deck"] = sorted(s.cards[e].id for e in deck if e not in unseen)
            known = sorted((e for e in deck if s.order[e] >= 0), key=lambda e: s.order[e])
            entry["deck_top_known"] = [s.cards[e].id for e in known]
            entry["mage_options"] = sorted(s.cards[e].id for e in range(len(s.loc))
                                           if s.loc[e] == BEING_CHOSEN and s.owner[e] == p)
            entry["draft_packet"] = sorted(s.cards[e].id for e in range(s.n_art)
                                           if s.loc[e] == DRAFTING and s.owner[e] == p)
            entry["passed_packet"] = sorted(s.passed_packet[p])
        if not mine and player != SPECTATOR:
            # Two players: every artifact ``player`` has seen that is neither theirs nor in view is the
            # rival's.  More: those they know this rival holds; the rest of what they have seen is
            # named apart.
            if s.n_players == 2:
                not_rivals = {s.cards[e].id for e in range(s.n_art)
                              if s.owner[e] == player or not hidden_place(s.loc[e])}
                entry["known_artifacts"] = sorted(s.known_decks[player] - not_rivals)
            else:
                entry["known_artifacts"] = sorted(s.known_held[player][p])
        elif mine and s.n_players > 2:
            own = {s.cards[e].id for e in range(s.n_art) if s.owner[e] == player}
            entry["seen_artifacts"] = sorted(s.known_decks[player] - own)
        players.append(entry)
    monument_deck = [e for e in range(len(s.loc)) if s.loc[e] == MONUMENT_DECK]
    known_monuments = sorted((e for e in monument_deck if s.order[e] >= 0), key=lambda e: s.order[e])
    top = s.stack[-1] if s.stack else None
    return {
        "player": player,
        "phase": PHASE_NAMES[s.phase],
        "round": s.round,
        "current_player": s.current_player(),
        "players": players,
        "monuments_face_up": [s.cards[e].id for e in range(len(s.loc))
                              if s.loc[e] == AVAILABLE and s.cards[e].kind == C.MONUMENT],
        "monument_deck_size": len(monument_deck),
        "monument_deck_top_known": [s.cards[e].id for e in known_monuments]
        if player != SPECTATOR and s.mon_seer == player else [],
        "places_of_power": [s.cards[e].id for e in range(len(s.loc))
                            if s.loc[e] == AVAILABLE and s.cards[e].kind == C.PLACE_OF_POWER],
        "face_up_artifacts": [s.cards[e].id for e in range(s.n_art) if s.loc[e] == FACE_UP],
        "magic_items_available": [s.cards[e].id for e in range(len(s.loc))
                                  if s.loc[e] == AVAILABLE and s.cards[e].kind == C.MAGIC_ITEM],
        "scrolls_available": [s.cards[e].id for e in range(len(s.loc))
                              if s.loc[e] == AVAILABLE and s.cards[e].kind == C.SCROLL],
        "scrolls_in_game": any(c.kind == C.SCROLL for c in s.cards),
        "pending": None if top is None else _pending(s, top, player),
        "winners": list(s.won),
        "previous_game": None if s.previous_game is None else {
            "winners": list(s.previous_game[0]), "in_play": [sorted(ids) for ids in s.previous_game[1]]},
    }


def unseen_deck(s: GameState, p: int) -> list[int]:
    """The artifacts in ``p``'s deck that ``p`` has never seen, in entity order.  Only a First Game has
    any: its decks are dealt face down (rules.md §2.2), and a card of one stays unseen until it is drawn,
    looked at by scrying, or shuffled back in from the discard pile; in every other game each player
    has seen all of their artifacts (dealt face up to them, drafted, or taken in a redraft).

    The knowledge is `GameState.known_decks`.  A First Game's deal records in each player's entry the
    preset hand they saw (`amigos.setup.new_game`); a draft records there every packet they held, so
    all of their own cards; any other deal nothing of their own cards (and a card of others' that
    becomes ``p``'s leaves ``p``'s entry, `amigos.flow.move`).  So an entry that names none of ``p``'s
    own artifacts means that ``p`` saw their whole deal.  A card of ``p``'s named in any player's entry
    was seen by ``p`` too: a card that goes from a public place into a deck was in view of everyone
    (`amigos.flow.move`, which tells only the rivals)."""
    loc, owner, order, cards = s.loc, s.owner, s.order, s.cards
    own = [e for e in range(s.n_art) if owner[e] == p]
    record = s.known_decks[p]
    if not any(cards[e].id in record for e in own):
        return []  # a deal seen whole
    seen: set[str] = set()
    for known in s.known_decks:
        seen |= known
    # The cards ``p`` is putting back after scrying are in view (the pending decision shows them).
    looking: set[int] = set()
    for top in s.stack:
        if top[0] == P_SCRYORDER and top[1] == p and top[2] == DECK_ARTIFACT:
            looking.update(top[3])
    return [e for e in own
            if loc[e] == DECK and order[e] < 0 and e not in looking and cards[e].id not in seen]


PENDING_NAMES = ("gain", "take_stored", "collect_cost", "life_loss", "draw", "discard", "scry_deck",
                 "scry_reveal", "scry_order", "monument_draw", "monument_reveal", "placement", "victory_react",
                 "bank")


def _pending(s: GameState, top: tuple[Any, ...], player: int) -> dict[str, Any]:
    """The decision being waited for; what it shows only its own player (the cards being ordered after a
    scry) appears only in that player's observation."""
    kind, who = top[0], top[1]
    out = {"kind": PENDING_NAMES[kind], "player": who}
    if kind in (P_GAIN, P_TAKE, P_CCOST, P_PLACE, P_VREACT, P_BANK):
        out["card"] = s.cards[top[2]].id
    elif kind == P_LIFE:
        out["attacker"] = s.cards[top[2]].id
        out["amount"] = top[3]
    elif kind == P_SCRYORDER and who == player:  # the looked-at cards, in their index order
        out["cards"] = [s.cards[e].id for e in top[3]]
    return out


def _public_order(s: GameState, e: int) -> tuple[int, str]:
    """Where component ``e`` is listed: by kind, then by card id (a points source that is no component:
    the First Player token first, this round's points last)."""
    if e == TOKEN:
        return (-1, "")
    if e == TEMPORARY:
        return (len(C.KIND_NAMES), "")
    return (s.cards[e].kind, s.cards[e].id)


def _component(s: GameState, e: int) -> dict[str, Any]:
    return {"id": s.cards[e].id, "turned": bool(s.turned[e]), "essences": list(s.essences_on(e))}


def _points_source(s: GameState, source: int, points: int) -> dict[str, Any]:
    """One source of a player's points (`GameState.points_breakdown`) by name: a component in play
    (``"card"``, with its id), the First Player token or the round's temporary points."""
    if source == TOKEN:
        return {"source": "first_player", "card": None, "points": points}
    if source == TEMPORARY:
        return {"source": "this_round", "card": None, "points": points}
    return {"source": "card", "card": s.cards[source].id, "points": points}
