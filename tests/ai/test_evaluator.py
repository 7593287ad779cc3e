"""The evaluator handed to the search (`ai.evaluator`): how it plays an action's ways with each value."""

from __future__ import annotations

from ai.agents import make_agent
from ai.evaluator import HAND, LINEAR, NET, WAYS, Evaluator, packaged_model, packaged_net
from ai.heuristics import best_variant, learned_variant, learned_variants
from ai.rewards import net_rewards
from amigos.actions import PASS, kind, player
from amigos.config import GameConfig
from amigos.determinize import determinize
from amigos.setup import deal


def choices_with_ways(count: int) -> list:
    """(world, ways) of quick self-play games: a world dealt for the mover and one of its macros with
    several ways (not a pass)."""
    out = []
    for seed in range(40):
        s = deal(seed, GameConfig())
        agents = [make_agent("mcts:iters=20,value=linear", seed=seed + p) for p in range(2)]
        while not s.is_terminal() and len(out) < count:
            p = s.current_player()
            for ways in s.legal_groups():
                if len(ways) >= 4 and kind(ways[0]) != PASS:
                    out.append((determinize(s, p, seed), ways))
                    break
            s.apply(agents[p].select(s))
        if len(out) >= count:
            break
    return out


def test_each_value_plays_an_action_its_own_way():
    """``ways=1`` (the default) and the linear value: the linear value's way; the hand-tuned value: the
    pool heuristic's; ``ways=3`` with the network: the one of the linear value's three best ways after
    which the network rates the mover's chance highest (the linear value's first of equals)."""
    model, net = packaged_model(), packaged_net()
    three = Evaluator(NET, model, net, ways=3)
    assert WAYS == 1 and Evaluator(NET, model, net).ways == 1
    differ = 0
    for world, ways in choices_with_ways(30):
        linear = learned_variant(world, ways, model)
        assert Evaluator(NET, model, net).variant(world, ways) == linear
        assert Evaluator(LINEAR, model).variant(world, ways) == linear
        assert Evaluator(HAND, model).variant(world, ways) == best_variant(world, ways)
        shortlist = learned_variants(world, ways, model, 3)
        assert shortlist[0] == linear and len(shortlist) <= 3
        mover = player(ways[0])

        def chance(a, world=world, mover=mover):
            after = world.clone()
            after.apply_unchecked(a)
            return net_rewards(after, net, mover)[mover]
        chosen = three.variant(world, ways)
        assert chosen in shortlist
        assert chance(chosen) == max(chance(a) for a in shortlist)
        differ += chosen != linear
    assert differ >= 1  # (the network does disagree with the linear value somewhere)


def test_an_evaluator_crosses_to_a_worker_as_its_recipe():
    """A worker process gets the evaluator as the files it was made from, read again there (the models
    may be compiled classes, which do not pickle); one not made by `Evaluator.load` is refused."""
    import pickle

    import pytest

    from ai.evaluator import default_evaluator
    s = deal(4, GameConfig())
    for value in (NET, LINEAR, HAND):
        evaluator = default_evaluator(value)
        again = pickle.loads(pickle.dumps(evaluator))
        assert again.recipe == evaluator.recipe and (again.value, again.ways) == (value, 1)
        assert again.leaf(2, 0)(s) == evaluator.leaf(2, 0)(s)
    with pytest.raises(TypeError, match="Evaluator.load"):
        pickle.dumps(Evaluator(LINEAR, packaged_model()))
