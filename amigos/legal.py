"""Legal-action enumeration, in the canonical order of the engine protocol (PROTOCOL.md §4).

Each distinct choice is listed once.  Where the official rules and the reference engine differ
(cards/DIFFERENCES.md rows 1, 4 and 5) the state's ruleset decides; see `amigos.config.RULESETS` and `GameState.reference`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain, combinations, permutations
from typing import TYPE_CHECKING, Any, Iterator, Sequence, cast

from . import actions as A
from . import cards as C
from .codes import (
    ACTIONS,
    AVAILABLE,
    BEING_CHOSEN,
    DECK,
    DECK_ARTIFACT,
    DISCARD,
    DRAFTING,
    FACE_UP,
    HAND,
    IN_PLAY,
    MONUMENT_DECK,
    P_BANK,
    P_CCOST,
    P_DISCARD,
    P_DRAW,
    P_GAIN,
    P_LIFE,
    P_MONDRAW,
    P_MONREV,
    P_PLACE,
    P_SCRYDECK,
    P_SCRYORDER,
    P_SCRYREV,
    P_TAKE,
    P_VREACT,
    SETUP_CHOOSE_FIRST,
    SETUP_CHOOSE_ITEMS,
    SETUP_CHOOSE_MAGES,
    SETUP_DRAFT,
    SETUP_REDRAFT,
)
from .essences import add, covers, sub
from .payments import (
    ZERO,
    choices,
    discount_for,
    gains,
    gold_discount,
    life_loss_payments,
    payments,
    placement_payments,
)

if TYPE_CHECKING:
    from .state import GameState

def legal_groups(s: GameState) -> list[Sequence[tuple[Any, ...]]]:
    """The legal actions grouped by `amigos.actions.macro_key` (variants of one action together), in
    the canonical order."""
    if not s.stack and s.phase == ACTIONS:
        if s.passed[s.turn]:
            return []
        return main_groups(s, s.turn)
    groups: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
    for a in legal_actions(s):
        key = A.macro_key(a)
        g = groups.get(key)
        if g is None:
            groups[key] = [a]
        else:
            g.append(a)
    return list(groups.values())


def legal_actions(s: GameState) -> list[tuple[Any, ...]]:
    """All legal actions of the acting player (see the module docstring)."""
    if s.stack:
        return _pending_actions(s, s.stack[-1])
    phase = s.phase
    if phase == ACTIONS:
        if s.passed[s.turn]:
            return []
        return main_actions(s, s.turn)
    if phase == SETUP_CHOOSE_MAGES:
        p = s.turn
        return [(A.CHOOSE_MAGE, p, e) for e in range(len(s.loc))
                if s.loc[e] == BEING_CHOSEN and s.owner[e] == p and s.cards[e].kind == C.MAGE]
    if phase == SETUP_CHOOSE_ITEMS:
        p = s.turn
        return [(A.CHOOSE_ITEM, p, e) for e in _supply_items(s)]
    if phase == SETUP_DRAFT:
        p = s.turn
        return [(A.DRAFT_PICK, p, e) for e in range(s.n_art) if s.loc[e] == DRAFTING and s.owner[e] == p]
    if phase == SETUP_CHOOSE_FIRST:
        return [(A.CHOOSE_FIRST, s.turn, q) for q in range(s.n_players)]
    if phase == SETUP_REDRAFT:
        return [(A.REDRAFT_PICK, s.turn, e) for e in range(s.n_art) if s.loc[e] == FACE_UP]
    return []


def _supply_items(s: GameState) -> list[int]:
    return [e for e in magic_items(s) if s.loc[e] == AVAILABLE]


def magic_items(s: GameState) -> range:
    """The magic items' entities (8 in the base game, 10 with the expansion)."""
    first = s.item_first
    cards = s.cards
    end = first
    while end < len(cards) and cards[end].kind == C.MAGIC_ITEM:
        end += 1
    return range(first, end)


def main_actions(s: GameState, p: int) -> list[tuple[Any, ...]]:
    """The main actions of §4.2, in order."""
    return list(chain.from_iterable(main_groups(s, p)))


def main_groups(s: GameState, p: int) -> list[Sequence[tuple[Any, ...]]]:
    """The main actions of §4.2 in order, as groups of the variants of one action (same card, power,
    target; different payments and gains).  One pass sorts the artifacts, the rest of the table comes
    from `supply_of`; the steps of each card are cached by what they depend on."""
    loc, owner, cards = s.loc, s.owner, s.cards
    b = 5 * p
    p0, p1, p2, p3, p4 = s.pool[b], s.pool[b + 1], s.pool[b + 2], s.pool[b + 3], s.pool[b + 4]
    pool: C.Essences = (p0, p1, p2, p3, p4)
    hand: list[int] = []
    mine: list[int] = []
    # Artifacts are in hands or in play; the supply (magic items, places of power, monuments) is not.
    for e in range(s.n_art):
        where = loc[e]
        if where == HAND:
            if owner[e] == p:
                hand.append(e)
        elif where == IN_PLAY and owner[e] == p:
            mine.append(e)
    claim_monuments, places, passes, in_play = supply_of(s, p)
    if in_play:
        mine += in_play
    out: list[Sequence[tuple[Any, ...]]] = []
    cap: tuple[int, ...] | None
    if hand:
        every, dragon, creature, demon = discount_for(s, p, None, mine)
        for e in hand:
            card = cards[e]
            cap = card.pool_cap
            key = (p0 if p0 < cap[0] else cap[0], p1 if p1 < cap[1] else cap[1], p2 if p2 < cap[2] else cap[2],
                   p3 if p3 < cap[3] else cap[3], p4 if p4 < cap[4] else cap[4])
            discount = every + (dragon if card.is_dragon else 0) + (creature if card.is_creature else 0)
            gold_off = 0
            if card.is_demon and demon:
                discount += demon
                gold_off = gold_discount(s, p, card, mine)
            g = _place_actions(p, e, card.idx, key, discount, gold_off)
            if g:
                out.append(g)
    if p4 >= C.MONUMENT_COST_GOLD and claim_monuments:
        out += claim_monuments
    for cost, group in places:
        if p0 >= cost[0] and p1 >= cost[1] and p2 >= cost[2] and p3 >= cost[3] and p4 >= cost[4]:
            out.append(group)
    for e in hand:
        out.append(_discard_actions(p, e))
    turned = s.turned
    for e in mine:
        card = cards[e]
        if card.powers:
            is_turned = turned[e]
            for pw in card.powers:
                if pw.kind == ACTION_KIND and (not is_turned or pw.usable_while_turned):
                    cap = pw.pool_cap
                    if pw.simple and cap is not None:
                        # The steps depend on the pool only up to what the power can take from it.
                        key = (p0 if p0 < cap[0] else cap[0], p1 if p1 < cap[1] else cap[1],
                               p2 if p2 < cap[2] else cap[2], p3 if p3 < cap[3] else cap[3],
                               p4 if p4 < cap[4] else cap[4])
                        g = _simple_power_actions(p, e, card.idx, pw.index, key)
                        if g:
                            out.append(g)
                    else:
                        # Powers with targets or rivals (cached by them too), placing powers, and the
                        # X-identical ones (listed on demand: `IdenticalSteps`).
                        _power_actions(s, p, e, pw, pool, out, mine)
    if passes:
        out += passes
    return out


MONUMENT_KIND, POP_KIND, ITEM_KIND, ACTION_KIND = C.MONUMENT, C.PLACE_OF_POWER, C.MAGIC_ITEM, C.ACTION


def supply_of(s: GameState, p: int) -> tuple[tuple[tuple[tuple[Any, ...], ...], ...],
                                              tuple[tuple[tuple[int, ...], tuple[tuple[Any, ...], ...]], ...],
                                              tuple[tuple[tuple[Any, ...], ...], ...], tuple[int, ...]]:
    """What the table beyond the artifacts offers ``p``, as parts of `main_groups`: the monument claims
    (displayed, then the deck's top; when ``p`` has the Gold), the places of power as (cost, claim
    group), the passes (one per magic item) and ``p``'s non-artifact components in play (mage, item,
    places, monuments).

    Remembered in the game's memo by where those components are and who owns them: the supply changes
    a few times a game, and the cards at these entities never change kind.  Only kinds may be
    remembered: a determinisation re-deals the rival's mage options, so in a search the same mage
    entity can hold different mages (and different discounts)."""
    n_art = s.n_art
    loc, owner = s.loc, s.owner
    key = (p, tuple(loc[n_art:]), tuple(owner[n_art:]))
    memo = s.memo
    found = memo.get(key)
    if found is not None:
        return found
    cards = s.cards
    monuments: list[tuple[tuple[Any, ...], ...]]
    places: list[tuple[tuple[int, ...], tuple[tuple[Any, ...], ...]]]
    items: list[tuple[tuple[Any, ...], ...]]
    mine: list[int]
    monuments, places, items, mine = [], [], [], []
    for e in range(n_art, len(loc)):
        where = loc[e]
        if where == AVAILABLE:
            kind = cards[e].kind
            if kind == MONUMENT_KIND:
                monuments.append(((A.CLAIM_MONUMENT, p, e),))
            elif kind == POP_KIND:
                places.append((cards[e].cost, ((A.CLAIM_POP, p, e, cards[e].cost),)))
            elif kind == ITEM_KIND:  # (the scrolls in the centre are claimed by a power only)
                items.append(((A.PASS, p, e),))
        elif where == IN_PLAY and owner[e] == p:
            mine.append(e)
    if MONUMENT_DECK in loc:
        monuments.append(((A.CLAIM_TOP, p),))
    if len(memo) >= 1 << 14:  # a long game or a long search: start over rather than grow without end
        memo.clear()
    found = memo[key] = (tuple(monuments), tuple(places), tuple(items), tuple(mine))
    return found


@lru_cache(maxsize=1 << 17)
def _place_actions(p: int, e: int, card_idx: int, pool: tuple[int, ...], discount: int,
                   gold_off: int) -> tuple[tuple[Any, ...], ...]:
    """PlaceArtifact steps of one hand card: depend only on these arguments, so they are cached."""
    return tuple((A.PLACE, p, e, pay) for pay in placement_payments(pool, C.CARDS[card_idx], discount, gold_off))


@lru_cache(maxsize=1 << 12)
def _discard_actions(p: int, e: int) -> tuple[tuple[Any, ...], ...]:
    return tuple((A.DISCARD, p, e, g) for g in DISCARD_GAINS)


@lru_cache(maxsize=1 << 17)
def _simple_power_actions(p: int, e: int, card_idx: int, index: int, pool: tuple[int, ...]) -> tuple[tuple[Any, ...], ...]:
    """UsePower steps of a power without targets or rivals (placing powers included): a function of
    the pool alone, up to what the power can take from it."""
    pw = C.CARDS[card_idx].powers[index]
    fixed = pw.pay
    if not (pool[0] >= fixed[0] and pool[1] >= fixed[1] and pool[2] >= fixed[2] and pool[3] >= fixed[3]
            and pool[4] >= fixed[4]):
        return ()
    pays = _any_payments(fixed, pool, pw.pay_any, pw.any_kinds) if pw.pay_any else (fixed,)
    gs = _power_gains(pw.mix_count, pw.mix_kinds, add(pw.gain_pool, pw.store))
    POWER = A.POWER
    return tuple((POWER, p, e, index, -1, -1, pay, g) for pay in pays for g in gs)


DISCARD_GAINS = ((0, 0, 0, 0, 1),) + tuple(
    tuple(int(k == a) + int(k == b) for k in range(5)) for a in range(4) for b in range(a, 4))


def _targets(s: GameState, p: int, e: int, pw: C.Power, mine: Sequence[int]) -> list[int] | None:
    """Candidate targets of a power in the protocol's order; None when it has no target at all.
    ``mine`` lists ``p``'s components in play, ascending."""
    rule = pw.target_rule
    if rule is None:
        return None
    cards, turned = s.cards, s.turned
    if rule == "hand":
        hand = s.hand(p)
        if pw.discard_types is not None:  # (Bard: a Creature, Dragon or Demon)
            return [x for x in hand if _has_type(cards[x], pw.discard_types)]
        return hand
    n = s.n_art
    if rule == "own_turned":
        out = [x for x in mine if turned[x] and x != e]
        if pw.turn_self and not pw.exclude_self:  # (the component turned by the cost may be readied)
            out.append(e)
        return out
    if rule == "own_turned_creature":
        return [x for x in mine if x < n and turned[x] and cards[x].is_creature]
    if rule == "own_turned_demon":
        return [x for x in mine if x < n and turned[x] and cards[x].is_demon and not (x == e and pw.exclude_self)]
    if rule == "own_component":  # (a scroll is not a component: it holds no essences)
        return [x for x in mine if cards[x].kind != C.SCROLL]
    if rule == "own_stocked":
        ess = s.ess
        return [x for x in mine if any(ess[5 * x:5 * x + 5])]
    if rule == "turn_dragon":
        return [x for x in mine if x < n and not turned[x] and cards[x].is_dragon]
    if rule == "turn_creature":
        return [x for x in mine if x < n and not turned[x] and cards[x].is_creature]
    if rule == "turn_demon":
        return [x for x in mine if x < n and not turned[x] and cards[x].is_demon]
    if rule == "own_discard":
        return s.discard_pile(p)
    if rule == "scroll":
        return [x for x in range(n, len(s.loc)) if s.loc[x] == AVAILABLE and cards[x].kind == C.SCROLL]
    if rule == "destroy_own_any" or rule == "destroy_own_other":
        out = [x for x in mine if x < n and (x != e or rule == "destroy_own_any")]
        if pw.destroy_types is not None:
            out = [x for x in out if _has_type(cards[x], pw.destroy_types)]
        return out
    raise AssertionError(rule)


def _has_type(card: C.Card, types: Sequence[str]) -> bool:
    for t in types:
        if t in card.types:
            return True
    return False


def stand_in(s: GameState, p: int, mine: Sequence[int], type_name: str) -> tuple[int, int]:
    """Illusion standing in for an artifact of ``type_name`` in a power ``p`` uses (rules.md §17.1): its
    entity (or -1 when ``p`` has no straightened one) and the essences it costs (2 as a Dragon)."""
    cards, turned = s.cards, s.turned
    for x in mine:
        card = cards[x]
        if card.kind == C.MAGIC_ITEM and not turned[x]:
            for pw in card.powers:
                if pw.trigger == C.TRIGGER_OWN_POWER:
                    for eff in pw.effects:
                        if eff[0] == "count_as" and type_name in eff[1]:
                            return x, pw.pay_any
    return -1, 0


def _power_actions(s: GameState, p: int, e: int, pw: C.Power, pool: tuple[int, ...], out: list[Sequence[tuple[Any, ...]]],
                   mine: Sequence[int] = ()) -> None:
    """Append the UsePower steps of one usable-looking power (§4.4) to ``out``, one group per target
    and rival.  ``mine``: ``p``'s components in play, ascending (where targets are looked for)."""
    fixed = pw.pay
    if not (pool[0] >= fixed[0] and pool[1] >= fixed[1] and pool[2] >= fixed[2] and pool[3] >= fixed[3]
            and pool[4] >= fixed[4]):
        return
    if pw.chooses_rival and s.n_players < 2:
        return
    idx = pw.index
    if pw.identical:
        covered = pw.remove_self is None or covers(s.essences_on(e), pw.remove_self)
        if pw.remove_self is not None and not covered:
            return
        first_pay: tuple[int, ...] = ZERO
        if pw.pay_any:
            pays = payments(pool, pw.pay_any)
            if not pays:
                return
            first_pay = pays[0]
        # (a group as the others are, though no `Sequence` by class: length, indexing, iteration)
        out.append(cast("Sequence[tuple[Any, ...]]", IdenticalSteps((p, e, s.cards[e].idx, idx, pool, covered),
                                                           (A.POWER, p, e, idx, -1, -1, first_pay, ZERO))))
        return
    assert pw.pool_cap is not None  # None only for the X-identical powers, handled above
    untargeted = pw.places is not None or pw.target_rule is None and not pw.chooses_rival
    if untargeted:  # a function of the pool after all: the cached steps (Bestiary, ...)
        group = _simple_power_actions(p, e, s.cards[e].idx, idx, _capped(pool, pw.pool_cap))
        if group:
            out.append(group)
        return
    if pw.pay_any and not _any_payments(fixed, _capped(pool, pw.pool_cap), pw.pay_any, pw.any_kinds):
        return
    targets: list[int] | tuple[int, ...] | None
    targets = _targets(s, p, e, pw, mine)
    if targets is None:
        targets = (-1,)
    else:
        if not targets and pw.needs_target:
            if pw.turn_other is not None:
                _illusion_steps(s, p, e, pw, pool, out, mine)
            return
        if not pw.needs_target and (s.reference or not targets):
            targets.append(-1)
        targets = tuple(targets)
    rivals = tuple(q for q in range(s.n_players) if q != p) if pw.chooses_rival else (-1,)
    cost_gain = pw.cost_gain
    cards = s.cards
    # what the steps' gains depend on: the targets' costs (Corrupt Altar, Fiery Whip)
    costs: tuple[int, ...] | None = None
    if cost_gain is not None and cost_gain[3] is None:
        costs = tuple(cards[t].cost_total for t in targets)
    if targets:
        out.extend(_targeted_steps(p, e, cards[e].idx, idx, _capped(pool, pw.pool_cap), targets, rivals, costs))
    if pw.turn_other is not None:
        _illusion_steps(s, p, e, pw, pool, out, mine)


def _illusion_steps(s: GameState, p: int, e: int, pw: C.Power, pool: tuple[int, ...], out: list[Sequence[tuple[Any, ...]]],
                    mine: Sequence[int]) -> None:
    """The steps of a power that turns one of ``p``'s artifacts of a type, with Illusion turned as that
    artifact (for 2 more essences of any kind as a Dragon)."""
    assert pw.turn_other is not None
    x, extra = stand_in(s, p, mine, pw.turn_other)
    if x < 0:
        return
    gs = _power_gains(pw.mix_count, pw.mix_kinds, add(pw.gain_pool, pw.store))
    pays = _any_payments(pw.pay, pool, pw.pay_any, pw.any_kinds) if pw.pay_any else (pw.pay,)
    if extra:
        pays = tuple(sorted({add(a, b) for a in pays for b in payments(sub(pool, a), extra)}))
    if pays:
        out.append(tuple((A.POWER, p, e, pw.index, x, -1, pay, g) for pay in pays for g in gs))


def _capped(pool: Sequence[int], cap: Sequence[int]) -> tuple[int, ...]:
    """The pool as far as a power or a placement can take from it (``cap`` per kind): the key its
    cached steps are kept under."""
    return (pool[0] if pool[0] < cap[0] else cap[0], pool[1] if pool[1] < cap[1] else cap[1],
            pool[2] if pool[2] < cap[2] else cap[2], pool[3] if pool[3] < cap[3] else cap[3],
            pool[4] if pool[4] < cap[4] else cap[4])


@lru_cache(maxsize=1 << 16)
def _targeted_steps(p: int, e: int, card_idx: int, idx: int, pool: tuple[int, ...], targets: tuple[int, ...],
                    rivals: tuple[int, ...], costs: tuple[int, ...] | None) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """The step groups of a power with targets or rivals, one per (target, rival): a function of
    these arguments, so cached."""
    pw = C.CARDS[card_idx].powers[idx]
    fixed = pw.pay
    pays = _any_payments(fixed, pool, pw.pay_any, pw.any_kinds) if pw.pay_any else (fixed,)
    gs = _power_gains(pw.mix_count, pw.mix_kinds, add(pw.gain_pool, pw.store))
    POWER = A.POWER
    out: list[tuple[tuple[Any, ...], ...]] = []
    bonus = pw.cost_gain[2] if pw.cost_gain is not None else 0  # (costs are given only with a cost_gain)
    for i, t in enumerate(targets):
        if costs is not None:
            n = costs[i] + bonus
            tg = gains(n) if n > 0 else (ZERO,)
        else:
            tg = gs
        for r in rivals:  # (the protocol nests rivals innermost; with two players there is one)
            out.append(tuple((POWER, p, e, idx, t, r, pay, g) for pay in pays for g in tg))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _any_payments(fixed: tuple[int, ...], pool: tuple[int, ...], n: int,
                  kinds: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Fixed part plus every payment of the any part from what the pool has left."""
    rest = sub(pool, fixed)
    return tuple(add(fixed, x) for x in payments(rest, n, kinds))


@lru_cache(maxsize=1024)
def _power_gains(mix_count: int, mix_kinds: tuple[int, ...],
                 fixed_gain: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    if mix_count:
        return tuple(add(g, fixed_gain) for g in gains(mix_count, mix_kinds))
    return (fixed_gain,)


class IdenticalSteps:
    """The steps of an X-identical power (Philosopher's Stone, Prism, Athanor) as a read-only sequence
    that lists them only when someone looks past the first one.  With a big pool they run to
    thousands, rebuilt for every new pool, while a search mostly needs only to know that the power is
    usable (its first step names the macro); `_identical_power_actions` lists them on demand."""

    __slots__ = ("_key", "_first", "_steps")

    def __init__(self, key: tuple[int, int, int, int, tuple[int, ...], bool], first: tuple[Any, ...]) -> None:
        self._key = key  # the arguments of `_identical_power_actions`
        self._first = first  # its first step, known without listing the others
        self._steps: tuple[tuple[Any, ...], ...] | None = None

    def __reduce__(self) -> tuple[type[IdenticalSteps],
                                  tuple[tuple[int, int, int, int, tuple[int, ...], bool], tuple[Any, ...]]]:
        # Pickled by its arguments (a search's worker processes receive positions holding these): a
        # compiled class has no instance dictionary for pickle's default to restore.
        return (IdenticalSteps, (self._key, self._first))

    @property
    def key(self) -> tuple[int, int, int, int, tuple[int, ...], bool]:
        """What the steps are a function of: equal keys, equal steps."""
        return self._key

    def _all(self) -> tuple[tuple[Any, ...], ...]:
        steps = self._steps
        if steps is None:
            steps = self._steps = _identical_power_actions(*self._key)
        return steps

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return True  # never built empty

    def __getitem__(self, i: int) -> tuple[Any, ...]:
        if i == 0 and self._steps is None:
            return self._first
        return self._all()[i]

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, IdenticalSteps):
            other = other._all()
        elif not isinstance(other, (tuple, list)):
            return NotImplemented
        return self._all() == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"IdenticalSteps({self._all()!r})"


@lru_cache(maxsize=256)
def _identical_power_actions(p: int, e: int, card_idx: int, idx: int, pool: tuple[int, ...],
                             covered: bool) -> tuple[tuple[Any, ...], ...]:
    """The steps of an X-identical power: a function of the pool (and, for Athanor, of whether its
    Elan is on it).  The cache is small because with a large pool one entry holds thousands of steps."""
    out: list[tuple[Any, ...]] = []
    _identical_steps(p, e, C.CARDS[card_idx].powers[idx], pool, covered, out)
    return tuple(out)


def _identical_steps(p: int, e: int, pw: C.Power, pool: tuple[int, ...], covered: bool, out: list[tuple[Any, ...]]) -> None:
    idx = pw.index
    if pw.remove_self is not None:  # Athanor: 6 Elan off the card, X identical -> X Gold
        if not covered:
            return
        out.append((A.POWER, p, e, idx, -1, -1, ZERO, ZERO))
        for k in range(5):
            for x in range(1, pool[k] + 1):
                out.append((A.POWER, p, e, idx, -1, -1, _unit(k, x), ZERO))
        return
    if pw.pay_any:  # Philosopher's Stone: 2 any + X identical -> X Gold
        total = sum(pool)
        if total < pw.pay_any:
            return
        seen: set[tuple[int, ...]] = set()
        for t in range(pw.pay_any, total + 1):
            x = t - pw.pay_any
            for k in range(5):
                if pool[k] < x:
                    continue
                rest = list(pool)
                rest[k] -= x
                for base in payments(tuple(rest), pw.pay_any):
                    pay: list[int] | tuple[int, ...]
                    pay = list(base)
                    pay[k] += x
                    pay = tuple(pay)
                    if pay not in seen:
                        seen.add(pay)
                        out.append((A.POWER, p, e, idx, -1, -1, pay, (0, 0, 0, 0, x)))
        return
    out.append((A.POWER, p, e, idx, -1, -1, ZERO, ZERO))
    if pw.rate > 1:  # Projection: X identical -> X // 3 Gold
        for k in range(5):
            for x in range(1, pool[k] + 1):
                out.append((A.POWER, p, e, idx, -1, -1, _unit(k, x), _unit(C.GOLD, x // pw.rate)))
        return
    # Prism's second power, Transform: X identical -> X of another non-Gold kind
    for k in range(5):
        for x in range(1, pool[k] + 1):
            for o in range(4):
                if o != k:
                    out.append((A.POWER, p, e, idx, -1, -1, _unit(k, x), _unit(o, x)))


@lru_cache(maxsize=None)
def _unit(k: int, x: int) -> tuple[int, ...]:
    v = [0, 0, 0, 0, 0]
    v[k] = x
    return tuple(v)


# -- pending choices ---------------------------------------------------------------------------------

def _pending_actions(s: GameState, top: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    kind, p = top[0], top[1]
    if kind == P_GAIN:
        e, n, kinds = top[2], top[3], top[4]
        return [(A.GAIN, p, e, g) for g in choices(n, kinds)]
    if kind == P_TAKE:
        return [(A.TAKE, p, top[2], A.TAKE_STORED), (A.TAKE, p, top[2], A.LEAVE_STORED)]
    if kind == P_LIFE:
        return life_loss_actions(s, top)
    if kind == P_CCOST:
        e = top[2]
        out: list[tuple[Any, ...]] = []
        cost = s.cards[e].collect_cost
        assert cost is not None  # (asked only of a card with a collect cost: `flow.collect_continue`)
        if covers(s.pool_of(p), cost):
            out.append((A.COLLECT_COST, p, e, A.PAY_COST))
        if not s.turned[e]:
            out.append((A.COLLECT_COST, p, e, A.PAY_TURN))
        if not out:
            out.append((A.COLLECT_COST, p, e, A.DECLINE_COST))
        return out
    if kind == P_SCRYDECK:
        return [(A.SCRY_DECK, p, 0), (A.SCRY_DECK, p, 1)]
    if kind == P_SCRYORDER:
        m = len(top[3])
        return [(A.SCRY_ORDER, p, perm) for perm in permutations(range(m))]
    if kind == P_DISCARD:
        return [(A.DISCARD_CHOICE, p, combo) for combo in combinations(s.hand(p), top[2])]
    if kind == P_PLACE:
        return placement_choice_actions(s, top)
    if kind == P_VREACT:
        return victory_react_actions(s, p, top[2], top[3])
    if kind == P_BANK:
        e, k = top[2], top[3]
        return [(A.BANK, p, e, k, n) for n in range(s.pool[5 * p + k] + 1)]
    return chance_outcomes(s, top)


def victory_react_actions(s: GameState, p: int, e: int, idx: int) -> list[tuple[Any, ...]]:
    """``p``'s answers to a victory-check React of component ``e`` (power ``idx``), then Decline:
    Golden Statue's (V_REACT, p, e, idx, pay); Dark Cathedral's names the Demon it turns, Illusion
    standing in (V_REACT, p, e, idx, pay, artifact); Illusion's own, at a check ``p``'s power called,
    the type it counts as (V_REACT, p, e, react index, pay, type code of `cards.TYPE_NAMES`)."""
    card = s.cards[e]
    pw = card.powers[idx]
    pool = s.pool_of(p)
    out: list[tuple[Any, ...]] = []
    if pw.turn_self and s.turned[e]:
        pass  # turned meanwhile (Illusion, as another React's Demon)
    elif pw.trigger == C.TRIGGER_OWN_POWER:
        for react in card.powers:
            if react.trigger != C.TRIGGER_OWN_POWER:
                continue
            for eff in react.effects:
                if eff[0] != "count_as":
                    continue
                for type_name in eff[1]:
                    if illusion_points(s, p, type_name) > 0:
                        code = C.TYPE_NAMES.index(type_name)
                        for pay in payments(pool, react.pay_any):
                            out.append((A.V_REACT, p, e, react.index, pay, code))
    elif pw.turn_other is not None:
        if covers(pool, pw.pay):
            mine = s.in_play(p)
            for x in _targets(s, p, e, pw, mine) or ():
                out.append((A.V_REACT, p, e, idx, pw.pay, x))
            x, extra = stand_in(s, p, mine, pw.turn_other)
            if x >= 0:
                for pay in payments(sub(pool, pw.pay), extra):
                    out.append((A.V_REACT, p, e, idx, add(pw.pay, pay), x))
    elif covers(pool, pw.pay):
        out.append((A.V_REACT, p, e, idx, pw.pay))
    out.append((A.DECLINE, p, e))
    return out


def illusion_points(s: GameState, p: int, type_name: str) -> int:
    """The points ``p`` would gain at a victory check from one more artifact of ``type_name`` in play
    (Illusion counted as one: Sorcerer's Bestiary, Gate of Hell)."""
    cards = s.cards
    dragon, creature, demon = type_name == "dragon", type_name == "creature", type_name == "demon"
    return sum(cards[x].type_points(dragon, creature, demon) for x in s.in_play(p))


def placement_choice_actions(s: GameState, top: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Answers to a power's pending placement (§3.8, §4.3): qualifying cards with payments, then
    Decline (always under the reference ruleset; officially only when nothing can be placed)."""
    p, source, place = top[1], top[2], top[3]
    _, origin, required, free, extra = place
    loc, owner, cards = s.loc, s.owner, s.cards
    if origin == "hand":
        cands = [x for x in range(s.n_art) if loc[x] == HAND and owner[x] == p]
    elif origin == "own_discard_pile":
        cands = [x for x in range(s.n_art) if loc[x] == DISCARD and owner[x] == p]
    else:
        cands = [x for x in range(s.n_art) if loc[x] == DISCARD]
    out: list[tuple[Any, ...]] = []
    pool = s.pool_of(p)
    for x in cands:
        card = cards[x]
        if required == "dragon" and not card.is_dragon:
            continue
        if free:
            out.append((A.PLACE, p, x, ZERO))
            continue
        gold_off = gold_discount(s, p, card, s.in_play(p)) if card.is_demon else 0
        for pay in placement_payments(pool, card, discount_for(s, p, card) + extra, gold_off):
            out.append((A.PLACE, p, x, pay))
    if s.reference or not out:
        out.append((A.DECLINE, p, source))
    return out


def life_loss_actions(s: GameState, top: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """A victim's answers to a Life loss (§4.5 item 3; official payment rule unless reference)."""
    _, p, attacker, amount, effect = top
    out: list[tuple[Any, ...]] = []
    pool = s.pool_of(p)
    loc, owner, cards, turned = s.loc, s.owner, s.cards, s.turned
    is_dragon, is_demon = effect[2], effect[4]
    for e in range(len(loc)):
        if loc[e] != IN_PLAY or owner[e] != p:
            continue
        for pw in cards[e].powers:
            if pw.kind != C.REACT:
                continue
            trigger = pw.trigger
            if (trigger == C.TRIGGER_LIFE_LOSS or (trigger == C.TRIGGER_DRAGON and is_dragon)
                    or (trigger == C.TRIGGER_DEMON and is_demon)):
                if pw.turn_self and turned[e]:
                    continue
                if not covers(pool, pw.pay):
                    continue
                out.append((A.LL_REACT, p, e, pw.index, -1, pw.pay, add(pw.store, pw.gain_pool)))
    rider = effect[3]
    if rider is not None:
        if rider[0] == "pay":
            if covers(pool, rider[1]):
                out.append((A.LL_REACT, p, attacker, 0, -1, rider[1], ZERO))
        elif rider[0] == "discard":
            for x in s.hand(p):
                out.append((A.LL_REACT, p, attacker, 0, x, ZERO, ZERO))
        else:
            for x in range(s.n_art):
                if loc[x] == IN_PLAY and owner[x] == p:
                    out.append((A.LL_REACT, p, attacker, 0, x, ZERO, ZERO))
    for pay in life_loss_payments(pool, amount, s.reference):
        out.append((A.LL_CHOICE, p, pay))
    return out


# -- chance --------------------------------------------------------------------------------------------

def chance_outcomes(s: GameState, top: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """The possible outcomes of a chance point, as the search enumerates them (§4.6)."""
    kind, p = top[0], top[1]
    if kind == P_DRAW:
        known, u, must = top[2], top[3], top[4]
        pool = [e for e in s.deck(p) if s.order[e] < 0 and e not in must]
        return [(A.R_DRAW, p, known, tuple(sorted(must + combo))) for combo in combinations(pool, u - len(must))]
    if kind == P_SCRYREV:
        deck_type, r, must = top[2], top[4], top[5]
        cands = _deck_cards(s, p, deck_type)
        pool = [e for e in cands if s.order[e] < 0 and e not in must]
        return [(A.R_SCRY, p, tuple(sorted(must + combo))) for combo in combinations(pool, r - len(must))]
    if kind in (P_MONDRAW, P_MONREV):
        code = A.R_MON_DRAW if kind == P_MONDRAW else A.R_MON_REVEAL
        deck = [e for e in range(len(s.loc)) if s.loc[e] == MONUMENT_DECK]
        known = [e for e in deck if s.order[e] == 0]
        return [(code, p, e) for e in (known or deck)]
    raise AssertionError(top)


def _deck_cards(s: GameState, p: int, deck_type: int) -> list[int]:
    if deck_type == DECK_ARTIFACT:
        return [e for e in range(s.n_art) if s.loc[e] == DECK and s.owner[e] == p]
    return [e for e in range(len(s.loc)) if s.loc[e] == MONUMENT_DECK]
