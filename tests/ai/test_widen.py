"""A move's ways widened in the search (`ai.mcts`'s ``widen``): the ways ranked by the linear value, a
move's second way tried only once the move has been visited enough, the root's ways searched as moves."""

from __future__ import annotations

import random

import pytest

from ai.agents import SpecError, make_agent
from ai.evaluator import HAND, NET, Evaluator, packaged_model, packaged_net
from ai.heuristics import learned_variants
from ai.mcts import WAY, WIDEN, WIDEN_AT, Node, Settings, Tree, _choose, group, grow, search
from amigos.actions import PASS, kind, macro_key
from tests.ai.test_evaluator import choices_with_ways


@pytest.fixture(scope="module")
def worlds() -> list:
    return choices_with_ways(12)


def test_a_moves_ways_are_ranked_from_the_evaluators_own_choice(worlds):
    model, net = packaged_model(), packaged_net()
    evaluator = Evaluator(NET, model, net)
    network = Evaluator(NET, model, net, ways=3)  # (its way: the network's among the linear value's best)
    several = 0
    for world, ways in worlds:
        for judge in (evaluator, network):
            ranked = judge.ranked(world, ways, 3)
            assert ranked[0] == judge.variant(world, ways)
            assert 1 <= len(ranked) <= 3 and len(set(ranked)) == len(ranked) and set(ranked) <= set(ways)
            linear = [a for a in learned_variants(world, ways, model, 4) if a != ranked[0]]
            assert ranked[1:] == linear[:len(ranked) - 1]  # (then the linear value's order)
        ranked = evaluator.ranked(world, ways, 3)
        assert Evaluator(HAND, model).ranked(world, ways, 3) == [Evaluator(HAND, model).variant(world, ways)]
        several += len(ranked) > 1
        passes = [a for a in world.legal_actions() if kind(a) == PASS]
        if len(passes) > 1:
            assert len(evaluator.ranked(world, passes, 3)) == 1
    assert several >= len(worlds) // 2


def _node_with_children(world, groups, visits: int) -> Node:
    node = Node(-1)
    for key in groups:
        child = node.children[key] = Node(world.current_player())
        child.n, child.w, child.avail = visits, visits * 0.5, visits
    return node


def test_a_second_way_is_offered_only_once_its_move_was_visited_enough(worlds):
    evaluator = Evaluator(NET, packaged_model(), packaged_net())
    world, _ = worlds[0]
    groups = group(world, True)
    several = [k for k, v in groups.items() if len(v) > 1 and kind(v[0]) != PASS]
    assert several
    key = several[0]
    tree = Tree(Settings(widen=3), evaluator, random.Random(1))
    node = _node_with_children(world, groups, WIDEN_AT - 1)
    for _ in range(20):
        chosen, untried = _choose(tree, node, groups)
        assert not untried and WAY not in chosen
    node.children[key].n = WIDEN_AT
    chosen, untried = _choose(tree, node, groups)
    assert untried and chosen[-2:] == (WAY, 1) and chosen[:-2] in several
    for k in several:
        node.children[k].n = 4 * WIDEN_AT
        node.children[k + (WAY, 1)] = _node_with_children(world, {0: 0}, 1).children[0]
    chosen, untried = _choose(tree, node, groups)
    assert untried and chosen[-2:] == (WAY, 2)  # (a third way at four times the visits; never a fourth)
    one = Tree(Settings(widen=WIDEN), evaluator, random.Random(1))
    assert WIDEN == 1 and all(WAY not in _choose(one, node, groups)[0] for _ in range(20))


def test_the_roots_ways_are_searched_as_moves_and_the_choice_is_one_of_them(worlds):
    agent = make_agent("mcts:iters=400,widen=3,seed=5")
    assert agent.settings.widen == 3
    split = 0
    for world, _ in worlds[:6]:
        player = world.current_player()
        groups = group(world, True)
        widened = agent.widened(world, groups, player)
        for key, variants in widened.items():
            if WAY in key:
                base = key[:-2]
                assert len(variants) == 1 and variants[0] in groups[base] and variants[0] != widened[base][0]
                split += 1
        stats, done = search(world, player, 400, None, 3, agent.settings, root_groups=widened,
                             evaluator=agent.evaluator)
        assert done == 400 and set(stats) <= set(widened)
    assert split >= 3
    world, _ = worlds[1]
    first = make_agent("mcts:iters=300,widen=3,seed=8").select(world)
    assert first in world.legal_actions()
    assert make_agent("mcts:iters=300,widen=3,seed=8").select(world) == first


def test_a_move_visited_often_below_the_root_gets_its_ways_as_children(worlds):
    evaluator = Evaluator(NET, packaged_model(), packaged_net())
    widened = 0
    for world, _ in worlds[:4]:
        root, _ = grow(world, world.current_player(), 1500, None, 2, Settings(widen=3), evaluator=evaluator)
        stack = [root]
        while stack:
            node = stack.pop()
            for key, child in node.children.items():
                stack.append(child)
                if WAY in key:
                    widened += 1
                    assert node.children[key[:-2]].n >= WIDEN_AT  # (its move was visited enough first)
                    played = child.action  # (None where only one world reached it, with one way)
                    assert played is None or key[:len(macro_key(played))] == macro_key(played)
    assert widened >= 1
    root, _ = grow(worlds[0][0], worlds[0][0].current_player(), 1500, None, 2, Settings(), evaluator=evaluator)
    stack = [root]
    while stack:
        node = stack.pop()
        assert not any(WAY in key for key in node.children)
        stack.extend(node.children.values())


@pytest.mark.parametrize("spec", ["mcts:iters=10,widen=0", "mcts:iters=10,widen=13", "mcts:iters=10,widen=1.5"])
def test_widen_takes_a_whole_number_of_ways(spec):
    with pytest.raises(SpecError, match="widen"):
        make_agent(spec)
