"""Moves that do nothing but spend: never the AI's choice, nor its hint's.

A move is futile when the position it leaves (once the game has run on to the next decision: a victory
check it calls resolved, the turn passed on) differs from the one before only by what its mover lost: essences from their pool or from
their own components, their components turned, their own components gone from play, their points
down, and nothing else anywhere (no card moved otherwise, no essence gained or given, nobody else
touched, nothing learned, no choice opened).  Straightening a component that is straight already, a
power whose gain is nothing, destroying a Dragon Egg with no Dragon to place: each costs a turn's
action and gives nothing.  A pass is never futile (it ends the mover's round).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from amigos import actions as A
from amigos.actions import PASS
from amigos.cards import ESSENCES
from amigos.codes import DISCARD, IN_PLAY, OUT_OF_GAME
from amigos.config import Action
from amigos.state import GameState

KINDS = len(ESSENCES)  # the essences a pool and a component hold, in this order
K = TypeVar("K")


def futile(state: GameState, action: Action) -> bool:
    """Whether ``action``, legal in ``state``, only spends (see the module docstring)."""
    if A.kind(action) == PASS:
        return False
    after = state.clone()
    after.apply_unchecked(action)
    p = A.player(action)
    if (after.phase != state.phase or after.round != state.round or after.won != state.won
            or after.stack != state.stack or after.temp_vp != state.temp_vp or after.order != state.order
            or after.known_decks != state.known_decks or after.mon_seer != state.mon_seer
            or after.first_player != state.first_player or after.passed != state.passed):
        return False
    for e in range(len(state.loc)):
        if not _only_lost(state, after, e, p):
            return False
    for q in range(state.n_players):
        for k in range(q * KINDS, q * KINDS + KINDS):
            if after.pool[k] > state.pool[k] or (q != p and after.pool[k] != state.pool[k]):
                return False
    return after.vp(p) <= state.vp(p)


def _only_lost(before: GameState, after: GameState, e: int, p: int) -> bool:
    """Component ``e`` is as it was, or only lost something of mover ``p``'s: essences on it, its
    straight side, its place in play."""
    mine = before.owner[e] == p
    if after.owner[e] != before.owner[e]:
        return False
    if after.loc[e] != before.loc[e] and not (mine and before.loc[e] == IN_PLAY
                                             and after.loc[e] in (DISCARD, OUT_OF_GAME)):
        return False
    if after.turned[e] != before.turned[e] and not (mine and after.turned[e] > before.turned[e]):
        return False
    for k in range(e * KINDS, e * KINDS + KINDS):
        if after.ess[k] > before.ess[k] or (not mine and after.ess[k] != before.ess[k]):
            return False
    return True


def useful(state: GameState, groups: dict[K, Sequence[Action]]) -> dict[K, Sequence[Action]]:
    """``groups`` (a position's moves, each with its ways) without the futile ways, and without the
    moves left with none; all of them if every move is futile (a pass is never)."""
    out: dict[K, Sequence[Action]] = {}
    for key, ways in groups.items():
        kept = [a for a in ways if not futile(state, a)]
        if kept:
            out[key] = kept if len(kept) < len(ways) else ways
    return out or groups
