"""Card texts on the full screen: the card panel beside the choices, every card one can see on the
table listed with the text of the highlighted one (key ``t``), and one card's whole text on a screen
of its own (key ``r``, or a click on its name where there is no card panel).  Cards are named by id:
their texts are the catalog's, and the cards listed on the table are those the viewer sees (a `Seen`).
"""

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

from amigos import cards as C
from amigos.carddata import SETS, components

from ..views.seen import Seen
from .board import flatten

_DETAILS = {c["id"]: c for c in components(SETS)}  # (every set: a card panel of any game)


def details(card: str) -> RenderableType:
    """The renderable of card ``card``'s full text (by id), as ``amigos cards NAME`` prints it."""
    from ..views.cards import card_details
    return card_details(_DETAILS[card])


@functools.lru_cache(maxsize=256)
def _flat(card_id: str, width: int) -> Text:
    from ..views.cards import card_details
    return flatten(card_details(_DETAILS[card_id], framed=False), width)


def card_text(card: str, width: int, lines: int = 0) -> Text:
    """`details` without its frame (the card panel has its own, which stays whole however far the
    text scrolls), laid out for a panel ``width`` columns wide, as styled text padded with empty
    lines to at least ``lines``."""
    text = _flat(card, max(20, width))
    short = lines - (text.plain.count("\n") + 1)
    return text + Text("\n" * short) if short > 0 else text


class CardPanel(VerticalScroll):
    """The text of one card (`show_card`: the one highlighted or clicked) in a panel that scrolls when
    the text is taller than the panel (its frame then says that ``r`` shows it whole), and has no
    scrollbar when it fits.  A text that fits is padded
    to the panel's height: showing another such card then redraws the panel alone, without laying the
    whole screen out again.  A resize lays the card shown out again at the panel's new size."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Static(id="card-text"), id=id, can_focus=False)
        self.card: str | None = None  # the card whose text is shown (its id)
        self.laid: tuple[str, int, int] | None = None  # (card, width, height) of the text laid out
        self.lines: int = 0  # the lines of the text shown

    def show_card(self, card: str) -> None:
        """Show the text of ``card`` (an id; nothing to do when it is shown already at this size)."""
        region = self.content_region
        if (card, region.width, region.height) == self.laid:
            return
        self.card, self.laid = card, (card, region.width, region.height)
        text = card_text(card, region.width, region.height)
        too_tall = text.plain.count("\n") + 1 > region.height
        if too_tall:  # (it scrolls: the scrollbar takes its columns)
            text = card_text(card, region.width - self.styles.scrollbar_size_vertical)
        self.border_subtitle = "r: the whole text" if too_tall else ""
        lines = text.plain.count("\n") + 1
        self.query_one("#card-text", Static).update(text, layout=lines != self.lines)
        self.lines = lines
        self.scroll_home(animate=False)

    def on_resize(self, event: events.Resize) -> None:
        """Lay the card shown out again at the panel's new size."""
        if self.card is not None:
            self.show_card(self.card)

    def clear(self) -> None:
        """Show no card (for a new person at the screen: the card shown may be of the last one's hand)."""
        self.card, self.laid, self.lines = None, None, 0
        self.border_subtitle = ""
        self.query_one("#card-text", Static).update("")


def on_table(seen: Seen, names: list[str] | None = None) -> list[tuple[str, str]]:
    """(where, card id) for every card the viewer sees: the tableaux (theirs first), the centre
    (monuments, places of power, magic items and scrolls not taken), the face-up redraft, the discard
    piles (each its player's: "Bob's discard pile") and their own hand.  ``names``: the players' names
    (None: "the rival's", "player N's")."""
    def whose(p: int) -> str:
        if names is not None:
            return f"{names[p]}'s"
        return "the rival's" if seen.player_count == 2 else f"player {p + 1}'s"

    out = [("yours", x.card.id) for x in seen.pieces(seen.viewer)] if seen.viewer >= 0 else []
    for p in range(seen.player_count):
        if p != seen.viewer:
            out += [(whose(p), x.card.id) for x in seen.pieces(p)]
    centre = seen.monuments() + seen.places() + seen.magic_items_free() + seen.scrolls_free()
    out += [("in the centre", c.id) for c in centre]
    out += [("face up", c.id) for c in seen.face_up()]
    for p in range(seen.player_count):
        pile = "your discard pile" if p == seen.viewer else f"{whose(p)} discard pile"
        out += [(pile, c.id) for c in seen.discards(p)]
    out += [("in your hand", c.id) for c in seen.own_hand()]
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

    def __init__(self, seen: Seen, names: list[str] | None = None) -> None:
        super().__init__()
        self.listed: list[tuple[str, str]] = on_table(seen, names)  # (where, card id)

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield OptionList(*(Option(f"{C.BY_ID[card].name}  ({where})", id=card) for where, card in self.listed))
            yield VerticalScroll(Static(id="text"))

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id is not None:
            self.query_one("#text", Static).update(details(event.option.id))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()

    def action_close(self) -> None:
        self.dismiss(None)


#: The keys that scroll a card's text on its own screen; any other key closes it.
SCROLL_KEYS = frozenset({"up", "down", "pageup", "pagedown", "home", "end"})


class WholeCard(VerticalScroll):
    """A card's text laid out at the box's width (a column kept for the scrollbar of a text too tall
    for the screen), again whenever that width changes."""

    def __init__(self, card: str) -> None:
        super().__init__(Static())
        self.card: str = card  # its id
        self.width_laid: int = 0

    def on_resize(self, event: events.Resize) -> None:
        width = self.content_region.width - self.styles.scrollbar_size_vertical
        if width != self.width_laid:
            self.width_laid = width
            self.query_one(Static).update(card_text(self.card, width))


class CardText(ModalScreen[None]):
    """One card's whole text on a screen of its own, as wide as the screen allows (at 100x30 the
    longest text fits without scrolling); the arrows and the page keys scroll, any other key (Esc)
    or a click closes it."""

    DEFAULT_CSS = """
    CardText { align: center middle; }
    CardText > WholeCard { width: 90%; max-width: 100; height: auto; max-height: 100%;
                           border: thick $accent; background: $surface; padding: 0 1;
                           scrollbar-size-vertical: 1; }
    """

    def __init__(self, card: str) -> None:
        super().__init__()
        self.card: str = card  # its id

    def compose(self) -> ComposeResult:
        box = WholeCard(self.card)
        box.border_subtitle = "Esc closes"
        yield box

    def on_mount(self) -> None:
        self.query_one(WholeCard).focus()

    def on_key(self, event: events.Key) -> None:
        if event.key in SCROLL_KEYS:
            return  # (the box's own bindings scroll it)
        event.stop()
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        self.dismiss(None)
