"""One gate for what a player sees (issue 52): every terminal screen draws from the engine's
`observation`, so two positions that differ only in what a viewer cannot see draw the same for them.

For positions of 2, 3 and 4 players, with and without *Lux et Tenebrae*, and their hidden twins (every
rival's hidden cards other cards, hand and deck swapped: `tests.helpers.hidden_twin`), each seat
gets the same line-prompt board, the same full-screen board (rivals, centre, tableau, hand, banner, end
of game), the same card panel (the cards on the table and their texts), the same replay hand and the
same log lines, decision after decision of a walk both positions take.  The drawn texts are compared
with their styles and click actions (a card's id in a click would be a leak too).
"""

from __future__ import annotations

import random

import pytest
from rich.console import RenderableType
from rich.style import Style

import amigos
from amigos.codes import DECK, HAND
from amigos.state import GameState
from amigos_cli.tui.board import banner, compact_row, flatten, hand_line, middle, points_line, rivals, rivals_of, tableau
from amigos_cli.tui.cards import card_text, on_table
from amigos_cli.views.board import board, hand_view, result_text
from amigos_cli.views.choices import placeable
from amigos_cli.views.log import round_line, settled_lines, step_line
from amigos_cli.views.outcome import collects, outcome
from amigos_cli.views.seen import Seen
from matches.session import make_step
from tests.helpers import hidden_twin, mid_game

NAMES = ["Ann", "Bob", "Cy", "Di"]
TABLES = [(players, expansions) for players in (2, 3, 4) for expansions in ((), ("lux",))]
STEPS = 8  # decisions of the walk after each position


def drawn(renderable: RenderableType) -> tuple[str, list[tuple[int, int, str, tuple[tuple[str, object], ...]]]]:
    """What a renderable shows at 100 columns: its text and every style, click actions included."""
    text = flatten(renderable, 100)
    spans = []
    for span in text.spans:
        style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
        spans.append((span.start, span.end, str(style), tuple(sorted(style.meta.items()))))
    return text.plain, spans


def screens(state: GameState, viewer: int, names: list[str]) -> dict[str, object]:
    """Everything the terminal screens draw of ``state`` for ``viewer``: the line prompt's board, the
    full screen's parts, its card panel and the replay's hand; the entry points that take a position
    are given the position itself (they look at it through the gate)."""
    seen = Seen.of(state, viewer)
    out: dict[str, object] = {
        "prompt board": drawn(board(state, viewer, names, ["Ann: Pass"], "Game 1")),
        "centre": drawn(middle(state, names, viewer)),
        "own tableau": drawn(tableau(state, viewer, viewer, names)),
        "banner": drawn(banner(seen, names)),
        "hand": [drawn(hand_line(card, card.id in placeable(state, viewer))) for card in seen.own_hand()],
        "replay hand": drawn(hand_view(state, viewer, "Ann's")),
        "table cards": on_table(seen),
        "card panel": [card_text(card, 60).plain for _, card in on_table(seen)],
    }
    for rival in rivals_of(seen):
        out[f"rivals, {rival} in full"] = drawn(rivals(seen, names, rival))
        out[f"rival {rival} at the end"] = [drawn(compact_row(seen, rival, names)), drawn(points_line(seen, rival))]
    if seen.over:
        out["result"] = drawn(result_text(state, names))
    return out


def hidden_names(state: GameState, viewer: int) -> set[str]:
    """The names of the cards in the rivals' hands and decks (what a screen that read the position could
    show)."""
    return {state.cards[e].name for e in range(state.n_art) if state.loc[e] in (HAND, DECK) and state.owner[e] != viewer}


def log_lines(before: GameState, after: GameState, action: tuple, settled: GameState | None, viewer: int,
              names: list[str]) -> list[str]:
    """Every log line of one decision for ``viewer``: its line, the forced moves before it, the round's
    score and collects, what it did to each player."""
    step = make_step(before.current_player(), action, amigos.action_text(before, action), 1, settled, before, after)
    lines = [step_line(step, viewer, names), *settled_lines(step, viewer, names), round_line(1, after, names),
             collects(before, after, names)]
    return lines + [outcome(before, after, p, viewer, step.text) for p in range(len(names))]


@pytest.mark.parametrize("seed", [4, 6])
@pytest.mark.parametrize("players, expansions", TABLES, ids=[f"{p}p{'-lux' if e else ''}" for p, e in TABLES])
def test_every_screen_draws_a_position_and_its_hidden_twin_alike(seed, players, expansions):
    names = NAMES[:players]
    start = mid_game(seed, players=players, expansions=expansions)
    rng = random.Random(seed)
    compared = 0
    for viewer in range(players):
        state = start.clone()
        twin = hidden_twin(state, viewer=viewer)
        assert hidden_names(state, viewer) != hidden_names(twin, viewer)  # (a leaky screen would differ)
        settled: tuple[GameState, GameState] | None = None
        for _ in range(STEPS):
            assert twin.observation(viewer) == state.observation(viewer)
            assert screens(twin, viewer, names) == screens(state, viewer, names), f"seat {viewer}"
            if state.is_terminal():
                break
            # (a decision both may take, told alike: the viewer's own, or a rival's public one)
            both = [a for a in state.legal_actions()
                    if a in twin.legal_actions() and amigos.action_text(state, a) == amigos.action_text(twin, a)]
            if not both:
                break
            action = rng.choice(both)
            after, twin_after = state.clone(), twin.clone()
            after.apply(action)
            twin_after.apply(action)
            lines = log_lines(state, after, action, settled and settled[0], viewer, names)
            assert log_lines(twin, twin_after, action, settled and settled[1], viewer, names) == lines, f"seat {viewer}"
            settled = (state, twin)
            state, twin = after, twin_after
            compared += 1
    assert compared >= players * 3
