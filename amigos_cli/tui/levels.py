"""The question a game started at the full screen without ``--p2`` asks first: the AI's level, from a
gentle rival a new player can beat to the full-strength default (`amigos_cli.levels`)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ai.agents import LEVELS

from ..levels import DEFAULT_LEVEL, LEVEL_WORDS, NEXT_TIME, QUESTION


class LevelChoice(App[str]):
    """The levels listed, the default highlighted; Enter (or the level's number) returns its agent spec
    (``level:N``), q or Escape returns nothing (no game is started)."""

    CSS = """
    Screen { align: center middle; }
    Vertical { width: auto; max-width: 96%; height: auto; border: thick $accent; padding: 0 1; }
    OptionList { height: auto; width: auto; }
    """
    BINDINGS = [Binding("q", "leave", "quit"), Binding("escape", "leave", "quit", show=False)]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(QUESTION, style="bold"))
            yield OptionList(*(Option(f"{n}. Level {n}: {LEVEL_WORDS[n]}", id=f"level:{n}") for n in LEVELS),
                             id="levels")
            yield Static(Text(f"Enter: this level; a number: that one; q: leave.\n{NEXT_TIME}", style="dim"))

    def on_mount(self) -> None:
        levels = self.query_one("#levels", OptionList)
        levels.highlighted = list(LEVELS).index(DEFAULT_LEVEL)
        levels.focus()

    def on_key(self, event: events.Key) -> None:
        if event.key.isdigit() and int(event.key) in LEVELS:
            self.exit(f"level:{event.key}")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.exit(event.option.id)

    def action_leave(self) -> None:
        self.exit(None)


def ask_level() -> str | None:
    """Ask the person for the AI's level on the full screen: its agent spec, or None if they left."""
    return LevelChoice().run()
