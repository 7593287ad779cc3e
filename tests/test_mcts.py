"""The search's rollouts, and what a player knows of the rival's reshuffled discard pile."""

from __future__ import annotations

import random

import pytest

import amigos
from ai import make_agent
from ai import halving as H
from ai import mcts as M
from ai import rewards as R
from ai.agents import SpecError, parse_spec
from amigos import actions as A
from amigos.determinize import Determinizer
from amigos.position import build_position
from amigos.state import ACTIONS, DECK, HAND

def test_a_rollout_ends_with_the_round():
    rng = random.Random(1)
    ended = 0
    for seed in range(8):
        s = amigos.new_game(seed)
        while not (s.phase == ACTIONS and s.round >= 2 and not s.stack):
            s.apply(rng.choice(s.legal_actions()))
        start = s.round
        M._rollout(s, 400, rng)
        assert s.is_terminal() or s.round == start + 1
        ended += not s.is_terminal()
    assert ended >= 6


def test_a_reshuffled_discard_pile_stays_known_to_the_rival():
    s = build_position([
        {"mage": "druid", "item": "research", "pool": {"elan": 1}},
        {"mage": "duelist", "item": "protection", "hand": ["hawk"], "discard": ["vault", "crypt", "prism"]},
    ], turn=1, seed=5)
    assert not s.known_decks[0]
    s.apply(next(a for a in s.legal_actions() if a[0] == A.PASS))  # draws 1: the pile becomes the deck
    while s.stack:
        s.apply(s.legal_actions()[0])
    assert {"vault", "crypt", "prism"} <= s.known_decks[0]
    assert {"vault", "crypt", "prism"} <= set(s.observation(0)["players"][1]["known_artifacts"])
    deal = Determinizer(s, 0).deal
    for seed in range(20):
        world = deal(seed)
        rival = {world.cards[e].id for e in range(world.n_art) if world.owner[e] == 1 and world.loc[e] in (HAND, DECK)}
        assert {"vault", "crypt", "prism"} <= rival  # (the Hawk it held was never seen)


@pytest.mark.parametrize("chooser", [0, 1])
def test_the_chooser_makes_itself_first_player_unless_asked_to_search(chooser):
    """In games 2 and 3 the loser of the last game names the first player: by default the search
    names itself (`ai.mcts.MCTSAgent`, why); with ``draft=0`` it searches the choice."""
    artifacts = [c.id for c in amigos.cards.ARTIFACTS[:16]]
    state = amigos.next_game(5, [amigos.cards.MAGES[0].id, amigos.cards.MAGES[1].id], artifacts, chooser, True)
    assert state.current_player() == chooser
    agent = make_agent("mcts:iters=60,seed=2")
    assert agent.select(state) == (A.CHOOSE_FIRST, chooser, chooser)
    assert agent.info["iterations"] == 0
    searched = make_agent("mcts:iters=60,seed=2,draft=0")
    assert searched.select(state) in state.legal_actions()
    assert searched.info["iterations"] == 60


def test_passes_are_one_macro_whose_item_the_learned_value_chooses():
    from ai.learned import default_model
    s = build_position([
        {"mage": "druid", "item": "research", "hand": ["hawk"], "pool": {"elan": 1}},
        {"mage": "duelist", "item": "protection"},
    ])
    merged = M.group(s, merge_passes=True)
    passes = merged[(A.PASS, 0)]
    assert sorted(passes) == sorted(a for a in s.legal_actions() if a[0] == A.PASS) and len(passes) > 1
    assert not any(key[0] == A.PASS and len(key) > 2 for key in merged)
    assert M.pass_variant(s, passes, default_model()) in passes
    assert sum(1 for key in M.group(s) if key[0] == A.PASS) == len(passes)  # unmerged: one each


def test_a_gain_that_completes_a_purchase_gets_a_child_of_its_own():
    s = build_position([
        {"mage": "druid", "item": "research", "hand": ["flaming_pit"],
         "pool": {"elan": 3, "life": 3, "calm": 3, "death": 2}},
        {"mage": "duelist", "item": "protection"},
    ], places_of_power=["dragons_lair", "catacombs_of_the_dead"])
    lair = s.find("Dragon's Lair")
    pit = s.find("Flaming Pit")
    merged = M.group(s, merge_passes=True)
    enabling = merged[(A.DISCARD, 0, pit, lair)]
    assert enabling and all(a[3][3] >= 1 for a in enabling)  # every variant gains the Death it lacks
    assert set(enabling) < set(merged[(A.DISCARD, 0, pit)])
    assert not any(len(key) == 4 and key[3] == s.find("Catacombs of the Dead") for key in merged)
    # The search can choose that child: its action is one of those variants.
    agent = make_agent("mcts:iters=400,seed=3")
    assert agent.select(s) in s.legal_actions()


def _rich_position():
    """A position with many moves of clearly different worth: Dragon's Lair one discard away."""
    return build_position([
        {"mage": "druid", "item": "research", "hand": ["flaming_pit", "hawk", "vault"],
         "pool": {"elan": 3, "life": 3, "calm": 3, "death": 2, "gold": 1}},
        {"mage": "duelist", "item": "protection", "pool": {"elan": 2}},
    ], places_of_power=["dragons_lair", "catacombs_of_the_dead"])


def test_puct_priors_last_while_bias_fades():
    """``puct`` keeps weighing the learned value's priors as a move is searched (PUCT); ``bias``'s
    weight fades with visits.  With a large weight the moves the prior favours get the visits (UCB1 at
    the root: with sequential halving the root's visits are the halving's)."""
    s = _rich_position()
    p = s.current_player()
    groups = M.group(s, merge_passes=True)
    priors = M._priors(s, groups, M.default_model())
    favourite = max(priors, key=priors.get)
    plain, _ = M.search(s, p, 600, None, 7, M.Settings(halving=0))
    led, _ = M.search(s, p, 600, None, 7, M.Settings(puct=50.0, halving=0))
    faded, _ = M.search(s, p, 600, None, 7, M.Settings(bias=50.0, halving=0))
    assert led[favourite][0] > plain[favourite][0]
    assert led[favourite][0] > faded[favourite][0]
    assert led[favourite][0] == max(n for n, _ in led.values())


def test_norm_spreads_the_move_values_so_visits_go_to_the_best():
    """With ``norm`` each node's child values are spread over [0, 1] before UCB1 weighs them, so the
    visits gather on the moves valued best instead of spreading over moves valued a few hundredths
    apart (UCB1 at the root); the spec takes it and the workers get it too."""
    from ai.agents import SpecError, parse_spec
    s = _rich_position()
    p = s.current_player()
    plain, _ = M.search(s, p, 600, None, 7, M.Settings(norm=0.0, halving=0))
    spread, _ = M.search(s, p, 600, None, 7, M.Settings(halving=0))  # the default, `M.NORM`
    assert M.NORM > 0 and make_agent("mcts:iters=10").settings.norm == M.NORM
    assert max(n for n, _ in spread.values()) > max(n for n, _ in plain.values())
    assert M._spread({"a": _node(3, 1.5), "b": _node(2, 0.4)}) == (0.2, 0.5)
    assert parse_spec("mcts:iters=50,norm=0.02") == ("mcts", {"iters": 50, "norm": 0.02})
    with pytest.raises(SpecError):
        parse_spec("mcts:iters=50,norm=-1")
    two = make_agent("mcts:iters=200,norm=0.02,workers=2,seed=4")
    try:
        assert two.select(s.clone()) in s.legal_actions() and two.settings.norm == 0.02
    finally:
        two.close()


def _node(n: int, w: float) -> M.Node:
    node = M.Node(0)
    node.n, node.w = n, w
    return node


def test_puct_is_a_spec_parameter_and_reproducible():
    from ai.agents import SpecError, parse_spec
    assert parse_spec("mcts:iters=50,puct=3") == ("mcts", {"iters": 50, "puct": 3})
    with pytest.raises(SpecError):
        parse_spec("mcts:iters=50,puct=-1")
    s = _rich_position()
    one = make_agent("mcts:iters=200,puct=3,seed=4")
    again = make_agent("mcts:iters=200,puct=3,seed=4")
    assert one.select(s.clone()) == again.select(s.clone()) and one.settings.puct == 3.0
    two = make_agent("mcts:iters=200,puct=3,workers=2,seed=4,norm=0")  # the workers get the weight too
    try:
        assert two.select(s.clone()) in s.legal_actions() and two.info["iterations"] == 200
    finally:
        two.close()


def _ring_of_midas_position():
    """The rival has passed; Ring of Midas can pay 2 Life for a Gold (again and again) or be turned for
    one (which locks the Life power for the round): the puzzle ``ring-of-midas-order-1``."""
    return build_position([
        {"mage": "healer", "item": "protection", "in_play": ["ring_of_midas", "elemental_spring",
                                                             "fountain_of_youth", "hawk"],
         "deck": ["windup_man", "celestial_horse", "dragon_bridle", "guard_dog"],
         "pool": {"life": 5, "calm": 1, "gold": 2}, "turned": ["hawk"]},
        {"mage": "necromancer", "item": "alchemy", "in_play": ["bone_dragon", "crypt", "cursed_skull",
                                                               "sacrificial_dagger"],
         "hand": ["hand_of_glory"], "deck": ["corrupt_altar", "fiery_whip", "vault"],
         "places": ["catacombs_of_the_dead"], "essences_on": {"catacombs_of_the_dead": {"death": 2}},
         "pool": {"elan": 1, "death": 4, "life": 1}, "turned": ["crypt", "cursed_skull", "catacombs_of_the_dead"],
         "passed": True},
    ], monuments_face_up=["temple", "colossus"], monument_deck=["great_pyramid", "obelisk", "mausoleum"],
        places_of_power=["alchemists_tower", "cursed_forge", "coral_castle", "dragons_lair"], first_player=1,
        turn=0, round_number=4)


def test_settle_collect_plays_the_collect_out_by_each_choosers_best_choice():
    """A leaf in the middle of a Collect phase is played out to the phase's end, each choice the one the
    learned value prefers for its chooser (the players who have collected would look richer)."""
    from amigos.state import COLLECT
    s = _ring_of_midas_position()
    turn = next(a for a in s.legal_actions() if a[0] == A.POWER and a[3] == 1)
    s.apply(turn)
    s.apply(next(a for a in s.legal_actions() if a[0] == A.PASS))  # the round ends: Collect
    assert s.phase == COLLECT and len(s.legal_actions()) > 1
    settled = s.clone()
    R.settle_collect(settled)
    assert settled.phase != COLLECT
    # Replayed by hand: every choice of more than one is the chooser's best by the learned value.
    while s.phase == COLLECT:
        legal = s.legal_actions()
        p = s.current_player()
        values = []
        for a in legal:
            t = s.clone()
            t.apply(a)
            values.append(R.learned_rewards(t)[p])
        s.apply(legal[values.index(max(values))])
    assert s.pool == settled.pool and s.phase == settled.phase


def test_settled_leaves_use_the_repeatable_power_before_turning():
    """With leaves settled past the Collect, the search uses Ring of Midas's repeatable Life power
    before turning it (three Gold, not one); the spec takes ``settle``."""
    from ai.agents import SpecError, parse_spec
    s = _ring_of_midas_position()
    p = s.current_player()
    stats, _ = M.search(s, p, 2000, None, 7, M.Settings(settle=1))
    best = max(stats, key=lambda k: stats[k][0])
    assert best[0] == A.POWER and s.cards[best[2]].name == "Ring of Midas" and best[3] == 0
    assert parse_spec("mcts:iters=50,settle=1") == ("mcts", {"iters": 50, "settle": 1})
    with pytest.raises(SpecError):
        parse_spec("mcts:iters=50,settle=2")
    assert make_agent("mcts:iters=10,settle=1").settings.settle == 1


def test_sequential_halving_keeps_the_better_half_after_each_phase():
    """`Halving` cuts the budget, less a few iterations kept back, into ceil(log2 m) phases; within
    one the moves still in take turns, after it the better half by mean value stays; the last of the
    final two's phase is chosen by its mean, not its visits, and the search ends once the budget is
    spent and that move holds the most visits."""
    root = M.Node(-1)
    keys = [("a",), ("b",), ("c",), ("d",), ("e",)]
    halver = H.Halving(list(keys), 60, None, 0.0)
    assert halver.phases == 3 and halver.planned == 56  # 4 kept back: the last move's top-up
    taken = [halver.next_key(root.children, done) for done in range(5)]
    assert taken == keys  # one turn each
    worth = {("a",): 0.2, ("b",): 0.9, ("c",): 0.5, ("d",): 0.7, ("e",): 0.1}
    for key in keys:
        root.children[key] = _node(4, 4 * worth[key])
    assert halver.next_key(root.children, 18) == ("a",) and len(halver.keys) == 5  # phase 1 of 3 ends at 56/3
    assert halver.next_key(root.children, 19) == ("b",) and halver.keys == [("b",), ("d",), ("c",)]
    assert halver.next_key(root.children, 38) == ("b",) and halver.keys == [("b",), ("d",)]
    root.children[("b",)] = _node(20, 20 * 0.6)  # b has the extra visit, d the better mean
    root.children[("d",)] = _node(19, 19 * 0.7)
    assert halver.next_key(root.children, 56) == ("d",) and halver.keys == [("d",)]
    root.children[("d",)].n = 21
    assert halver.next_key(root.children, 59) == ("d",)  # the budget is not spent yet
    assert halver.next_key(root.children, 60) is None  # d holds the most visits: the choice is made


def test_halving_uses_the_repeatable_power_before_turning_and_is_a_spec_parameter():
    """With sequential halving at the root the search compares Ring of Midas's two powers deeply enough
    to use the repeatable one first; the most visited move is the one halving kept."""
    from ai.agents import SpecError, parse_spec
    s = _ring_of_midas_position()
    stats, done = M.search(s, s.current_player(), 2000, None, 7, M.Settings(halving=1))
    best = max(stats, key=lambda k: stats[k][0])
    assert best[0] == A.POWER and s.cards[best[2]].name == "Ring of Midas" and best[3] == 0
    assert done <= 2000
    assert parse_spec("mcts:iters=50,halving=1") == ("mcts", {"iters": 50, "halving": 1})
    with pytest.raises(SpecError):
        parse_spec("mcts:iters=50,halving=2")
    timed = make_agent("mcts:time=0.2,halving=1,seed=3")
    assert timed.select(s.clone()) in s.legal_actions() and timed.settings.halving == 1


# -- what a monument claim shows everyone ------------------------------------------------------------

def _top_claim_position():
    """Player 1 can claim the blind top of a deck of three unseen monuments, or Great Pyramid."""
    return build_position([{"mage": "healer", "item": "alchemy", "pool": {"gold": 4}},
                           {"mage": "seer", "item": "protection"}],
                          monuments_face_up=["great_pyramid"], monument_deck=["library", "temple", "obelisk"])


def test_a_claim_of_the_deck_top_goes_on_from_a_node_for_the_monument_it_turned_out_to_be():
    s = _top_claim_position()
    top = next(a for a in s.legal_actions() if a[0] == A.CLAIM_TOP)
    monuments = tuple(e for e, c in enumerate(s.cards) if c.kind == amigos.cards.MONUMENT)
    deal = Determinizer(s, 0).deal
    claim = M.Node(0)
    claimed = {}
    for seed in range(40):
        world = deal(seed)
        world.apply_unchecked(top)
        mine = next(e for e in monuments if world.loc[e] != s.loc[e] and world.owner[e] == 0)
        node = M.revealed(claim, world, monuments)
        assert claimed.setdefault(mine, node) is node  # the same monument, the same node
    assert len(claimed) == 3 and len(claim.children) == 3  # each of the unseen three, its own node


def test_a_search_that_tells_the_monuments_apart_is_reproducible_and_spends_its_budget():
    s = _top_claim_position()
    a = M.search(s, 0, 300, None, 5, M.Settings(reveal=1))
    b = M.search(s, 0, 300, None, 5, M.Settings(reveal=1))
    assert a == b and a[1] == 300
    assert set(a[0]) == set(M.group(s, True))


# -- a subtree for each of a few worlds ----------------------------------------------------------------

def _rival_hand_position():
    """Player 0 to move with a rich pool; the rival holds three cards player 0 cannot see."""
    return build_position([{"mage": "healer", "item": "alchemy", "pool": {"gold": 2, "elan": 3, "life": 3},
                            "hand": ["dragon_egg", "fountain_of_youth", "elvish_bow"]},
                           {"mage": "seer", "item": "protection", "pool": {"elan": 4, "calm": 4, "death": 2},
                            "hand": ["fire_dragon", "hawk", "corrupt_altar"]}])


def test_a_search_of_a_few_worlds_grows_a_subtree_for_each_below_the_root():
    s = _rival_hand_position()
    assert s.current_player() == 0
    stats, done = M.search(s, 0, 600, None, 3, M.Settings(worlds=3))
    again = M.search(s, 0, 600, None, 3, M.Settings(worlds=3))
    assert (stats, done) == again and done == 600
    assert set(stats) == set(M.group(s, True))
    # Rebuild the tree to look below the root: each root move's subtrees are keyed by world.
    root = M.Node(-1)
    groups = M.group(s, True)
    deal = Determinizer(s, 0).deal
    rng = random.Random(1)
    worlds = [deal(rng.getrandbits(64)) for _ in range(3)]
    model = M.default_model()
    for i in range(300):
        k = rng.randrange(3)
        w = worlds[k].clone()
        path = M._descend(root, w, groups, rng, 0.7, model, 0.0, 0.0, {}, M.NORM, None, (), k)
        for node in path:
            node.n += 1
            node.w += 0.5
    for child in root.children.values():
        assert set(child.children) <= {("world", 0), ("world", 1), ("world", 2)}
    assert any(len(child.children) == 3 for child in root.children.values())


def test_worlds_is_a_spec_parameter():
    assert parse_spec("mcts:iters=50,worlds=8") == ("mcts", {"iters": 50, "worlds": 8})
    with pytest.raises(SpecError):
        parse_spec("mcts:iters=50,worlds=-1")
    agent = make_agent("mcts:iters=80,worlds=4,seed=2")
    s = _rival_hand_position()
    assert agent.settings.worlds == 4 and agent.select(s.clone()) in s.legal_actions()
