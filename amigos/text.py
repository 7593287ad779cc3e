"""Short texts of actions for people and logs ("Place Fire Dragon paying 6 elan")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from . import actions as A
from . import cards as C
from .codes import COLLECT, HAND

if TYPE_CHECKING:
    from .config import Action
    from .state import GameState


def essences_text(v: Sequence[int]) -> str:
    """``(2, 0, 0, 0, 1)`` -> ``"2 elan, 1 gold"``; ``"nothing"`` for none."""
    parts = [f"{v[k]} {C.ESSENCES[k]}" for k in range(5) if v[k]]
    return ", ".join(parts) if parts else "nothing"


# The texts of the actions that name one card and nothing else ("{}" is the card's name).
ONE_CARD_TEXTS = {
    A.CLAIM_MONUMENT: f"Claim {{}} for {C.MONUMENT_COST_GOLD} gold",
    A.PASS: "Pass, taking {}",
    A.DECLINE: "Decline ({})",
    A.CHOOSE_MAGE: "Choose {} as mage",
    A.CHOOSE_ITEM: "Choose the magic item {}",
    A.DRAFT_PICK: "Draft {}",
    A.REDRAFT_PICK: "Take {}",
    A.R_MON_DRAW: "The top monument is {}",
    A.R_MON_REVEAL: "{} is turned face up",
}
COLLECT_COST_VERBS = {A.PAY_COST: "Pay", A.PAY_TURN: "Turn", A.DECLINE_COST: "Neither pay nor turn"}


def action_text(state: GameState, a: Action, names: Sequence[str] | None = None) -> str:
    """A one-line description of action ``a`` in ``state``; a seat it names is ``names[seat]`` (the
    players' names as the reader knows them), or "player N" without ``names``."""
    kind, p = A.kind(a), A.player(a)
    subject: Any = A.subject(a) if len(a) > 2 else None  # (none for a claim of the top monument)
    name = lambda e: state.cards[e].name  # noqa: E731
    if kind in ONE_CARD_TEXTS:
        return ONE_CARD_TEXTS[kind].format(name(subject))
    if kind in (A.PLACE, A.CLAIM_POP):
        return f"{'Place' if kind == A.PLACE else 'Claim'} {name(subject)} paying {essences_text(A.payment(a))}"
    if kind == A.CLAIM_TOP:
        return f"Claim the top monument of the deck for {C.MONUMENT_COST_GOLD} gold"
    if kind == A.DISCARD:
        return f"Discard {name(subject)} for {essences_text(A.gain(a))}"
    if kind == A.POWER:
        return _power_text(state, a, names)
    if kind == A.LL_REACT:
        return _life_loss_react_text(state, a)
    if kind == A.LL_CHOICE:
        return f"Lose {essences_text(A.payment(a))}"
    if kind == A.V_REACT:
        return _victory_react_text(state, a)
    if kind == A.BANK:
        essence, count = A.banked(a)
        return f"Put {count or 'no'} {C.ESSENCES[essence]} on {name(subject)}"
    if kind == A.TAKE:
        return ("Take" if A.decision(a) == A.TAKE_STORED else "Leave") + f" the essences on {name(subject)}"
    if kind == A.COLLECT_COST:
        return f"{COLLECT_COST_VERBS[A.decision(a)]} for {name(subject)}'s collect cost"
    if kind == A.GAIN:  # (the Collect phase's choices; else a power's or a React's gain)
        verb = "Collect" if state.phase == COLLECT else "Gain"
        return f"{verb} {essences_text(A.gain(a))} from {name(subject)}"
    if kind == A.SCRY_DECK:
        return "Look at " + ("own artifact deck" if subject == 0 else "the monument deck")
    if kind == A.SCRY_ORDER:
        return _scry_order_text(state, a)
    if kind == A.DISCARD_CHOICE:
        return "Discard " + (", ".join(name(e) for e in subject) or "nothing")
    if kind == A.CHOOSE_FIRST:
        return "Go first" if subject == p else f"Let {seat_name(subject, names)} go first"
    if kind == A.R_DRAW:
        return "Draw " + ", ".join(name(e) for e in subject + A.revealed(a))
    if kind == A.R_SCRY:
        return "Reveal " + ", ".join(name(e) for e in A.revealed(a))
    raise ValueError(f"unknown action {a!r}")


def seat_name(p: int, names: Sequence[str] | None) -> str:
    """Seat ``p`` in words: ``names[p]``, or "player N" (counted from 1) without names."""
    return names[p] if names else f"player {p + 1}"


def _power_text(state: GameState, a: Action, names: Sequence[str] | None = None) -> str:
    """A power's use: the power's number when its card has several, its target and essences."""
    card, index, target, rival = state.cards[A.subject(a)], A.power_index(a), A.target(a), A.rival(a)
    actions = [pw for pw in card.powers if pw.kind == C.ACTION]
    text = f"Use {card.name}" + (f" power {index + 1}" if len(actions) > 1 else "")
    extra = []
    if target >= 0:
        extra.append(f"on {state.cards[target].name}")
    if rival >= 0:
        extra.append(f"choosing {seat_name(rival, names)}")
    if any(A.payment(a)):
        extra.append(f"paying {essences_text(A.payment(a))}")
    if any(A.gain(a)):
        to_pool, on_card = card.powers[index].split_gain(A.gain(a))
        if any(to_pool):
            extra.append(f"gaining {essences_text(to_pool)}")
        if any(on_card):
            extra.append(f"putting {essences_text(on_card)} on it")
    return text + (": " + ", ".join(extra) if extra else "")


def _life_loss_react_text(state: GameState, a: Action) -> str:
    """A React to a life loss: one's own React, or ignoring a rival's attack (by discarding an
    artifact from hand, destroying a component, or paying)."""
    source, target, pay = state.cards[A.subject(a)].name, A.target(a), A.payment(a)
    if state.owner[A.subject(a)] == A.player(a):
        return f"React with {source}" + (f" paying {essences_text(pay)}" if any(pay) else "")
    if target < 0:
        how = f"paying {essences_text(pay)}"
    elif state.cards[target].kind == C.ARTIFACT and state.loc[target] == HAND:
        how = f"discarding {state.cards[target].name}"
    else:
        how = f"destroying {state.cards[target].name}"
    return f"Ignore the life loss from {source} by {how}"


def _victory_react_text(state: GameState, a: Action) -> str:
    """A React at the victory check (with the expansion's turned component or counted type)."""
    card, pay, other = state.cards[A.subject(a)], A.payment(a), A.other(a)
    paying = f" paying {essences_text(pay)}" if any(pay) else ""
    if other is not None and card.powers[A.power_index(a)].turn_other is None:  # Illusion's type
        return f"Turn {card.name} to count as a {C.TYPE_NAMES[other].capitalize()} for this check{paying}"
    if other is not None:
        return f"Use {card.name} turning {state.cards[other].name}{paying}"
    return f"Use {card.name}{paying or ' paying nothing'}"


def _scry_order_text(state: GameState, a: Action) -> str:
    """The order to put looked-at cards back in: by name when the choice is the reader's own."""
    # The looked-at cards, top first, are the pending choice's (its player alone sees them).
    top = state.stack[-1] if state.stack else None
    order = A.subject(a)
    looked = top[3] if top is not None and len(top) > 3 and top[1] == A.player(a) else ()
    if len(looked) == len(order) and looked:
        return "Put them back, top first: " + ", ".join(state.cards[looked[i]].name for i in order)
    return "Put them back in order " + (", ".join(str(i + 1) for i in order) or "(none)")
