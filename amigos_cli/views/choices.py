"""The words of a choice: an action as the menu lists it (its ways to pay or gain asked next), each
way of a group, the ways in a useful order, and the points a choice wins or costs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import amigos
from ai.collect import points_change, scoring_leave, stored_effect, stored_spender
from ai.futile import futile
from amigos import actions as A
from amigos import cards as C
from amigos.codes import COLLECT
from amigos.config import Action
from amigos.state import GameState
from amigos.text import essences_text

from .board import LETTERS, cost_words
from .power_text import power_summary

#: Above this many ways, an action that pays and gains is asked in two steps (pay, then gain).
TWO_STEPS_OVER = 24

#: The clauses of an action's words: "paying 1 calm, gaining 1 life, 1 death" splits before "gaining".
CLAUSE = re.compile(r", (?=(?:paying|gaining|putting|on|choosing) )")


def card_of(state: GameState, action: Action) -> str | None:
    """The card (its id) an action of the decider's is about (`amigos.actions.card`: the one placed,
    used, claimed, discarded, picked), if any."""
    e = A.card(action)
    return state.cards[e].id if e is not None and 0 <= e < len(state.cards) else None


def placeable(state: GameState, viewer: int) -> frozenset[str]:
    """The cards (ids) of the viewer's hand they can place now: none unless the decision is theirs."""
    if state.is_terminal() or state.current_player() != viewer:
        return frozenset()
    return frozenset(state.cards[A.subject(g[0])].id for g in state.legal_groups() if A.kind(g[0]) == A.PLACE)


def menu_groups(state: GameState) -> list[Sequence[Action]]:
    """The choices a menu offers at ``state``, every screen's: the engine's groups
    (`amigos.state.GameState.legal_groups`), each without its ways that do nothing (`ai.futile.futile`:
    "Use Reanimate: on Reanimate", a gain of nothing), and the moves whose every way does nothing last
    (still offered: such a move keeps one's round going without passing, and `group_text` says it does
    nothing)."""
    groups = state.legal_groups()
    useful: list[Sequence[Action]] = []
    idle: list[Sequence[Action]] = []
    for group in groups:
        kept = [a for a in group if not futile(state, a)]
        if not kept:
            idle.append(group)
        else:
            useful.append(group if len(kept) == len(group) else kept)
    return useful + idle


def usable_powers(state: GameState, groups: Sequence[Sequence[Action]]) -> list[str]:
    """The names of the cards whose powers can still do something among the choices ``groups`` (a pass
    that leaves them is asked about first: a mistyped number must not end one's round)."""
    return sorted({state.cards[A.subject(g[0])].name for g in groups
                   if A.kind(g[0]) == A.POWER and not all(futile(state, a) for a in g)})


def pass_leaves(state: GameState, groups: Sequence[Sequence[Action]], action: Action) -> list[str]:
    """The usable powers (`usable_powers`) that ``action`` would leave this round if it is a pass; none for
    any other action.  Every screen asks before such a pass."""
    return usable_powers(state, groups) if A.kind(action) == A.PASS else []


def _after(state: GameState, action: Action) -> GameState:
    after = state.clone()
    after.apply(action)
    return after


def group_text(state: GameState, group: Sequence[Action], names: Sequence[str] | None = None) -> str:
    """The action a group stands for, without its payment when there are several; with the points it
    wins or costs at once, if any, what else it gains or gives up (`consequence`) and whether it ends
    the game (`game_end`).  ``names`` are the players' as the reader knows them (a rival a power
    chooses: "choosing Ann"); without them, "player 2"."""
    a = group[0]
    text = _group_words(state, group, names)
    scored = len(group) == 1 or A.kind(a) == A.TAKE
    # (one position after the action for both notes that read it)
    after = _after(state, a) if (scored and A.kind(a) != A.CLAIM_TOP) or A.kind(a) in ENDING else None
    change = points_change(state, a, after) if scored else 0
    notes = [f"costs {-change} VP"] if change < 0 else [f"+{change} VP"] if change > 0 else []
    notes += [note for note in (consequence(state, a), game_end(state, a, after)) if note]
    if all(futile(state, way) for way in group):
        notes.append("does nothing")
    return f"{text}  ({'; '.join(notes)})" if notes else text


#: The kinds of action that may end the game at once (`game_end`).
ENDING = (A.POWER, A.PASS)


def game_end(state: GameState, action: Action, after: GameState | None = None) -> str:
    """What a pass or a power that ends the game at once (the last pass of a round with someone at 10
    points, a power that checks victory) means for the deciding player: "ends the game: you win",
    "... you lose" or "... a shared win"; "" for a choice after which the game goes on, and for any
    other kind of choice.  Points are public, so this tells nothing hidden.  ``after``: the position
    after ``action``, if the caller has it."""
    if A.kind(action) not in ENDING:
        return ""
    after = after if after is not None else _after(state, action)
    if not after.is_terminal():
        return ""
    p, won = A.player(action), after.winners()
    return "ends the game: " + ("you win" if won == [p] else "a shared win" if p in won else "you lose")


def consequence(state: GameState, action: Action) -> str:
    """What a choice gains or gives up that its words do not say, for a player who does not know the
    card by heart: at Collect, leaving the essences on Vault (with Gold on it) earns its interest, on
    Windup Man winds it up, and on Athanor keeps them for its power that takes them off; taking them
    forgoes that (`_stored_consequence`); turning Cursed Forge for its collect cost keeps the essences
    but locks its powers for the round (`_collect_cost_consequence`).  "" for any other choice."""
    if A.kind(action) == A.TAKE:
        return _stored_consequence(state, action)
    if A.kind(action) == A.COLLECT_COST:
        return _collect_cost_consequence(state, action)
    return ""


def _stored_consequence(state: GameState, action: Action) -> str:
    e = A.subject(action)
    effect = stored_effect(state, e)
    leaving = A.decision(action) == A.LEAVE_STORED
    if effect is None:
        return ""
    spender, special = stored_spender(state, e), state.cards[e].collect_special
    if effect == "spender" and spender is not None:
        spent = essences_text(spender.remove_self or NOTHING)
        return (f"kept for its power, which takes {spent} off it" if leaving
                else f"its power, which takes {spent} off it, waits until they are back on it")
    if effect == "vault" and special is not None:
        count, kinds = special[1], special[2]
        which = "any kind but Gold" if len(kinds) == 4 and 4 not in kinds else "of your choice"
        bonus = f"earns its interest: {count} essences, {which}"
        lost = "no interest this round"
    else:
        bonus, lost = "it adds 2 more of each kind on it", "no wind-up this round"
    return bonus if leaving else lost


def _collect_cost_consequence(state: GameState, action: Action) -> str:
    """Paying a collect cost keeps the component straight, its powers usable; turning it instead keeps
    the essences, but a turned component uses none of its powers until it is straightened (rules.md
    §7.3)."""
    card = state.cards[A.subject(action)]
    powers = sum(1 for pw in card.powers if pw.kind == C.ACTION)
    if not powers or A.decision(action) == A.DECLINE_COST:
        return ""
    its = "its power" if powers == 1 else "its powers"
    if A.decision(action) == A.PAY_COST:
        return f"it stays straight: {its} can be used this round"
    return f"you keep the {essences_text(card.collect_cost or NOTHING)}, but turned it cannot use {its} this round"


def keeps_a_bonus(state: GameState, action: Action) -> bool:
    """Whether ``action`` is the choice that keeps a `consequence`'s bonus or the points of essences
    that score where they are (Alchemist's Tower, Sunken Reef: taking them costs those points); the full
    screen highlights it first, so that Enter does not give either up unnoticed."""
    if A.kind(action) != A.TAKE or A.decision(action) != A.LEAVE_STORED:
        return False
    return bool(consequence(state, action)) or scoring_leave(state, state.legal_actions()) == action


def power_words(card: C.Card, index: int) -> str:
    """The summary of ``card``'s power ``index``: the data's (every base card has one), else told from
    the power's data (`power_text.power_summary`: the expansion's cards, whose powers are listed as
    their data lists them, actions then Reacts); "" if neither is there."""
    text = card.powers[index].text.strip()
    if text:
        return text
    raw = card.raw if isinstance(card.raw, dict) else {}
    listed = list(raw.get("powers") or []) + list(raw.get("reactions") or [])
    if "reference_powers" in raw or not 0 <= index < len(listed):
        return ""
    return power_summary(listed[index], raw)


def _power_summary(state: GameState, a: Action, words: str) -> str:
    """" (turn: draw 1 card)" for a power of a card that has several, or one whose ``words`` (the menu's)
    say nothing of what it does ("Use Coral Castle": " (turn: check victory immediately)"), else "": the
    whole summary (the screens wrap a long line rather than cut it)."""
    card = state.cards[A.subject(a)]
    several = sum(1 for pw in card.powers if pw.kind == card.powers[A.power_index(a)].kind) > 1
    if A.kind(a) != A.POWER or not several and words != f"Use {card.name}":
        return ""
    # (the expansion's summaries name the card: "Turn the Fire Demon and pay 1 Elan: ...")
    text = power_words(card, A.power_index(a)).rstrip(".").replace(f"the {card.name}", "it")
    if not text:
        return ""
    return f" ({text[0].lower() + text[1:]})"


def _group_words(state: GameState, group: Sequence[Action], names: Sequence[str] | None) -> str:
    words = _action_words(state, group, names)
    return words + (_power_summary(state, group[0], words) if A.kind(group[0]) == A.POWER else "")


def _action_words(state: GameState, group: Sequence[Action], names: Sequence[str] | None) -> str:
    a = group[0]
    if A.kind(a) in (A.DRAFT_PICK, A.REDRAFT_PICK):  # a pick says what the card costs
        card = state.cards[A.subject(a)]
        return f"{amigos.action_text(state, a)}  ({cost_words(card.cost, card.cost_any)})"
    if len(group) == 1:
        return one_way_words(state, a, names)
    kind = A.kind(a)
    subject = A.subject(a) if len(a) > 2 else None
    name = state.cards[subject].name if isinstance(subject, int) and subject >= 0 else ""
    if kind == A.PLACE:
        return f"Place {name}"
    if kind == A.DISCARD:
        return f"Discard {name} for essences"
    if kind == A.GAIN:
        return f"Collect from {name}" if state.phase == COLLECT else f"Gain from {name}"
    if kind == A.LL_CHOICE:
        return "Lose the life"
    if kind == A.V_REACT:
        if len(a) > 5 and _turns_other(state, a) and len({v[5] for v in group}) > 1:
            turned = state.cards[A.subject(a)].powers[A.power_index(a)].turn_other or "component"
            return f"Use {name}, turning one of your {turned.replace('_', ' ').capitalize()}s"
        return amigos.action_text(state, a).split(" paying ")[0]
    text = amigos.action_text(state, a, names)
    return re.split(r"[:,] (?:paying|gaining|putting) ", text)[0]


def _turns_other(state: GameState, a: Action) -> bool:
    """True for a victory-check React that turns another component (Dark Cathedral turning a Demon), whose
    sixth field is that component; false for Illusion's, whose sixth field is a type."""
    return state.cards[A.subject(a)].powers[A.power_index(a)].turn_other is not None


def one_way_words(state: GameState, a: Action, names: Sequence[str] | None = None) -> str:
    """A one-way action's words: the engine's, but for a few that read better here: a Gain that is not
    a collect (Vial of Light's React) says so, putting none of an essence on a card says that, and a
    collect cost says what it costs."""
    kind = A.kind(a)
    if kind == A.COLLECT_COST and A.decision(a) != A.DECLINE_COST:
        name, cost = state.cards[A.subject(a)].name, essences_text(state.cards[A.subject(a)].collect_cost or NOTHING)
        if A.decision(a) == A.PAY_COST:
            return f"Pay {cost} for {name}'s collect cost"
        return f"Turn {name} for its collect cost instead of paying {cost}"
    if kind == A.GAIN and state.phase != COLLECT:
        return f"Gain {essences_text(A.gain(a))} from {state.cards[A.subject(a)].name}"
    if kind == A.BANK and A.banked(a)[1] == 0:
        return f"Put no {C.ESSENCES[A.banked(a)[0]]} on {state.cards[A.subject(a)].name} (keep it in your pool)"
    return amigos.action_text(state, a, names)


def variant_text(state: GameState, a: Action) -> str:
    """One way of paying or gaining: "pay 2 elan", "pay 1 calm, putting 1 gold on it"."""
    kind = A.kind(a)
    if kind in (A.PLACE, A.CLAIM_POP):
        return "pay " + essences_text(A.payment(a))
    if kind in (A.DISCARD, A.GAIN):
        return "gain " + essences_text(A.gain(a))
    if kind == A.POWER:
        words = amigos.action_text(state, a).split(": ", 1)
        parts = [w for w in CLAUSE.split(words[1]) if w.startswith(("paying", "gaining", "putting"))] \
            if len(words) > 1 else []
        return "; ".join(parts).replace("paying", "pay").replace("gaining", "gain").replace("putting", "put") \
            or "pay nothing, gain nothing"
    if kind == A.LL_CHOICE:
        return "lose " + essences_text(A.payment(a))
    if kind == A.V_REACT:
        paying = "pay " + essences_text(A.payment(a)) if any(A.payment(a)) else "pay nothing"
        turned = A.other(a)
        if turned is not None and _turns_other(state, a):
            return f"turn {state.cards[turned].name}, {paying}"
        return paying
    return one_way_words(state, a)


def ordered_variants(variants: Sequence[Action]) -> list[Action]:
    """The ways of one action, essences before Gold where both work, and last the ways that pay an
    essence to gain the same one back or pay and gain nothing; otherwise in the essences' order (elan,
    life, calm, death: "gain 1 elan" before "gain 1 life", whatever the card), a gain of Gold first (a
    discard's most taken way), then the engine's."""
    def key(a: Action) -> tuple[bool, int, int, tuple[int, ...], tuple[int, ...]]:
        pay, gain = vectors(a)
        gold = pay[4] if pay else 0
        wasted = sum(min(pay[k], gain[k]) for k in range(5)) if pay and gain else 0
        idle = not any(pay or ()) and not any(gain or ())
        gains = (gain[4], *gain[:4]) if gain else ()
        return idle or wasted > 0, wasted, gold, tuple(-n for n in pay or ()), tuple(-n for n in gains)
    return sorted(variants, key=key)


def vectors(a: Action) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """(what an action pays, what it gains): each a 5-vector of essences, or None where it has none."""
    pay_at, gain_at = A.PAY_GAIN_AT.get(A.kind(a), (-1, -1))
    return (A.payment(a) if pay_at >= 0 else None), (A.gain(a) if gain_at >= 0 else None)


def payments_first(variants: Sequence[Action]) -> list[tuple[int, ...]] | None:
    """The distinct payments of ``variants`` (the ways of one action), in their order, when the ways
    are many (Transmutation's hundreds) and each pays and gains, so that a person chooses the payment
    and then the gain; else None (the ways are one list)."""
    if len(variants) <= TWO_STEPS_OVER:
        return None
    pays: dict[tuple[int, ...], None] = {}
    gains: set[tuple[int, ...]] = set()
    for a in variants:
        pay, gain = vectors(a)
        if pay is None or gain is None:
            return None
        pays[pay] = None
        gains.add(gain)
    return list(pays) if len(pays) > 1 and len(gains) > 1 else None


def step_of_two(variants: Sequence[Action], payments: list[tuple[int, ...]],
                paying: tuple[int, ...] | None) -> tuple[list[Action], list[str]]:
    """One step of a two-step choice (`payments_first`), as the ways it lists and their lines: before a
    payment is chosen (``paying`` None), the first way of each of ``payments`` as "pay ..."; after,
    the ways that pay ``paying`` as "gain ..."."""
    if paying is None:
        firsts: dict[tuple[int, ...] | None, Action] = {}
        for a in variants:
            firsts.setdefault(vectors(a)[0], a)
        return [firsts[pay] for pay in payments], ["pay " + essences_text(pay) for pay in payments]
    ways = [a for a in variants if vectors(a)[0] == paying]
    return ways, ["gain " + essences_text(vectors(a)[1] or ()) for a in ways]


#: No essences: what a way pays or gains where it has no such half (a placement gains nothing).
NOTHING = (0,) * 5

#: An essence count as the board writes it: "4E", "2 d".
ESSENCE = re.compile(r"(\d+)\s*([elcdg])", re.IGNORECASE)


def parse_essences(text: str) -> tuple[int, ...] | None:
    """``"4E 2d"`` -> ``(4, 0, 0, 2, 0)``; None when the text holds anything else."""
    counts = [0] * 5
    rest = ESSENCE.sub("", text).strip(" ,")
    if rest:
        return None
    for n, letter in ESSENCE.findall(text):
        counts[LETTERS.index(letter.upper())] += int(n)
    return tuple(counts)


def typed_variant(variants: Sequence[Action], typed: str, gain_only: bool = False) -> Action | None:
    """The variant the typed text names, when exactly one fits it: ``PAY / GAIN``, either half left
    empty for "any" (``/ 3E`` is a gain); or one half alone, which in a step that lists gains only
    (``gain_only``: the payment is chosen) is the gain, and otherwise a payment or a gain (``4E`` is
    Alchemy's way that pays 4 elan, its gain being fixed).  None if the text is no essences, or fits
    no way or several."""
    halves = typed.split("/")
    if len(halves) > 2:
        return None
    if len(halves) == 1 and gain_only:
        halves = ["", halves[0]]
    wanted: list[tuple[int, ...] | None] = []
    for half in halves:
        counts = parse_essences(half) if half.strip() else None
        if half.strip() and counts is None:
            return None
        wanted.append(counts)
    if all(w is None for w in wanted):
        return None
    if len(wanted) == 2:
        found = [v for v in variants if all(w is None or (have or NOTHING) == w for have, w in zip(vectors(v), wanted))]
    else:
        found = [v for v in variants if wanted[0] in vectors(v)]
    return found[0] if len(found) == 1 else None
