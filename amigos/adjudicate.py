"""The round limit: a game that will not end by itself is decided the way a victory check ranks players.

Agents that repeat the same turns forever (two greedy players hoarding essences, say) never reach 10
points.  Games dealt by `amigos.new_game` and `amigos.next_game` therefore end at the victory check
of round `ROUND_LIMIT` even without 10 points: that check ranks the players as it would at 10 (most
points, then the pool with Gold counting double; equal on both is a shared victory).  A game set up
from explicit cards (the bridge's ``ResolveGameSetup``, as the reference engine) has no limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .state import GameState

ROUND_LIMIT: Final = 100
#: The points that end the game at a victory check (rules.md §11.5).
WINNING_POINTS: Final = 10


def adjudicated(state: GameState) -> bool:
    """True when ``state`` is a game that ended at the round limit rather than with 10 points."""
    return state.is_terminal() and max(state.victory_points()) < WINNING_POINTS
