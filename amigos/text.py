"""Short texts of actions for people and logs ("Place Fire Dragon paying 6 elan")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

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


def action_text(state: GameState, a: Action) -> str:
    """A one-line description of action ``a`` in ``state``."""
    kind, p = a[0], a[1]
    name = lambda e: state.cards[e].name  # noqa: E731
    if kind in ONE_CARD_TEXTS:
        return ONE_CARD_TEXTS[kind].format(name(a[2]))
    if kind == A.PLACE:
        return f"Place {name(a[2])} paying {essences_text(a[3])}"
    if kind == A.CLAIM_TOP:
        return f"Claim the top monument of the deck for {C.MONUMENT_COST_GOLD} gold"
    if kind == A.CLAIM_POP:
        return f"Claim {name(a[2])} paying {essences_text(a[3])}"
    if kind == A.DISCARD:
        return f"Discard {name(a[2])} for {essences_text(a[3])}"
    if kind == A.POWER:
        return _power_text(state, a)
    if kind == A.LL_REACT:
        return _life_loss_react_text(state, a)
    if kind == A.LL_CHOICE:
        return f"Lose {essences_text(a[2])}"
    if kind == A.V_REACT:
        return _victory_react_text(state, a)
    if kind == A.BANK:
        return f"Put {a[4] or 'no'} {C.ESSENCES[a[3]]} on {name(a[2])}"
    if kind == A.TAKE:
        return ("Take" if a[3] == A.TAKE_STORED else "Leave") + f" the essences on {name(a[2])}"
    if kind == A.COLLECT_COST:
        return f"{COLLECT_COST_VERBS[a[3]]} for {name(a[2])}'s collect cost"
    if kind == A.GAIN:  # (the Collect phase's choices; else a power's or a React's gain)
        verb = "Collect" if state.phase == COLLECT else "Gain"
        return f"{verb} {essences_text(a[3])} from {name(a[2])}"
    if kind == A.SCRY_DECK:
        return "Look at " + ("own artifact deck" if a[2] == 0 else "the monument deck")
    if kind == A.SCRY_ORDER:
        return _scry_order_text(state, a)
    if kind == A.DISCARD_CHOICE:
        return "Discard " + (", ".join(name(e) for e in a[2]) or "nothing")
    if kind == A.CHOOSE_FIRST:
        return "Go first" if a[2] == p else f"Let player {a[2] + 1} go first"
    if kind == A.R_DRAW:
        return "Draw " + ", ".join(name(e) for e in a[2] + a[3])
    if kind == A.R_SCRY:
        return "Reveal " + ", ".join(name(e) for e in a[2])
    raise ValueError(f"unknown action {a!r}")


def _power_text(state: GameState, a: Action) -> str:
    """A power's use: the power's number when its card has several, its target and essences."""
    card = state.cards[a[2]]
    actions = [pw for pw in card.powers if pw.kind == C.ACTION]
    text = f"Use {card.name}" + (f" power {a[3] + 1}" if len(actions) > 1 else "")
    extra = []
    if a[4] >= 0:
        extra.append(f"on {state.cards[a[4]].name}")
    if a[5] >= 0:
        extra.append(f"choosing player {a[5] + 1}")
    if any(a[6]):
        extra.append(f"paying {essences_text(a[6])}")
    if any(a[7]):
        to_pool, on_card = card.powers[a[3]].split_gain(a[7])
        if any(to_pool):
            extra.append(f"gaining {essences_text(to_pool)}")
        if any(on_card):
            extra.append(f"putting {essences_text(on_card)} on it")
    return text + (": " + ", ".join(extra) if extra else "")


def _life_loss_react_text(state: GameState, a: Action) -> str:
    """A React to a life loss: one's own React, or ignoring a rival's attack (by discarding an
    artifact from hand, destroying a component, or paying)."""
    source, target = state.cards[a[2]].name, a[4]
    if state.owner[a[2]] == a[1]:
        return f"React with {source}" + (f" paying {essences_text(a[5])}" if any(a[5]) else "")
    if target < 0:
        how = f"paying {essences_text(a[5])}"
    elif state.cards[target].kind == C.ARTIFACT and state.loc[target] == HAND:
        how = f"discarding {state.cards[target].name}"
    else:
        how = f"destroying {state.cards[target].name}"
    return f"Ignore the life loss from {source} by {how}"


def _victory_react_text(state: GameState, a: Action) -> str:
    """A React at the victory check (with the expansion's turned component or counted type)."""
    name, paying = state.cards[a[2]].name, f" paying {essences_text(a[4])}" if any(a[4]) else ""
    if len(a) > 5 and state.cards[a[2]].powers[a[3]].turn_other is None:  # Illusion's type
        return f"Turn {name} to count as a {C.TYPE_NAMES[a[5]].capitalize()} for this check{paying}"
    if len(a) > 5:
        return f"Use {name} turning {state.cards[a[5]].name}{paying}"
    return f"Use {name}{paying or ' paying nothing'}"


def _scry_order_text(state: GameState, a: Action) -> str:
    """The order to put looked-at cards back in: by name when the choice is the reader's own."""
    # The looked-at cards, top first, are the pending choice's (its player alone sees them).
    top = state.stack[-1] if state.stack else None
    looked = top[3] if top is not None and len(top) > 3 and top[1] == a[1] else ()
    if len(looked) == len(a[2]) and looked:
        return "Put them back, top first: " + ", ".join(state.cards[looked[i]].name for i in a[2])
    return "Put them back in order " + (", ".join(str(i + 1) for i in a[2]) or "(none)")
