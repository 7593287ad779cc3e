"""The full screen's help, on a screen of its own (``?``; Esc, ``q`` or ``?`` closes it)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

#: The keys of the game's screen and what they do, as the help lists them.
KEYS: tuple[tuple[str, str], ...] = (
    ("Up/Down, Enter", "choose, and play the highlighted choice"),
    ("a number", "jump to that choice (then Enter)"),
    ("letters, /", "filter the choices by card name (Esc clears; / first for a name that begins with "
                   "h, u, s, t or r)"),
    ("h", "a hint: the AI's move, highlighted, with its reasons; Enter plays it"),
    ("u", "undo back to your previous decision"),
    ("s / q", "save / save and quit, from anywhere, a picker too (the resume command is printed)"),
    ("t", "every card on the table, with its text"),
    ("r", "the highlighted card's whole text on a screen of its own (Enter on a card of your hand too; "
          "any other key closes it)"),
    ("Ctrl-A", "auto-collect on or off: essences stored on a card taken at Collect without asking, unless "
               "leaving them earns something or a power spends them; those that score points where they "
               "are left there; a collect of one kind or another made for you when only one of them is a "
               "kind your cards still lack (remembered between games)"),
    ("Tab", "your hand and back (its cards' texts in the card panel)"),
    (">", "with three players or more: the next rival in full on the board (the others a line each)"),
    ("a click", "on a card's name: its text in the card panel; on a rival's line: that rival in full"),
    ("?", "this help; Ctrl-C is q"),
)
ABOUT = ("A choice with several ways to pay or to gain opens a picker with the AI's preferred way "
         "highlighted: Enter takes it, the arrows choose another, or type the essences (2E 1D, or "
         "3C 1D / 2G for what a power takes and gives). Every decision is saved as it is made.")


def help_text() -> Table:
    """The keys and what they do, then how a way to pay is chosen."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for keys, what in KEYS:
        table.add_row(keys, what)
    table.add_row("", "")
    table.add_row("", Text(ABOUT))
    return table


class HelpScreen(ModalScreen[None]):
    """The help over the game (which goes on underneath: an AI's move is not held up)."""

    BINDINGS = [Binding("escape", "dismiss", "close"), Binding("q", "dismiss", "close"),
                Binding("question_mark", "dismiss", "close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; max-width: 100; height: auto; max-height: 90%;
                                  border: thick $accent; background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = "Help: Esc, q or ? closes"
            yield Static(help_text())
