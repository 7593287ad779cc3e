"""The rest of a round a player plays alone (`ai.planner`): the plan's value against a brute-force
search of the same moves, the agent planning exactly where every rival has passed, and never peeking
(issue 50, "the rest of the round, exactly")."""

from __future__ import annotations

import random

import pytest

from ai.agents import make_agent
from ai.evaluator import LINEAR, default_evaluator, packaged_model
from ai.planner import WON, Planner, alone, moves, plan_round
from ai.rewards import learned_rewards
from amigos.actions import PASS, kind
from amigos.codes import DECK, HAND
from amigos.config import GameConfig
from amigos.determinize import Determinizer
from amigos.setup import deal
from tests.helpers import DATA, hidden_twin

LINEAR_EVALUATOR = default_evaluator(LINEAR)  # (the linear learned value: what the plans here are made with)


def solo_positions(count: int, players: int = 2, spec: str = "mcts:iters=20,solo=0,value=linear") -> list:
    """Positions of games of quick searches where the mover plays alone (every rival has passed) and has
    a real choice, each rival still holding hidden cards."""
    out = []
    for seed in range(300):
        s = deal(seed, GameConfig(players=players))
        agents = [make_agent(spec, seed=seed + p) for p in range(players)]
        while not s.is_terminal():
            p = s.current_player()
            rivals_hidden = all(any(s.owner[e] == q and s.loc[e] in (HAND, DECK) for e in range(s.n_art))
                                for q in range(players) if q != p)
            if alone(s, p) and len(moves(s, LINEAR_EVALUATOR)) >= 3 and rivals_hidden:
                out.append(s.clone())
                if len(out) >= count:
                    return out
            s.apply(agents[p].select(s))
    return out


def value_of(player: int):
    return lambda s: learned_rewards(s, packaged_model())[player]


def brute(s, planner: Planner) -> float:
    """The best value of the rest of the round from ``s`` by trying every line of moves: no table, no
    budget."""
    while not planner.stops(s) and len(s.legal_actions()) == 1:
        s.apply_unchecked(s.legal_actions()[0])
    if planner.stops(s):
        return planner.value(s)
    top = -1.0
    for _, action in moves(s, planner.evaluator):
        child = s.clone()
        child.apply_unchecked(action)
        top = max(top, brute(child, planner))
    return top


@pytest.fixture(scope="module")
def solos() -> list:
    return solo_positions(12)


def test_alone_means_every_rival_has_passed_and_the_mover_has_not(solos):
    assert len(solos) >= 8
    for s in solos:
        p = s.current_player()
        assert all(s.passed[q] for q in range(s.n_players) if q != p) and not s.passed[p]
    fresh = deal(1, GameConfig())
    assert not alone(fresh, fresh.current_player())


def test_the_plan_finds_the_brute_force_best_on_small_positions(solos):
    compared = 0
    for s in solos:
        p = s.current_player()
        world = Determinizer(s, p).deal(5)
        planner = Planner(p, value_of(p), LINEAR_EVALUATOR, budget=60)
        planned = planner.first_moves(world.clone())
        if planned is None:
            continue  # (too large for a brute force too)
        checker = Planner(p, value_of(p), LINEAR_EVALUATOR)
        checker.round = world.round
        assert max(v for _, v in planned.values()) == pytest.approx(brute(world.clone(), checker))
        compared += 1
    assert compared >= 5


def test_a_plan_over_its_budget_gives_up(solos):
    p = solos[0].current_player()
    world = Determinizer(solos[0], p).deal(5)
    assert plan_round([world], p, value_of(p), LINEAR_EVALUATOR, budget=0) is None
    planned = plan_round([world, Determinizer(solos[0], p).deal(6)], p, value_of(p), LINEAR_EVALUATOR, budget=10_000)
    assert planned is not None and all(a in solos[0].legal_actions() for a, _ in planned.values())


def test_the_agent_plays_the_plan_where_it_plays_alone_and_searches_elsewhere(solos):
    planned = 0
    for s in solos:
        agent = make_agent("mcts:iters=50,seed=4,value=linear")
        action = agent.select(s.clone())
        assert action in s.legal_actions()
        planned += "planned" in agent.info
        if "planned" not in agent.info:  # (a plan over its budget: the search decides)
            assert agent.info["iterations"] > 0 or len(agent.info) == 2
        off = make_agent("mcts:iters=50,seed=4,value=linear,solo=0")
        off.select(s.clone())
        assert "planned" not in off.info
    assert planned >= 3
    opening = deal(3, GameConfig())
    while len(opening.legal_actions()) < 2:
        opening.apply(opening.legal_actions()[0])
    agent = make_agent("mcts:iters=20,seed=4")
    agent.select(opening)
    assert "planned" not in agent.info


def test_the_plan_never_reads_hidden_cards(solos):
    """Two positions that differ only in what the planner cannot see: the same move."""
    twins = 0
    for s in solos:
        p = s.current_player()
        if sum(s.owner[e] != p and s.loc[e] in (HAND, DECK) for e in range(s.n_art)) < 2:
            continue
        twin = hidden_twin(s)
        twins += 1
        spec = "mcts:iters=40,seed=9"
        assert make_agent(spec).select(s.clone()) == make_agent(spec).select(twin.clone())
    assert twins >= 3


def test_planned_moves_are_legal_and_the_pass_is_among_them(solos):
    rng = random.Random(2)
    for s in rng.sample(solos, 4):
        listed = moves(s, LINEAR_EVALUATOR)
        assert all(a in s.legal_actions() for _, a in listed)
        assert [a for _, a in listed if kind(a) == PASS]


def test_a_winning_line_ends_the_search_of_the_other_moves(solos):
    """A line worth `WON` (only a game won is) is not bettered: its position's other moves go unsearched,
    so a round with a win in it is planned in far fewer positions; the moves every world valued are kept."""
    s = next(x for x in solos if len(moves(x, LINEAR_EVALUATOR)) >= 3)
    p = s.current_player()
    world = Determinizer(s, p).deal(5)
    first = moves(world, LINEAR_EVALUATOR)[0][0]
    winning = Planner(p, lambda _: WON, LINEAR_EVALUATOR, budget=10_000)
    found = winning.first_moves(world.clone())
    assert found is not None and list(found) == [first] and found[first][1] == WON
    unsure = Planner(p, lambda _: WON - 0.01, LINEAR_EVALUATOR, budget=10_000)
    every = unsure.first_moves(world.clone())
    assert every is not None and len(every) == len(moves(world, LINEAR_EVALUATOR))
    assert winning.expanded < unsure.expanded
    planned = plan_round([world, Determinizer(s, p).deal(6)], p, lambda _: WON, LINEAR_EVALUATOR, budget=10_000)
    assert planned is not None and list(planned) == [first]


def test_a_round_with_a_win_in_it_is_planned_to_the_win_within_the_search_s_budget():
    """The play-test position of the puzzle ``win-the-round-alone-1``: at 8-8 with the rival passed, the
    round holds a win that 200 positions a world do not reach; a plan as large as the search's budget
    does, and the agent plays towards it instead of passing."""
    import json

    from amigos.position import build_position

    path = DATA / "puzzles" / "win-the-round-alone-1.json"
    s = build_position(**json.loads(path.read_text(encoding="utf-8"))["position"], seed=0)
    p = s.current_player()
    assert alone(s, p)
    agent = make_agent("mcts:iters=6300,seed=1")
    action = agent.select(s.clone())
    assert "planned" in agent.info and agent.info["value"] >= WON and kind(action) != PASS
    world = Determinizer(s, p).deal(3)
    assert plan_round([world], p, value_of(p), LINEAR_EVALUATOR) is None  # (the old budget gives up)


def test_a_plan_tries_the_way_that_keeps_gold_where_the_learned_value_would_give_it_up():
    """The puzzle ``golden-statue-needs-gold-1``: the rival passed with 11 points, we have 10, 2 Gold and
    Golden Statue (3 points at the check for 3 Gold). The learned value discards Fountain of Youth for 2
    Calm; the plan also tries its way for 1 Gold (`MORE_GOLD`), the one that wins."""
    import json

    from ai.planner import MORE_GOLD
    from amigos import actions as A
    from amigos.position import build_position

    path = DATA / "puzzles" / "golden-statue-needs-gold-1.json"
    s = build_position(**json.loads(path.read_text(encoding="utf-8"))["position"], seed=0)
    p = s.current_player()
    assert alone(s, p)
    offered = dict(moves(s, LINEAR_EVALUATOR))
    gold_ways = {key: a for key, a in offered.items() if key[-1] == MORE_GOLD}
    assert gold_ways and all(A.gain(a)[4] > A.gain(offered[key[:-1]])[4] for key, a in gold_ways.items())
    action = make_agent("mcts:iters=600,seed=2").select(s.clone())
    assert A.kind(action) == A.DISCARD and A.gain(action) == (0, 0, 0, 0, 1)
