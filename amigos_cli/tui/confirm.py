"""The question before a pass that leaves powers usable this round: one key pressed once too often, or a
number that shifted after a rival's move, must not end a person's round by accident (the line prompt
asks the same, `amigos_cli.human`)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

#: The keys that answer yes (pass) and no (back to the choices).
YES_KEYS = ("y",)
NO_KEYS = ("n", "escape", "enter")


def confirm_text(usable: list[str]) -> Text:
    """"Pass with Hawk, Vault still usable this round?" and the keys that answer it."""
    text = Text(f"Pass with {', '.join(usable)} still usable this round?", style="bold")
    text.append("\n\ny: pass   n, Enter or Escape: back to the choices", style="dim")
    return text


class PassConfirm(ModalScreen[bool]):
    """Asks whether to pass though ``usable`` powers could still be used; True to pass, False to go back.
    Enter is no: it is the key that was pressed by accident."""

    DEFAULT_CSS = """
    PassConfirm { align: center middle; }
    PassConfirm > Static { width: auto; max-width: 90%; height: auto; border: thick $warning; padding: 1 3;
                           background: $surface; }
    """

    def __init__(self, usable: list[str]) -> None:
        super().__init__()
        self.usable: list[str] = usable

    def compose(self) -> ComposeResult:
        yield Static(confirm_text(self.usable), id="pass-confirm")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in YES_KEYS:
            self.dismiss(True)
        elif event.key in NO_KEYS:
            self.dismiss(False)
