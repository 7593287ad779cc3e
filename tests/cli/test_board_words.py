"""What the full screen's board and log say (issue 54): a rival's discard pile named, on their tableau and
in the table list (``t``), each pile as its player's (point 4); a round's collects line that does not
say "nothing" of a player still choosing (point 5)."""

from __future__ import annotations

import io
import random

from rich.console import Console, RenderableType

import amigos
from amigos.config import GameConfig
from amigos_cli.tui.board import tableau
from amigos_cli.tui.cards import on_table
from amigos_cli.views.seen import Seen


def _render(thing: RenderableType) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(thing)
    return out.getvalue()


def _with_discards(seed: int) -> amigos.GameState:
    """A random game's first position where both players have discarded."""
    state = amigos.deal(seed, GameConfig())
    rng = random.Random(seed)
    while not all(state.discard_pile(p) for p in range(2)):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_rival_s_discard_pile_is_named_on_their_tableau_and_each_pile_is_its_player_s_in_the_table_list():
    state = _with_discards(3)
    names = ["Ann", "Bob"]
    theirs = [state.cards[e].name for e in state.discard_pile(1)]
    mine = [state.cards[e].name for e in state.discard_pile(0)]
    board = _render(tableau(state, 1, 0, names))
    assert "Discards:" in board and all(name in " ".join(board.split("Discards:")[1].split()) for name in theirs)
    assert "Discards:" not in _render(tableau(state, 0, 0, names))  # (your own: counted, and in your list)
    listed = on_table(Seen.of(state, 0), names)
    assert {card for where, card in listed if where == "Bob's discard pile"} == \
        {state.cards[e].id for e in state.discard_pile(1)}
    assert {card for where, card in listed if where == "your discard pile"} == \
        {state.cards[e].id for e in state.discard_pile(0)}
    assert not [where for where, _ in listed if where == "discarded"]
    assert mine  # (the position has both piles)


def test_a_round_s_collects_say_who_is_still_collecting_not_that_they_collected_nothing():
    """Issue 54, point 5: the line written as a round begins comes before the Collect choices; a player
    still to choose is "collecting", never "nothing"."""
    from amigos.codes import COLLECT
    from amigos_cli.views.outcome import collects

    names, found = ["Ann", "Bob"], 0
    for seed in range(6):
        state = amigos.deal(seed, GameConfig())
        rng = random.Random(seed)
        while not state.is_terminal():
            before = state.clone()
            state.apply(rng.choice(state.legal_actions()))
            line = collects(before, state, names)
            if line and state.phase == COLLECT:  # (a round began and stopped at someone's choice)
                chooser = state.current_player()
                found += 1
                for p in range(chooser, 2):
                    assert f"{names[p]} " in line and "(collecting)" in line.split(f"{names[p]} ")[1].split(",")[0]
                for p in range(chooser):
                    assert "(collecting)" not in line.split(f"{names[p]} ")[1].split(",")[0]
    assert found


def test_a_negative_seed_names_its_file_without_a_double_dash():
    from matches.folder import default_path
    assert default_path(5).name == "amigos-5.amigos" and default_path(-5).name == "amigos-minus5.amigos"
