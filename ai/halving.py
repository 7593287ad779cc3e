"""Sequential halving at the root of a search: which root move each iteration explores."""

from __future__ import annotations

import math
import time as _time
from typing import Any

from amigos.config import Macro


class Halving:
    """Sequential halving at the root (Karnin et al. 2013; in MCTS, Pepels et al. 2014): the budget is
    cut into ceil(log2 m) equal phases for the m root moves; within a phase the moves still in are
    searched in turn, and after it the better half by mean value stays.  UCB1 at the root spends its
    visits on the move that looks best (regret over the iterations); halving spends them on telling the
    best moves apart (regret of the choice), so a longer search compares its candidates more deeply."""

    __slots__ = ("keys", "phases", "phase", "turn", "iters", "planned", "seconds", "start")

    keys: list[Macro]
    phases: int
    phase: int
    turn: int
    iters: int | None
    planned: int  # the iterations the phases share: the budget less the last move's top-up
    seconds: float | None
    start: float

    def __init__(self, keys: list[Macro], iters: int | None, seconds: float | None, start: float) -> None:
        self.keys = keys
        self.phases = max(1, math.ceil(math.log2(len(keys))))
        self.phase = 0
        self.turn = 0
        self.iters, self.seconds, self.start = iters, seconds, start
        # The two moves of the last phase differ by a visit at most for each phase they shared, so
        # this many iterations kept back let the one left become the most visited within the budget.
        self.planned = max(1, iters - (self.phases + 1)) if iters is not None else 0

    def _phase_over(self, done: int) -> bool:
        share = (self.phase + 1) / self.phases
        if self.iters is not None:
            return done >= self.planned * share
        assert self.seconds is not None  # a search has an iteration or a time budget
        return _time.perf_counter() >= self.start + self.seconds * share

    def _spent(self, done: int) -> bool:
        if self.iters is not None:
            return done >= self.iters
        assert self.seconds is not None
        return _time.perf_counter() >= self.start + self.seconds

    def next_key(self, children: dict[Macro, Any], done: int) -> Macro | None:
        """The root move of the next iteration; None once the budget is spent and the one move left
        (the better by mean value of the last phase's two) holds the most visits: the agent plays
        the most visited move.  A budget of more iterations than the phases hold back (phases + 1)
        ends within it; a smaller one, or a timed search, may run the few iterations more that make
        the move left the most visited."""
        if len(self.keys) > 1 and self._phase_over(done):
            self.phase += 1
            self.turn = 0
            ranked = sorted(self.keys, key=lambda k: children[k].w / children[k].n if k in children else -1.0,
                            reverse=True)
            self.keys = ranked[:(len(ranked) + 1) // 2]
        if len(self.keys) == 1:
            key = self.keys[0]
            best = children.get(key)
            if best is not None and self._spent(done) and all(c.n < best.n for k, c in children.items()
                                                              if k != key):
                return None
            return key
        key = self.keys[self.turn % len(self.keys)]
        self.turn += 1
        return key
