"""A leaf where the player to move may end the game by passing is judged by the victory check, not the
value (`ai.mcts.round_end`; issue 50, "the last round, proven")."""

from __future__ import annotations

from ai import mcts as M
from ai.agents import make_agent
from ai.planner import alone
from ai.rewards import final_rewards
from amigos.actions import PASS, kind
from amigos.adjudicate import WINNING_POINTS
from amigos.config import GameConfig
from amigos.setup import deal


def positions(count: int, keep=None) -> list:
    """Positions of quick self-play games where the mover may pass, some rival has passed, and someone
    has enough points to win at a check (and ``keep(position)`` says so, if given)."""
    out = []
    for seed in range(300):
        s = deal(seed, GameConfig())
        agents = [make_agent("mcts:iters=20,solo=0", seed=seed + p) for p in range(2)]
        while not s.is_terminal():
            p = s.current_player()
            if any(s.passed) and max(s.victory_points()) >= WINNING_POINTS - 1 and \
                    any(kind(a) == PASS for a in s.legal_actions()) and (keep is None or keep(s)):
                out.append(s.clone())
                if len(out) >= count:
                    return out
            s.apply(agents[p].select(s))
    return out


def test_the_end_of_the_round_is_judged_by_the_victory_check():
    """Where every rival has passed and the check can end the game, `round_end` gives the finished game's
    rewards after the mover's pass (whoever wins it); nowhere else does it give anything."""
    ended = 0
    for s in positions(40):
        p = s.current_player()
        end = M.round_end(s)
        after = s.clone()
        after.apply(next(a for a in after.legal_actions() if kind(a) == PASS))
        while not after.is_terminal() and after.round == s.round and len(after.legal_actions()) == 1:
            after.apply(after.legal_actions()[0])
        if not alone(s, p) or max(s.victory_points()) < WINNING_POINTS:
            assert end is None
        elif after.is_terminal():
            assert end == final_rewards(after)
            ended += 1
        else:
            assert end is None  # (nobody won at the check: the game goes on)
    assert ended >= 3


def test_a_search_where_passing_wins_keeps_the_win():
    """Alone and able to win by passing, the search (with the plan off) may play on for more points
    first, but the round it plays to its end is won."""
    found = 0
    for s in positions(4, lambda s: (M.round_end(s) or [0.0] * 2)[s.current_player()] > 0.5):
        p = s.current_player()
        agent = make_agent("mcts:iters=200,solo=0,seed=3")
        game = s.clone()
        while not game.is_terminal() and game.round == s.round:
            game.apply(agent.select(game))
        assert game.is_terminal() and game.winners() == [p]
        found += 1
    assert found == 4
