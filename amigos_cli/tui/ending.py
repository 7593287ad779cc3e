"""The screen at the end of a game: the final board of every player with their points broken down
and the result, until a key is pressed."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..views.seen import Seen
from .board import compact_row, points_line, rivals_of, tableau


class GameEnd(ModalScreen[None]):
    """The final board; any key dismisses it (``last``: the match is over, and the screen closes)."""

    DEFAULT_CSS = """
    GameEnd { align: center middle; }
    GameEnd > VerticalScroll { width: 90%; height: auto; max-height: 90%; border: thick $success;
                               background: $surface; padding: 0 1; }
    """

    def __init__(self, final: Seen, names: list[str], summary: Text, last: bool) -> None:
        super().__init__()
        self.final: Seen = final  # the final position, as the viewer sees it
        self.names: list[str] = names
        self.summary: Text = summary
        self.last: bool = last

    def compose(self) -> ComposeResult:
        """The result, then the rivals in the order of play after the viewer (of two players the
        rival's tableau; of more, each one's line and where their points come from), then the viewer's
        tableau."""
        seen = self.final
        parts: list[RenderableType] = [self.summary, Text()]
        others = rivals_of(seen)
        for p in others:
            parts += [tableau(seen, p, seen.viewer, self.names)] if len(others) == 1 else \
                [compact_row(seen, p, self.names), points_line(seen, p)]
        parts += [Text(), tableau(seen, seen.viewer, seen.viewer, self.names), Text()]
        parts.append(Text("Press any key to " + ("close" if self.last else "go on to the next game") + ".",
                          style="bold"))
        yield VerticalScroll(Static(Group(*parts)))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)
