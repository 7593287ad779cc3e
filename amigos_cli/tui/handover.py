"""The screen that hands the full screen over from one person to another where several people play at
one screen (a hot seat): it covers the whole board, so that nobody sees another person's hand, until
the person whose turn it is presses Enter."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

#: The key that takes the screen (Enter, as at the line prompt's hand-over).
TAKE_KEY = "enter"


def hand_over_text(name: str) -> Text:
    """"Player 3: your turn. Everyone else, look away. Press Enter." (then how to leave instead)."""
    text = Text(f"{name}: your turn.", style="bold")
    text.append("\nEveryone else, look away. Press Enter.")
    text.append("\n\n(q saves and quits)", style="dim")
    return text


class HandOver(ModalScreen[None]):
    """Covers the game (opaque: nothing of the board shows through) until Enter; ``q`` and Ctrl-C keep
    their meaning (the app's priority keys), every other key is ignored."""

    DEFAULT_CSS = """
    HandOver { align: center middle; background: $background; }
    HandOver > Static { width: auto; max-width: 90%; height: auto; border: thick $accent; padding: 1 4;
                        background: $surface; text-align: center; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.person: str = name

    def compose(self) -> ComposeResult:
        yield Static(hand_over_text(self.person), id="hand-over")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key == TAKE_KEY:
            self.dismiss(None)
