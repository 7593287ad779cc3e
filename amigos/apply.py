"""Applying actions.  `apply_checked` refuses anything not legal now and leaves the state untouched;
`apply_action` trusts its caller (agents apply actions taken from `legal_actions()`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from . import actions as A
from . import cards as C
from .codes import (
    ACTIONS,
    AVAILABLE,
    BEING_CHOSEN,
    CHANCE_PENDING,
    COLLECT,
    DECK,
    DECK_ARTIFACT,
    DISCARD,
    HAND,
    IN_PLAY,
    MONUMENT_DECK,
    NOBODY,
    OUT_OF_GAME,
    P_BANK,
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
    SETUP_CHOOSE_ITEMS,
    VICTORY_CHECK,
)
from .draft import choose_first, draft_pick, redraft_pick, turn_to_undecided
from .errors import IllegalAction
from .flow import (
    advance_turn,
    collect_continue,
    draw,
    evaluate_victory,
    move,
    random_chance_outcome,
    resolve_draw,
    scry_begin,
    scry_order,
    start_round,
    start_victory_check,
    take_monument,
)
from .legal import illusion_points, magic_items

if TYPE_CHECKING:
    from .state import GameState


def apply_checked(s: GameState, action: object) -> None:
    """Apply ``action`` if it is legal now, else raise `IllegalAction` with the state unchanged."""
    apply_action(s, checked(s, action))


def checked(s: GameState, action: object) -> tuple[Any, ...]:
    """``action`` if it is legal now (a legal action, or a possible chance outcome where chance is
    supplied from outside), else raise `IllegalAction`."""
    if not A.well_formed(action):
        raise IllegalAction(f"not an action: {action!r}")
    assert isinstance(action, tuple)  # (for the type checker: `well_formed` says so)
    if A.kind(action) in A.CHANCE_ACTIONS:
        if s.auto_chance or not s.stack or not chance_is_valid(s, action):
            raise IllegalAction("not a possible chance outcome now")
    elif action not in s.legal_actions():
        raise IllegalAction("not a legal action now")
    return action


def chance_is_valid(s: GameState, action: tuple[Any, ...]) -> bool:
    """Semantic check of a chance outcome supplied from outside (the bridge, scenarios, replays)."""
    top = s.stack[-1]
    kind = A.kind(action)
    p = top[1]
    if A.player(action) != p:
        return False
    if kind == A.R_DRAW and top[0] == P_DRAW:
        revealed = A.revealed(action)
        if len(revealed) != top[3] or len(set(revealed)) != len(revealed):
            return False
        for e in revealed:
            if not (0 <= e < s.n_art and s.loc[e] == DECK and s.owner[e] == p and s.order[e] < 0):
                return False
        return all(e in revealed for e in top[4])
    if kind == A.R_SCRY and top[0] == P_SCRYREV:
        revealed = A.revealed(action)
        if len(revealed) != top[4] or len(set(revealed)) != len(revealed):
            return False
        for e in revealed:
            if not (0 <= e < len(s.loc) and s.order[e] < 0):
                return False
            if top[2] == DECK_ARTIFACT:
                if not (e < s.n_art and s.loc[e] == DECK and s.owner[e] == p):
                    return False
            elif s.loc[e] != MONUMENT_DECK:
                return False
        return all(e in revealed for e in top[5])
    if (kind == A.R_MON_DRAW and top[0] == P_MONDRAW) or (kind == A.R_MON_REVEAL and top[0] == P_MONREV):
        e = A.subject(action)
        if not (0 <= e < len(s.loc) and s.loc[e] == MONUMENT_DECK):
            return False
        known = [x for x in range(len(s.loc)) if s.loc[x] == MONUMENT_DECK and s.order[x] == 0]
        return not known or known[0] == e
    return False


def apply_action(s: GameState, a: tuple[Any, ...]) -> None:
    """Apply an action known to be legal, then run the game on to the next decision."""
    resolve(s, a)
    settle(s)


def resolve(s: GameState, a: tuple[Any, ...]) -> None:
    """Apply an action known to be legal and nothing after it: the automatic steps that follow (a
    Collect's fixed collects, the turn passing on) are `settle`'s."""
    s._legal = s._groups = None
    kind = A.kind(a)
    if kind in A.CHANCE_ACTIONS:
        apply_chance(s, a)
    elif s.stack:
        _resolve_pending(s, a)
    elif s.phase == ACTIONS:
        s.turn_done = True
        _main_action(s, a)
    else:
        _setup_action(s, a)


# -- helpers -----------------------------------------------------------------------------------------

def _pay(s: GameState, p: int, pay: Sequence[int]) -> None:
    b = 5 * p
    pool = s.pool
    for k in range(5):
        if pay[k]:
            pool[b + k] -= pay[k]


def _gain(s: GameState, p: int, gain: Sequence[int]) -> None:
    b = 5 * p
    pool = s.pool
    for k in range(5):
        if gain[k]:
            pool[b + k] += gain[k]


def _store(s: GameState, e: int, amount: Sequence[int]) -> None:
    b = 5 * e
    ess = s.ess
    for k in range(5):
        if amount[k]:
            ess[b + k] += amount[k]


def _clear(s: GameState, e: int) -> None:
    b = 5 * e
    s.ess[b:b + 5] = [0, 0, 0, 0, 0]


def _put_in_play(s: GameState, p: int, e: int) -> None:
    move(s, e, IN_PLAY, p)
    s.turned[e] = 0
    s.order[e] = -1
    _clear(s, e)


def destroy(s: GameState, e: int) -> None:
    """An artifact goes from play to its (current) owner's discard pile; essences on it are lost.  Each
    Vial of Light in play then gives its owner an essence to choose (its React, turned or not)."""
    move(s, e, DISCARD, s.owner[e])
    s.turned[e] = 0
    _clear(s, e)
    cards, loc = s.cards, s.loc
    for x in range(s.n_art):
        if loc[x] == IN_PLAY and cards[x].idx in _ON_DESTROYED:
            for pw in cards[x].powers:
                if pw.trigger == C.TRIGGER_DESTROYED:
                    s.stack.append((P_GAIN, s.owner[x], x, pw.mix_count, pw.mix_kinds))


_ON_DESTROYED = frozenset(c.idx for c in C.CARDS if any(pw.trigger == C.TRIGGER_DESTROYED for pw in c.powers))


def _spend(s: GameState, e: int) -> None:
    """A used scroll goes back to the centre."""
    move(s, e, AVAILABLE, NOBODY)


# -- setup ---------------------------------------------------------------------------------------------

def _setup_action(s: GameState, a: tuple[Any, ...]) -> None:
    kind, p = A.kind(a), A.player(a)
    if kind == A.CHOOSE_MAGE:
        e = A.subject(a)
        options = [x for x in range(len(s.loc)) if s.loc[x] == BEING_CHOSEN and s.owner[x] == p
                   and s.cards[x].kind == C.MAGE]
        if len(options) == 1:
            move(s, e, IN_PLAY, p)
        else:
            for x in options:
                if x != e:
                    move(s, x, OUT_OF_GAME, p)
        s.mage_chosen[p] = True
        if turn_to_undecided(s, s.mage_chosen):
            return
        for x in range(len(s.loc)):
            if s.loc[x] == BEING_CHOSEN and s.cards[x].kind == C.MAGE:
                move(s, x, IN_PLAY, s.owner[x])
        s.phase = SETUP_CHOOSE_ITEMS
        s.item_picks = 0
        s.turn = (s.first_player - 1) % s.n_players
    elif kind == A.CHOOSE_ITEM:
        move(s, A.subject(a), IN_PLAY, p)
        s.item_picks += 1
        if s.item_picks >= s.n_players:
            start_round(s)
        else:
            s.turn = (s.first_player - 1 - s.item_picks) % s.n_players
    elif kind == A.DRAFT_PICK:
        draft_pick(s, p, A.subject(a))
    elif kind == A.CHOOSE_FIRST:
        choose_first(s, A.subject(a))
    elif kind == A.REDRAFT_PICK:
        redraft_pick(s, p, A.subject(a))
    else:  # pragma: no cover - legality is checked before
        raise IllegalAction(f"unexpected action {a!r}")


# -- main actions --------------------------------------------------------------------------------------

def _main_action(s: GameState, a: tuple[Any, ...]) -> None:
    kind, p = A.kind(a), A.player(a)
    if kind == A.PLACE:
        _pay(s, p, A.payment(a))
        _put_in_play(s, p, A.subject(a))
    elif kind == A.POWER:
        use_power(s, a)
    elif kind == A.DISCARD:
        move(s, A.subject(a), DISCARD, p)
        _gain(s, p, A.gain(a))
    elif kind == A.PASS:
        _pass(s, p, A.subject(a))
    elif kind == A.CLAIM_MONUMENT:
        e = A.subject(a)
        s.pool[5 * p + 4] -= 4
        _put_in_play(s, p, e)
        if any(s.loc[x] == MONUMENT_DECK for x in range(len(s.loc))):
            s.stack.append((P_MONREV, p))
        _on_claim(s, p, e)
    elif kind == A.CLAIM_TOP:
        s.pool[5 * p + 4] -= 4
        s.stack.append((P_MONDRAW, p))
    elif kind == A.CLAIM_POP:
        _pay(s, p, A.payment(a))
        _put_in_play(s, p, A.subject(a))
    else:  # pragma: no cover
        raise IllegalAction(f"unexpected action {a!r}")


def _on_claim(s: GameState, p: int, e: int) -> None:
    for pw in s.cards[e].powers:
        if pw.kind == C.ON_CLAIM and pw.mix_count:
            s.stack.append((P_GAIN, p, e, pw.mix_count, pw.mix_kinds))


def _pass(s: GameState, p: int, item: int) -> None:
    """Pass (§3.4): first passer takes the First Player token; swap magic items; draw 1.  Official
    ruleset: essences on the returned item (a Mermaid can put them there) go back to the supply with
    it rather than to whoever takes it next; the rules are silent, the reference leaves them on it."""
    if not any(s.passed):
        s.first_player = p
    for x in magic_items(s):
        if s.loc[x] == IN_PLAY and s.owner[x] == p:
            move(s, x, AVAILABLE, NOBODY)
            s.turned[x] = 0
            if not s.reference:
                s.ess[5 * x:5 * x + 5] = [0, 0, 0, 0, 0]
    move(s, item, IN_PLAY, p)
    s.turned[item] = 0
    draw(s, p, 1)
    s.passed[p] = True


def use_power(s: GameState, a: tuple[Any, ...]) -> None:
    """Pay a power's cost, then apply its effects in order (§3.5)."""
    p, e, idx, target = A.player(a), A.subject(a), A.power_index(a), A.target(a)
    pay, gain = A.payment(a), A.gain(a)
    pw = s.cards[e].powers[idx]
    if pw.turn_self:
        s.turned[e] = 1
    _pay(s, p, pay)
    if pw.remove_self is not None:
        b = 5 * e
        for k in range(5):
            s.ess[b + k] -= pw.remove_self[k]
    destroyed = -1
    if pw.destroy == "self":
        destroy(s, e)
    elif pw.destroy is not None:
        destroyed = target
        destroy(s, target)
    if pw.discard_hand:
        move(s, target, DISCARD, p)
    if pw.turn_other:
        s.turned[target] = 1
    # Declared gains: the chosen mix goes where the card says; fixed parts to pool and card.
    if gain != C.ZERO:
        to_pool, on_card = pw.split_gain(gain)
        if on_card != C.ZERO:
            _store(s, e, on_card)
        _gain(s, p, to_pool)
    for eff in pw.effects:
        effect = _EFFECTS.get(eff[0])
        if effect is not None:
            effect(s, a, eff, pw, destroyed)
    if pw.pay_x:
        bank_next(s, p, e, 0)
    if pw.spend_self:
        _spend(s, e)


# The power interpreter's effects (`use_power`), by the op that starts each: the effect ``eff`` of
# power ``pw`` in the `POWER` action ``a`` (its fields read through `amigos.actions`), ``destroyed`` the
# component the power destroyed (or -1).  Ops missing here are done by `use_power` itself.

def _rivals_gain(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    p = A.player(a)
    for q in range(s.n_players):
        if q != p:
            _gain(s, q, eff[1])


def _rivals_lose_life(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    p = A.player(a)
    victims = [(p + i) % s.n_players for i in range(1, s.n_players)]
    for q in victims[::-1]:
        if not s.passed[q]:
            s.stack.append((P_LIFE, q, A.subject(a), eff[1], eff))


def _straighten(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    target = A.target(a)
    if eff[1] == "self":
        s.turned[A.subject(a)] = 0
    elif eff[1] == "all_demons":  # every player's (Temple of the Abyss)
        cards, turned = s.cards, s.turned
        for x in range(s.n_art):
            if s.loc[x] == IN_PLAY and cards[x].is_demon:
                turned[x] = 0
    elif target >= 0:
        s.turned[target] = 0


def _draw(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    draw(s, A.player(a), eff[1])


def _draw_discard(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    p = A.player(a)
    count = draw(s, p, eff[1])
    # Fewer cards drawn (deck and discard pile short), fewer discarded: Divination draws 2 of 3,
    # discards 2; Shadowy Figure draws 1 of 2, discards none.
    count = eff[2] - (eff[1] - count)
    if count > 0 or eff[1] == eff[2]:  # (Divination asks even for none: the game as it always was)
        # The discard is answered after the draw reveal: it goes to the bottom of the stack.
        s.stack.insert(0, (P_DISCARD, p, count))


def _scry(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    s.stack.append((P_SCRYDECK, A.player(a), eff[1]))


def _place(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    s.stack.append((P_PLACE, A.player(a), A.subject(a), eff))


def _gain_from_rival(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    s.pool[5 * A.player(a) + eff[2]] += s.pool[5 * A.rival(a) + eff[1]]


def _gain_from_cost(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    if eff[3] is not None:
        source = destroyed if eff[1] == "destroyed" else A.target(a)
        s.pool[5 * A.player(a) + eff[3]] += s.cards[source].cost_total + eff[2]


def _put_paid(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    _store(s, A.subject(a) if eff[1] == "self" else A.target(a), A.payment(a))
    # The paid essences were removed from the pool above and now sit on the card.


def _check_victory(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    start_victory_check(s, A.player(a))


def _gain_x_gold(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    if not pw.pay_any and eff[1] == 1:
        # Athanor: X is what was paid; the Stone and Projection declare their Gold in `gain`
        s.pool[5 * A.player(a) + 4] += sum(A.payment(a))


def _gain_per_rival_type(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    type_name, rival = eff[1], A.rival(a)
    count = sum(1 for x in range(s.n_art) if s.loc[x] == IN_PLAY and s.owner[x] == rival
                and type_name in s.cards[x].types)
    s.pool[5 * A.player(a) + eff[2]] += count


def _take_all(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    target = A.target(a)
    if target >= 0:  # (none when no component of the player holds essences)
        _gain(s, A.player(a), s.essences_on(target))
        _clear(s, target)


def _retrieve(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    if A.target(a) >= 0:
        move(s, A.target(a), HAND, A.player(a))


def _claim_scroll(s: GameState, a: tuple[Any, ...], eff: tuple[Any, ...], pw: C.Power, destroyed: int) -> None:
    target = A.target(a)
    if target >= 0:
        move(s, target, IN_PLAY, A.player(a))
        s.turned[target] = 0


_EFFECTS: dict[str, Callable[[GameState, tuple[Any, ...], tuple[Any, ...], C.Power, int], None]] = {
    "rivals_gain": _rivals_gain, "rivals_lose_life": _rivals_lose_life, "straighten": _straighten,
    "draw": _draw, "draw_discard": _draw_discard, "scry": _scry, "place": _place,
    "gain_from_rival": _gain_from_rival, "gain_from_cost": _gain_from_cost, "put_paid": _put_paid,
    "check_victory": _check_victory, "gain_x_gold": _gain_x_gold, "gain_per_rival_type": _gain_per_rival_type,
    "take_all": _take_all, "retrieve": _retrieve, "claim_scroll": _claim_scroll,
}


def bank_next(s: GameState, p: int, e: int, kind: int) -> None:
    """Ask how many essences of the next kind from ``kind`` on that ``p`` has to put on ``e``."""
    b = 5 * p
    for k in range(kind, 5):
        if s.pool[b + k]:
            s.stack.append((P_BANK, p, e, k))
            return


# -- pending choices -----------------------------------------------------------------------------------

def _resolve_pending(s: GameState, a: tuple[Any, ...]) -> None:
    top = s.stack.pop()
    kind, p = A.kind(a), A.player(a)
    if kind == A.GAIN:
        _gain(s, p, A.gain(a))
    elif kind == A.TAKE:
        e = A.subject(a)
        if A.decision(a) == A.TAKE_STORED:
            _gain(s, p, s.essences_on(e))
            _clear(s, e)
        else:
            bonus = top[3]
            if bonus is not None:
                if bonus[0] == "vault":
                    s.stack.append((P_GAIN, p, e, bonus[1], bonus[2]))
                else:  # Windup Man: 2 more of each kind on it, onto the card
                    b = 5 * e
                    for k in range(5):
                        if s.ess[b + k]:
                            s.ess[b + k] += 2
    elif kind == A.COLLECT_COST:
        e = A.subject(a)
        decision = A.decision(a)
        if decision == A.DECLINE_COST:
            return
        if decision == A.PAY_COST:
            cost = s.cards[e].collect_cost
            assert cost is not None  # (offered only for a card with a collect cost: `flow.collect_continue`)
            _pay(s, p, cost)
        else:
            s.turned[e] = 1
        if any(s.essences_on(e)):
            s.stack.append((P_TAKE, p, e, None))
    elif kind == A.LL_REACT:
        e, idx, target, pay = A.subject(a), A.power_index(a), A.target(a), A.payment(a)
        if s.owner[e] == p and s.loc[e] == IN_PLAY and e != top[2]:
            pw = s.cards[e].powers[idx]
            if pw.turn_self:
                s.turned[e] = 1
            _pay(s, p, pay)
            _store(s, e, pw.store)
            _gain(s, p, pw.gain_pool)
            if pw.spend_self:  # (Shield)
                _spend(s, e)
        else:  # the attacking Dragon's own defence
            rider = top[4][3]
            if rider[0] == "pay":
                _pay(s, p, pay)
            elif rider[0] == "discard":
                move(s, target, DISCARD, p)
            else:
                destroy(s, target)
    elif kind == A.LL_CHOICE:
        _pay(s, p, A.payment(a))
    elif kind == A.V_REACT:
        e, idx, other = A.subject(a), A.power_index(a), A.other(a)
        pw = s.cards[e].powers[idx]
        if pw.turn_self:
            s.turned[e] = 1
        _pay(s, p, A.payment(a))
        for eff in pw.effects:
            if eff[0] == "temporary_vp":
                s.temp_vp[p] += eff[1]
            elif eff[0] == "count_as" and other is not None:  # Illusion: the points one more such artifact gives
                s.temp_vp[p] += illusion_points(s, p, C.TYPE_NAMES[other])
        if pw.turn_other is not None and other is not None:
            s.turned[other] = 1
    elif kind == A.DECLINE:
        pass
    elif kind == A.BANK:
        e = A.subject(a)
        k, n = A.banked(a)
        s.pool[5 * p + k] -= n
        s.ess[5 * e + k] += n
        bank_next(s, p, e, k + 1)
    elif kind == A.PLACE:
        _pay(s, p, A.payment(a))
        _put_in_play(s, p, A.subject(a))
    elif kind == A.SCRY_DECK:
        scry_begin(s, p, A.subject(a), top[2])
    elif kind == A.SCRY_ORDER:
        scry_order(s, top, A.subject(a))
    elif kind == A.DISCARD_CHOICE:
        for e in A.subject(a):
            move(s, e, DISCARD, p)
    else:  # pragma: no cover
        s.stack.append(top)
        raise IllegalAction(f"unexpected action {a!r}")


def settle(s: GameState) -> None:
    """Run the automatic steps (`amigos.flow`) until a decision (or, without auto chance, a chance outcome) is needed."""
    while True:
        if s.stack:
            top = s.stack[-1]
            if s.auto_chance and top[0] in CHANCE_PENDING:
                apply_chance(s, random_chance_outcome(s, top))
                continue
            return
        phase = s.phase
        if phase == COLLECT:
            if collect_continue(s):
                continue
            s.phase = ACTIONS
            s.turn = s.first_player
            continue
        if phase == VICTORY_CHECK:
            evaluate_victory(s)
            continue
        if phase == ACTIONS:
            if s.turn_done:
                s.turn_done = False
                advance_turn(s)
            if all(s.passed):
                start_victory_check(s, None)
                continue
        return


def apply_chance(s: GameState, a: tuple[Any, ...]) -> None:
    """Apply a chance outcome to the chance point on top of the stack."""
    s._legal = s._groups = None
    top = s.stack.pop()
    kind, p = A.kind(a), A.player(a)
    if kind == A.R_DRAW:
        resolve_draw(s, p, top[2], A.revealed(a))
    elif kind == A.R_SCRY:
        s.stack.append((P_SCRYORDER, p, top[2], top[3] + A.revealed(a)))
    elif kind == A.R_MON_DRAW:
        e = A.subject(a)
        take_monument(s, e)
        _put_in_play(s, p, e)
        _on_claim(s, p, e)
    else:
        e = A.subject(a)
        take_monument(s, e)
        move(s, e, AVAILABLE, s.owner[e])

