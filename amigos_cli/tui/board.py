"""The parts of the full-screen board as rich renderables: a player's tableau with the breakdown of
their points, the centre, the hand with what can be placed now, the redraft's face-up cards and the
banner that says the end is near.  Only what ``viewer`` may see is drawn: each part from a `Seen`
(`amigos_cli.views.seen`), the engine's observation for the viewer.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rich.console import Console, Group, RenderableType
from rich.style import Style
from rich.text import Text

from amigos import cards as C
from amigos.adjudicate import WINNING_POINTS

from ..views.board import any_part, card_name, centre, component, essences, held_scrolls, scrolls_line
from ..views.seen import Piece, Seen, look

if TYPE_CHECKING:
    from ..views.seen import View


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


def points_line(seen: Seen, p: int) -> Text:
    """"Points: Library 2, Sunken Reef 3, first player 1": where each point comes from."""
    parts = []
    for source in seen.points_sources(p):
        name = source.card.name if source.card is not None else source.what.replace("_", " ")
        points = source.points
        parts.append(f"{name} {points:+d}" if points < 0 else f"{name} {points}")
    return Text("  points: " + (", ".join(parts) or "none"), style="magenta")


def head_line(seen: Seen, p: int, names: list[str], discards: bool = True) -> Text:
    """"Ann 5 VP first player passed  2E 1C  hand 3 deck 4 discards 1": a player's name (underlined for
    the viewer), points, token, pool, and the sizes of their hand, deck and (with ``discards``, when
    not empty) discard pile."""
    head = Text()
    head.append(names[p], style="bold underline" if p == seen.viewer else "bold")
    head.append(f" {seen.points(p)} VP", style="bold magenta")
    if seen.holds_token(p):
        head.append(" first player", style="cyan")
    if seen.has_passed(p):
        head.append(" passed", style="dim")
    head.append("  ")
    head.append_text(essences(seen.pool_counts(p)))
    pile = len(seen.discards(p))
    head.append(f"  hand {seen.hand_size(p)} deck {seen.deck_size(p)}" + (f" discards {pile}" if pile and discards else ""),
                style="dim")
    return head


def in_play(seen: Seen, p: int) -> tuple[list[Piece], list[Piece]]:
    """Player ``p``'s components in play but their scrolls (which have a line of their own): (mage and
    magic item, the rest)."""
    mine = [x for x in seen.pieces(p) if x.card.kind != C.SCROLL]
    first = [x for x in mine if x.card.kind in (C.MAGE, C.MAGIC_ITEM)]
    return first, [x for x in mine if x.card.kind not in (C.MAGE, C.MAGIC_ITEM)]


def tableau(view: View, p: int, viewer: int, names: list[str]) -> RenderableType:
    """A player in three short lines: name, points, token, pool, hand, deck and discard sizes; the
    components in play (mage and magic item first; turned ones dimmed, essences on them in brackets);
    where the points come from; between the last two, the scrolls they hold, if any; and a rival's
    discard pile by name (public: `discard_line`).  Every card seen is also in the table list (``t``)."""
    seen = look(view, viewer)
    head = head_line(seen, p, names)
    first, rest = in_play(seen, p)
    line = Text("  ")
    for i, x in enumerate(first + rest):
        if i:
            line.append(" | " if i >= len(first) and rest else "  ", style="dim")
        line.append_text(component(x))
    held = scrolls_line(seen, p)
    pile = discard_line(seen, p) if p != viewer else None
    return Group(head, line, *([held] if held is not None else []), points_line(seen, p),
                 *([pile] if pile is not None else []))


def discard_line(seen: Seen, p: int) -> Text | None:
    """"Discards: Hawk, Elvish Bow": player ``p``'s discard pile by name, clickable (None when empty)."""
    pile = seen.discards(p)
    if not pile:
        return None
    line = Text("  Discards: ", style="dim")
    for i, card in enumerate(pile):
        if i:
            line.append(", ", style="dim")
        line.append_text(card_name(card, "dim"))
    return line


#: What a click on a rival's compact row does (the app's action, with the rival's seat).
EXPAND_ACTION = "app.expand_rival({})"


def compact_row(seen: Seen, p: int, names: list[str]) -> Text:
    """A player in one line, cut with "…" at the width it is drawn at: `head_line` (without the discard
    pile, which the full tableau counts), then the names of their components in play (mage and magic
    item first, turned ones dimmed) and of their scrolls.  A click on the line outside a card's name
    runs `EXPAND_ACTION` (a card's name shows its text)."""
    row = head_line(seen, p, names, discards=False)
    row.stylize(Style(meta={"@click": EXPAND_ACTION.format(p)}), 0, len(row))
    first, rest = in_play(seen, p)
    for group, style in ((first, "bold"), (rest, "bold"), (held_scrolls(seen, p), "cyan")):
        for i, x in enumerate(group):
            row.append(", " if i else "  ", style="dim")
            row.append_text(card_name(x.card, "dim" if x.is_turned else style))
    row.no_wrap, row.overflow = True, "ellipsis"
    return row


def rivals_of(seen: Seen) -> list[int]:
    """The viewer's rivals in the order of play after them (the next to play after the viewer first)."""
    n = seen.player_count
    return [(seen.viewer + k) % n for k in range(1, n)]


def expanded_rival(seen: Seen, chosen: int | None) -> int:
    """The rival shown in full: ``chosen`` if it is one of the viewer's rivals, else the next to play
    after the viewer (at first, and after the viewer changed)."""
    others = rivals_of(seen)
    return chosen if chosen in others else others[0]


def next_rival(seen: Seen, chosen: int | None) -> int:
    """The rival shown in full after the one ``chosen`` now (`expanded_rival`): the next in the order
    of `rivals_of`, the first again after the last."""
    others = rivals_of(seen)
    return others[(others.index(expanded_rival(seen, chosen)) + 1) % len(others)]


def rivals(seen: Seen, names: list[str], chosen: int | None) -> RenderableType:
    """Every rival of the viewer in the order of play after them: of two players the rival's
    `tableau`; of more, a `compact_row` each but the `expanded_rival`'s, which is its `tableau`."""
    full = expanded_rival(seen, chosen)
    return Group(*(tableau(seen, p, seen.viewer, names) if p == full else compact_row(seen, p, names)
                   for p in rivals_of(seen)))


def fitted_tableau(seen: Seen, p: int, names: list[str], width: int, room: int) -> Text:
    """Player ``p``'s `tableau` laid out at ``width`` if it fits in ``room`` lines; else their
    `compact_row` over where their points come from (cut to the lines left, at least one)."""
    full = flatten(tableau(seen, p, seen.viewer, names), width)
    if full.plain.count("\n") < room:
        return full
    points = cut_lines(flatten(points_line(seen, p), width), room - 1, width)
    return Text("\n", no_wrap=True, end="").join([flatten(compact_row(seen, p, names), width), points])


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


def hand_line(card: C.Card, can_place: bool) -> Text:
    t = Text()
    t.append("+ " if can_place else "  ", style="bold green")
    t.append(card.name, style="bold green" if can_place else "")
    t.append("  ")
    if any(card.cost) or not card.cost_any:
        t.append_text(essences(card.cost, empty="free"))
    if card.cost_any:
        t.append((" " if any(card.cost) else "") + any_part(card.cost_any, any(card.cost)), style="dim")
    return t


def middle(view: View, names: list[str], viewer: int) -> RenderableType:
    """The centre, and in the redraft the face-up cards with the pick order."""
    seen = look(view, viewer)
    parts: list[RenderableType] = [centre(seen, names)]
    if seen.phase_name == "SETUP_CHOOSE_FIRST":
        parts.append(Text("Who starts the next game: the loser of the last one chooses (after a shared "
                          "game, the player who went second in it).  The first player "
                          "holds the first player token (1 point until it passes on), plays first in "
                          "round 1, and before game 2 takes the redraft's first card and its last.", style="yellow"))
    if seen.phase_name == "SETUP_REDRAFT":
        left = len(seen.face_up())
        parts.append(Text("The redraft: the first player takes 1 card, then 2 at a time in turn starting "
                          f"with the other player, and the first player takes the last; {left} left.",
                          style="yellow"))
    return Group(*parts)


def banner(seen: Seen, names: list[str]) -> Text:
    """The line over the board: the game's state, and a warning when this round may be the last."""
    vp = [seen.points(p) for p in range(seen.player_count)]
    if seen.over:
        return Text("Game over: " + ", ".join(f"{names[p]} {vp[p]}" for p in range(seen.player_count)), style="bold green")
    leaders = [p for p in range(seen.player_count) if vp[p] >= WINNING_POINTS]
    if leaders and seen.round_number >= 1:
        who = " and ".join(f"{names[p]} {vp[p]}" for p in leaders)
        return Text(f"{who}: last round if {WINNING_POINTS}+ holds when all have passed",
                    style="bold black on yellow")
    return Text("")
