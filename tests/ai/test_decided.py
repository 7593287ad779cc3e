"""A decided game (every move keeps the same chance, won or lost): the AI plays for points, then for the
tie-break (issue 50, "nothing for nothing")."""

from __future__ import annotations

import random

import pytest

from ai import mcts
from ai.agents import make_agent
from ai.mcts import decided, group, standing
from ai.rewards import chance_of_reward, unfinished_reward, unfinished_rewards
from amigos.config import GameConfig
from amigos.setup import deal


def test_a_game_is_decided_when_every_move_keeps_the_same_chance_near_a_certain_loss_or_win():
    lost = {("a",): (10, 10 * unfinished_reward(0.005)), ("b",): (3, 3 * unfinished_reward(0.01))}
    won = {("a",): (10, 10 * unfinished_reward(0.995)), ("b",): (30, 30 * 0.95)}  # (0.95: a game won)
    assert decided(lost) and decided(won)
    open_game = {("a",): (10, 10 * unfinished_reward(0.4)), ("b",): (3, 3 * unfinished_reward(0.41))}
    one_way_out = {("a",): (10, 10 * unfinished_reward(0.001)), ("b",): (3, 3 * unfinished_reward(0.3))}
    assert not decided(open_game) and not decided(one_way_out)
    assert not decided({("a",): (10, 10 * unfinished_reward(0.0))})  # (one move: nothing to choose)


def test_with_more_players_a_small_share_of_the_win_is_no_decided_game():
    """Three players share their rewards out (`unfinished_rewards`): 5% of the win is a reward the
    two-player reading takes for a certain loss; read for three players it is 5% and the game goes on."""
    for players in (3, 4, 5):
        for share in (0.0, 0.05, 0.3, 0.9):
            shares = [share] + [(1 - share) / (players - 1)] * (players - 1)
            assert chance_of_reward(unfinished_rewards(shares)[0], players) == pytest.approx(share)
    behind = [unfinished_rewards([share, 0.5, 0.5 - share])[0] for share in (0.05, 0.06)]
    stats = {("a",): (10, 10 * behind[0]), ("b",): (10, 10 * behind[1])}
    assert decided(stats) and not decided(stats, 3)  # (the two-player reading was the AI's before)
    lost = [unfinished_rewards([share, 0.5, 0.5 - share])[0] for share in (0.001, 0.005)]
    assert decided({("a",): (10, 10 * lost[0]), ("b",): (10, 10 * lost[1])}, 3)


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


def test_in_a_decided_game_the_ai_plays_the_move_that_scores_most():
    """Every root move valued as a lost game: the move played leaves the most points ahead of the best
    rival of all the moves; in an open game, the most visited."""
    checked = 0
    for s in late_positions(12):
        agent = make_agent("mcts:iters=10,seed=2")
        p = s.current_player()
        groups = mcts.useful(s, group(s, True))
        lost = {k: (5 + i, (5 + i) * unfinished_reward(0.001)) for i, k in enumerate(groups)}
        key = agent.best_of(s, groups, lost, p)
        after = s.clone()
        after.apply(agent.variant(s, groups[key]))
        vp = after.victory_points()
        mine = vp[p] - max(vp[q] for q in range(s.n_players) if q != p)
        best = max(standing(s, agent.variant(s, ways), p)[0] for ways in groups.values())
        assert mine == best, (mine, best)
        open_game = {k: (5 + i, (5 + i) * unfinished_reward(0.5)) for i, k in enumerate(groups)}
        assert agent.best_of(s, groups, open_game, p) == list(groups)[-1]  # (the most visited)
        checked += 1
    assert checked >= 10
