"""The search's priors (``prior=W``): the model of choices' chances of a node's moves, read in the
world the search deals; untried moves likeliest first, then a progressive bias; no peeking."""

import random

import numpy as np
import pytest

from ai import mcts as M
from ai import policy as P
from ai.agents import SpecError, make_agent, parse_spec
from amigos.determinize import Determinizer
from tests.test_agents import hidden_twin, mid_game


@pytest.fixture
def policy(tmp_path, monkeypatch):
    """A model of choices with random move weights (so that moves get clearly different chances),
    named by the variable the agents read."""
    net = P.PolicyNet.initial(8, 3)
    net.u[:] = np.random.default_rng(1).normal(0, 1.5, P.N_MOVE_INPUTS)
    net.save(tmp_path / "p.npz")
    monkeypatch.setenv(P.POLICY_ENV, str(tmp_path / "p.npz"))
    return P.PolicyNet.load(tmp_path / "p.npz")


def test_the_spec_takes_a_prior_weight_and_refuses_a_negative_one():
    assert parse_spec("mcts:iters=10,prior=1.5") == ("mcts", {"iters": 10, "prior": 1.5})
    with pytest.raises(SpecError, match="prior must be from 0"):
        parse_spec("mcts:prior=-1")


def test_a_node_s_priors_are_the_mover_s_chances_of_its_moves_and_a_purchase_shares_its_move_s(policy):
    state = mid_game(5)
    world = Determinizer(state, state.current_player()).deal(7)
    groups = M.group(world, True, {})
    chance = M.priors(policy, world, groups)
    assert set(chance) == set(groups)
    moves = list(dict.fromkeys(M.macro_key(g[0]) for g in groups.values()))
    expected = dict(zip(moves, policy.probabilities(world, moves), strict=True))
    for key, variants in groups.items():
        assert chance[key] == pytest.approx(expected[M.macro_key(variants[0])])
    assert sum(expected.values()) == pytest.approx(1.0)


def _tree(prior):
    settings = M.Settings(prior=prior)
    tree = M.Tree(settings._replace(prior=0.0), random.Random(1))  # (no model file needed here)
    tree.prior = prior
    return tree


def test_untried_moves_are_tried_likeliest_first_and_the_bias_favours_the_likelier():
    groups = {("a",): [], ("b",): [], ("c",): []}
    node = M.Node(0)
    node.prior = {("a",): 0.1, ("b",): 0.7, ("c",): 0.2}
    assert M._choose(_tree(1.0), node, groups) == (("b",), True)
    for key in groups:  # every move tried, each with the same visits and value
        child = node.children[key] = M.Node(0)
        child.n, child.w, child.avail = 10, 5.0, 10
    assert M._choose(_tree(1.0), node, groups) == (("b",), False)
    node.prior = {("a",): 0.6, ("b",): 0.1, ("c",): 0.3}
    assert M._choose(_tree(1.0), node, groups) == (("a",), False)


def test_without_priors_a_node_s_untried_move_is_a_random_one():
    groups = {(k,): [] for k in "abcdefgh"}
    tree = _tree(1.0)
    seen = {M._choose(tree, M.Node(0), groups)[0] for _ in range(40)}
    assert len(seen) > 1


def test_the_search_with_priors_is_reproducible_and_they_change_where_the_visits_go(policy):
    state = mid_game(8)
    runs = [M.search(state, state.current_player(), 400, None, 3, M.Settings(prior=1.0)) for _ in range(2)]
    assert runs[0] == runs[1]
    assert M.search(state, state.current_player(), 400, None, 3, M.Settings()) != runs[0]


@pytest.mark.parametrize("seed", [4, 6])
def test_the_search_with_priors_never_reads_hidden_information(policy, seed):
    state = mid_game(seed)
    twin = hidden_twin(state)
    spec = "mcts:iters=200,seed=1,prior=2"
    assert make_agent(spec).select(state) == make_agent(spec).select(twin)


def test_with_three_players_the_priors_are_off(policy):
    """The model of choices reads a two-player view: with three, the search is the one without."""
    state = mid_game(3, players=3)
    with_priors = M.search(state, state.current_player(), 300, None, 2, M.Settings(prior=1.0))
    assert with_priors == M.search(state, state.current_player(), 300, None, 2, M.Settings())
