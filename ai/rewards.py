"""What a position is worth to each player, as the search's leaves and finished games are scored.

Every function returns a list of rewards in [0, 1], one a player, that sum to 1.  A finished game is
worth 1 to its winner, a little less for a narrow win (`final_rewards`), so that a won position still
prefers more points; an unfinished one lies strictly between a lost and a won game
(`unfinished_rewards`): each player's chance of winning by the learned value (`learned_rewards`), or by
the hand-tuned evaluation (`rewards`, the search's ``value=hand``).  With three players or more a value
that rates each player on its own (a score s_p) gives the chances as Plackett-Luce's first place does,
exp(s_p) over the sum of all exp(s_q) (`chances`): with two it is the logistic of s_0 - s_1, the two-player
value itself.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from .features import player_features
from .learned import progress
from .value import heuristic_value, player_worths

if TYPE_CHECKING:
    from amigos.state import GameState

    from .learned import ValueModel
    from .network import ValueNet

SCALE: Final = 3.0  # evaluation points for which a rollout's reward is 1/(1+e^-1) ~ 0.73
# A finished game: 1 for the winner less up to WIN_MARGIN for a narrow win (so that a won position
# still prefers more points to fewer), the rest to the loser.
WIN_MARGIN: Final = 0.1
MARGIN_FULL: Final = 4  # points of margin that earn the whole reward
# An unfinished game's value lies between a lost and a won one's: a game won is worth more than any
# estimate of one still being played, and one lost less.
UNFINISHED_LOW: Final = WIN_MARGIN
UNFINISHED_RANGE: Final = 1.0 - 2 * WIN_MARGIN


def final_rewards(state: GameState) -> list[float]:
    """Each player's reward for a finished game: a win is worth 1 - WIN_MARGIN at a margin of one point
    and 1 at MARGIN_FULL points or more; a loser gets what the winner does not; a shared win 1/winners."""
    n = state.n_players
    won = state.winners()
    if len(won) != 1:
        return [1.0 / len(won) if p in won else 0.0 for p in range(n)]
    vp = state.victory_points()
    w = won[0]
    margin = vp[w] - max(vp[p] for p in range(n) if p != w)
    top = 1.0 - WIN_MARGIN + WIN_MARGIN * min(1.0, max(0, margin) / MARGIN_FULL)
    return [top if p == w else (1.0 - top) / (n - 1) for p in range(n)]


def learned_rewards(state: GameState, model: ValueModel) -> list[float]:
    """Each player's reward in [0, 1]: `final_rewards` for a finished game, else the chances of winning
    by the linear learned value ``model`` (`ai.learned`) as `unfinished_rewards`."""
    if state.is_terminal():
        return final_rewards(state)
    rows = player_features(state)
    g = progress(rows)
    n = state.n_players
    if n == 2:
        p0 = unfinished_reward(model.probability(rows, 0, g))
        return [p0, 1.0 - p0]
    return unfinished_rewards(chances(model.scores(rows, g)))


def net_rewards(state: GameState, net: ValueNet, viewer: int) -> list[float]:
    """Each player's reward in [0, 1] as ``viewer`` sees the position: `final_rewards` for a finished
    game, else the neural value's chance that ``viewer`` wins (`ai.network`) as `unfinished_reward`,
    the rest to the rival (two players).  With more players ``state`` is a world dealt for the viewer:
    each player's chance from their own view of it, shared out in proportion (`unfinished_rewards`)."""
    if state.is_terminal():
        return final_rewards(state)
    n = state.n_players
    if n > 2:
        rows = player_features(state) if net.needs_rows else []  # (once for every player's view)
        odds = [net.probability(state, q, rows) for q in range(n)]
        total = sum(odds)
        return unfinished_rewards([x / total for x in odds] if total > 0 else [1.0 / n] * n)
    mine = unfinished_reward(net.probability(state, viewer))
    return [mine, 1.0 - mine] if viewer == 0 else [1.0 - mine, mine]


def unfinished_reward(chance: float) -> float:
    """The reward of a two-player game still being played that its player wins with probability
    ``chance`` (`unfinished_rewards` of ``[chance, 1 - chance]``, written out for the search's hot path)."""
    return UNFINISHED_LOW + UNFINISHED_RANGE * chance


def unfinished_rewards(shares: list[float]) -> list[float]:
    """The rewards of a game still being played whose players win with probabilities ``shares`` (summing
    to 1): each between a lost game's most (WIN_MARGIN shared among the losers) and a won game's least
    (1 - WIN_MARGIN), and summing to 1."""
    low = WIN_MARGIN / (len(shares) - 1)
    spread = 1.0 - len(shares) * low
    return [low + spread * share for share in shares]


def chances(scores: list[float]) -> list[float]:
    """Each player's chance of winning from a score each (log-odds scale): exp(s_p) over the sum of
    exp(s_q), the first place of a Plackett-Luce model (with two players, the logistic of s_0 - s_1)."""
    top = max(scores)
    weights = [math.exp(max(-60.0, x - top)) for x in scores]
    total = sum(weights)
    return [w / total for w in weights]


def chance_of_reward(reward: float, players: int = 2) -> float:
    """The chance of winning a reward stands for in a game of ``players``: the inverse of
    `unfinished_rewards` (`unfinished_reward` with two), a finished game's reward clipped to a certain
    win or loss."""
    if players == 2:
        return min(1.0, max(0.0, (reward - UNFINISHED_LOW) / UNFINISHED_RANGE))
    low = WIN_MARGIN / (players - 1)
    return min(1.0, max(0.0, (reward - low) / (1.0 - players * low)))


def rewards(state: GameState) -> list[float]:
    """Each player's reward in [0, 1] by the hand-tuned value: 1 for a win (split on a shared win), else
    the squashed evaluation."""
    n = state.n_players
    if state.is_terminal():
        won = state.winners()
        return [1.0 / len(won) if p in won else 0.0 for p in range(n)]
    if n == 1:
        return [1.0 / (1.0 + math.exp(-heuristic_value(state, 0) / SCALE))]
    if n == 2:  # the value for one player is minus the value for the other
        r0 = 1.0 / (1.0 + math.exp(-heuristic_value(state, 0) / SCALE))
        return [r0, 1.0 - r0]
    return chances([x / SCALE for x in player_worths(state)])
