"""The board's widgets on the full screen: the board itself (both tableaus and the centre) and the
viewer's hand, each drawn from a position for a viewer (only what the viewer may see)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from amigos.state import GameState

from ..views.board import face_down_line, known_deck
from .board import flatten, hand_entities, hand_line, middle, placeable, tableau


class Board(VerticalScroll):
    """The rival's tableau, the centre and the viewer's tableau, top to bottom, each laid out as text
    at the board's width (`flatten`): `draw` lays them out again (after a resize too)."""

    drawn: tuple[GameState, int, list[str]] | None = None  # what `draw` drew last, laid out again on a resize

    def compose(self) -> ComposeResult:
        yield Static(id="rival")
        yield Static(id="centre")
        yield Static(id="mine")

    def on_resize(self, event: events.Resize) -> None:
        """Lay the board out again at its new width (the screen's own resize comes before the board's)."""
        if self.drawn is not None:
            self.draw(*self.drawn)

    def draw(self, state: GameState, viewer: int, names: list[str]) -> None:
        """Draw ``state`` as ``viewer`` sees it (of two players, the other is the rival)."""
        self.drawn = (state, viewer, names)
        width = max(20, self.scrollable_content_region.width)
        self.query_one("#rival", Static).update(flatten(tableau(state, 1 - viewer, viewer, names), width))
        self.query_one("#centre", Static).update(flatten(middle(state, names, viewer), width))
        self.query_one("#mine", Static).update(flatten(tableau(state, viewer, viewer, names), width))


class Hand(OptionList):
    """The viewer's hand, one card a line (an option's id is the card's entity), those they can place
    now marked; then the cards of their deck they know, dim and not to be chosen."""

    def draw(self, state: GameState, viewer: int, title: str) -> None:
        """Draw ``viewer``'s hand in ``state`` under ``title``; the highlight stays on the same line."""
        can = placeable(state, viewer)
        highlighted = self.highlighted
        self.clear_options()
        mine = hand_entities(state, viewer)
        self.add_options([Option(hand_line(state, e, e in can), id=str(e)) for e in mine])
        face_down = face_down_line(state, viewer)  # a First Game's deck, not seen at the deal
        deck = known_deck(state, viewer) + ([face_down] if face_down else [])
        if deck:
            self.add_option(Option(Text("  in your deck: " + ", ".join(deck), style="dim"), disabled=True))
        if highlighted is not None and highlighted < len(mine):
            self.highlighted = highlighted
        self.border_title = title
