"""Every agent plays games with *Lux et Tenebrae* to the end, through every new decision, and the card
values the draft and redraft pick with cover the new cards."""

from __future__ import annotations

import math

import pytest

import amigos
from ai.agents import make_agent
from ai.draft import pick_scores
from ai.learned import ValueModel
from ai.value import card_value
from amigos import actions as A
from amigos import cards as C
from amigos.config import GameConfig
from matches.arena import play_game

LUX = ("lux",)


@pytest.mark.parametrize("specs", [("random", "greedy"), ("expectimax:depth=1", "random"),
                                   ("mcts:iters=40", "greedy")])
@pytest.mark.parametrize("variant", ["standard", "draft"])
def test_agents_play_an_expansion_game_to_the_end(specs, variant):
    result = play_game(3, GameConfig.parse(variant, expansions=LUX), list(specs))
    assert result["winners"] and result["decisions"] > 20


def test_the_search_sees_only_what_its_player_sees_and_picks_legal_moves():
    s = amigos.new_game(8, expansions=LUX)
    agents = [make_agent("mcts:iters=30", seed=1), make_agent("greedy", seed=2)]
    kinds = set()
    for _ in range(400):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        a = agents[s.current_player()].select(s)
        assert a in legal
        kinds.add(A.kind(a))
        s.apply(a)
    assert len(kinds) >= 4


def test_every_new_artifact_and_mage_has_a_draft_value():
    model = ValueModel.load()
    for card in C.set_cards(C.ARTIFACT, LUX) + C.set_cards(C.MAGE, LUX):
        assert math.isfinite(card_value(card)) and math.isfinite(model.card_worth(card)), card.id
    assert max(card_value(card) for card in C.set_cards(C.ARTIFACT, LUX)) > 1


def test_a_draft_with_the_expansion_scores_every_pick():
    s = amigos.new_game(4, "draft", expansions=LUX)
    model = ValueModel.load()
    scores = pick_scores(s, model)
    assert len(scores) == len(s.legal_actions())
    assert all(math.isfinite(score) for score, _, _ in scores)
