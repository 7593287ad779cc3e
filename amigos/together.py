"""The steps every player takes at once: choosing a mage (rules 2: "revealed together"), each round of
picks of a draft, and the Collect phase's choices (4.6: "players collect simultaneously").

The engine takes them one player at a time, in seat order, which the rules allow because no choice in
them changes what a rival may choose.  A front-end whose people sit apart (an online table) lets each
person choose at once all the same: `ahead` gives the position at a player's next decision of the step
under way before the players ahead of them in seat order have chosen, by letting a stand-in choice (their
first legal action) take their place there.  The options found there are the player's real ones; the
stand-ins' choices are not real and must be shown to nobody.  The front-end keeps the answers given
ahead and hands them to the engine, in seat order, when it asks for them, so the match records the
decisions in the engine's order and a replay stays exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from .codes import COLLECT, SETUP_CHOOSE_MAGES, SETUP_DRAFT
from .config import Action
from .state import GameState

#: The phases in which every player chooses at once.
TOGETHER_PHASES: Final = (SETUP_CHOOSE_MAGES, SETUP_DRAFT, COLLECT)
#: The most decisions `ahead` steps through (a Collect is a handful a player; a bound against a loop).
MAX_STEPS: Final = 200

StepKey = tuple[int, int, int]


def together(state: GameState) -> StepKey | None:
    """The step all the players are taking at once at ``state``, as a key that stays the same until it
    ends: (phase, round, draft stage); None when the position is not in such a step."""
    if state.is_terminal() or state.phase not in TOGETHER_PHASES:
        return None
    return (state.phase, state.round, state.draft_stage if state.phase == SETUP_DRAFT else 0)


def ahead(state: GameState, seat: int, answers: Sequence[Action],
          decide: Callable[[GameState], Action | None] = lambda s: None) -> tuple[GameState, bool] | None:
    """Where ``seat`` stands in the step under way at ``state`` (`together`), having made ``answers``
    (its own decisions of the step given ahead, in order): the position at its next decision there and
    True, or the position after its last one and False when it has none left.  The decisions of the
    other players before it are taken by stand-ins, and those ``decide`` makes for ``seat`` (an
    automatic collect, say; None: the seat decides) are made.  None when ``state`` is in no such step, or
    when an answer is not legal where it falls (the answers belong to another position).

    The position is ``seat``'s to choose in, never to be shown whole: its other players' choices in the
    step are stand-ins."""
    key = together(state)
    if key is None:
        return None
    s = state.clone()
    used = 0
    for _ in range(MAX_STEPS):
        if together(s) != key:
            return s, False
        acts = s.legal_actions()
        if s.current_player() != seat:
            s.apply(acts[0])
            continue
        made = decide(s)
        if made is None:
            if used == len(answers):
                return s, True
            made = answers[used]
            used += 1
            if made not in acts:
                return None
        s.apply(made)
    return None


def deciding(state: GameState, answers: dict[int, Sequence[Action]] | None = None) -> list[int]:
    """The players who still have a decision to make in the step under way at ``state`` (with their
    ``answers`` given ahead), in seat order; empty when it is in no such step."""
    answers = answers or {}
    out = []
    for seat in range(state.n_players):
        place = ahead(state, seat, answers.get(seat, ()))
        if place is not None and place[1]:
            out.append(seat)
    return out
