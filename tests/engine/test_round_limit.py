"""The round limit (`amigos.adjudicate`): the victory check that ends round `ROUND_LIMIT` ends the game
and ranks the players as a check at 10 points would, on the position of that check (no essences of
the next round's Collect), and a match treats the result like any other."""

from __future__ import annotations

import pytest

import amigos
import amigos.setup as engine_setup
from ai.agents import make_agent
from amigos import actions as A
from amigos.adjudicate import ROUND_LIMIT, adjudicated
from amigos.codes import GAME_OVER
from amigos.config import GameConfig
from amigos.position import build_position
from matches.match import Match


def pass_turn(s) -> None:
    s.apply(next(a for a in s.legal_actions() if A.kind(a) == A.PASS))


def last_round(seat0: dict, seat1: dict, limit: int = 7):
    """Both players pass in round ``limit`` of a game limited to it; seat 0 passes first (and takes
    the First Player token, a point)."""
    s = build_position([dict({"mage": "alchemist", "item": "alchemy"}, **seat0),
                        dict({"mage": "seer", "item": "research"}, **seat1)],
                       round_number=limit, round_limit=limit)
    pass_turn(s)
    pass_turn(s)
    return s


def test_the_last_rounds_check_ends_the_game_on_points():
    s = last_round({"pool": {"elan": 1}}, {"pool": {"gold": 5}})
    assert s.is_terminal() and s.phase == GAME_OVER and s.round == 7
    assert s.victory_points() == [1, 0] and s.winners() == [0] and adjudicated(s)
    assert s.legal_actions() == []


def test_equal_points_go_to_the_pool_with_gold_counting_double():
    # Seat 1's Ring of Midas is the point seat 0's token is; 2 Gold (4) beat 3 Elan.
    s = last_round({"pool": {"elan": 3}}, {"pool": {"gold": 2}, "in_play": ["ring_of_midas"]})
    assert s.victory_points() == [1, 1] and s.winners() == [1]


def test_equal_points_and_pools_share_the_victory():
    s = last_round({"pool": {"elan": 2}}, {"pool": {"gold": 1}, "in_play": ["ring_of_midas"]})
    assert s.victory_points() == [1, 1] and s.winners() == [0, 1] and adjudicated(s)


def test_no_essences_of_the_next_collect_are_taken():
    # Flaming Pit and the Seer would collect in the next round; the game ends before it.
    s = last_round({"pool": {"elan": 1}, "in_play": ["flaming_pit"]}, {"pool": {"life": 1}})
    assert s.pool_of(0) == (1, 0, 0, 0, 0) and s.pool_of(1) == (0, 1, 0, 0, 0)


def test_without_a_limit_the_game_goes_on_to_the_next_round():
    s = build_position([{"mage": "alchemist", "item": "alchemy"}, {"mage": "seer", "item": "research"}],
                       round_number=ROUND_LIMIT)
    pass_turn(s)
    pass_turn(s)
    assert not s.is_terminal() and s.round == ROUND_LIMIT + 1


def test_a_ten_point_win_at_the_last_check_is_not_adjudicated():
    s = last_round({"in_play": ["fire_dragon", "earth_dragon"], "monuments": ["temple", "great_pyramid", "colossus"]},
                   {"pool": {"gold": 9}})
    assert s.is_terminal() and s.winners() == [0] and s.victory_points()[0] >= 10 and not adjudicated(s)


def test_games_dealt_by_new_game_have_the_limit_and_set_up_ones_not():
    assert amigos.new_game(3).round_limit == ROUND_LIMIT
    assert build_position([{"mage": "alchemist"}]).round_limit == 0
    assert amigos.new_game(3).clone().round_limit == ROUND_LIMIT


@pytest.fixture
def short_games(monkeypatch):
    """Games of a match end after two rounds (random agents never reach 10 points that fast)."""
    monkeypatch.setattr(engine_setup, "ROUND_LIMIT", 2)


def play_game_1(seed: int, variant: str = "standard") -> Match:
    """A match with game 1 played by random agents, waiting for game 2's first decision."""
    m = Match.new(seed, ["random", "random"], GameConfig.parse(variant))
    agent = make_agent("random", seed=seed)
    while m.game_number == 1:
        m.to_act()
        if m.game_number == 1:
            m.decide(agent.select(m.state))
    m.to_act()
    return m


def test_the_loser_of_a_game_decided_at_the_limit_chooses_who_starts_the_next(short_games):
    decided = 0
    for seed in range(12):
        m = play_game_1(seed)
        result = m.record["games"][0]["result"]
        assert result["rounds"] == 2 and result.get("adjudicated")
        if len(result["winners"]) == 1:
            decided += 1
            assert m.state.current_player() == 1 - result["winners"][0]  # choosing who starts game 2
    assert decided >= 6


def test_games_2_and_3_of_a_first_game_match_deal_random_sides(short_games):
    sides = set()
    for seed in range(6):
        s = play_game_1(seed, "first_game").state
        sides.add(tuple(sorted(c.id for c in s.cards if c.kind == amigos.cards.PLACE_OF_POWER)))
    assert len(sides) >= 4  # with the first-game sides, every game 2 had the same five
