"""Auto-collect: the Collect decisions a person's seat may leave to the program (a setting of theirs),
because no player who knows the cards would decide them otherwise.

`automatic_collect(state)` is that policy; `points_change` and `stored_effect` are the facts it reads,
which the screens also put into words (`amigos_cli.views.choices`).
"""

from __future__ import annotations

from typing import Literal

from amigos import actions as A
from amigos import cards as C
from amigos.codes import COLLECT
from amigos.config import Action
from amigos.state import GameState

from .features import Scan

#: What leaving the essences stored on a card does besides keeping them (`stored_effect`): its power
#: takes them off later ("spender"), Vault's interest on Gold ("vault"), Windup Man's wind-up ("windup").
StoredEffect = Literal["spender", "vault", "windup"]


def points_change(state: GameState, action: Action, after: GameState | None = None) -> int:
    """How many victory points the deciding player wins (or loses, negative) by ``action`` at once:
    taking the essences off Sunken Reef costs what they scored.  Zero for claiming the monument deck's
    top card, whose points are hidden until it is claimed.  ``after``: the position after ``action``,
    if the caller has it."""
    if A.kind(action) == A.CLAIM_TOP:
        return 0
    p = A.player(action)
    if after is None:
        after = state.clone()
        after.apply(action)
    return after.vp(p) - state.vp(p)


def stored_spender(state: GameState, e: int) -> C.Power | None:
    """The power of component ``e`` that takes essences now stored on it off (Athanor's), if any."""
    on = state.ess[5 * e:5 * e + 5]
    return next((pw for pw in state.cards[e].powers
                 if pw.remove_self and any(min(n, k) for n, k in zip(on, pw.remove_self))), None)


def stored_effect(state: GameState, e: int) -> StoredEffect | None:
    """What leaving the essences stored on component ``e`` at Collect does that taking them forgoes:
    a power of its takes them off later, Vault (with Gold on it) earns its interest, Windup Man is wound
    up; None when taking them forgoes nothing."""
    special = state.cards[e].collect_special
    on = state.ess[5 * e:5 * e + 5]
    if special is None:
        return "spender" if stored_spender(state, e) is not None else None
    if not (on[C.GOLD] if special[0] == "vault" else sum(on)):
        return None
    return "vault" if special[0] == "vault" else "windup"


def automatic_collect(state: GameState) -> Action | None:
    """The decision an auto-collect setting makes without asking, at Collect: taking the essences stored
    on a card (`_free_take`), leaving those that score points where they are (`scoring_leave`), or a
    collect of one kind or another that gives the only kind still wanted (`_wanted_kind`).  None for any
    other decision, which is asked."""
    legal = state.legal_actions()
    if state.phase != COLLECT or len(legal) < 2:
        return None
    if all(A.kind(a) == A.TAKE for a in legal):
        return _free_take(state, legal) or scoring_leave(state, legal)
    if all(A.kind(a) == A.GAIN and A.subject(a) == A.subject(legal[0]) for a in legal):
        return _wanted_kind(state, legal)
    return None


def _free_take(state: GameState, legal: list[Action]) -> Action | None:
    """Taking the essences stored on a card, where taking them costs no point, leaving them earns
    nothing (`stored_effect`) and the card has no power that spends essences on it."""
    take = next((a for a in legal if A.decision(a) == A.TAKE_STORED), None)
    if take is None or stored_effect(state, A.subject(take)) is not None or points_change(state, take):
        return None
    card = state.cards[A.subject(take)]
    if card.vp_per_essence is not None or any(pw.remove_self for pw in card.powers):
        return None
    return take


def scoring_leave(state: GameState, legal: list[Action]) -> Action | None:
    """Leaving the essences on a Place of Power that scores a point for each (Sunken Reef, Alchemist's
    Tower, ...): taking them would cost those points, and no power of the card spends them."""
    leave = next((a for a in legal if A.decision(a) == A.LEAVE_STORED), None)
    take = next((a for a in legal if A.decision(a) == A.TAKE_STORED), None)
    if leave is None or take is None:
        return None
    card = state.cards[A.subject(take)]
    if card.vp_per_essence is None or any(pw.remove_self for pw in card.powers) or points_change(state, take) >= 0:
        return None
    return leave


def _wanted_kind(state: GameState, legal: list[Action]) -> Action | None:
    """Of a card's collects of one kind or another (Calm / Elan: 1 Calm or 1 Elan), the one that gains
    a kind the player still lacks, when it is the only such one: some cost of theirs (a card in hand, a
    power in play, a Place of Power on offer) asks for more of that kind than they have, and for none
    of the other kinds offered.  Gold is always wanted (monuments cost it, and it counts twice in a tie),
    so a choice with Gold in it and another wanted kind is asked."""
    p = A.player(legal[0])
    scan = Scan(state)
    asks, stored, pool = scan.asks[p], scan.stored[p], state.pool[5 * p:5 * p + 5]
    lacking = [k == C.GOLD or asks[k] > pool[k] + stored[k] for k in range(5)]
    wanted = [a for a in legal if any(n and lacking[k] for k, n in enumerate(A.gain(a)))]
    return wanted[0] if len(wanted) == 1 else None
