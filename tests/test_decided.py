"""A decided game (every move keeps the same chance, won or lost): the AI plays for points, then for the
tie-break (issue 50, "nothing for nothing")."""

from __future__ import annotations

import random

from ai import mcts
from ai.agents import make_agent
from ai.mcts import decided, group, standing
from ai.rewards import unfinished_reward
from amigos.config import GameConfig
from amigos.flow import pool_score
from amigos.setup import deal


def test_a_game_is_decided_when_every_move_keeps_the_same_chance_near_a_certain_loss_or_win():
    lost = {("a",): (10, 10 * unfinished_reward(0.005)), ("b",): (3, 3 * unfinished_reward(0.01))}
    won = {("a",): (10, 10 * unfinished_reward(0.995)), ("b",): (30, 30 * 0.95)}  # (0.95: a game won)
    assert decided(lost) and decided(won)
    open_game = {("a",): (10, 10 * unfinished_reward(0.4)), ("b",): (3, 3 * unfinished_reward(0.41))}
    one_way_out = {("a",): (10, 10 * unfinished_reward(0.001)), ("b",): (3, 3 * unfinished_reward(0.3))}
    assert not decided(open_game) and not decided(one_way_out)
    assert not decided({("a",): (10, 10 * unfinished_reward(0.0))})  # (one move: nothing to choose)


def late_positions(count: int) -> list:
    """Positions of random games from round 3 on where the mover has several moves."""
    out = []
    for seed in range(200):
        s = deal(seed, GameConfig())
        rng = random.Random(seed)
        while not s.is_terminal() and len(out) < count:
            if s.round >= 3 and len(group(s, True)) >= 3 and rng.random() < 0.1:
                out.append(s.clone())
            s.apply(rng.choice(s.legal_actions()))
        if len(out) >= count:
            return out
    return out


def test_in_a_decided_game_the_ai_plays_the_move_that_scores_most(monkeypatch):
    """Every root move valued as a lost game: the move played leaves the most points ahead of the best
    rival, then the most essences (Gold double), of all the moves."""
    def lost(self, state, player, progress=None):
        keys = group(state, True)
        return {k: (5, 5 * unfinished_reward(0.001)) for k in keys}, 5 * len(keys)

    monkeypatch.setattr(mcts.MCTSAgent, "root_stats", lost)
    checked = 0
    for s in late_positions(12):
        agent = make_agent("mcts:iters=10,seed=2,solo=0")  # (the search's own choice, not a plan's)
        p = s.current_player()
        action = agent.select(s)
        after = s.clone()
        after.apply(action)
        vp = after.victory_points()
        mine = (vp[p] - max(vp[q] for q in range(s.n_players) if q != p), pool_score(after, p))
        best = max(standing(s, agent.variant(s, ways), p) for ways in mcts.useful(s, group(s, True)).values())
        assert mine[0] == best[0], (mine, best)
        checked += 1
    assert checked >= 10
