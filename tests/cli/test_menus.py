"""The menus' choices (`amigos_cli.views.choices.menu_groups`): the ways that do nothing dropped, the
moves that do nothing at all listed last and said to do nothing, a power's words saying what it does,
and the line prompt asking before a pass that leaves powers usable."""

from __future__ import annotations

import io
import random

from rich.console import Console

import amigos
from ai.futile import futile
from amigos import actions as A
from amigos import cards as C
from amigos.codes import ACTIONS
from amigos_cli.human import Human
from amigos_cli.views.choices import group_text, menu_groups


def _positions(seeds: range) -> list[amigos.GameState]:
    """The action-phase positions of random games."""
    out = []
    for seed in seeds:
        s, rng = amigos.new_game(seed), random.Random(seed)
        while not s.is_terminal():
            if s.phase == ACTIONS:
                out.append(s.clone())
            s.apply(rng.choice(s.legal_actions()))
    return out


def test_a_menu_keeps_every_useful_way_and_puts_the_moves_that_do_nothing_last():
    dropped = idle = 0
    for state in _positions(range(12)):
        groups = menu_groups(state)
        offered = [a for g in groups for a in g]
        legal = state.legal_actions()
        assert set(offered) <= set(legal) and len(offered) == len(set(offered))
        assert {a for a in legal if not futile(state, a)} <= set(offered)  # (no useful move lost)
        dropped += len(legal) - len(offered)
        doing = [all(futile(state, a) for a in g) for g in groups]
        assert doing == sorted(doing), "a move that does nothing is listed before a useful one"
        for g, nothing in zip(groups, doing):
            assert ("does nothing" in group_text(state, g)) == nothing
            idle += nothing
    assert dropped and idle, "the positions had no futile way: the test checks nothing"


def test_a_power_whose_words_say_nothing_gets_its_summary():
    """"Use Coral Castle" alone says nothing of what it does: its summary follows."""
    for state in _positions(range(40)):
        for g in menu_groups(state):
            if A.kind(g[0]) == A.POWER and state.cards[A.subject(g[0])].name == "Coral Castle":
                assert "check victory" in group_text(state, g)
                return
    raise AssertionError("Coral Castle's power was never offered in 40 random games")


def _usable_power_position() -> tuple[amigos.GameState, int, int]:
    """A position where the player to act may pass or use a power that does something: (state, the
    pass's menu number, a power's)."""
    for state in _positions(range(20)):
        groups = menu_groups(state)
        kinds = [A.kind(g[0]) for g in groups]
        useful = [i for i, g in enumerate(groups) if kinds[i] == A.POWER and not all(futile(state, a) for a in g)]
        if A.PASS in kinds and useful:
            return state, kinds.index(A.PASS) + 1, useful[0] + 1
    raise AssertionError("no position with a useful power and a pass")


def test_a_pass_that_leaves_powers_usable_is_asked_again_at_the_line_prompt():
    state, passing, _ = _usable_power_position()
    answers = iter([str(passing), "n", str(passing), "y"])
    prompts: list[str] = []
    human = Human(state.current_player(), ["Ann", "Bob"], Console(file=io.StringIO(), width=100),
                  ask=lambda prompt: prompts.append(prompt) or next(answers))
    chosen = human.select(state)
    assert A.kind(chosen) == A.PASS
    confirmations = [p for p in prompts if "still usable this round" in p]
    assert len(confirmations) == 2, prompts
    names = {state.cards[A.subject(a)].name for a in state.legal_actions() if A.kind(a) == A.POWER
             and not futile(state, a)}
    assert any(name in confirmations[0] for name in names)


def test_a_pass_with_no_power_left_is_not_asked_again():
    for state in _positions(range(20)):
        groups = menu_groups(state)
        kinds = [A.kind(g[0]) for g in groups]
        if A.PASS in kinds and A.POWER not in kinds:
            prompts: list[str] = []
            answer = str(kinds.index(A.PASS) + 1)
            human = Human(state.current_player(), ["Ann", "Bob"], Console(file=io.StringIO(), width=100),
                          ask=lambda prompt, said=prompts, typed=answer: said.append(prompt) or typed)
            assert A.kind(human.select(state)) == A.PASS and len(prompts) == 1
            return
    raise AssertionError("no position with a pass and no power")



def test_the_ways_of_a_choice_of_essence_are_in_the_essences_order_whatever_the_card():
    """Magical Shard's ways read elan, life, calm, death (the board's order), not the engine's; the
    typing field's example is the first way as it is typed."""
    from amigos.position import build_position
    from amigos_cli.tui.picker import typing_example
    from amigos_cli.views.choices import ordered_variants, variant_text

    state = build_position(players=[{"mage": "witch", "item": "alchemy", "in_play": ["magical_shard"]},
                                    {"mage": "healer", "item": "protection"}])
    shard = next(g for g in menu_groups(state) if A.kind(g[0]) == A.POWER
                 and state.cards[A.subject(g[0])].name == "Magical Shard")
    assert [variant_text(state, a) for a in ordered_variants(shard)] == \
        ["gain 1 elan", "gain 1 life", "gain 1 calm", "gain 1 death"]
    assert typing_example(ordered_variants(shard)) == "or type it, e.g. 1E"  # (the first way, as typed)
    rich = build_position(players=[
        {"mage": "witch", "item": "transmutation", "pool": {"elan": 3, "life": 3, "calm": 3, "death": 3, "gold": 3}},
        {"mage": "healer", "item": "protection"}])
    transmute = next(g for g in menu_groups(rich) if A.kind(g[0]) == A.POWER)
    example = typing_example(ordered_variants(transmute))
    assert example.startswith("or type it, e.g. ") and example.endswith(" (pay / gain)") and " / " in example


def test_a_cost_of_any_essences_reads_alike_on_every_screen():
    """Crypt costs 2 Death and 3 of any kind: "2D +3 any" in the hand, the cards' table, a draft pick
    and the web board's catalog (one formula: `amigos_cli.views.board.cost_words`)."""
    from amigos.carddata import components
    from amigos_cli.table.view import catalog
    from amigos_cli.tui.board import hand_line
    from amigos_cli.views.board import cost_words
    from amigos_cli.views.cards import cost_text

    crypt = next(c for c in C.CARDS if c.name == "Crypt")
    assert cost_words(crypt.cost, crypt.cost_any) == "2D +3 any"
    assert cost_words((0, 0, 0, 0, 0), 2) == "2 any" and cost_words((0, 0, 0, 0, 0), 0) == "free"
    assert hand_line(crypt, False).plain.endswith("2D +3 any")
    data = next(c for c in components() if c["name"] == "Crypt")
    assert cost_text(data["cost"]).plain == "2D +3 any"
    assert catalog(("base",))[crypt.id]["cost_any_words"] == "+3 any"
