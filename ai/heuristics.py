"""Cheap knowledge the search uses: grouping the many payment variants of one action, and choosing
among them.

A *macro* is an action without its essence details: "place Fire Dragon" stands for every way of paying
for it, "use Transmutation" for every payment and gain.  The tree branches on macros, so hundreds of
payment variants do not dilute it; the variant is then chosen by `best_variant`, which keeps the
essences the player's cards ask for and spends the ones they don't.
"""

from __future__ import annotations

from amigos import actions as A
from amigos import cards as C

from .value import _WORTH, essence_worth


def demand(state, p: int) -> list:
    """How many of each essence ``p``'s hand and components ask for (fixed costs only)."""
    need = [0, 0, 0, 0, 0]
    loc, owner, cards = state.loc, state.owner, state.cards
    for e in range(len(loc)):
        if owner[e] != p:
            continue
        where = loc[e]
        if where == 4:  # HAND
            cost = cards[e].cost
            for k in range(5):
                need[k] += cost[k]
        elif where == 5:  # IN_PLAY
            for pw in cards[e].powers:
                if pw.kind == C.ACTION:
                    for k in range(5):
                        need[k] += pw.pay[k]
    # Monuments want Gold.
    need[4] += 2
    return need


def pool_value(pool, need) -> float:
    """Worth of a pool to a player with these needs: the leaf value's worth of the essences
    (`ai.value.essence_worth`), more for needed ones."""
    v = essence_worth(pool, 0)
    for k in range(5):
        x = pool[k]
        v += 0.1 * (x if x < need[k] else need[k])
    return v


def best_variant(state, variants: list):
    """Among actions of one macro, the one leaving the acting player the most useful pool."""
    if len(variants) == 1:
        return variants[0]
    p = variants[0][1]
    need = demand(state, p)
    pool = state.pool_of(p)
    best, best_v = None, None
    for a in variants:
        after = _pool_after(pool, a)
        v = pool_value(after, need)
        if best is None or v > best_v:
            best, best_v = a, v
    return best


def _pool_after(pool, a):
    kind = a[0]
    if kind in (A.PLACE, A.CLAIM_POP):
        pay, gain = a[3], C.ZERO
    elif kind in (A.DISCARD, A.GAIN):
        pay, gain = C.ZERO, a[3]
    elif kind == A.POWER:
        pay, gain = a[6], a[7]
    elif kind == A.LL_REACT:
        pay, gain = a[5], C.ZERO
    elif kind == A.LL_CHOICE:
        pay, gain = a[2], C.ZERO
    elif kind == A.V_REACT:
        pay, gain = a[4], C.ZERO
    else:
        return pool
    return tuple(pool[k] - pay[k] + gain[k] for k in range(5))


def card_value(card) -> float:
    """A static worth of an artifact for drafting: printed points, a share of its cost and what it
    collects each round, and something for each power (see `ai.value`)."""
    return card.points + _WORTH[card.idx]
