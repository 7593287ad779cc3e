"""Depth-limited expectimax with alpha-beta over the full state (it sees hidden information: a
deliberately strong, cheating baseline), exactly as the reference search (PROTOCOL.md §7.2).

Chance points with several outcomes are averaged uniformly; every applied step, chance outcomes and
forced moves included, uses one unit of depth.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amigos import actions as A
from amigos.codes import GAME_OVER
from amigos.config import Action

from .evaluate import evaluate
from .leaf import Base, leaf_value

if TYPE_CHECKING:
    from amigos.state import GameState

NEG = float("-inf")
POS = float("inf")


class Expectimax:
    """``Expectimax(depth).search(state, q)`` -> ``(action, value, nodes, depth reached)``."""

    def __init__(self, depth: int = 3) -> None:
        if depth < 1:
            raise ValueError("depth must be at least 1")
        self.depth = depth
        self.nodes = 0

    def search(self, state: GameState, q: int | None = None) -> tuple[Action, float, int, int]:
        if q is None:
            q = state.current_player()
        moves = state.legal_actions()
        if not moves:
            raise ValueError("no legal move")
        self.nodes = 0
        best_move, best_value, reached = None, NEG, 0
        for depth in range(1, self.depth + 1):
            it_move: Action | None
            it_move, it_value = None, NEG
            for m in moves:
                v = self.child_value(state, m, depth - 1, NEG, POS, q)
                if it_move is None or v > it_value:
                    it_move, it_value = m, v
            best_move, best_value, reached = it_move, it_value, depth
            if best_value >= 9000:
                break
        assert best_move is not None  # depth >= 1 and a legal move: the first iteration chose one
        return best_move, best_value, self.nodes, reached

    def child_value(self, s: GameState, m: Action, depth: int, alpha: float, beta: float, q: int,
                    base: Base | None = None) -> float:
        """V of the child reached by ``m``; leaves are valued without building them where possible."""
        if depth == 0:
            v = leaf_value(s, m, q, base)
            if v is not None:
                self.nodes += 1
                return v
        child = s.clone()
        child.apply_unchecked(m)
        return self.value(child, depth, alpha, beta, q)

    def value(self, s: GameState, depth: int, alpha: float, beta: float, q: int) -> float:
        self.nodes += 1
        if depth == 0 or s.phase == GAME_OVER:
            return evaluate(s, q)
        moves = s.legal_actions()
        if not moves:
            return evaluate(s, q)
        d = depth - 1
        base = Base(s) if d == 0 else None
        if len(moves) > 1 and A.kind(moves[0]) in A.CHANCE_ACTIONS:
            total = 0.0
            n = len(moves)
            for m in moves:
                total += (1.0 / n) * self.child_value(s, m, d, alpha, beta, q, base)
            return total
        if s.current_player() == q:
            best = NEG
            for m in moves:
                v = self.child_value(s, m, d, alpha, beta, q, base)
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
                if beta <= alpha:
                    break
            return best
        best = POS
        for m in moves:
            v = self.child_value(s, m, d, alpha, beta, q, base)
            if v < best:
                best = v
            if best < beta:
                beta = best
            if beta <= alpha:
                break
        return best



def bridge_search(state: GameState, depth: int, player: int) -> tuple[Action, int, int]:
    """The protocol's ``search`` command: ``(action, nodes, depth reached)`` (PROTOCOL.md §7)."""
    action, _value, nodes, reached = Expectimax(depth).search(state, player)
    return action, nodes, reached
