"""Card texts on the full screen: every card one can see on the table, listed with the text of the
highlighted one (key ``t``), and the text of one card (a click on its name where there is no card
panel)."""

from __future__ import annotations

import functools

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from amigos.carddata import SETS, components
from amigos.codes import AVAILABLE, DISCARD, FACE_UP, HAND, IN_PLAY
from amigos.state import GameState

from .board import flatten

_DETAILS = {c["id"]: c for c in components(SETS)}  # (every set: a card panel of any game)


def details(state: GameState, e: int) -> RenderableType:
    """The renderable of card ``e``'s full text, as ``amigos cards NAME`` prints it."""
    from ..views.cards import card_details
    return card_details(_DETAILS[state.cards[e].id])


#: The lines every card text is padded to in the card panel: its height then never changes, and
#: showing another card redraws the panel alone, without laying the whole screen out again.
CARD_LINES = 60


@functools.lru_cache(maxsize=256)
def _flat(card_id: str, width: int) -> Text:
    from ..views.cards import card_details
    text = flatten(card_details(_DETAILS[card_id], framed=False), width)
    lines = text.plain.count("\n") + 1
    if lines < CARD_LINES:
        text.append("\n" * (CARD_LINES - lines))
    return text


def flat_details(state: GameState, e: int, width: int) -> Text:
    """`details` without its frame (the card panel has its own, which stays whole however far the
    text scrolls), laid out once for a panel ``width`` columns wide, as styled text of at least
    `CARD_LINES` lines."""
    return _flat(state.cards[e].id, max(20, width))


class CardPanel(VerticalScroll):
    """The text of one card (`show_card`: the one highlighted or clicked) or another text (`show_text`:
    the help), in a panel that scrolls.  A card's text is padded to `CARD_LINES`: showing another
    card then redraws the panel alone, without laying the whole screen out again."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Static(id="card-text"), id=id, can_focus=False)
        self.card: int | None = None  # the card whose text is shown
        self.lines: int = 0  # the lines of the text shown

    def show_card(self, state: GameState, e: int) -> None:
        """Show card ``e``'s text (nothing to do when it is shown already)."""
        if e == self.card:
            return
        self.card = e
        width = self.query_one("#card-text").size.width or self.scrollable_content_region.width
        text = flat_details(state, e, width)
        same_height = self.lines == CARD_LINES == text.plain.count("\n") + 1
        self.query_one("#card-text", Static).update(text, layout=not same_height)
        self.lines = text.plain.count("\n") + 1

    def show_text(self, text: Text) -> None:
        """Show ``text`` instead of a card's."""
        self.card, self.lines = None, 0
        self.query_one("#card-text", Static).update(text)

    def forget(self) -> None:
        """The card shown is to be laid out again when shown next (the width has changed)."""
        self.card = None


def visible_cards(state: GameState, viewer: int) -> list[tuple[str, int]]:
    """(where, entity) for every card ``viewer`` can see: both tableaux, the discard piles, the
    centre (monuments and places of power), the face-up redraft, their own hand."""
    out = []
    for e in range(len(state.loc)):
        where, owner = state.loc[e], state.owner[e]
        if where == IN_PLAY:
            out.append(("yours" if owner == viewer else "the rival's", e))
        elif where == AVAILABLE:
            out.append(("in the centre", e))
        elif where == DISCARD:
            out.append(("discarded", e))
        elif where == FACE_UP:
            out.append(("face up", e))
        elif where == HAND and owner == viewer:
            out.append(("in your hand", e))
    return out


class TableCards(ModalScreen[None]):
    """The cards on the table, the highlighted one's text beside them; Esc (or t) closes."""

    BINDINGS = [Binding("escape", "close", "close"), Binding("t", "close", "close")]
    DEFAULT_CSS = """
    TableCards { align: center middle; }
    TableCards > Horizontal { width: 95%; height: 90%; border: thick $accent; background: $surface; }
    TableCards OptionList { width: 2fr; }
    TableCards VerticalScroll { width: 3fr; }
    """

    def __init__(self, state: GameState, viewer: int) -> None:
        super().__init__()
        self.state: GameState = state
        self.cards: list[tuple[str, int]] = visible_cards(state, viewer)

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield OptionList(*(Option(f"{self.state.cards[e].name}  ({where})", id=str(e)) for where, e in self.cards))
            yield VerticalScroll(Static(id="text"))

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.query_one("#text", Static).update(details(self.state, int(event.option.id or 0)))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()

    def action_close(self) -> None:
        self.dismiss(None)


class CardText(ModalScreen[None]):
    """One card's text; any key closes."""

    DEFAULT_CSS = """
    CardText { align: center middle; }
    CardText > VerticalScroll { width: 70; max-width: 95%; height: auto; max-height: 90%; }
    """

    def __init__(self, state: GameState, e: int) -> None:
        super().__init__()
        self.renderable: RenderableType = details(state, e)

    def compose(self) -> ComposeResult:
        yield VerticalScroll(Static(self.renderable))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        self.dismiss(None)
