"""The board's widgets on the full screen: the board itself (the rivals, the centre and the viewer's
tableau) and the viewer's hand, each drawn from what the viewer sees (a `Seen`: only what they may see)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..views.board import face_down_line, known_deck
from ..views.seen import Seen
from .board import (
    compact_row,
    expanded_rival,
    fitted_tableau,
    flatten,
    hand_line,
    middle,
    next_rival,
    rivals_of,
    tableau,
)

MIN_WIDTH = 20  # the fewest columns the board is laid out at (before the screen has its size)


class Board(VerticalScroll):
    """The rivals (`rivals`: of two players the rival's tableau; of more, a line each but the one
    ``chosen`` to be shown in full), the centre and the viewer's tableau, top to bottom, each laid out
    as text at the board's width (`flatten`): `draw` lays them out again (after a resize too)."""

    drawn: tuple[Seen, list[str]] | None = None  # what `draw` drew last, laid out again on a resize
    chosen: int | None = None  # the rival shown in full (`expanded_rival`: None, the next to play after the viewer)
    laid: tuple[int, int] = (0, 0)  # the width `draw` laid the board out at, and the lines of its centre and viewer
    needed: int = 0  # the lines of the board as `draw` laid it out (0: not drawn yet)

    def compose(self) -> ComposeResult:
        yield Static(id="rival")
        yield Static(id="centre")
        yield Static(id="mine")

    def on_resize(self, event: events.Resize) -> None:
        """Lay the board out again at its new width (the screen's own resize comes before the board's;
        a new height alone is the board's own lines changing, or the screen's, which `GameApp` hears)."""
        if max(MIN_WIDTH, self.scrollable_content_region.width) != self.laid[0]:
            self.draw_again()

    def draw_again(self) -> None:
        """Lay out again what was drawn last (at a new width, in a new height, with another rival in full)."""
        if self.drawn is not None:
            self.draw(*self.drawn)

    def draw(self, seen: Seen, names: list[str]) -> None:
        """Draw what the viewer sees."""
        self.drawn = (seen, names)
        width = max(MIN_WIDTH, self.scrollable_content_region.width)
        centre = flatten(middle(seen, names, seen.viewer), width)
        mine = flatten(tableau(seen, seen.viewer, seen.viewer, names), width)
        self.laid = (width, lines(centre) + lines(mine))
        rivals = self.rivals(seen, names, width, self.laid[1])
        self.needed = lines(rivals) + self.laid[1]
        self.query_one("#rival", Static).update(rivals)
        self.query_one("#centre", Static).update(centre)
        self.query_one("#mine", Static).update(mine)

    def rivals(self, seen: Seen, names: list[str], width: int, taken: int) -> Text:
        """The rivals laid out at ``width``: of two players the rival's tableau; of more, a line each
        (`compact_row`) in the order of play after the viewer, but the rival `chosen` in full; either in
        the lines the board's height leaves (``taken``: the lines of the centre and the viewer's), so that
        the viewer's tableau stays on the screen (`fitted_tableau`).  Empty lines after them make the
        block as tall as with the tallest rival in full: showing another one (``>``) then redraws the
        block alone, without laying the screen out again (60 ms to 45 ms a key, lab/screen_speed.py)."""
        others = rivals_of(seen)
        full = expanded_rival(seen, self.chosen)
        if len(others) == 1:  # (of two players the rival in full, but in short when the board is short)
            return fitted_tableau(seen, full, names, width, self.height_allowed() - taken)
        room = self.height_allowed() - taken - (len(others) - 1)
        fitted = {p: fitted_tableau(seen, p, names, width, room) for p in others}
        parts = [fitted[p] if p == full else flatten(compact_row(seen, p, names), width) for p in others]
        tallest = max(lines(t) for t in fitted.values())
        return Text("\n", no_wrap=True, end="").join(parts) + Text("\n" * (tallest - lines(fitted[full])))

    def height_allowed(self) -> int:
        """The lines the board may take (its ``max-height`` in ``game.tcss``), or a screenful before
        the board is laid out."""
        parent, most = self.parent, self.styles.max_height
        if not isinstance(parent, Widget) or not parent.size.height:
            return self.app.size.height
        return int(most.resolve(parent.size, self.app.size)) if most is not None else parent.size.height

    def show_rival(self, rival: int | None = None) -> None:
        """Show ``rival`` in full (None: the next rival after the one shown in full): the rivals drawn
        again, the centre and the viewer's tableau as they were."""
        if self.drawn is not None:
            seen, names = self.drawn
            self.chosen = next_rival(seen, self.chosen) if rival is None else rival
            self.query_one("#rival", Static).update(self.rivals(seen, names, *self.laid))


def lines(text: Text) -> int:
    """The lines of a laid-out text (`flatten`)."""
    return text.plain.count("\n") + 1


class Hand(OptionList):
    """The viewer's hand, one card a line (an option's id is the card's id), those they can place
    now marked; then the cards of their deck they know, dim and not to be chosen."""

    def draw(self, seen: Seen, title: str, can_place: frozenset[str] = frozenset()) -> None:
        """Draw the viewer's hand under ``title``, the cards of ``can_place`` (ids) marked; the highlight
        stays on the same line."""
        highlighted = self.highlighted
        self.clear_options()
        mine = seen.own_hand()
        self.add_options([Option(hand_line(c, c.id in can_place), id=c.id) for c in mine])
        face_down = face_down_line(seen, seen.viewer)  # a First Game's deck, not seen at the deal
        deck = known_deck(seen, seen.viewer) + ([face_down] if face_down else [])
        if deck:
            self.add_option(Option(Text("  in your deck: " + ", ".join(deck), style="dim"), disabled=True))
        if highlighted is not None and highlighted < len(mine):
            self.highlighted = highlighted
        self.border_title = title
