"""The round limit: a game that will not end by itself is decided the way a victory check ranks players.

Agents that repeat the same turns forever (two greedy players hoarding essences, say) never reach 10
points.  Every caller that plays games to the end -- matches, tournaments, strength runs -- stops a game
still going after `ROUND_LIMIT` rounds and calls `adjudicate`.
"""

from __future__ import annotations

ROUND_LIMIT = 100


def over_limit(state) -> bool:
    """True when ``state`` is a game still going after `ROUND_LIMIT` rounds."""
    return not state.is_terminal() and state.round > ROUND_LIMIT


def adjudicate(state) -> list[int]:
    """The winners by the victory check's order: most points, then the pool with Gold counting double;
    equal on both is a shared victory."""
    vp = state.victory_points()

    def pool(p):
        v = state.pool_of(p)
        return v[0] + v[1] + v[2] + v[3] + 2 * v[4]

    best = max((vp[p], pool(p)) for p in range(state.np))
    return [p for p in range(state.np) if (vp[p], pool(p)) == best]
