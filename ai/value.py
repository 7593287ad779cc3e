"""The MCTS leaf evaluation: the reference evaluation plus what it leaves out, the worth of an engine.

The reference evaluation (victory points, pool, hand) makes placing an artifact look like a loss: the
essences paid leave the pool and the card leaves the hand, while nothing counts the artifact's future
income.  Here every component in play is also worth a share of what it cost and of what it collects
each round, discounted by how close the game is to its end (no future, no worth).
"""

from __future__ import annotations

from amigos import cards as C

IN_PLAY, HAND = 5, 4

# Per-card worth in play beyond printed points, precomputed once: a share of the placement cost and
# of the essences collected each round, plus a little for having powers at all.
_WORTH = []
for _c in C.CARDS:
    income = sum(_c.collect) + (_c.collect_choice[0] if _c.collect_choice else 0)
    if _c.collect_special:
        income += 1
    powers = sum(1 for p in _c.powers if p.kind == C.ACTION)
    _WORTH.append(0.10 * (_c.cost_total if _c.kind == C.ARTIFACT else 0) + 0.35 * income + 0.25 * powers)
_WORTH = tuple(_WORTH)


def player_value(state, p: int, vp: int, hand: int, horizon: float) -> float:
    """One player's worth: reference score plus the engine's worth scaled by ``horizon`` in [0, 1]."""
    pool = state.pool
    b = 5 * p
    value = vp + 0.24 * pool[b + 4] + 0.12 * (pool[b] + pool[b + 1] + pool[b + 2] + pool[b + 3]) + 0.25 * hand
    engine = 0.0
    loc, owner, cards = state.loc, state.owner, state.cards
    for e in range(len(loc)):
        if loc[e] == IN_PLAY and owner[e] == p:
            engine += _WORTH[cards[e].idx]
    return value + horizon * engine


def heuristic_value(state, q: int) -> float:
    """The leaf value for ``q``: own worth minus the best rival's."""
    vp, hand = state.scores()
    # The nearer anyone is to 10 points, the less future income is worth.
    horizon = max(0.0, 1.0 - max(vp) / 10.0)
    # The First Player token's point only counts at a check someone can win; until then it is worth
    # the tempo of leading the next round.
    if max(vp) < 8:
        vp = vp[:]
        vp[state.fp] -= 0.5
    mine = player_value(state, q, vp[q], hand[q], horizon)
    if state.np == 1:
        return mine
    return mine - max(player_value(state, o, vp[o], hand[o], horizon) for o in range(state.np) if o != q)
