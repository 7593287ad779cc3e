"""Cheap knowledge the search uses: grouping the many payment variants of one action, and choosing
among them.

A *macro* is an action without its essence details: "place Fire Dragon" stands for every way of paying
for it, "use Transmutation" for every payment and gain.  The tree branches on macros, so hundreds of
payment variants do not dilute it; the variant is then chosen by `best_variant`, which keeps the
essences the player's cards ask for and spends the ones they don't.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from amigos import actions as A
from amigos import cards as C
from amigos.cards import MONUMENT_COST_GOLD
from amigos.codes import AVAILABLE, HAND, IN_PLAY, MONUMENT_DECK
from amigos.config import Action
from amigos.legal import IdenticalSteps

from .features import Scan, row
from .learned import scan_progress
from .value import essences_worth

if TYPE_CHECKING:
    from amigos.state import GameState

    from .learned import ValueModel


def demand(state: GameState, p: int) -> list[int]:
    """How many of each essence ``p``'s hand and components ask for (fixed costs only)."""
    need = [0, 0, 0, 0, 0]
    loc, owner, cards = state.loc, state.owner, state.cards
    for e in range(len(loc)):
        if owner[e] != p:
            continue
        where = loc[e]
        if where == HAND:
            cost = cards[e].cost
            for k in range(5):
                need[k] += cost[k]
        elif where == IN_PLAY:
            for pw in cards[e].powers:
                if pw.kind == C.ACTION:
                    for k in range(5):
                        need[k] += pw.pay[k]
    # Monuments want Gold.
    need[4] += 2
    return need


def pool_value(pool: Pool, need: list[int]) -> float:
    """Worth of a pool to a player with these needs: the leaf value's worth of the essences
    (`ai.value.essences_worth`), more for needed ones."""
    v = essences_worth(pool)
    x0, x1, x2, x3, x4 = pool
    n0, n1, n2, n3, n4 = need
    v += 0.1 * (x0 if x0 < n0 else n0)
    v += 0.1 * (x1 if x1 < n1 else n1)
    v += 0.1 * (x2 if x2 < n2 else n2)
    v += 0.1 * (x3 if x3 < n3 else n3)
    v += 0.1 * (x4 if x4 < n4 else n4)
    return v


def worthwhile(state: GameState, variants: Sequence[Action]) -> Sequence[Action]:
    """The variants worth weighing: all, except that a scroll's ways that gain nothing (it goes back
    to the centre all the same: Projection paying fewer than 3, or nothing) are left out while some
    way gains something."""
    a = variants[0]
    if A.kind(a) != A.POWER or len(variants) == 1 or not state.cards[A.subject(a)].powers[A.power_index(a)].spend_self:
        return variants
    useful = [v for v in variants if A.gain(v) != C.ZERO]
    return useful or variants


def best_variant(state: GameState, variants: Sequence[Action]) -> Action:
    """Among actions of one macro, the one leaving the acting player the most useful pool (by
    `pool_value`; the first of equals), a scroll never used for nothing while it can do something."""
    variants = worthwhile(state, variants)
    if len(variants) == 1:
        return variants[0]
    after = pools_after(state, variants)
    if after is None:
        return variants[0]  # the variants do not differ in essences
    need = demand(state, A.player(variants[0]))
    best: Action | None = None
    best_v = 0.0
    for i in range(len(after)):
        v = pool_value(after[i], need)
        if best is None or v > best_v:
            best, best_v = variants[i], v
    assert best is not None  # two or more variants: some were rated
    return best


Pool = C.Essences
Purchase = tuple[Any, tuple[int, ...], int]  # (key, fixed cost, total cost): `purchases`


def pools_after(state: GameState, variants: Sequence[Action]) -> list[Pool] | None:
    """The acting player's pool after each of ``variants`` (actions of one macro: what each pays and
    gains), in their order; None when the variants neither pay nor gain."""
    if A.kind(variants[0]) not in A.PAY_GAIN_AT:
        return None
    b = 5 * A.player(variants[0])
    pool = state.pool
    p0, p1, p2, p3, p4 = pool[b], pool[b + 1], pool[b + 2], pool[b + 3], pool[b + 4]
    out: list[Pool] = []
    for a in variants:
        pay, gain = A.payment(a), A.gain(a)
        out.append((p0 - pay[0] + gain[0], p1 - pay[1] + gain[1], p2 - pay[2] + gain[2], p3 - pay[3] + gain[3],
                    p4 - pay[4] + gain[4]))
    return out


def learned_variant(state: GameState, variants: Sequence[Action], model: ValueModel) -> Action:
    """Among actions of one macro, the one whose pool the learned value (`ai.learned`) rates best for
    the acting player: it sees which essences complete a purchase (a place of power, a monument, an
    artifact in hand) now or after the next Collect, and which have no use.  Ties (pools the model
    rates alike) go to `pool_value`'s choice.  Of many variants only the `SHORTLIST` that
    `pool_value` rates best are weighed by the model (this runs at every new node of the search).  A
    scroll is never used for nothing while it can do something (`worthwhile`)."""
    return learned_variants(state, variants, model, 1)[0]


def learned_variants(state: GameState, variants: Sequence[Action], model: ValueModel, count: int) -> list[Action]:
    """The ``count`` variants `learned_variant` rates best, best first (fewer if there are fewer)."""
    variants = worthwhile(state, variants)
    if len(variants) == 1:
        return [variants[0]]
    after = pools_after(state, variants)
    if after is None:
        return [variants[0]]
    p: int = A.player(variants[0])
    need = demand(state, p)
    pools: list[tuple[float, int, Pool, Action]] = []
    for i in range(len(after)):
        have = after[i]
        pools.append((pool_value(have, need), -i, have, variants[i]))
    if len(pools) > SHORTLIST:
        pools.sort(reverse=True)
        del pools[SHORTLIST:]
    scan = Scan(state)
    weights = model.weights_at(scan_progress(scan))
    rated: list[tuple[float, int, Action]] = []
    for tie, minus_i, have, a in pools:
        features = row(scan, p, have)
        v = 0.0
        for j in range(len(features)):  # (the order of `sum` over the products: the same value)
            v += weights[j] * features[j]
        rated.append((v + TIE * tie, minus_i, a))
    rated.sort(key=_rating, reverse=True)  # (equals: the first variant first)
    return [a for _, _, a in rated[:count]]


def _rating(entry: tuple[float, int, Action]) -> tuple[float, int]:
    return entry[0], entry[1]


TIE: Final = 1e-3  # how much `pool_value` weighs beside the learned value: enough to break its ties only
SHORTLIST: Final = 12  # variants the model weighs, the best by `pool_value`


MONUMENT = "monument"  # the purchase key of a monument (any one: they all cost MONUMENT_COST_GOLD)
POWER_KEY = "power"  # the first part of a power's purchase key (`purchases`)


def _buys(pw: C.Power) -> bool:
    """Whether a power is a purchase (`purchases`): an action that turns its card, costs essences and
    gains some, and needs nothing else (no card destroyed, discarded or aimed at)."""
    return (pw.kind == C.ACTION and pw.turn_self and (sum(pw.pay) + pw.pay_any) > 0 and not pw.destroy
            and not pw.discard_hand and pw.remove_self is None and not pw.needs_target
            and (sum(pw.gain_pool) + sum(pw.store) + pw.mix_count) > 0)


def purchases(state: GameState, p: int, powers: bool = False) -> list[Purchase]:
    """What ``p`` could buy with a main action, as (key, fixed cost, total cost): the places of power
    on offer (keyed by entity), a monument (`MONUMENT`) and the artifacts in hand (by entity; their
    cost before discounts); with ``powers`` also the powers of ``p``'s straight components that pay
    for a gain (keyed ``(POWER_KEY, entity, power)``: Dwarven Mines' 3 Elan and 3 Death for its 2
    Gold), not those that destroy, discard or aim at something."""
    out: list[Purchase] = []
    loc, owner, cards = state.loc, state.owner, state.cards
    monument = False
    for e in range(len(loc)):
        where = loc[e]
        if where == HAND and owner[e] == p:
            card = cards[e]
            out.append((e, card.cost, card.cost_total))
        elif powers and where == IN_PLAY and owner[e] == p and not state.turned[e]:
            for pw in cards[e].powers:
                if _buys(pw):
                    out.append(((POWER_KEY, e, pw.index), pw.pay, sum(pw.pay) + pw.pay_any))
        elif where == AVAILABLE:
            card = cards[e]
            if card.kind == C.PLACE_OF_POWER:
                out.append((e, card.cost, sum(card.cost)))
            elif card.kind == C.MONUMENT:
                monument = True
        elif where == MONUMENT_DECK:
            monument = True
    if monument:
        out.append((MONUMENT, (0, 0, 0, 0, MONUMENT_COST_GOLD), MONUMENT_COST_GOLD))
    return out


def enabled_purchases(state: GameState, variants: Sequence[Action], targets: Sequence[Action],
                      cache: dict[Any, Any] | None = None) -> dict[Any, list[Action]]:
    """{purchase key: the variants after which the pool pays for it} for every purchase of ``targets``
    (`purchases`) the pool does not pay for now, in the order of the first variant enabling each (then
    of ``targets``).  A discard's own card is not a purchase of it.

    ``cache`` (one per search) remembers which variants enable a purchase by the variants, the pool
    and the purchase's cost: the same purchases recur in other worlds beside other ones.  Variants are
    known there by what lists them (an X-identical power's steps: `IdenticalSteps.key`), as the very
    object when they are a tuple (the engine's cached steps: one object for the same steps, and an
    entry holds on to it, so that its id is not reused), else by value (a pending choice's few
    variants, listed anew for each state).  Hashing a large group's essences would cost more than
    the answer."""
    p = A.player(variants[0])
    b = 5 * p
    pool = state.pool
    now: Pool = (pool[b], pool[b + 1], pool[b + 2], pool[b + 3], pool[b + 4])
    own = A.subject(variants[0]) if A.kind(variants[0]) == A.DISCARD else None
    known: object
    holder: object = None
    if isinstance(variants, IdenticalSteps):
        known = variants.key
    elif isinstance(variants, tuple):
        known, holder = id(variants), variants  # (kept alive by its entry, so that `id` names it)
    else:
        known = tuple(variants)
    after: list[Pool] | None = None
    found: list[tuple[int, int, Any, list[int]]] = []  # (first enabling variant, position, key, enabling)
    for position in range(len(targets)):
        t = targets[position]
        cost: Pool = t[1]
        total: int = t[2]
        if t[0] == own or pays(now, cost, total):
            continue
        memo = (known, now, cost, total)
        entry = None if cache is None else cache.get(memo)
        if entry is None:
            if after is None:
                after = pools_after(state, variants)
                assert after is not None  # (only the macros of `GAINS`, which gain, come here)
            entry = (holder, [i for i in range(len(after)) if pays(after[i], cost, total)])
            if cache is not None:
                cache[memo] = entry
        enabling: list[int] = entry[1]
        if enabling:
            found.append((enabling[0], position, t[0], enabling))
    found.sort(key=_first_two)
    return {key: [variants[i] for i in enabling] for _, _, key, enabling in found}


def _first_two(entry: tuple[int, int, Any, list[int]]) -> tuple[int, int]:
    return entry[0], entry[1]


def pays(have: tuple[int, ...], cost: tuple[int, ...], total: int) -> bool:
    """Whether pool ``have`` pays ``cost`` (fixed essences) and ``total`` essences in all."""
    return (have[0] >= cost[0] and have[1] >= cost[1] and have[2] >= cost[2] and have[3] >= cost[3]
            and have[4] >= cost[4] and have[0] + have[1] + have[2] + have[3] + have[4] >= total)
