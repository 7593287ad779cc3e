"""Draft picks by the network (``draft=2``): each pick's chance after it, averaged over worlds dealt
from what the picker knows, never from the rival's hidden packet."""

from __future__ import annotations

import pytest

import amigos
from ai.agents import SpecError, make_agent
from ai.draft import network_picks
from amigos import actions as A
from amigos.codes import DECK, SETUP_DRAFT


def _deck_ids(state, p):
    return {state.cards[e].id for e in range(state.n_art) if state.loc[e] == DECK and state.owner[e] == p}


def test_the_pick_the_value_likes_best_comes_first():
    state = amigos.new_game(3, "draft")
    p = state.current_player()
    legal = state.legal_actions()
    liked = state.cards[A.subject(legal[-1])].id

    def leaf(s):  # the picker wins when the liked card is in their deck
        rewards = [0.0] * s.n_players
        rewards[p] = 1.0 if liked in _deck_ids(s, p) else 0.25
        return rewards

    ranked = network_picks(state, leaf, worlds=3, seed=1)
    assert [a for _, a in ranked][0] == legal[-1]
    assert ranked[0][0] == 1.0 and all(chance == 0.25 for chance, _ in ranked[1:])
    assert sorted(a for _, a in ranked) == sorted(legal)


def test_the_picks_read_nothing_of_the_rival_s_kept_card():
    """Whichever card player 0 keeps from the packet player 1 passed on, player 1 (to pick next, the
    packets not yet passed again) ranks its picks the same."""
    state = amigos.new_game(3, "draft")
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])  # packets passed; player 0 picks, then player 1
    assert state.phase == SETUP_DRAFT and state.current_player() == 0

    def leaf(s):  # a value of player 1 that would tell the rival's real deck from a dealt one
        rewards = [0.5] * s.n_players
        rewards[1] = sum(map(ord, "".join(sorted(_deck_ids(s, 0))))) % 997 / 997
        return rewards

    twins = []
    for a in state.legal_actions():
        twin = state.clone()
        twin.apply(a)
        twins.append(twin)
    assert all(twin.current_player() == 1 for twin in twins)
    assert len({frozenset(_deck_ids(twin, 0)) for twin in twins}) == len(twins) > 1
    rankings = {repr(network_picks(twin, leaf, worlds=4, seed=9)) for twin in twins}
    assert len(rankings) == 1


def test_an_agent_drafts_by_the_network_and_says_its_chances():
    state = amigos.new_game(5, "draft")
    agent = make_agent("mcts:iters=10,draft=2,seed=3")
    action = agent.select(state)
    assert action in state.legal_actions()
    picks = agent.info["picks"]
    assert picks and all(0.0 <= pick["chance"] <= 1.0 for pick in picks)
    assert picks[0]["card"] == state.cards[A.subject(action)].name
    assert [pick["chance"] for pick in picks] == sorted((pick["chance"] for pick in picks), reverse=True)


def test_draft_takes_three_values():
    with pytest.raises(SpecError, match="draft"):
        make_agent("mcts:iters=10,draft=3")
