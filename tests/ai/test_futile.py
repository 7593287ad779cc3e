"""Moves that only spend (`ai.futile`): which are, which are not, and the AI never plays one (issue 50,
"nothing for nothing")."""

from __future__ import annotations

import random

import pytest

import amigos
from ai.agents import make_agent
from ai.futile import futile, useful
from ai.mcts import group
from amigos.actions import CLAIM_MONUMENT, CLAIM_POP, DISCARD, PASS, PLACE, POWER, kind, player, subject
from amigos.config import GameConfig
from amigos.setup import deal


def positions(games: int, players: int = 2, seed: int = 0) -> list[amigos.GameState]:
    """Every decision of ``games`` random games (uniform choices) with two moves or more."""
    out = []
    for g in range(games):
        s = deal(seed + g, GameConfig(players=players))
        rng = random.Random(g)
        while not s.is_terminal():
            legal = s.legal_actions()
            if len(legal) > 1:
                out.append(s.clone())
            s.apply(rng.choice(legal))
    return out


@pytest.fixture(scope="module")
def played() -> list[amigos.GameState]:
    return positions(40, seed=100)


def uses(s: amigos.GameState, name: str) -> list[tuple]:
    return [a for a in s.legal_actions() if kind(a) == POWER and s.cards[subject(a)].name == name]


def test_a_pass_a_placement_a_claim_and_a_discard_are_never_futile(played):
    checked = 0
    for s in played[::7]:
        for a in s.legal_actions():
            if kind(a) in (PASS, PLACE, CLAIM_MONUMENT, CLAIM_POP, DISCARD):
                assert not futile(s, a), amigos.action_text(s, a)
                checked += 1
    assert checked > 100


def test_a_druid_with_nothing_to_straighten_is_futile_and_one_that_straightens_a_creature_is_not(played):
    idle = useful_druid = 0
    for s in played:
        for a in uses(s, "Druid"):
            after = s.clone()
            after.apply(a)
            straightened = [e for e in s.in_play(player(a)) if s.turned[e] and not after.turned[e]]
            assert futile(s, a) == (not straightened), amigos.action_text(s, a)
            idle += not straightened
            useful_druid += bool(straightened)
    assert idle and useful_druid


def test_a_dragon_s_attack_is_futile_once_every_rival_has_passed(played):
    seen = {True: 0, False: 0}
    for s in played:
        for a in uses(s, "Wind Dragon") + uses(s, "Sea Serpent"):
            everyone_passed = all(s.passed[q] for q in range(s.n_players) if q != player(a))
            if everyone_passed:
                assert futile(s, a), amigos.action_text(s, a)
            seen[everyone_passed] += 1
    assert seen[False]  # (and where a rival still plays it is not: the discard or the Life lost)


def test_useful_keeps_every_way_that_does_something_and_all_when_all_are_futile(played):
    for s in played[::23]:
        groups = group(s, True)
        kept = useful(s, groups)
        assert kept
        ways = [a for ways in kept.values() for a in ways]
        if all(futile(s, a) for g in groups.values() for a in g):
            assert kept == groups
        else:
            assert not [a for a in ways if futile(s, a)]
            assert all(a in ways for g in groups.values() for a in g if not futile(s, a))


def test_the_ai_never_plays_a_futile_move(played):
    offered = [s for s in played if any(futile(s, a) for a in s.legal_actions())][::10][:25]
    assert len(offered) >= 10
    agent = make_agent("mcts:iters=60,seed=3")
    for s in offered:
        action = agent.select(s.clone())
        assert not futile(s, action), amigos.action_text(s, action)


def test_a_victory_check_that_ends_the_game_is_never_futile(played):
    """Coral Castle's check of victory: never futile where it ends the game."""
    ended = 0
    for s in played:
        for a in uses(s, "Coral Castle"):
            after = s.clone()
            after.apply(a)
            if after.is_terminal():
                assert not futile(s, a)
                ended += 1
    assert ended
