"""Ways to pay and to gain essences: every payment of a cost out of a pool, every gain of a number of
essences, placement discounts, and the ways to suffer a Life loss; each list in the canonical order of
the engine protocol (PROTOCOL.md §4.1), which `amigos.legal` builds the legal actions from."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Sequence, overload

from . import cards as C
from .codes import IN_PLAY
from .essences import add, covers, sub

if TYPE_CHECKING:
    from .state import GameState

ZERO = C.ZERO
ALL = C.ALL_KINDS
NON_GOLD = C.NON_GOLD
NON_LIFE = (C.ELAN, C.CALM, C.DEATH, C.GOLD)


@lru_cache(maxsize=1 << 16)
def payments(avail: tuple[int, ...], n: int, kinds: tuple[int, ...] = ALL) -> tuple[tuple[int, ...], ...]:
    """Every way to pay ``n`` essences of ``kinds`` out of ``avail``, ascending lexicographic (§4.1)."""
    a0, a1, a2, a3, a4 = (avail[k] if k in kinds else 0 for k in range(5))
    out: list[tuple[int, int, int, int, int]] = []
    for x0 in range(min(a0, n) + 1):
        r0 = n - x0
        for x1 in range(min(a1, r0) + 1):
            r1 = r0 - x1
            for x2 in range(min(a2, r1) + 1):
                r2 = r1 - x2
                for x3 in range(min(a3, r2) + 1):
                    x4 = r2 - x3
                    if x4 <= a4:
                        out.append((x0, x1, x2, x3, x4))
    return tuple(out)


@lru_cache(maxsize=1024)
def gains(n: int, kinds: tuple[int, ...] = NON_GOLD) -> tuple[tuple[int, ...], ...]:
    """Every gain of ``n`` essences of ``kinds``, ascending lexicographic (the protocol's GainAny)."""
    return payments((n, n, n, n, n), n, kinds)


@lru_cache(maxsize=1024)
def choices(n: int, kinds: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The options of a `Gain` step: multisets in descending lexicographic order (§4.1)."""
    return tuple(reversed(gains(n, kinds)))


@overload
def discount_for(s: GameState, p: int, card: None, mine: Sequence[int] | None = None) -> tuple[int, int, int, int]: ...
@overload
def discount_for(s: GameState, p: int, card: C.Card, mine: Sequence[int] | None = None) -> int: ...
def discount_for(s: GameState, p: int, card: C.Card | None,
                 mine: Sequence[int] | None = None) -> int | tuple[int, int, int, int]:
    """The standing discount ``p`` gets on placing artifact ``card`` (Artificer, Dragon Bridle,
    Dragon's Lair, Homunculus), whether or not the discounting component is turned.  With ``card``
    None, returns the discounts ``(on any artifact, extra on Dragons, on Creatures, on Demons)``."""
    loc, owner, cards = s.loc, s.owner, s.cards
    if mine is None:
        mine = [e for e in range(len(loc)) if loc[e] == IN_PLAY and owner[e] == p]
    every = dragon = creature = demon = 0
    for e in mine:
        for types, amount, _ in cards[e].discounts:
            if "artifact" in types:
                every += amount
            elif "dragon" in types:
                dragon += amount
            elif "creature" in types:
                creature += amount
            elif "demon" in types:
                demon += amount
    if card is None:
        return every, dragon, creature, demon
    return every + (dragon if card.is_dragon else 0) + (creature if card.is_creature else 0) + (
        demon if card.is_demon else 0)


def gold_discount(s: GameState, p: int, card: C.Card, mine: Sequence[int]) -> int:
    """How much of ``card``'s placement discount may take off Gold: the discounts that say so
    (Homunculus, on Demons); no base-game discount does."""
    out = 0
    for e in mine:
        for types, amount, on_gold in s.cards[e].discounts:
            if on_gold and any(t in card.types for t in types):
                out += amount
    return out


def placement_payments(pool: tuple[int, ...], card: C.Card, discount: int, gold_off: int = 0) -> list[tuple[int, ...]]:
    """Every payment of ``card``'s placement cost after a discount used as fully as possible (§4.3);
    up to ``gold_off`` of the discount may take off Gold (`gold_discount`), the rest never does."""
    fixed, any_n = card.cost, card.cost_any
    if gold_off and fixed[4]:
        return _gold_discounted(pool, fixed, any_n, discount, min(gold_off, fixed[4], discount))
    return _discounted(pool, fixed, any_n, discount)


def _discounted(pool: tuple[int, ...], fixed: tuple[int, ...], any_n: int, discount: int) -> list[tuple[int, ...]]:
    """Every payment of the cost ``fixed`` plus ``any_n`` of any kind after a discount taken off its
    non-Gold part as fully as possible (`placement_payments`)."""
    d = min(discount, fixed[0] + fixed[1] + fixed[2] + fixed[3] + any_n)
    if d == 0:
        if not covers(pool, fixed):
            return []
        rest = sub(pool, fixed)
        return [add(fixed, x) for x in payments(rest, any_n)] if any_n else [fixed]
    out: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    for re in range(min(fixed[0], d) + 1):
        for rl in range(min(fixed[1], d - re) + 1):
            for rc in range(min(fixed[2], d - re - rl) + 1):
                for rd in range(min(fixed[3], d - re - rl - rc) + 1):
                    left = d - re - rl - rc - rd
                    if left > any_n:
                        continue
                    f2 = (fixed[0] - re, fixed[1] - rl, fixed[2] - rc, fixed[3] - rd, fixed[4])
                    if not covers(pool, f2):
                        continue
                    rest = sub(pool, f2)
                    for x in payments(rest, any_n - left):
                        pay = add(f2, x)
                        if pay not in seen:
                            seen.add(pay)
                            out.append(pay)
    return out


def _gold_discounted(pool: tuple[int, ...], fixed: tuple[int, ...], any_n: int, discount: int,
                     gold_off: int) -> list[tuple[int, ...]]:
    """`placement_payments` where part of the discount may take off Gold: each share of it taken off
    Gold, the rest of the discount as usual, used as fully as possible overall."""
    best = min(discount, fixed[0] + fixed[1] + fixed[2] + fixed[3] + fixed[4] + any_n)
    out: list[tuple[int, ...]] = []
    for g in range(gold_off + 1):
        rest = discount - g
        if g + min(rest, fixed[0] + fixed[1] + fixed[2] + fixed[3] + any_n) < best:
            continue  # not the discount used as fully as possible
        cheaper = (fixed[0], fixed[1], fixed[2], fixed[3], fixed[4] - g)
        for pay in _discounted(pool, cheaper, any_n, rest):
            if pay not in out:
                out.append(pay)
    return sorted(out)


def life_loss_payments(pool: tuple[int, ...], damage: int, reference: bool) -> list[tuple[int, ...]]:
    """Ways to suffer a Life loss of ``damage``.

    Official rule: lose Life first; for each Life you lack, 2 other essences (Gold allowed) of your
    choice, as many as you have.  Reference rule (§4.5): any mix of Life and pairs of others while the
    loss can be covered, else the whole pool."""
    life = pool[1]
    others = pool[0] + pool[2] + pool[3] + pool[4]
    no_life = (pool[0], 0, pool[2], pool[3], pool[4])
    if not reference:
        paid = min(life, damage)
        need = min(2 * (damage - paid), others)
        return [(x[0], paid, x[2], x[3], x[4]) for x in payments(no_life, need, NON_LIFE)]
    if life + others // 2 >= damage:
        out: list[tuple[int, ...]] = []
        for paid in range(min(life, damage) + 1):
            need = 2 * (damage - paid)
            if others >= need:
                for x in payments(no_life, need, NON_LIFE):
                    out.append((x[0], paid, x[2], x[3], x[4]))
        return out
    return [pool]
