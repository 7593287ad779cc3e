"""The MCTS leaf evaluation: the reference evaluation plus what it leaves out, the worth of an engine.

The reference evaluation (victory points, pool, hand) makes placing an artifact look like a loss: the
essences paid leave the pool and the card leaves the hand, while nothing counts the artifact's future
income.  Here every component in play is also worth a share of what it cost and of what it collects
each round, discounted by how close the game is to its end (no future, no worth).  And a hoard of one
essence is worth little beyond the first few: counted linearly, a pile of Calm would be worth more than
turning it into Gold and points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, cast

from amigos import cards as C
from amigos.adjudicate import WINNING_POINTS
from amigos.codes import IN_PLAY

from .evaluate import HAND_WEIGHT

if TYPE_CHECKING:
    from amigos.state import GameState

# Essences in the pool: Gold is the monuments' currency; of each other kind the first few are worth
# what they buy, a hoard beyond that little (without this the search hoards instead of converting).
GOLD: Final = 0.26
ESSENCE: Final = 0.13
SATURATE: Final = 5
EXCESS: Final = 0.03
# What the First Player token is worth while nobody is near a win: its point cannot decide a check
# yet, and the tempo of leading the next round does not pay for passing early.  Passing first moves
# the token, a swing of twice its worth, so any worth here soon outweighs placing an artifact (the
# values tried: lab/README.md, "Design notes from experiments").
FIRST_PLAYER_EARLY: Final = 0.0
# The points from which someone may win at this round's victory check: from then on the token's point
# counts in full.
NEAR_WIN: Final = WINNING_POINTS - 2


def power_income(pw: C.Power) -> int:
    """Essences an action power makes each round beyond what it costs (0 for one that destroys or
    discards something, or takes from a rival): a power like Magical Shard's is income like a collect
    ability's: counted only as "a power", a free producer would be worth less in play than in hand."""
    if pw.kind != C.ACTION or pw.destroy or pw.remove_self or pw.discard_hand:
        return 0
    made = sum(pw.gain_pool) + sum(pw.store) + pw.mix_count
    for eff in pw.effects:
        if eff[0] == "rivals_gain":
            made -= sum(eff[1])  # what the rivals get is lost to the lead
    return max(0, made - sum(pw.pay) - pw.pay_any)


# Per-card worth in play beyond printed points, precomputed once: a share of the placement cost and
# of the essences it makes each round (collected, or by its best action power), plus a little for
# having powers at all.
_WORTH: list[float] | tuple[float, ...] = []
for _c in C.CARDS:
    income = sum(_c.collect) + (_c.collect_choice[0] if _c.collect_choice else 0)
    if _c.collect_special:
        income += 1
    income += max((power_income(p) for p in _c.powers), default=0)
    powers = sum(1 for p in _c.powers if p.kind == C.ACTION)
    cast("list[float]", _WORTH).append(  # a list until made a tuple below
        0.10 * (_c.cost_total if _c.kind == C.ARTIFACT else 0) + 0.35 * income + 0.25 * powers)
_WORTH = tuple(_WORTH)


def essence_worth(pool: Sequence[int], b: int) -> float:
    """What the five essences ``pool[b:b+5]`` are worth in points: `essences_worth`."""
    return essences_worth((pool[b], pool[b + 1], pool[b + 2], pool[b + 3], pool[b + 4]))


def essences_worth(have: C.Essences) -> float:
    """What five essences are worth in points (see GOLD, ESSENCE, SATURATE, EXCESS)."""
    x0, x1, x2, x3, x4 = have
    value = GOLD * x4
    top = ESSENCE * SATURATE  # (each non-Gold essence beyond SATURATE is worth only EXCESS)
    value += ESSENCE * x0 if x0 <= SATURATE else top + EXCESS * (x0 - SATURATE)
    value += ESSENCE * x1 if x1 <= SATURATE else top + EXCESS * (x1 - SATURATE)
    value += ESSENCE * x2 if x2 <= SATURATE else top + EXCESS * (x2 - SATURATE)
    value += ESSENCE * x3 if x3 <= SATURATE else top + EXCESS * (x3 - SATURATE)
    return value


def player_values(state: GameState, vp: Sequence[float], hand: Sequence[float], horizon: float) -> list[float]:
    """Every player's worth: reference score (points ``vp``, ``hand`` cards, essences) plus the
    engine's worth scaled by ``horizon`` in [0, 1].

    Essences on a player's components count as if in the pool (they can be taken into it at the next
    Collect), except on a place of power that scores them: there they are already points.  Counting
    the pool only would make every "put essences on this" power (Necromancer, Ring of Midas, ...) look
    like a pure loss, since a rollout stops before the next Collect."""
    n = state.n_players
    pool = state.pool
    have = pool[:5 * n]
    engine = [0.0] * n
    loc, owner, cards, ess, worth = state.loc, state.owner, state.cards, state.ess, _WORTH
    for e in range(len(loc)):
        if loc[e] == IN_PLAY:
            p = owner[e]
            card = cards[e]
            engine[p] += worth[card.idx]
            x = 5 * e
            if card.vp_per_essence is None and (ess[x] or ess[x + 1] or ess[x + 2] or ess[x + 3] or ess[x + 4]):
                b = 5 * p
                for k in range(5):
                    have[b + k] += ess[x + k]
    return [vp[p] + essence_worth(have, 5 * p) + HAND_WEIGHT * hand[p] + horizon * engine[p] for p in range(n)]


def player_worths(state: GameState) -> list[float]:
    """Each player's worth in points by the hand-tuned value (what `heuristic_value` compares)."""
    points, hand = state.scores()
    vp: list[float] = [float(x) for x in points]
    # The nearer anyone is to winning, the less future income is worth.
    horizon = max(0.0, 1.0 - max(vp) / WINNING_POINTS)
    # The First Player token's point only counts at a check someone can win; until then it is worth
    # FIRST_PLAYER_EARLY.
    if max(vp) < NEAR_WIN:
        vp[state.first_player] -= 1.0 - FIRST_PLAYER_EARLY
    return player_values(state, vp, hand, horizon)


def heuristic_value(state: GameState, q: int) -> float:
    """The leaf value for ``q``: own worth minus the best rival's."""
    values = player_worths(state)
    mine = values[q]
    if state.n_players == 1:
        return mine
    return mine - max(values[o] for o in range(state.n_players) if o != q)


def card_value(card: C.Card) -> float:
    """A static worth of an artifact (or mage) in points: printed points, a share of its cost and of
    what it makes each round, and something for each power."""
    return card.points + _WORTH[card.idx]
