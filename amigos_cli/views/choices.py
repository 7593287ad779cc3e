"""The words of a choice: an action as the menu lists it (its ways to pay or gain asked next), each
way of a group, the ways in a useful order, and the points a choice wins or costs.
"""

from __future__ import annotations

import re

import amigos
from amigos import actions as A
from amigos.state import GameState
from amigos.text import essences_text

from .board import LETTERS

#: The clauses of an action's words: "paying 1 calm, gaining 1 life, 1 death" splits before "gaining".
CLAUSE = re.compile(r", (?=(?:paying|gaining|putting|on|choosing) )")


def points_change(state: GameState, action: tuple) -> int:
    """How many victory points the deciding player wins (or loses, negative) by ``action`` at once:
    taking the essences off Sunken Reef costs what they scored.  Zero for claiming the monument deck's
    top card, whose points are hidden until it is claimed."""
    if action[0] == A.CLAIM_TOP:
        return 0
    p = action[1]
    after = state.clone()
    after.apply(action)
    return after.vp(p) - state.vp(p)


def group_text(state: GameState, group: list[tuple]) -> str:
    """The action a group stands for, without its payment when there are several; with the points it
    wins or costs at once, if any."""
    a = group[0]
    text = _group_words(state, group)
    change = points_change(state, a) if len(group) == 1 or a[0] == A.TAKE else 0
    if change < 0:
        return f"{text}  (costs {-change} VP)"
    if change > 0:
        return f"{text}  (+{change} VP)"
    return text


#: The longest summary of a power added to "Use X power N" (the card panel has the whole text).
POWER_SUMMARY = 60


def _power_summary(state: GameState, a: tuple) -> str:
    """" (turn: draw 1 card)" for a power of a card that has several, else ""."""
    card = state.cards[a[2]]
    if a[0] != A.POWER or sum(1 for pw in card.powers if pw.kind == card.powers[a[3]].kind) < 2:
        return ""
    text = card.powers[a[3]].text.strip().rstrip(".")
    if not text:
        return ""
    text = text[0].lower() + text[1:]
    return f" ({text if len(text) <= POWER_SUMMARY else text[:POWER_SUMMARY - 1] + '…'})"


def _group_words(state: GameState, group: list[tuple]) -> str:
    return _action_words(state, group) + (_power_summary(state, group[0]) if group[0][0] == A.POWER else "")


def _action_words(state: GameState, group: list[tuple]) -> str:
    a = group[0]
    if a[0] in (A.DRAFT_PICK, A.REDRAFT_PICK):  # a pick says what the card costs
        card = state.cards[a[2]]
        cost = " ".join(f"{n}{LETTERS[k]}" for k, n in enumerate(card.cost) if n)
        cost += f"{' +' if cost else ''}{card.cost_any} any" if card.cost_any else ""
        return f"{amigos.action_text(state, a)}  ({cost or 'free'})"
    if len(group) == 1:
        return amigos.action_text(state, a)
    kind = a[0]
    name = state.cards[a[2]].name if len(a) > 2 and isinstance(a[2], int) and a[2] >= 0 else ""
    if kind == A.PLACE:
        return f"Place {name}"
    if kind == A.DISCARD:
        return f"Discard {name} for essences"
    if kind == A.GAIN:
        return f"Collect from {name}"
    if kind == A.LL_CHOICE:
        return "Lose the life"
    text = amigos.action_text(state, a)
    return text.split(": paying")[0].split(", paying")[0].split(": gaining")[0]


def variant_text(state: GameState, a: tuple) -> str:
    """One way of paying or gaining: "pay 2 elan", "pay 1 calm, putting 1 gold on it"."""
    kind = a[0]
    if kind in (A.PLACE, A.CLAIM_POP):
        return "pay " + essences_text(a[3])
    if kind in (A.DISCARD, A.GAIN):
        return "gain " + essences_text(a[3])
    if kind == A.POWER:
        words = amigos.action_text(state, a).split(": ", 1)
        parts = [w for w in CLAUSE.split(words[1]) if w.startswith(("paying", "gaining", "putting"))] \
            if len(words) > 1 else []
        return "; ".join(parts).replace("paying", "pay").replace("gaining", "gain").replace("putting", "put") \
            or "pay nothing, gain nothing"
    if kind == A.LL_CHOICE:
        return "lose " + essences_text(a[2])
    return amigos.action_text(state, a)


def ordered_variants(variants: list[tuple]) -> list[tuple]:
    """The ways of one action, essences before Gold where both work, and last the ways that pay an
    essence to gain the same one back or pay and gain nothing; otherwise in the engine's order."""
    def key(a: tuple) -> tuple[bool, int, int]:
        pay, gain = vectors(a)
        gold = pay[4] if pay else 0
        wasted = sum(min(pay[k], gain[k]) for k in range(5)) if pay and gain else 0
        idle = not any(pay or ()) and not any(gain or ())
        return idle or wasted > 0, wasted, gold
    return sorted(variants, key=key)


def vectors(a: tuple) -> tuple[tuple | None, tuple | None]:
    """(what an action pays, what it gains): each a 5-vector of essences, or None where it has none."""
    kind = a[0]
    if kind in (A.PLACE, A.CLAIM_POP):
        return tuple(a[3]), None
    if kind in (A.DISCARD, A.GAIN):
        return None, tuple(a[3])
    if kind == A.POWER:
        return tuple(a[6]), tuple(a[7])
    if kind == A.LL_CHOICE:
        return tuple(a[2]), None
    return None, None
