"""The rest of a round a player plays alone, planned to its end.

Once every rival has passed, each decision left in the round is the mover's own (chance aside, and a
rival's answer to an attack): the round is a one-player problem.  `Planner` searches it depth first in
a determinisation, move by move as the tree search sees moves (`ai.mcts.group`: an action's macro, a
child for each purchase its ways make affordable at once, the futile ones left out, each played with
the way the learned value prefers, and with the way that leaves the most Gold where that is another),
merging positions reached in different orders (a transposition
table), down to where the round ends (or the game), a rival must decide, or a budget runs out; the
positions reached there are valued by the caller's ``value``.  Its best line never passes with a
purchase, a point or a conversion left that the value sees.  A line that wins the game (a value of
`WON` or more: only a finished game is worth that much) ends the search of its position's other moves:
nothing beats a win, and a round with a win in it is often too wide to search whole.

`plan_round` plans in several determinisations (each deals the mover's own draws anew) and returns
each first move's mean value over them, or None when a plan ran out of its budget (the caller then
searches as usual).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Final

from amigos.cards import GOLD
from amigos.codes import ACTIONS
from amigos.config import Action, Macro
from amigos.state import GameState

from .evaluator import Evaluator
from .futile import useful
from .heuristics import pools_after
from .mcts import group
from .rewards import WIN_MARGIN

#: Positions a plan may expand in one determinisation before it gives up (most need fewer than 100);
#: the agent's plan may take more (`ai.mcts.MCTSAgent.plan`: with a clock, the clock limits it, up to
#: TIMED_BUDGET; with an iteration budget, a quarter of it in each of its four worlds).
NODE_BUDGET: Final = 200
TIMED_BUDGET: Final = 50_000
#: The least value of a game won (`ai.rewards.final_rewards`); an unfinished one is valued below it.
WON: Final = 1.0 - WIN_MARGIN

Key = tuple[object, ...]


def alone(state: GameState, player: int) -> bool:
    """Whether ``player`` decides now in the action phase and every rival has passed this round."""
    if state.phase != ACTIONS or state.is_terminal() or state.current_player() != player:
        return False
    return all(state.passed[q] for q in range(state.n_players) if q != player) and not state.passed[player]


def position_key(s: GameState) -> Key:
    """What makes two positions of one determinisation the same for the rest of the round: every
    component's place, owner, side and essences, the pools, the passes, the pending choices, the
    phase, the round, whose turn, the points of the moment, the known deck orders and the chance
    generator's state."""
    return (tuple(s.loc), tuple(s.owner), tuple(s.turned), tuple(s.ess), tuple(s.pool), tuple(s.passed),
            tuple(s.stack), tuple(s.order), tuple(s.temp_vp), s.phase, s.round, s.turn, s.first_player,
            s.victory_check, s.rng)


def moves(s: GameState, evaluator: Evaluator) -> list[tuple[Macro, Action]]:
    """The moves of ``s`` as the tree search sees them, each with the way ``evaluator`` plays it, and
    where another of its ways leaves more Gold, that way too (keyed `MORE_GOLD`): Gold buys monuments
    and pays Reacts at the victory check (Golden Statue), which the learned value's way may give up
    for more essences of other kinds."""
    out: list[tuple[Macro, Action]] = []
    for key, ways in useful(s, group(s, evaluator.learned)).items():
        chosen = evaluator.variant(s, ways)
        out.append((key, chosen))
        after = pools_after(s, ways) if len(ways) > 1 else None
        if after is not None:
            richest = max(range(len(ways)), key=lambda i: after[i][GOLD])
            played = next(i for i, a in enumerate(ways) if a == chosen)  # (ways: any sequence, not a list)
            if after[richest][GOLD] > after[played][GOLD]:
                out.append((key + (MORE_GOLD,), ways[richest]))
    return out


#: The key of a move's way that leaves the most Gold (`moves`), after the move's own key.
MORE_GOLD: Final = "more gold"


class Planner:
    """One plan's search in one determinisation (see the module docstring): ``value(s)`` is the
    player's value of a position where the plan stops.  `best` gives the highest value the rest of the
    round reaches from a position, or None once ``budget`` positions were expanded or the clock passed
    ``deadline`` (`time.perf_counter`)."""

    player: int
    value: Callable[[GameState], float]
    evaluator: Evaluator
    budget: int
    deadline: float | None
    expanded: int  # positions expanded so far
    table: dict[Key, float]  # the best value reached from each position met (the transpositions)
    round: int  # the round planned (the plan stops where it ends)

    def __init__(self, player: int, value: Callable[[GameState], float], evaluator: Evaluator,
                 budget: int = NODE_BUDGET, deadline: float | None = None) -> None:
        self.player = player
        self.value = value
        self.evaluator = evaluator
        self.budget = budget
        self.deadline = deadline
        self.expanded = 0
        self.table: dict[Key, float] = {}
        self.round = -1

    def stops(self, s: GameState) -> bool:
        """The plan stops here: the game or the round is over, or someone else decides."""
        return (s.is_terminal() or s.round != self.round or s.phase != ACTIONS
                or s.current_player() != self.player)

    def best(self, s: GameState) -> float | None:
        """The highest value the rest of the round reaches from ``s`` (played on), or None."""
        while not self.stops(s) and len(s.legal_actions()) == 1:
            s.apply_unchecked(s.legal_actions()[0])
        if self.stops(s):
            return self.value(s)
        key = position_key(s)
        known = self.table.get(key)
        if known is not None:
            return known
        self.expanded += 1
        if self.expanded > self.budget or (self.deadline is not None and time.perf_counter() > self.deadline):
            return None
        values = self.after_each(s)
        if values is None:
            return None
        top = max(v for _, v in values.values())
        self.table[key] = top
        return top

    def first_moves(self, s: GameState) -> dict[Macro, tuple[Action, float]] | None:
        """Each move of ``s`` with its way and its value (the best the rest of the round reaches after
        it), or None when the budget ran out."""
        self.round = s.round
        return self.after_each(s)

    def after_each(self, s: GameState) -> dict[Macro, tuple[Action, float]] | None:
        """Each move of ``s``, its way and `best` after it; None once the budget ran out."""
        out: dict[Macro, tuple[Action, float]] = {}
        for key, action in moves(s, self.evaluator):
            child = s.clone()
            child.apply_unchecked(action)
            v = self.best(child)
            if v is None:
                return None
            out[key] = (action, v)
            if v >= WON:  # (a win: the other moves need not be looked at)
                break
        return out


def plan_round(worlds: Sequence[GameState], player: int, value: Callable[[GameState], float], evaluator: Evaluator,
               budget: int = NODE_BUDGET, deadline: float | None = None) -> dict[Macro, tuple[Action, float]] | None:
    """Each first move's way (the first world's) and mean value over ``worlds`` (determinisations of one
    position where ``player`` is `alone`), in the order of the moves; None when a plan ran out of its
    budget.  A world's plan stops at its first winning move (`WON`): the moves valued are those every
    world's plan valued."""
    total: dict[Macro, float] = {}
    seen: dict[Macro, int] = {}
    played: dict[Macro, Action] = {}
    for world in worlds:
        values = Planner(player, value, evaluator, budget, deadline).first_moves(world)
        if values is None:
            return None
        for key, (action, v) in values.items():
            total[key] = total.get(key, 0.0) + v
            seen[key] = seen.get(key, 0) + 1
            played.setdefault(key, action)
    return {key: (played[key], v / len(worlds)) for key, v in total.items() if seen[key] == len(worlds)} or None
