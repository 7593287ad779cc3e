"""Evaluating a child without building it: E(state after ``action``) for the common actions whose effect on
the evaluation (victory points, pools, hand sizes) is plain arithmetic.

This is the search's hot path: most nodes of a depth-limited search are leaves, and most leaves differ
from their parent by a payment, a gain or a card moved.  `leaf_value` returns None whenever the action
could set off anything more (the end of a round, a victory check, a Collect), and the caller then
applies the action for real.  Scores of players the action does not touch are reused from the parent
(`Base`); those of the players it changes are S of `ai.evaluate` (its weights, its order of operations)
on the changed numbers, so results are bit-identical to applying the action; a test checks that on
random positions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from amigos import actions as A
from amigos import cards as C
from amigos.codes import ACTIONS, DECK, DISCARD, IN_PLAY, NO_CHECK
from amigos.config import Action

from .evaluate import ESSENCE_WEIGHT, GOLD_WEIGHT, HAND_WEIGHT, _s

if TYPE_CHECKING:
    from amigos.state import GameState

Pool = C.Essences
ZERO = C.ZERO
PAY_MONUMENT: Final[Pool] = (0, 0, 0, 0, -C.MONUMENT_COST_GOLD)  # the pool's change when a monument is claimed


class Base:
    """The parent's victory points, hand sizes and scores S, shared by all its leaf children."""

    __slots__ = ("vp", "hand", "score")

    vp: list[int]
    hand: list[int]
    score: list[float]

    def __init__(self, s: GameState) -> None:
        self.vp, self.hand = s.scores()
        pool = s.pool
        self.score = [_s(pool, p, self.vp[p], self.hand[p]) for p in range(s.n_players)]


def _vp_on_place(s: GameState, p: int, e: int) -> int:
    """Points ``p`` gains when artifact ``e`` enters play (its own and per-type points of p's places)."""
    card = s.cards[e]
    gained = card.points
    if card.is_dragon or card.is_creature:
        loc, owner, cards = s.loc, s.owner, s.cards
        for x in range(s.n_art, len(loc)):
            if loc[x] == IN_PLAY and owner[x] == p:
                gained += cards[x].type_points(card.is_dragon, card.is_creature)
    return gained


def _per_essence(card: C.Card, amount: Pool) -> int:
    return card.essence_points(amount[0], amount[1], amount[2], amount[3], amount[4])


def _one(s: GameState, base: Base, q: int, p: int, dvp: int, dhand: int, dpool: Pool) -> float:
    """E when only player ``p`` changed: by ``dvp`` points, ``dhand`` cards and pool delta ``dpool``."""
    pool = s.pool
    b = 5 * p
    e0 = pool[b] + dpool[0]
    e1 = pool[b + 1] + dpool[1]
    e2 = pool[b + 2] + dpool[2]
    e3 = pool[b + 3] + dpool[3]
    e4 = pool[b + 4] + dpool[4]
    new = (base.vp[p] + dvp + GOLD_WEIGHT * e4 + ESSENCE_WEIGHT * (e0 + e1 + e2 + e3)
           + HAND_WEIGHT * (base.hand[p] + dhand))
    scores = base.score
    if s.n_players == 1:
        return new
    if s.n_players == 2:
        return new - scores[1 - p] if q == p else scores[q] - new
    mine = new if q == p else scores[q]
    best: float | None = None
    for o in range(s.n_players):
        if o != q:
            v = new if o == p else scores[o]
            if best is None or v > best:
                best = v
    assert best is not None  # three players or more: some rival was scored
    return mine - best


def leaf_value(s: GameState, a: Action, q: int, base: Base | None = None) -> float | None:
    """E(child) for the maximising player ``q``, or None when the action needs a real `apply`.
    ``base`` is ``Base(s)`` when the caller has it (siblings share it)."""
    kind = A.kind(a)
    stack = s.stack
    if kind == A.R_DRAW:
        if len(stack) == 1 and (s.phase != ACTIONS or all(s.passed) or s.victory_check != NO_CHECK):
            return None
        known, revealed = A.subject(a), A.revealed(a)
        return _one(s, base or Base(s), q, A.player(a), 0, len(known) + len(revealed), ZERO)
    if stack or s.phase != ACTIONS:
        return None
    base = base or Base(s)
    p = A.player(a)
    if kind == A.PLACE:
        pay = A.payment(a)
        return _one(s, base, q, p, _vp_on_place(s, p, A.subject(a)), -1, (-pay[0], -pay[1], -pay[2], -pay[3], -pay[4]))
    if kind == A.DISCARD:
        return _one(s, base, q, p, 0, -1, A.gain(a))
    if kind == A.PASS:
        passed = s.passed
        if all(passed[x] for x in range(s.n_players) if x != p):
            loc, owner = s.loc, s.owner
            if not any((loc[x] == DECK or loc[x] == DISCARD) and owner[x] == p for x in range(s.n_art)):
                return None  # the last pass, with no card to draw, ends the round at once
        if not any(passed) and s.first_player != p:
            return _general(s, base, q, {p: (1, 0, None), s.first_player: (-1, 0, None)})
        return _one(s, base, q, p, 0, 0, ZERO)
    if kind == A.CLAIM_MONUMENT:
        return _one(s, base, q, p, s.cards[A.subject(a)].points, 0, PAY_MONUMENT)
    if kind == A.CLAIM_TOP:
        return _one(s, base, q, p, 0, 0, PAY_MONUMENT)
    if kind == A.CLAIM_POP:
        card = s.cards[A.subject(a)]
        if card.vp_per_dragon or card.vp_per_creature:
            return None
        paid = A.payment(a)
        return _one(s, base, q, p, card.points, 0, (-paid[0], -paid[1], -paid[2], -paid[3], -paid[4]))
    if kind == A.POWER:
        return _power_leaf(s, a, q, base)
    return None


def _power_leaf(s: GameState, a: Action, q: int, base: Base) -> float | None:
    p = A.player(a)
    e: int = A.subject(a)
    idx = A.power_index(a)
    target = A.target(a)
    rival = A.rival(a)
    pay = A.payment(a)
    gain = A.gain(a)
    card = s.cards[e]
    pw = card.powers[idx]
    dvp = 0
    dhand = 0
    d = [-pay[0], -pay[1], -pay[2], -pay[3], -pay[4]]
    destroyed = -1
    if pw.destroy == "self":
        destroyed = e
    elif pw.destroy is not None:
        destroyed = target
    if destroyed >= 0:
        dvp -= _vp_on_place(s, p, destroyed)
    if pw.discard_hand:
        dhand -= 1
    if gain != ZERO:
        to_pool, on_card = pw.split_gain(gain)
        for k in range(5):
            d[k] += to_pool[k]
        dvp += _per_essence(card, on_card)
    others = None
    for eff in pw.effects:
        op: str = eff[0]
        if op == "check_victory":
            return None
        if op == "rivals_gain":
            others = eff[1]
        elif op == "gain_from_rival":
            d[eff[2]] += s.pool[5 * rival + eff[1]]
        elif op == "put_paid":
            holder = e if eff[1] == "self" else target
            dvp += _per_essence(s.cards[holder], pay)
        elif op == "gain_from_cost":
            if eff[3] is not None:
                source = destroyed if eff[1] == "destroyed" else target
                d[eff[3]] += s.cards[source].cost_total + eff[2]
        elif op == "gain_x_gold":
            if not pw.pay_any:
                d[4] += pay[0] + pay[1] + pay[2] + pay[3] + pay[4]
    if others is None:
        return _one(s, base, q, p, dvp, dhand, (d[0], d[1], d[2], d[3], d[4]))
    changes = {o: (0, 0, others) for o in range(s.n_players) if o != p}
    changes[p] = (dvp, dhand, d)
    return _general(s, base, q, changes)


def _general(s: GameState, base: Base, q: int, changes: dict[int, Any]) -> float:
    """E when several players changed: ``changes[p] = (dvp, dhand, pool delta or None)``."""
    scores = base.score[:]
    pool = s.pool
    for p, (dvp, dhand, dpool) in changes.items():
        b = 5 * p
        dpool = dpool or ZERO
        e = [pool[b + k] + dpool[k] for k in range(5)]
        scores[p] = (base.vp[p] + dvp + GOLD_WEIGHT * e[4] + ESSENCE_WEIGHT * (e[0] + e[1] + e[2] + e[3])
                     + HAND_WEIGHT * (base.hand[p] + dhand))
    if s.n_players == 1:
        return scores[0]
    best = max(scores[o] for o in range(s.n_players) if o != q)
    return scores[q] - best
