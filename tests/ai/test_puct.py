"""PUCT below the root (``puct=C,policy=FILE``): a node's moves weighed by the model of choices' priors
once it has `PRIOR_AFTER` visits, the likeliest untried move first, instead of UCB1's every move once."""

from __future__ import annotations

import random

import pytest

from ai import mcts as M
from ai.agents import SpecError, make_agent
from ai.checkpoint import NetError
from ai.evaluator import default_evaluator
from ai.policy import PolicyNet
from tests.helpers import hidden_twin, mid_game


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("policy") / "policy.npz"
    PolicyNet.initial(8, seed=3).save(path)
    return str(path)


def _tree(policy: str) -> M.Tree:
    return M.Tree(M.Settings(puct=1.5, policy=policy), default_evaluator(), random.Random(1))


def test_the_likeliest_untried_move_goes_first_then_the_values_weigh(policy_file):
    tree = _tree(policy_file)
    s = mid_game(4)
    groups = M.group(s, tree.merge)
    keys = list(groups)
    assert len(keys) >= 3
    node = M.Node(1 - s.current_player())
    node.n = M.PRIOR_AFTER
    node.priors = {key: 0.05 for key in keys}
    node.priors[keys[2]] = 0.9
    key, untried = M._choose_puct(tree, node, groups, s, skip_lost=True)
    assert (key, untried) == (keys[2], True)
    # Tried once and found poor, it gives way to an untried move valued at the mean of those tried...
    poor = node.children[keys[2]] = M.Node(s.current_player())
    poor.n, poor.w = 1, 0.0
    other = node.children[keys[0]] = M.Node(s.current_player())
    other.n, other.w = 1, 1.0
    key, untried = M._choose_puct(tree, node, groups, s, skip_lost=True)
    assert key != keys[2]
    # ... and a proven loss is left aside, however likely.
    poor.w, poor.n, poor.proof = 30.0, 30, M.PROVEN_LOSS
    for _ in range(5):
        key, _ = M._choose_puct(tree, node, groups, s, skip_lost=True)
        assert key != keys[2]


def test_priors_are_read_once_the_node_has_its_visits(policy_file):
    tree = _tree(policy_file)
    s = mid_game(5)
    groups = M.group(s, tree.merge)
    node = M.Node(1 - s.current_player())
    node.n = M.PRIOR_AFTER - 1
    M._choose_puct(tree, node, groups, s, skip_lost=True)
    assert node.priors is None
    node.n = M.PRIOR_AFTER
    M._choose_puct(tree, node, groups, s, skip_lost=True)
    assert node.priors is not None and set(node.priors) == set(groups)
    assert sum(node.priors.values()) == pytest.approx(1.0)


def test_a_puct_search_plays_legal_moves_reproducibly_and_sees_no_hidden_card(policy_file):
    s = mid_game(6)
    spec = f"mcts:iters=300,seed=2,puct=1.5,policy={policy_file}"
    first, again = make_agent(spec), make_agent(spec)
    move = first.select(s)
    assert move in s.legal_actions() and first.info["iterations"] == 300
    assert again.select(s) == move and again.info["root"] == first.info["root"]
    twin = make_agent(spec).select(hidden_twin(s))
    assert twin == move


def test_puct_and_its_policy_go_together(policy_file, tmp_path):
    with pytest.raises(SpecError, match="puct and policy"):
        make_agent("mcts:iters=10,puct=1.5")
    with pytest.raises(SpecError, match="puct and policy"):
        make_agent(f"mcts:iters=10,policy={policy_file}")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a model")
    with pytest.raises(NetError):
        make_agent(f"mcts:iters=10,puct=1.5,policy={bad}")


def test_a_grown_tree_reads_priors_below_the_root_only(policy_file):
    s = mid_game(7)
    root, _ = M.grow(s, s.current_player(), 400, None, seed=3, settings=M.Settings(puct=1.5, policy=policy_file))
    assert root.priors is None

    def nodes(node):
        for child in node.children.values():
            yield child
            yield from nodes(child)
    read = [node for node in nodes(root) if node.priors is not None]
    assert read and all(node.n >= M.PRIOR_AFTER for node in read)
    # UCB1 tries every legal move of a node before its second visit to any; PUCT leaves unlikely ones.
    assert any(len(node.children) < len(node.priors) for node in read)
