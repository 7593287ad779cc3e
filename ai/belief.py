"""Belief: which of the worlds a search deals explain the rival's choices so far.

A search deals worlds (`amigos.determinize`) in which the rival's hidden cards are any the searcher
has not seen.  A rival who kept three Death essences and passed rather than buy is more likely to hold
a card that wants Death; `Belief` weighs each world by the likelihood, under the model of a player's
choices (`ai.policy`), of the moves the rival made this game, each in the position it was made in as
that world's history has it (`amigos.determinize.recast`: the rival's hand then is the world's).

The agent is told every decision of the game (`observe`) and weighs by the rival's last `REMEMBERED`
among two or more moves; a world's weight reads of those positions only what the world deals them
(`recast` replaces every card), so it depends on what the searcher may see and on the world alone
(the no-peeking test checks it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import numpy as np

from amigos.actions import macro_key
from amigos.codes import ACTIONS, COLLECT
from amigos.config import Action, Macro
from amigos.determinize import recast

from .policy import PolicyNet, moves_of

if TYPE_CHECKING:
    from amigos.state import GameState

REMEMBERED: Final[int] = 8  # the rival's most recent decisions a world is weighed by
TEMPER: Final[float] = 0.5    # the likelihood's exponent: the model is a model, not the rival


class Belief:
    """The game's recent decisions as an agent was told them, and the weights they give worlds."""

    seen: list[tuple[GameState, Macro, int]]  # (position, move made, its mover)
    _round: int

    def __init__(self) -> None:
        self.seen = []
        self._round = -1

    def observe(self, state: GameState, action: Action) -> None:
        """Note ``action``, about to be made in ``state`` (choices among two or more moves in the Collect
        and action phases are kept, the last few of each player).  A new game forgets the last one."""
        if state.round < self._round:
            self.seen = []
        self._round = state.round
        if state.is_terminal() or state.phase not in (COLLECT, ACTIONS) or len(moves_of(state)) < 2:
            return
        self.seen = (self.seen + [(state.clone(), macro_key(action), state.current_player())])[-2 * REMEMBERED:]

    def rival_choices(self, player: int) -> list[tuple[GameState, Macro]]:
        """The last `REMEMBERED` choices of ``player``'s rivals, oldest first."""
        return [(past, move) for past, move, mover in self.seen if mover != player][-REMEMBERED:]

    def weights(self, worlds: Sequence[GameState], policy: PolicyNet, player: int) -> np.ndarray:
        """Each world's share (summing to 1), ``player``'s worlds: proportional to the tempered
        likelihood of the rivals' remembered moves in that world's history; equal shares when there
        are none."""
        logs = np.zeros(len(worlds))
        choices = self.rival_choices(player)
        for i, world in enumerate(worlds):
            for past, move in choices:
                then = recast(past, world)
                moves = moves_of(then)
                if move in moves:
                    logs[i] += float(np.log(policy.probabilities(then, moves)[moves.index(move)] + 1e-9))
                else:  # (the move was not legal in this world's history: the world is all but ruled out)
                    logs[i] += float(np.log(1e-9))
        logs *= TEMPER
        w = np.exp(logs - logs.max())
        return w / w.sum()
