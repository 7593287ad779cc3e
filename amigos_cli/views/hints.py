"""A hint in a player's words: the AI's move, what it buys, what it stops, what it costs, and how the
search rated it against the next best.

"Hint: Discard Hawk for 2 death. Then you can pay for Dragon Teeth; about 61% to win (next best:
Pass, taking Research, 55%)."  Everything said is worked out from the position as the player sees it
(their pool and hand, the rival's pool and what is on offer) and from the search's figures.
"""

from __future__ import annotations

from typing import Any

import amigos
from ai.heuristics import MONUMENT, pays, purchases
from amigos import actions as A
from amigos.config import Action
from amigos.state import GameState

from .choices import consequence, group_text, points_change

MAX_NAMED = 2  # purchases a hint names at most ("then you can pay for A or B")


def hint_text(state: GameState, action: Action, info: dict[str, Any]) -> str:
    """The hint line for ``action``, the agent's choice in ``state`` with its ``info``: a draft pick's
    worth and fit; a searched move's reasons (`reasons`) and its chance against the runner-up's."""
    text = f"Hint: {amigos.action_text(state, action)}"
    picks = info.get("picks")
    if picks:
        return text + _pick_reasons(picks)
    said = reasons(state, action)
    value = info.get("value")
    if value is not None and info.get("iterations"):
        rated = f"about {value:.0%} to win"
        second = info.get("runner_up")
        if second:
            rated += f" (next best: {_move_words(state, second['action'])}, {second['value']:.0%})"
        said.append(rated)
    if not said:
        return text
    joined = "; ".join(said)
    return f"{text}. {joined[0].upper()}{joined[1:]}."


def reasons(state: GameState, action: Action) -> list[str]:
    """What ``action`` buys, stops and costs its player, in words (none for a move that does none of
    these visibly): the points it wins or loses now, the purchases it makes affordable, a claim the
    rival could have made first, and what a choice gives up (`consequence`)."""
    p = action[1]
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
    if action[0] == A.PASS and not any(state.passed):
        out.append("passing first, you start the next round")
    return out


def _enabled(state: GameState, action: Action, p: int) -> list[str]:
    """The names of what ``p`` could not pay for before ``action`` and can after it (a place of power,
    a monument, an artifact in hand): what a gain of essences is for."""
    if action[0] not in (A.DISCARD, A.GAIN, A.POWER, A.TAKE):
        return []
    after = state.clone()
    after.apply(action)
    before_pool, after_pool = state.pool_of(p), after.pool_of(p)
    named = []
    for key, cost, total in purchases(state, p):
        if key == action[2] and action[0] == A.DISCARD:
            continue  # (a discarded card is not bought)
        if not pays(before_pool, cost, total) and pays(after_pool, cost, total):
            named.append(state.cards[key].name if isinstance(key, int) else "a monument")
    return named


def _before_the_rival(state: GameState, action: Action, p: int) -> str:
    """"before the rival, who can pay for it too" for a claim of what the rival could also claim now."""
    if action[0] not in (A.CLAIM_POP, A.CLAIM_MONUMENT, A.CLAIM_TOP):
        return ""
    rival = 1 - p
    wanted = action[2] if action[0] == A.CLAIM_POP else MONUMENT
    for key, cost, total in purchases(state, rival):
        if key == wanted and pays(state.pool_of(rival), cost, total):
            return "before the rival, who can pay for it too"
    return ""


def _move_words(state: GameState, action: Action) -> str:
    """``action`` as the list of choices words its move (without a payment when it has several)."""
    group = next((g for g in state.legal_groups() if action in g), [action])
    return group_text(state, group)


def _pick_reasons(picks: list[dict[str, Any]]) -> str:
    best, rest = picks[0], picks[1:]
    text = (f"  (worth {best['worth']:+.2f} in self-play, fits your plan {best['fit']:.1f}, "
            f"the rival's {best['deny']:.1f}" + (", part of the engine that won the last game" if best["engine"] else ""))
    if rest:
        text += "; next: " + ", ".join(f"{r['card']} {r['score']:+.2f}" for r in rest)
    return text + ")"
