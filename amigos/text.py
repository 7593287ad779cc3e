"""Short texts of actions for people and logs ("Place Fire Dragon paying 6 elan")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from . import actions as A
from . import cards as C
from .codes import COLLECT, HAND

if TYPE_CHECKING:
    from .state import GameState


def essences_text(v: Sequence[int]) -> str:
    """``(2, 0, 0, 0, 1)`` -> ``"2 elan, 1 gold"``; ``"nothing"`` for none."""
    parts = [f"{v[k]} {C.ESSENCES[k]}" for k in range(5) if v[k]]
    return ", ".join(parts) if parts else "nothing"


def action_text(state: GameState, a: tuple) -> str:
    """A one-line description of action ``a`` in ``state``."""
    kind, p = a[0], a[1]
    name = lambda e: state.cards[e].name  # noqa: E731
    if kind == A.PLACE:
        return f"Place {name(a[2])} paying {essences_text(a[3])}"
    if kind == A.CLAIM_MONUMENT:
        return f"Claim {name(a[2])} for {C.MONUMENT_COST_GOLD} gold"
    if kind == A.CLAIM_TOP:
        return f"Claim the top monument of the deck for {C.MONUMENT_COST_GOLD} gold"
    if kind == A.CLAIM_POP:
        return f"Claim {name(a[2])} paying {essences_text(a[3])}"
    if kind == A.DISCARD:
        return f"Discard {name(a[2])} for {essences_text(a[3])}"
    if kind == A.POWER:
        card = state.cards[a[2]]
        actions = [pw for pw in card.powers if pw.kind == C.ACTION]
        text = f"Use {card.name}" + (f" power {a[3] + 1}" if len(actions) > 1 else "")
        extra = []
        if a[4] >= 0:
            extra.append(f"on {name(a[4])}")
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
    if kind == A.PASS:
        return f"Pass, taking {name(a[2])}"
    if kind == A.DECLINE:
        return f"Decline ({name(a[2])})"
    if kind == A.LL_REACT:
        owner = state.owner[a[2]]
        if owner != p:
            how = f"discarding {name(a[4])}" if a[4] >= 0 and state.cards[a[4]].kind == C.ARTIFACT and \
                state.loc[a[4]] == HAND else (f"destroying {name(a[4])}" if a[4] >= 0 else f"paying {essences_text(a[5])}")
            return f"Ignore the life loss from {name(a[2])} by {how}"
        return f"React with {name(a[2])}" + (f" paying {essences_text(a[5])}" if any(a[5]) else "")
    if kind == A.LL_CHOICE:
        return f"Lose {essences_text(a[2])}"
    if kind == A.V_REACT:
        paying = f" paying {essences_text(a[4])}" if any(a[4]) else ""
        if len(a) > 5 and state.cards[a[2]].powers[a[3]].turn_other is None:  # Illusion's type
            return f"Turn {name(a[2])} to count as a {C.TYPE_NAMES[a[5]].capitalize()} for this check{paying}"
        if len(a) > 5:
            return f"Use {name(a[2])} turning {name(a[5])}{paying}"
        return f"Use {name(a[2])}{paying or ' paying nothing'}"
    if kind == A.BANK:
        if not a[4]:
            return f"Put no {C.ESSENCES[a[3]]} on {name(a[2])}"
        return f"Put {a[4]} {C.ESSENCES[a[3]]} on {name(a[2])}"
    if kind == A.TAKE:
        return ("Take" if a[3] == A.TAKE_STORED else "Leave") + f" the essences on {name(a[2])}"
    if kind == A.COLLECT_COST:
        return {A.PAY_COST: "Pay", A.PAY_TURN: "Turn", A.DECLINE_COST: "Neither pay nor turn"}[a[3]] + \
            f" for {name(a[2])}'s collect cost"
    if kind == A.GAIN:  # (the Collect phase's choices; else a power's or a React's gain)
        verb = "Collect" if state.phase == COLLECT else "Gain"
        return f"{verb} {essences_text(a[3])} from {name(a[2])}"
    if kind == A.SCRY_DECK:
        return "Look at " + ("own artifact deck" if a[2] == 0 else "the monument deck")
    if kind == A.SCRY_ORDER:
        # The looked-at cards, top first, are the pending choice's (its player alone sees them).
        top = state.stack[-1] if state.stack else None
        looked = top[3] if top is not None and len(top) > 3 and top[1] == p else ()
        if len(looked) == len(a[2]) and looked:
            return "Put them back, top first: " + ", ".join(name(looked[i]) for i in a[2])
        return "Put them back in order " + (", ".join(str(i + 1) for i in a[2]) or "(none)")
    if kind == A.DISCARD_CHOICE:
        return "Discard " + (", ".join(name(e) for e in a[2]) or "nothing")
    if kind == A.CHOOSE_MAGE:
        return f"Choose {name(a[2])} as mage"
    if kind == A.CHOOSE_ITEM:
        return f"Choose the magic item {name(a[2])}"
    if kind == A.DRAFT_PICK:
        return f"Draft {name(a[2])}"
    if kind == A.REDRAFT_PICK:
        return f"Take {name(a[2])}"
    if kind == A.CHOOSE_FIRST:
        return "Go first" if a[2] == p else f"Let player {a[2] + 1} go first"
    if kind == A.R_DRAW:
        return "Draw " + ", ".join(name(e) for e in a[2] + a[3])
    if kind == A.R_SCRY:
        return "Reveal " + ", ".join(name(e) for e in a[2])
    if kind == A.R_MON_DRAW:
        return f"The top monument is {name(a[2])}"
    return f"{name(a[2])} is turned face up"
