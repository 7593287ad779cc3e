"""Belief: the worlds a search deals weighed by the rival's choices, seeing nothing the searcher may
not see; `recast` (a past position as a world's history has it); the search with ``belief=K``."""

from __future__ import annotations

import random

import numpy as np
import pytest

import amigos
from ai import policy as P
from ai.belief import Belief
from amigos import actions as A
from amigos.codes import HAND
from amigos.config import GameConfig
from amigos.determinize import Determinizer, determinize, recast

OBSERVER, RIVAL = 0, 1


def _game(seed: int, decisions: int) -> tuple[amigos.GameState, list[tuple[amigos.GameState, tuple]]]:
    """A random game's position after some decisions, and every decision (position, action) before."""
    state = amigos.deal(seed, GameConfig())
    rng = random.Random(seed)
    told = []
    while len(told) < decisions and not state.is_terminal():
        action = rng.choice(state.legal_actions())
        told.append((state.clone(), action))
        state.apply(action)
    return state, told


def _belief(told) -> Belief:
    belief = Belief()
    for state, action in told:
        belief.observe(state, action)
    return belief


def test_a_past_position_recast_holds_the_world_s_cards_where_the_past_had_its_components():
    now, told = _game(4, 60)
    past = told[30][0]
    world = determinize(now, OBSERVER, 9)
    then = recast(past, world)
    assert then.cards is world.cards and then.loc == past.loc and then.pool == past.pool
    assert then.legal_actions()  # (its moves worked out for its own cards, not the past's cached ones)
    then.apply(then.legal_actions()[0])
    assert past.loc == told[30][0].loc and world.loc == determinize(now, OBSERVER, 9).loc
    with pytest.raises(ValueError):
        recast(past, amigos.deal(1, GameConfig(expansions=("lux",))))


def test_the_weights_read_nothing_of_the_rival_s_real_cards():
    """Two games the observer cannot tell apart (the same public history, the rival holding other
    cards) give every world the same weight."""
    net = P.PolicyNet.initial(16, 5)
    net.u[:] = np.random.default_rng(2).normal(0, 2, P.N_MOVE_INPUTS)
    net.v[:] = np.random.default_rng(3).normal(0, 0.5, net.v.shape)
    now, told = _game(6, 30)
    other_truth = determinize(now, OBSERVER, 77)  # (another rival hand and deck, the same public game)
    assert other_truth.cards != now.cards
    told_other = [(recast(state, other_truth), action) for state, action in told]
    worlds = [determinize(now, OBSERVER, s) for s in range(12)]
    mine, theirs = _belief(told), _belief(told_other)
    assert mine.rival_choices(OBSERVER)
    shares = mine.weights(worlds, net, OBSERVER)
    assert np.allclose(shares, theirs.weights(worlds, net, OBSERVER)) and shares.sum() == pytest.approx(1.0)
    assert shares.max() > 1.2 * shares.min()  # (not all equal: the choices told something)


def test_a_world_in_which_the_rival_would_have_chosen_otherwise_weighs_less():
    """Under a model by which a player holding card X always discards it, a rival who kept X's place
    in hand and did something else most likely does not hold X."""
    now, told = _game(8, 15)
    belief = _belief(told)
    choices = belief.rival_choices(OBSERVER)
    past, move = [(state, m) for state, m in choices if any(x[0] == A.DISCARD for x in P.moves_of(state))][-1]
    assert move[0] != A.DISCARD or past.cards[move[2]].id
    dealer = Determinizer(now, OBSERVER)
    worlds = [dealer.deal(s) for s in range(200)]

    def rival_hand(world) -> set[str]:
        then = recast(past, world)
        return {then.cards[e].id for e in range(then.n_art) if then.loc[e] == HAND and then.owner[e] == RIVAL}
    candidates = {c for w in worlds for c in rival_hand(w)}
    discarded = {past.cards[m[2]].id for _, m in choices if m[0] == A.DISCARD}
    card = next(c for c in sorted(candidates) if c not in discarded and 8 <= sum(c in rival_hand(w) for w in worlds) <= 190)
    net = P.PolicyNet.initial(8, 1)
    net.v[:] = 0.0
    net.u[P.SUBJECT_AT + A.DISCARD * P.E.N_CARDS + P.E.CARD_INDEX[card]] = 8.0
    shares = belief.weights(worlds, net, OBSERVER)
    holding = [s for w, s in zip(worlds, shares) if card in rival_hand(w)]
    others = [s for w, s in zip(worlds, shares) if card not in rival_hand(w)]
    assert np.mean(holding) < 0.5 * np.mean(others)


def test_a_new_game_forgets_the_last_and_only_choices_are_kept():
    _, told = _game(3, 120)
    belief = _belief(told)
    assert 0 < len(belief.seen) <= 2 * 8
    assert all(len(P.moves_of(state)) > 1 for state, _, _ in belief.seen)
    first, action = _game(5, 1)[1][0]
    belief.observe(first, action)
    assert len(belief.seen) <= 1


def test_the_search_with_belief_deals_weighed_worlds_and_is_reproducible(tmp_path, monkeypatch):
    from ai.agents import SpecError, make_agent
    net = P.PolicyNet.initial(8, 3)
    net.save(tmp_path / "p.npz")
    monkeypatch.setenv(P.POLICY_ENV, str(tmp_path / "p.npz"))
    now, told = _game(11, 70)
    while now.current_player() != OBSERVER or len(now.legal_actions()) < 3:
        told.append((now.clone(), now.legal_actions()[0]))
        now.apply(now.legal_actions()[0])
    moves = []
    for _ in range(2):
        agent = make_agent("mcts:iters=150,belief=16,seed=4")
        for state, action in told:
            agent.observe(state, action)
        moves.append(agent.select(now.clone()))
        assert agent.info["believed_worlds"] > 1 and agent.info["iterations"] == 150
    assert moves[0] == moves[1] and moves[0] in now.legal_actions()
    monkeypatch.setenv(P.POLICY_ENV, str(tmp_path / "missing.npz"))
    with pytest.raises(SpecError, match="belief needs the model of choices: .*no such file"):
        make_agent("mcts:iters=20,belief=8")  # (refused when the spec is read, not mid-game)


def test_an_agent_is_told_every_decision_and_a_resumed_match_plays_on_as_an_unbroken_one(tmp_path, monkeypatch):
    """`play_out` tells every agent each decision, a resumed game's earlier ones first, so that an
    agent with belief decides in a resumed match as it would have without the break."""
    from ai.agents import make_agent
    from matches.match import Match, play
    P.PolicyNet.initial(8, 3).save(tmp_path / "p.npz")
    monkeypatch.setenv(P.POLICY_ENV, str(tmp_path / "p.npz"))
    specs = ["mcts:iters=30,belief=8", "greedy"]

    def agents():
        return [make_agent(spec, seed=p) for p, spec in enumerate(specs)]
    unbroken = play(Match.new(21, specs, fmt="game"), agents())
    broken = Match.new(21, specs, fmt="game")
    stop = {"after": 40}

    class Stop(Exception):
        pass

    def save(match: Match) -> None:
        if len(match.record["games"][-1]["decisions"]) == stop["after"]:
            raise Stop
    with pytest.raises(Stop):
        play(broken, agents(), save=save)
    resumed = Match.from_record(broken.record)
    assert len(resumed.history()) == 40 and resumed.history()[0][0].digest() == amigos.deal(
        broken.record["games"][0]["seed"], GameConfig()).digest()
    stop["after"] = -1
    play(resumed, agents(), save=save)
    decisions = [d[:2] for d in unbroken.record["games"][0]["decisions"]]
    assert [d[:2] for d in resumed.record["games"][0]["decisions"]] == decisions
