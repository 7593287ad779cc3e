"""The parts of the full-screen board as rich renderables: a player's tableau with the breakdown of
their points, the centre, the hand with what can be placed now, the redraft's face-up cards and the
banner that says the end is near.  Only what ``viewer`` may see is drawn.
"""

from __future__ import annotations

import io

from rich.console import Console, Group, RenderableType
from rich.text import Text

from amigos import actions as A
from amigos import cards as C
from amigos.adjudicate import WINNING_POINTS
from amigos.codes import (
    DECK,
    DISCARD,
    FACE_UP,
    GAME_OVER,
    HAND,
    IN_PLAY,
    SETUP_CHOOSE_FIRST,
    SETUP_REDRAFT,
    TEMPORARY,
    TOKEN,
)
from amigos.config import Action
from amigos.state import GameState

from ..views.board import centre, component, essences, scrolls_line


def flatten(renderable: RenderableType, width: int) -> Text:
    """``renderable`` laid out once at ``width`` columns, as styled text (styles and click actions
    kept): the screen then measures and redraws it without laying out its tables again."""
    console = Console(width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    lines = console.render_lines(renderable, console.options.update_width(width), pad=False)
    out = Text(no_wrap=True, end="")
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        for segment in line:
            if not segment.control:
                out.append(segment.text, segment.style)
    return out


def points_line(state: GameState, p: int) -> Text:
    """"Points: Library 2, Sunken Reef 3, first player 1": where each point comes from."""
    parts = []
    for source, points in state.points_breakdown(p):
        if source == TOKEN:
            name = "first player"
        elif source == TEMPORARY:
            name = "this round"
        else:
            name = state.cards[source].name
        parts.append(f"{name} {points:+d}" if points < 0 else f"{name} {points}")
    return Text("  points: " + (", ".join(parts) or "none"), style="magenta")


def tableau(state: GameState, p: int, viewer: int, names: list[str]) -> RenderableType:
    """A player in three short lines: name, points, token, pool, hand, deck and discard sizes; the
    components in play (mage and magic item first; turned ones dimmed, essences on them in brackets);
    where the points come from; and between the last two, the scrolls they hold, if any.  The discarded cards themselves are in the table list (``t``)."""
    head = Text()
    head.append(names[p], style="bold underline" if p == viewer else "bold")
    head.append(f" {state.vp(p)} VP", style="bold magenta")
    if state.first_player == p and state.phase != SETUP_CHOOSE_FIRST:
        head.append(" first player", style="cyan")
    if state.passed[p]:
        head.append(" passed", style="dim")
    head.append("  ")
    head.append_text(essences(state.pool_of(p)))
    counts = [sum(1 for e in range(state.n_art) if state.loc[e] == where and state.owner[e] == p)
              for where in (HAND, DECK, DISCARD)]
    head.append(f"  hand {counts[0]} deck {counts[1]}" + (f" discards {counts[2]}" if counts[2] else ""),
                style="dim")
    mine = [e for e in range(len(state.loc)) if state.loc[e] == IN_PLAY and state.owner[e] == p
            and state.cards[e].kind != C.SCROLL]  # (scrolls have a line of their own)
    first = [e for e in mine if state.cards[e].kind in (C.MAGE, C.MAGIC_ITEM)]
    rest = [e for e in mine if e not in first]
    line = Text("  ")
    for i, e in enumerate(first + rest):
        if i:
            line.append(" | " if i > len(first) - 1 and rest and e in rest else "  ", style="dim")
        line.append_text(component(state, e))
    held = scrolls_line(state, p)
    return Group(head, line, *([held] if held is not None else []), points_line(state, p))


def placeable(state: GameState, viewer: int) -> set[int]:
    """The cards of the viewer's hand they can place now (only while the decision is theirs)."""
    if state.is_terminal() or state.current_player() != viewer:
        return set()
    return {g[0][2] for g in state.legal_groups() if g[0][0] == A.PLACE}


def hand_entities(state: GameState, viewer: int) -> list[int]:
    return [e for e in range(state.n_art) if state.loc[e] == HAND and state.owner[e] == viewer]


def hand_line(state: GameState, e: int, can_place: bool) -> Text:
    card = state.cards[e]
    t = Text()
    t.append("+ " if can_place else "  ", style="bold green")
    t.append(card.name, style="bold green" if can_place else "")
    t.append("  ")
    if any(card.cost) or not card.cost_any:
        t.append_text(essences(card.cost, empty="free"))
    if card.cost_any:
        t.append(f" +{card.cost_any} any" if any(card.cost) else f"{card.cost_any} any", style="dim")
    return t


def middle(state: GameState, names: list[str], viewer: int) -> RenderableType:
    """The centre, and in the redraft the face-up cards with the pick order."""
    parts: list[RenderableType] = [centre(state, names)]
    if state.phase == SETUP_CHOOSE_FIRST:
        parts.append(Text("Who starts the next game: the loser of the last one chooses (after a shared "
                          "game, the player who went second in it).  The first player "
                          "holds the first player token (1 point until it passes on), plays first in "
                          "round 1, and before game 2 takes the redraft's first card and its last.", style="yellow"))
    if state.phase == SETUP_REDRAFT:
        left = sum(1 for e in range(state.n_art) if state.loc[e] == FACE_UP)
        parts.append(Text("The redraft: the first player takes 1 card, then 2 at a time in turn starting "
                          f"with the other player, and the first player takes the last; {left} left.",
                          style="yellow"))
    return Group(*parts)


def banner(state: GameState, names: list[str]) -> Text:
    """The line over the board: the game's state, and a warning when this round may be the last."""
    if state.phase == GAME_OVER or state.is_terminal():
        vp = state.victory_points()
        return Text("Game over: " + ", ".join(f"{names[p]} {vp[p]}" for p in range(state.n_players)), style="bold green")
    vp = state.victory_points()
    leaders = [p for p in range(state.n_players) if vp[p] >= WINNING_POINTS]
    if leaders and state.round >= 1:
        who = " and ".join(f"{names[p]} {vp[p]}" for p in leaders)
        return Text(f"{who}: last round if {WINNING_POINTS}+ holds when all have passed",
                    style="bold black on yellow")
    return Text("")


def card_of(state: GameState, action: Action) -> int | None:
    """The card (entity) an action is about (the one placed, used, claimed, discarded, picked), if any."""
    if len(action) > 2 and isinstance(action[2], int) and 0 <= action[2] < len(state.cards):
        return action[2]
    return None
