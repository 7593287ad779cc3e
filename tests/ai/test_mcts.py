"""The search's rollouts, and what a player knows of the rival's reshuffled discard pile."""

from __future__ import annotations

import random

import pytest

import amigos
from ai import evaluator as V
from ai import halving as H
from ai import make_agent
from ai import mcts as M
from ai.agents import SpecError, parse_spec
from ai.evaluator import default_evaluator, packaged_model, pass_variant
from amigos import actions as A
from amigos.codes import ACTIONS, DECK, HAND
from amigos.determinize import Determinizer
from amigos.position import build_position


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
    s.apply(next(a for a in s.legal_actions() if A.kind(a) == A.PASS))  # draws 1: the pile becomes the deck
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
    s = build_position([
        {"mage": "druid", "item": "research", "hand": ["hawk"], "pool": {"elan": 1}},
        {"mage": "duelist", "item": "protection"},
    ])
    merged = M.group(s, merge_passes=True)
    passes = merged[(A.PASS, 0)]
    assert sorted(passes) == sorted(a for a in s.legal_actions() if A.kind(a) == A.PASS) and len(passes) > 1
    assert not any(A.kind(key) == A.PASS and len(key) > 2 for key in merged)
    chosen = pass_variant(s, passes, packaged_model())
    assert chosen in passes and default_evaluator(V.LINEAR).variant(s, passes) == chosen
    assert default_evaluator().variant(s, passes) == chosen  # (the default value, too: the linear model's)
    assert sum(1 for key in M.group(s) if A.kind(key) == A.PASS) == len(passes)  # unmerged: one each


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
    assert enabling and all(A.gain(a)[3] >= 1 for a in enabling)  # every variant gains the Death it lacks
    assert set(enabling) < set(merged[(A.DISCARD, 0, pit)])
    assert not any(len(key) == 4 and key[3] == s.find("Catacombs of the Dead") for key in merged)
    # The search weighs that child as a move of its own: it is one of the root's children, visited.
    stats, _ = M.search(s, s.current_player(), 400, None, 3)
    assert stats.get((A.DISCARD, 0, pit, lair), (0, 0.0))[0] > 0


def _rich_position():
    """A position with many moves of clearly different worth: Dragon's Lair one discard away."""
    return build_position([
        {"mage": "druid", "item": "research", "hand": ["flaming_pit", "hawk", "vault"],
         "pool": {"elan": 3, "life": 3, "calm": 3, "death": 2, "gold": 1}},
        {"mage": "duelist", "item": "protection", "pool": {"elan": 2}},
    ], places_of_power=["dragons_lair", "catacombs_of_the_dead"])


def test_norm_spreads_the_move_values_so_visits_go_to_the_best():
    """With ``norm`` each node's child values are spread over [0, 1] before UCB1 weighs them, so the
    visits gather on the moves valued best instead of spreading over moves valued a few hundredths
    apart (UCB1 at the root); the spec takes it and the workers get it too."""
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
    # The workers search with it: their merged roots are those of two searches with its settings and
    # the agent's seeds, and no norm would have grown other ones.
    two = make_agent("mcts:iters=200,norm=0.05,halving=0,workers=2,seed=4")  # (halving=1: no UCB1 at the root)
    drawn = random.Random()
    drawn.setstate(two.rng.getstate())
    seeds = [drawn.getrandbits(64) for _ in range(2)]
    try:
        merged, _ = two.root_stats(s.clone(), p)
    finally:
        two.close()
    alone: M.Stats = {}
    plain_roots: M.Stats = {}
    for seed in seeds:
        M.add_stats(alone, M.search(s.clone(), p, 100, None, seed, two.settings)[0])
        M.add_stats(plain_roots, M.search(s.clone(), p, 100, None, seed, two.settings._replace(norm=0.0))[0])
    assert two.settings.norm == 0.05 != M.NORM and merged == alone != plain_roots


def _node(n: int, w: float) -> M.Node:
    node = M.Node(0)
    node.n, node.w = n, w
    return node


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
    s = _ring_of_midas_position()
    stats, done = M.search(s, s.current_player(), 2000, None, 7, M.Settings(halving=1))
    best = max(stats, key=lambda k: stats[k][0])
    assert A.kind(best) == A.POWER and s.cards[A.subject(best)].name == "Ring of Midas" and A.power_index(best) == 0
    assert done <= 2000
    assert parse_spec("mcts:iters=50,halving=1") == ("mcts", {"iters": 50, "halving": 1})
    with pytest.raises(SpecError):
        parse_spec("mcts:iters=50,halving=2")
    timed = make_agent("mcts:time=0.2,halving=1,seed=3")
    assert timed.select(s.clone()) in s.legal_actions() and timed.settings.halving == 1


@pytest.mark.parametrize("unknown", ["bias=1", "shortlist=6", "Norm=0.1"])
def test_a_parameter_the_search_does_not_have_is_refused_by_name(unknown):
    """A spec naming a parameter the search does not have (one of an option removed, a mistyped one) is
    refused, naming it and the parameters there are, rather than ignored."""
    name = unknown.split("=")[0]
    with pytest.raises(SpecError, match="has no parameter") as refused:
        parse_spec(f"mcts:iters=50,{unknown}")
    assert repr(name) in str(refused.value) or name in str(refused.value)
    assert all(field in str(refused.value) for field in ("iters", "time"))


@pytest.mark.parametrize("value", [V.HAND, V.LINEAR])
def test_a_variant_kept_from_another_world_is_played_only_where_it_is_legal(value):
    """A child remembers the variant chosen for the mover's pool; in a world where that variant is not
    legal (what it pays or gains depends on more than the pool), another of this world's is played:
    an illegal one would leave the world broken (a negative essence, no legal action)."""
    state = amigos.new_game(3, "standard")
    while not (state.phase == ACTIONS and any(len(g) > 1 for g in state.legal_groups())):
        state.apply(state.legal_actions()[0])
    variants = next(g for g in state.legal_groups() if len(g) > 1)
    p = A.player(variants[0])
    child = M.Node(p)
    child.pool = tuple(state.pool[5 * p:5 * p + 5])
    child.action = variants[0][:-1] + ((9, 9, 9, 9, 9),)  # (the same pool, a variant of no world here)
    chosen = M._variant(state, variants, child, default_evaluator(value))
    assert chosen in variants and child.action == chosen
    assert M._variant(state, variants, child, default_evaluator(value)) == chosen  # (now kept: it is legal here)
