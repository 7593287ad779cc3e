"""Determinisation: a full game state consistent with what one player can see.

`determinize(state, player, seed)` clones the state and re-deals every card ``player`` cannot see into
the same hidden places, then reseeds the chance RNG.  The result depends only on ``player``'s
observation and ``seed``: two states that differ only in what ``player`` cannot see give the same
determinisation (a test checks this), so an agent that searches determinisations cannot peek.

Hidden from ``player``: the rival's hand, deck and draft packet (their size is public), the draft
packets not yet opened, the rival's undecided mage options, the order of every deck (except the top
cards ``player`` put back by scrying their own deck, or the monument deck when ``player`` scried it
last).  Cards known to be the rival's (passed to them in the draft, or all eight in games 2 and 3 of
a match) are dealt back among the rival's hidden places; the rest are drawn from the artifacts
``player`` has not seen.
"""

from __future__ import annotations

from . import cards as C
from . import rng as R
from .state import (BEING_CHOSEN, DECK, DRAFT_RESERVE, DRAFTING, HAND, MONUMENT_DECK,
                    OUT_OF_GAME)

_HIDDEN_LOCS = (HAND, DECK, DRAFTING)


def determinize(state, player: int, seed: int):
    """A copy of ``state`` with everything ``player`` cannot see re-dealt at random from ``seed``."""
    s = state.clone()
    _, rng = R.next_u64(seed & R.MASK64)
    loc, owner, order = s.loc, s.owner, s.order
    cards = list(s.cards)
    n = len(loc)

    # Hidden artifact places, in a canonical order (by place, then entity index), so that which entity
    # holds which hidden card -- itself hidden -- does not matter.
    hidden = []
    for e in range(s.n_art):
        where = loc[e]
        if (where in _HIDDEN_LOCS and owner[e] != player) or where == DRAFT_RESERVE:
            hidden.append(e)
    hidden_set = set(hidden)
    visible_ids = {cards[e].id for e in range(n) if e not in hidden_set}
    known = [cid for cid in sorted(s.known_decks[player]) if cid not in visible_ids]
    known_set = set(known)
    unseen = [c for c in C.ARTIFACTS if c.id not in visible_ids and c.id not in known_set]
    # Known rival cards go to the rival's hand, deck and packet; reserve packets get unseen cards.
    rival_places = [e for e in hidden if loc[e] != DRAFT_RESERVE]
    reserve = [e for e in hidden if loc[e] == DRAFT_RESERVE]
    known_cards = [C.BY_ID[cid] for cid in known][:len(rival_places)]
    short = len(rival_places) - len(known_cards)
    drawn, rng = R.sample(rng, unseen, short + len(reserve))
    deal = known_cards + drawn[:short]
    rng = R.shuffle(rng, deal)
    counts = {}
    for e in rival_places:
        counts[(loc[e], owner[e])] = counts.get((loc[e], owner[e]), 0) + 1
    slots = iter(rival_places)  # ascending entity order
    for (where, who), count in sorted(counts.items()):
        for _ in range(count):
            e = next(slots)
            loc[e] = where
            owner[e] = who
            order[e] = -1
            cards[e] = deal.pop()
    for e, card in zip(reserve, drawn[short:]):
        cards[e] = card

    # The rival's undecided mage options.
    rival_mages = [e for e in range(s.n_art, n) if cards[e].kind == C.MAGE and owner[e] != player
                   and loc[e] in (BEING_CHOSEN, OUT_OF_GAME)]
    if rival_mages:
        seen_mages = {cards[e].id for e in range(s.n_art, n) if cards[e].kind == C.MAGE and e not in rival_mages}
        candidates = [c for c in C.MAGES if c.id not in seen_mages]
        picked, rng = R.sample(rng, candidates, len(rival_mages))
        for e, card in zip(sorted(rival_mages), picked):
            cards[e] = card

    # Deck orders nobody told ``player``.
    for e in range(n):
        if order[e] >= 0:
            where = loc[e]
            if where == MONUMENT_DECK and s.mon_seer != player:
                order[e] = -1
            elif where == DECK and owner[e] != player:
                order[e] = -1

    old = s.cards
    changed = [e for e in range(n) if cards[e] is not old[e]]
    if changed:
        names = dict(s.names)
        for e in changed:
            for key in (old[e].name, old[e].ref_name, old[e].id):
                if names.get(key) == e:
                    del names[key]
        for e in changed:
            c = cards[e]
            names[c.name] = names[c.ref_name] = names[c.id] = e
        s.names = names
    s.cards = tuple(cards)
    s.rng, _ = R.next_u64(rng)
    s._legal = s._groups = None
    return s

