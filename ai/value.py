"""The MCTS leaf evaluation: the reference evaluation plus what it leaves out, the worth of an engine.

The reference evaluation (victory points, pool, hand) makes placing an artifact look like a loss: the
essences paid leave the pool and the card leaves the hand, while nothing counts the artifact's future
income.  Here every component in play is also worth a share of what it cost and of what it collects
each round, discounted by how close the game is to its end (no future, no worth).  And a hoard of one
essence is worth little beyond the first few: counted linearly, twenty Calm looked better than
turning them into Gold and points, and the search sat on them for rounds.
"""

from __future__ import annotations

from amigos import cards as C

IN_PLAY, HAND = 5, 4

# Essences in the pool: Gold is the monuments' currency; of each other kind the first few are worth
# what they buy, a hoard beyond that little (without this the search hoards instead of converting).
GOLD, ESSENCE, SATURATE, EXCESS = 0.26, 0.13, 5, 0.03

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


def essence_worth(pool, b: int) -> float:
    """What the five essences ``pool[b:b+5]`` are worth in points (see GOLD, ESSENCE, SATURATE, EXCESS)."""
    value = GOLD * pool[b + 4]
    for k in range(b, b + 4):
        x = pool[k]
        value += ESSENCE * x if x <= SATURATE else ESSENCE * SATURATE + EXCESS * (x - SATURATE)
    return value


def player_value(state, p: int, vp: int, hand: int, horizon: float) -> float:
    """One player's worth: reference score plus the engine's worth scaled by ``horizon`` in [0, 1]."""
    value = vp + essence_worth(state.pool, 5 * p) + 0.25 * hand
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
