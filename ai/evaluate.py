"""The evaluation the reference search uses (conformance/PROTOCOL.md §7.2), bit for bit.

S(x) = VP(x) + 0.24 x Gold + 0.12 x (Elan + Life + Calm + Death) + 0.25 x cards in hand, pool only,
summed left to right in IEEE doubles; E = S(q) - max over rivals S(o); +-10000 when the game is over.
The weights are `GOLD_WEIGHT`, `ESSENCE_WEIGHT` and `HAND_WEIGHT`, here and wherever S is computed
(`ai.leaf`; `ai.value` counts hand cards by `HAND_WEIGHT` too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from amigos.codes import GAME_OVER

if TYPE_CHECKING:
    from amigos.state import GameState

WIN: Final = 10000.0
GOLD_WEIGHT: Final = 0.24     # a Gold in the pool, in victory points
ESSENCE_WEIGHT: Final = 0.12  # an Elan, Life, Calm or Death in the pool
HAND_WEIGHT: Final = 0.25     # a card in hand


def score(state: GameState, p: int) -> float:
    """S(p): victory points plus weighted pool essences and cards in hand."""
    vp, hand = state.scores()
    return _s(state.pool, p, vp[p], hand[p])


def _s(pool: Sequence[int], p: int, vp: float, hand: float) -> float:
    """S of player ``p`` with ``vp`` points and ``hand`` cards, its essences ``pool[5p:5p+5]``."""
    b = 5 * p
    return (vp + GOLD_WEIGHT * pool[b + 4] + ESSENCE_WEIGHT * (pool[b] + pool[b + 1] + pool[b + 2] + pool[b + 3])
            + HAND_WEIGHT * hand)


def evaluate(state: GameState, q: int) -> float:
    """E(state) for the maximising player ``q``."""
    if state.phase == GAME_OVER:
        return WIN if q in state.won else -WIN
    vp, hand = state.scores()
    pool = state.pool
    mine = _s(pool, q, vp[q], hand[q])
    if state.n_players == 1:
        return mine
    best: float | None = None
    for o in range(state.n_players):
        if o != q:
            v = _s(pool, o, vp[o], hand[o])
            if best is None or v > best:
                best = v
    assert best is not None  # two players or more: some rival was scored
    return mine - best
