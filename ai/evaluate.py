"""The evaluation the reference search uses (conformance/PROTOCOL.md §7.2), bit for bit.

S(x) = VP(x) + 0.24 x Gold + 0.12 x (Elan + Life + Calm + Death) + 0.25 x cards in hand, pool only,
summed left to right in IEEE doubles; E = S(q) - max over rivals S(o); +-10000 when the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amigos.state import GameState

WIN = 10000.0


def score(state: GameState, p: int) -> float:
    """S(p): victory points plus weighted pool essences and cards in hand."""
    vp, hand = state.scores()
    return _s(state.pool, p, vp[p], hand[p])


def _s(pool: Sequence[int], p: int, vp: float, hand: float) -> float:
    b = 5 * p
    return vp + 0.24 * pool[b + 4] + 0.12 * (pool[b] + pool[b + 1] + pool[b + 2] + pool[b + 3]) + 0.25 * hand


def evaluate(state: GameState, q: int) -> float:
    """E(state) for the maximising player ``q``."""
    if state.phase == 6:  # GAME_OVER
        return WIN if q in state.won else -WIN
    vp, hand = state.scores()
    pool = state.pool
    mine = _s(pool, q, vp[q], hand[q])
    if state.np == 1:
        return mine
    best: float | None = None
    for o in range(state.np):
        if o != q:
            v = _s(pool, o, vp[o], hand[o])
            if best is None or v > best:
                best = v
    assert best is not None  # np >= 2: some rival was scored
    return mine - best
