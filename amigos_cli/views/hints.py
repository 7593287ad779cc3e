"""A hint in a player's words: the AI's move, what it buys, what it stops, what it costs, and how the
search rated it against the next best.

"Hint: Discard Hawk for 2 death. Then you can pay for Dragon Teeth; about 61% to win (next best:
Pass, taking Research, 55%)."  Everything said is worked out from the position as the player sees it
(their pool and hand, the rival's pool and what is on offer) and from the search's figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ai.collect import points_change
from ai.heuristics import MONUMENT, pays, purchases
from amigos import actions as A
from amigos import cards as C
from amigos.config import Action
from amigos.state import GameState
from amigos.text import essences_text

from .choices import consequence, group_text, one_way_words

MAX_NAMED = 2  # purchases a hint names at most ("then you can pay for A or B")

#: The React triggers that answer a Life loss (any, a rival Dragon's, a rival Demon's): a straight
#: component with one of them may ignore an attack.
LIFE_LOSS_TRIGGERS = (C.TRIGGER_LIFE_LOSS, C.TRIGGER_DRAGON, C.TRIGGER_DEMON)


def hint_text(state: GameState, action: Action, info: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The hint line for ``action``, the agent's choice in ``state`` with its ``info``: a draft pick's
    worth and fit; a searched move's reasons (`reasons`) and its chance against the runner-up's, which
    is said in words when there is no other reason (`_rated`).  ``names``: the players' as the reader
    knows them (`amigos.text.action_text`)."""
    text = f"Hint: {one_way_words(state, action, names)}"
    picks = info.get("picks")
    if picks:
        return text + _pick_reasons(picks)
    said = reasons(state, action)
    rated = _rated(state, info, alone=not said, names=names)
    if rated:
        said.append(rated)
    if not said:
        return text
    joined = "; ".join(said)
    return f"{text}. {joined[0].upper()}{joined[1:]}."


def reasons(state: GameState, action: Action) -> list[str]:
    """What ``action`` buys, stops and costs its player, in words (none for a move that does none of
    these visibly): the points it wins or loses now, the purchases it makes affordable, a claim the
    rival could have made first, and what a choice gives up (`consequence`)."""
    p = A.player(action)
    out = []
    change = points_change(state, action)
    if change:
        out.append(f"{change:+d} VP now")
    enabled = _enabled(state, action, p)
    if enabled:
        out.append("then you can pay for " + " or ".join(enabled[:MAX_NAMED]))
    first = _before_the_rival(state, action, p)
    if first:
        out.append(first)
    if consequence(state, action):
        out.append(consequence(state, action))
    if A.kind(action) == A.PASS:
        out += _passing(state, action)
    attack = _attack(state, action)
    if attack:
        out.append(attack)
    return out


def _rated(state: GameState, info: dict[str, Any], alone: bool, names: Sequence[str] | None = None) -> str:
    """How the search rated the move: "about 61% to win (next best: X, 55%)"; ``alone`` (no other reason
    to give) as a comparison in words, "the search rates it above X, the next best: ...".  "" for a
    move that was not searched."""
    value = info.get("value")
    if value is None or not info.get("iterations"):
        return ""
    second = info.get("runner_up")
    if second is None:
        return f"the search found no move as good: about {value:.0%} to win" if alone else f"about {value:.0%} to win"
    other = _move_words(state, second["action"], names)
    if alone:
        return (f"the search rates it above the next best, {other}: about {value:.0%} to win against "
                f"{second['value']:.0%}")
    return f"about {value:.0%} to win (next best: {other}, {second['value']:.0%})"


def _passing(state: GameState, action: Action) -> list[str]:
    """Why a pass, in words: passing first starts the next round, and the magic item taken does what
    its text says ("Death / Life next round: collects 1 Death or 1 Life (your choice)")."""
    out = ["passing first, you start the next round"] if not any(state.passed) else []
    item = A.subject(action) if len(action) > 2 and isinstance(A.subject(action), int) and A.subject(action) >= 0 else None
    if item is not None and state.cards[item].text:
        words = state.cards[item].text.rstrip(".")
        out.append(f"{state.cards[item].name} next round: {words[0].lower()}{words[1:]}")
    return out


def _attack(state: GameState, action: Action) -> str:
    """What a power's attack makes each rival still in the round lose, with what they hold against it:
    "the rival loses 2 Life unless they pay 1 elan (they have 1 Life, no elan; their Protection can
    ignore it)".  "" for a power that attacks no one (or any other move)."""
    if A.kind(action) != A.POWER:
        return ""
    p = A.player(action)
    pw = state.cards[A.subject(action)].powers[A.power_index(action)]
    attack = next((eff for eff in pw.effects if eff[0] == "rivals_lose_life"), None)
    if attack is None:
        return ""
    hit = [q for q in range(state.n_players) if q != p and not state.passed[q]]
    if not hit:
        return "no rival loses Life: they have all passed"
    return "; ".join(_loss(state, q, attack, state.n_players > 2) for q in hit)


def _loss(state: GameState, q: int, attack: tuple[Any, ...], named: bool) -> str:
    """Rival ``q``'s loss from ``attack`` (`amigos.cards`' ("rivals_lose_life", amount, ...,
    rider, ...)), with what they hold: their Life (a Life they lack costs 2 other essences), what the
    rider asks, and their straight components whose React ignores a Life loss."""
    amount, rider = attack[1], attack[3]
    who = f"rival {q + 1}" if named else "the rival"
    text = f"{who} loses {amount} Life"
    pool = state.pool_of(q)
    held = [f"{pool[C.LIFE]} Life" if pool[C.LIFE] else "no Life"]
    if pool[C.LIFE] < amount:
        held[0] += ", so each Life missing costs them 2 other essences"
    if rider is not None and rider[0] == "pay":
        text += f" unless they pay {essences_text(rider[1])}"
        if any(pool[k] < n for k, n in enumerate(rider[1])):
            held.append("not enough to pay")
    elif rider is not None:
        text += " unless they " + ("discard a card" if rider[0] == "discard" else "destroy one of their artifacts")
    shields = [state.cards[x].name for x in state.in_play(q) if not state.turned[x]
               and any(r.kind == C.REACT and r.trigger in LIFE_LOSS_TRIGGERS for r in state.cards[x].powers)]
    text += f" (they have {', '.join(held)}"
    if shields:
        text += f"; their {' or '.join(shields)} can ignore it"
    return text + ")"


def _enabled(state: GameState, action: Action, p: int) -> list[str]:
    """The names of what ``p`` could not pay for before ``action`` and can after it (a place of power,
    a monument, an artifact in hand, a power of a straight component): what a gain of essences is for."""
    if A.kind(action) not in (A.DISCARD, A.GAIN, A.POWER, A.TAKE):
        return []
    after = state.clone()
    after.apply(action)
    before_pool, after_pool = state.pool_of(p), after.pool_of(p)
    named = []
    for key, cost, total in purchases(state, p, powers=True):
        if key == A.subject(action) and A.kind(action) == A.DISCARD:
            continue  # (a discarded card is not bought)
        if isinstance(key, tuple) and key[1] == A.subject(action) and A.kind(action) == A.POWER:
            continue  # (a power turns its card: none of its powers is used again this round)
        if not pays(before_pool, cost, total) and pays(after_pool, cost, total):
            named.append(_purchase_name(state, key))
    return named


def _purchase_name(state: GameState, key: object) -> str:
    """What a purchase key of `ai.heuristics.purchases` names: a card, a monument or a card's power."""
    if isinstance(key, int):
        return state.cards[key].name
    if isinstance(key, tuple):
        name = state.cards[key[1]].name
        return name + ("' power" if name.endswith("s") else "'s power")  # (Dwarven Mines' power)
    return "a monument"


def _before_the_rival(state: GameState, action: Action, p: int) -> str:
    """"before the rival, who can pay for it too" for a claim of what the rival could also claim now."""
    if A.kind(action) not in (A.CLAIM_POP, A.CLAIM_MONUMENT, A.CLAIM_TOP):
        return ""
    rival = 1 - p
    wanted = A.subject(action) if A.kind(action) == A.CLAIM_POP else MONUMENT
    for key, cost, total in purchases(state, rival):
        if key == wanted and pays(state.pool_of(rival), cost, total):
            return "before the rival, who can pay for it too"
    return ""


def _move_words(state: GameState, action: Action, names: Sequence[str] | None = None) -> str:
    """``action`` as the list of choices words its move (without a payment when it has several)."""
    group = next((g for g in state.legal_groups() if action in g), [action])
    return group_text(state, group, names)


def _pick_reasons(picks: list[dict[str, Any]]) -> str:
    best, rest = picks[0], picks[1:]
    text = (f"  (worth {best['worth']:+.2f} in self-play, fits your plan {best['fit']:.1f}, "
            f"the rival's {best['deny']:.1f}" + (", part of the engine that won the last game" if best["engine"] else ""))
    if rest:
        text += "; next: " + ", ".join(f"{r['card']} {r['score']:+.2f}" for r in rest)
    return text + ")"
