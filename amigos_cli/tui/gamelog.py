"""The log panel of the full screen: the match's decisions as the person at the screen may know them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.widgets import RichLog

from matches.session import Step

from ..views.log import began_line, round_line, round_of, settled_lines, step_line

if TYPE_CHECKING:
    from amigos.state import GameState


class GameLog(RichLog):
    """A line per decision as ``viewer`` may know it (`step_line`; cyan a person's, magenta an AI's),
    dim lines for what forced moves did between decisions and as a round begins (its collects), and a
    bold line with the score once for each round.  Not focusable: Tab goes between the choices and the
    hand."""

    can_focus = False

    def __init__(self, names: list[str], humans: list[bool], *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, min_width=20)
        self.names: list[str] = names
        self.humans: list[bool] = humans
        self.logged: int = 0  # the session's steps written
        self.last_logged: Step | None = None  # the last of them (an undo rebuilds the steps anew)
        self.header: tuple[int, int] | None = None  # the (game, round) of the last round line
        self.told: tuple[list[Step], int | None] = ([], None)  # the steps written and for whom
        self.wrapped_at = 0  # the width the lines were wrapped at

    def on_resize(self, event: events.Resize) -> None:
        """Wrap the whole log again at its new width (a written line keeps the width it was written at)."""
        if self.logged and event.size.width != self.wrapped_at:
            self.clear()
            self.logged, self.header = 0, None
            self.bring_up_to(*self.told)

    def bring_up_to(self, steps: list[Step], viewer: int | None) -> None:
        """Write the ``steps`` not written yet as ``viewer`` may know them: all of them over again after
        an undo (which rebuilt the session's steps) and for another viewer (a person who took the
        screen over must not read what was written for the last one: their drawn cards by name);
        ``viewer`` None: a spectator's log, which tells everything."""
        if self.logged and (viewer != self.told[1] or len(steps) < self.logged
                            or steps[self.logged - 1] is not self.last_logged):
            self.clear()
            self.logged, self.header = 0, None
        self.told, self.wrapped_at = (steps, viewer), self.size.width
        for step in steps[self.logged:]:
            self.write_step(step, viewer)
        self.logged = len(steps)
        self.last_logged = steps[-1] if steps else None

    def write_step(self, step: Step, viewer: int | None) -> None:
        """The lines of one decision: what happened before it, itself, and the collects it began."""
        self.round_header(step.game, step.before)
        for line in settled_lines(step, viewer, self.names):
            self.write(Text(line, style="dim"))
        self.write(Text(step_line(step, viewer, self.names), style="cyan" if self.humans[step.actor] else "magenta"))
        began = began_line(step, self.names)
        if began:
            self.round_header(step.game, step.after)
            self.write(Text(began, style="dim"))

    def round_header(self, game: int, state: GameState) -> None:
        """"Game 1, round 3: You 4 VP, AI 5 VP", once for each round."""
        if (game, round_of(state)) == self.header:
            return
        self.header = (game, round_of(state))
        self.write(Text(round_line(game, state, self.names), style="bold"))
