"""The parts of the full-screen board as rich renderables: a player's tableau with the breakdown of
their points, the centre, the hand with what can be placed now, the redraft's face-up cards and the
banner that says the end is near.  Only what ``viewer`` may see is drawn.
"""

from __future__ import annotations

import io

from rich.console import Console, Group, RenderableType
from rich.style import Style
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

from ..views.board import card_name, centre, component, essences, scroll_entities, scrolls_line


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


def head_line(state: GameState, p: int, viewer: int, names: list[str], discards: bool = True) -> Text:
    """"Ann 5 VP first player passed  2E 1C  hand 3 deck 4 discards 1": a player's name (underlined for
    the viewer), points, token, pool, and the sizes of their hand, deck and (with ``discards``, when
    not empty) discard pile."""
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
    head.append(f"  hand {counts[0]} deck {counts[1]}" + (f" discards {counts[2]}" if counts[2] and discards else ""),
                style="dim")
    return head


def in_play(state: GameState, p: int) -> tuple[list[int], list[int]]:
    """Player ``p``'s components in play but their scrolls (which have a line of their own): (mage and
    magic item, the rest)."""
    mine = [e for e in range(len(state.loc)) if state.loc[e] == IN_PLAY and state.owner[e] == p
            and state.cards[e].kind != C.SCROLL]
    first = [e for e in mine if state.cards[e].kind in (C.MAGE, C.MAGIC_ITEM)]
    return first, [e for e in mine if e not in first]


def tableau(state: GameState, p: int, viewer: int, names: list[str]) -> RenderableType:
    """A player in three short lines: name, points, token, pool, hand, deck and discard sizes; the
    components in play (mage and magic item first; turned ones dimmed, essences on them in brackets);
    where the points come from; and between the last two, the scrolls they hold, if any.  The discarded cards themselves are in the table list (``t``)."""
    head = head_line(state, p, viewer, names)
    first, rest = in_play(state, p)
    line = Text("  ")
    for i, e in enumerate(first + rest):
        if i:
            line.append(" | " if i > len(first) - 1 and rest and e in rest else "  ", style="dim")
        line.append_text(component(state, e))
    held = scrolls_line(state, p)
    return Group(head, line, *([held] if held is not None else []), points_line(state, p))


#: What a click on a rival's compact row does (the app's action, with the rival's seat).
EXPAND_ACTION = "app.expand_rival({})"


def compact_row(state: GameState, p: int, viewer: int, names: list[str]) -> Text:
    """A player in one line, cut with "…" at the width it is drawn at: `head_line` (without the discard
    pile, which the full tableau counts), then the names of their components in play (mage and magic
    item first, turned ones dimmed) and of their scrolls.  A click on the line outside a card's name
    runs `EXPAND_ACTION` (a card's name shows its text)."""
    row = head_line(state, p, viewer, names, discards=False)
    row.stylize(Style(meta={"@click": EXPAND_ACTION.format(p)}), 0, len(row))
    first, rest = in_play(state, p)
    held = [e for e in scroll_entities(state) if state.loc[e] == IN_PLAY and state.owner[e] == p]
    for group, style in ((first, "bold"), (rest, "bold"), (held, "cyan")):
        for i, e in enumerate(group):
            row.append(", " if i else "  ", style="dim")
            row.append_text(card_name(state, e, "dim" if state.turned[e] else style))
    row.no_wrap, row.overflow = True, "ellipsis"
    return row


def rivals_of(state: GameState, viewer: int) -> list[int]:
    """The viewer's rivals in the order of play after them (the next to play after the viewer first)."""
    n = state.n_players
    return [(viewer + k) % n for k in range(1, n)]


def expanded_rival(state: GameState, viewer: int, chosen: int | None) -> int:
    """The rival shown in full: ``chosen`` if it is one of the viewer's rivals, else the next to play
    after the viewer (at first, and after the viewer changed)."""
    others = rivals_of(state, viewer)
    return chosen if chosen in others else others[0]


def next_rival(state: GameState, viewer: int, chosen: int | None) -> int:
    """The rival shown in full after the one ``chosen`` now (`expanded_rival`): the next in the order
    of `rivals_of`, the first again after the last."""
    others = rivals_of(state, viewer)
    return others[(others.index(expanded_rival(state, viewer, chosen)) + 1) % len(others)]


def rivals(state: GameState, viewer: int, names: list[str], chosen: int | None) -> RenderableType:
    """Every rival of ``viewer`` in the order of play after them: of two players the rival's
    `tableau`; of more, a `compact_row` each but the `expanded_rival`'s, which is its `tableau`."""
    others = rivals_of(state, viewer)
    full = expanded_rival(state, viewer, chosen)
    return Group(*(tableau(state, p, viewer, names) if p == full else compact_row(state, p, viewer, names)
                   for p in others))


def fitted_tableau(state: GameState, p: int, viewer: int, names: list[str], width: int, room: int) -> Text:
    """Player ``p``'s `tableau` laid out at ``width`` if it fits in ``room`` lines; else their
    `compact_row` over where their points come from (cut to the lines left, at least one)."""
    full = flatten(tableau(state, p, viewer, names), width)
    if full.plain.count("\n") < room:
        return full
    points = cut_lines(flatten(points_line(state, p), width), room - 1, width)
    return Text("\n", no_wrap=True, end="").join([flatten(compact_row(state, p, viewer, names), width), points])


def cut_lines(text: Text, lines: int, width: int) -> Text:
    """The first ``lines`` lines (at least one) of ``text`` laid out at ``width`` columns (`flatten`),
    the last of them ending in "…" when some are left out."""
    laid = text.split("\n", allow_blank=True)
    if len(laid) <= lines:
        return text
    kept = list(laid)[:max(1, lines)]
    kept[-1].rstrip()
    kept[-1].truncate(width - 1)
    kept[-1].append("…", style="dim")
    return Text("\n", no_wrap=True, end="").join(kept)


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
