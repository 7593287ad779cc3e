"""A match at the line prompt: the session (`matches.session.Session`) with a person's seats asked at
the prompt (`amigos_cli.human.Human`), an AI's moves printed as the people at the table know them, a
spinner while an AI thinks, and each person's log in words.
"""

from __future__ import annotations

import shlex
import shutil
import sys
import time
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from ai.agent import Agent, AgentWrapper
from amigos.config import Action
from amigos.state import GameState
from matches.events import DONE, GameOver, MatchEvent, MatchOver, Moved, Notice
from matches.match import Match
from matches.session import HUMAN, Session

from .human import Human
from .settings import Settings, load_settings
from .views.board import board, match_result_text, result_text, wins
from .views.hints import hint_text
from .views.log import round_line, sync_lines
from .views.safe import player_names

#: The style a `Notice` is printed in, by its tone.
NOTICE_STYLE = {DONE: "green"}


class PromptSession:
    """One match at the line prompt.

    Who sees what: each person at the table (a ``human`` seat) has their own log of the decisions, in
    which a rival's secret decisions (`amigos_cli.views.log.SECRET`) read only "Player 1 chose a mage";
    the moves of an AI are printed that way too while a person plays.  With no person at the table (AI
    against AI) the console is a spectator's and shows every decision in full, as ``amigos replay``
    shows the whole position.  ``quiet``: AI moves are not printed."""

    def __init__(self, match: Match, path: Path, console: Console, ask: Callable[[str], str] | None = None,
                 quiet: bool = False) -> None:
        self.console: Console = console
        self.ask: Callable[[str], str] | None = ask
        self.quiet: bool = quiet
        self.settings: Settings = load_settings()
        self.names: list[str] = player_names(match.record)
        self.humans: list[bool] = [p["spec"] == HUMAN for p in match.record["players"]]
        self.log: list[str] = []  # every decision in full
        self.seen: dict[int, list[str]] = {seat: [] for seat, h in enumerate(self.humans) if h}  # per person
        self.asked: int | None = None  # the person asked last, where several share the screen
        # (several people: auto-collect on, as on the full screen, so no hand-over is for a trivial Collect)
        self.hot_seat: bool = sum(self.humans) > 1
        self._title: str = _title(match)
        self.session: Session = Session(match, path, seat_for=self._person, wrap_agent=self._thinking,
                                        auto_collect=lambda seat: self.settings.auto_collect or self.hot_seat)
        self.session.listeners.append(self.show)
        self.sync_logs()

    @property
    def match(self) -> Match:
        return self.session.match

    def _person(self, seat: int) -> Agent:
        return Human(seat, self.names, self.console, ask=self.ask, on_save=self.save, hinter=self.hint,
                     log=self.seen[seat], title=self._title,
                     hand_over=self.passes_to if sum(self.humans) > 1 else None)

    def _thinking(self, seat: int, agent: Agent) -> Agent:
        return _Thinking(agent, self.console, self.names[seat], self.quiet or not any(self.humans))

    def passes_to(self, seat: int) -> bool:
        """Whether the screen passes to ``seat``'s person for the decision asked now: another person was
        asked last (with several people at one screen, each sees only their own board)."""
        passes = self.asked is not None and self.asked != seat
        self.asked = seat
        return passes

    def sync_logs(self) -> None:
        """The logs in words brought up to the session's steps (in place: each person's `Human` holds
        theirs)."""
        steps = self.session.steps
        sync_lines(self.log, steps, None, self.names)
        for seat, seen in self.seen.items():
            sync_lines(seen, steps, seat, self.names)

    def save(self, match: Match | None = None) -> Path:
        return self.session.save(match)

    def hint(self, state: GameState) -> Text:
        action, info = self.session.suggest(state)
        return Text(hint_text(state, action, info, self.names), style="cyan")

    def run(self) -> Match:
        """Play to the end; on quit or Ctrl-C the file is saved and `QuitRequested` propagates."""
        return self.session.run()

    def show(self, event: MatchEvent) -> None:
        """A session's event printed, the logs brought up to date first."""
        self.sync_logs()
        if isinstance(event, Moved):
            self.print_move(event)
        elif isinstance(event, GameOver):
            self.print_game_over(event)
        elif isinstance(event, MatchOver) and self.match.record["best_of"] > 1:  # (a game's is its GameOver's)
            self.console.print(match_result_text(self.match.record, self.match.state, self.names))
        elif isinstance(event, Notice):
            self.console.print(event.text, style=NOTICE_STYLE.get(event.tone, "yellow"))

    def print_move(self, event: Moved) -> None:
        """An AI's move as the people at the table know it (all of it with none), after the round's
        score when it is the first of a round; a person's own moves are not printed back."""
        if self.humans[event.player] or self.quiet:
            return
        steps = self.session.steps
        step = steps[-1] if steps else None
        earlier = steps[-2] if len(steps) > 1 else None
        if step is not None and (
                earlier is None or (earlier.game, earlier.before.round) != (step.game, step.before.round)):
            self.console.print(Text(round_line(step.game, step.before, self.names), style="bold"))
        info = event.info
        extra = f"  ({info['iterations']} iterations, {event.think:.1f} s)" if info.get("iterations") else ""
        shown = self.log[-1]
        if any(self.humans):  # as the people at the table know it
            shown = self.seen[self.humans.index(True)][-1]
        self.console.print(Text(shown, style="magenta") + Text(extra, style="dim"))

    def print_game_over(self, event: GameOver) -> None:
        """The game's result and the match's score (a single game: its `result_text`, the one result line
        printed), and for a person the final board."""
        final = self.match.state if self.match.is_over() else self.match.previous_state
        if self.match.record["best_of"] == 1 and final is not None:
            self.console.print(result_text(final, self.names))
        else:
            won = event.result["winners"]
            vps = ", ".join(f"{self.names[p]} {v} VP" for p, v in enumerate(event.result["vp"]))
            text = ("Shared victory" if len(won) > 1 else wins(self.names[won[0]])) + \
                f" game {event.game} ({vps}, round {event.result['rounds']}); match score {event.score[0]}-{event.score[1]}"
            self.console.print(Text(text, style="bold green"))
        self._title = _title(self.match)
        for person in self.session.people():
            if isinstance(person, Human):
                person.title = self._title
        if any(self.humans) and final is not None:
            seat = self.humans.index(True)
            self.console.print(board(final, seat, self.names, self.seen[seat], f"End of game {event.game}"))


def _title(match: Match) -> str:
    """"Game 2 of a best of 3": the title of a person's board."""
    return f"Game {match.game_number}" + (f" of a best of {match.record['best_of']}" if match.record["best_of"] > 1 else "")


class _Thinking(AgentWrapper):
    """An agent with a spinner while it thinks (when a person is watching)."""

    def __init__(self, agent: Agent, console: Console, name: str, quiet: bool) -> None:
        super().__init__(agent)
        self.console: Console = console
        self.name: str = name
        self.quiet: bool = quiet

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        if self.quiet or len(state.legal_actions()) == 1 or not self.console.is_terminal:
            return self.inner.select(state)
        name = escape(self.name)  # a status line is rich markup; a stored name is any text
        with self.console.status(f"{name} is thinking...", spinner="dots") as status:
            start = time.perf_counter()

            def progress(done: int) -> None:
                status.update(f"{name} is thinking... {done} iterations, {time.perf_counter() - start:.1f} s")

            action = self.inner.select(state, progress=progress)
        return action


def resume_hint(path: Path) -> str:
    """The command that resumes ``path``: ``amigos resume FILE``, with the program as it was started
    when ``amigos`` alone would not find it (a venv not on the PATH), quoted as a shell needs it (a
    folder of match files with a space in its name, as macOS's)."""
    program = "amigos"
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name == "amigos" and started.exists():
        found = shutil.which("amigos")
        if found is None or Path(found).resolve() != started.resolve():
            program = str(started)
    return f"{shlex.quote(program)} resume {shlex.quote(str(path))}"
