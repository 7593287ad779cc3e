"""Running a match from the command line: controllers for each seat, saving after every decision, the
events printed as they happen, undo for a person, and Ctrl-C (or ``q``, or a closed terminal) leaving a
resumable file.
"""

from __future__ import annotations

import copy
import inspect
import os
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.text import Text

import amigos
from ai.agents import make_agent, parse_spec
from amigos.rng import derive_seed
from matches.match import Match, play
from matches.record import save

from .human import Human, QuitRequested, UndoRequested
from .views.board import board, result_text, wins

HUMAN = "human"


def check_spec(spec: str) -> str:
    """A player spec: ``human`` or an agent spec (raises `SpecError` for a bad one)."""
    if spec.strip().lower() == HUMAN:
        return HUMAN
    parse_spec(spec)
    return spec.strip()


def default_path(seed: int) -> Path:
    return Path(f"amigos-{seed}.amigos")


def new_seed() -> int:
    return int.from_bytes(os.urandom(4), "big")


class Session:
    """One match on the terminal."""

    def __init__(self, match: Match, path: Path, console: Console, ask=None, quiet: bool = False):
        self.match = match
        self.path = Path(path)
        self.console = console
        self.ask = ask
        self.quiet = quiet
        self.log: list[str] = []
        specs = [p["spec"] for p in match.record["players"]]
        self.names = [p["name"] for p in match.record["players"]]
        self.humans = [s == HUMAN for s in specs]
        self.controllers = []
        for seat, spec in enumerate(specs):
            if spec == HUMAN:
                self.controllers.append(Human(seat, self.names, console, ask=ask, on_save=self.save,
                                              hinter=self.hint, log=self.log, title=self.title()))
            else:
                self.controllers.append(_Thinking(make_agent(spec, seed=derive_seed(match.record["seed"], "seat", seat)),
                                                  console, self.names[seat], quiet or not any(s == HUMAN for s in specs)))

    def title(self) -> str:
        m = self.match
        return f"Game {m.game_number}" + (f" of a best of {m.record['best_of']}" if m.record["best_of"] > 1 else "")

    def save(self, match: Match | None = None) -> None:
        save(match or self.match, self.path)

    def hint(self, state):
        agent = make_agent("mcts:iters=600", seed=derive_seed(self.match.record["seed"], "hint", len(self.log)))
        action = agent.select(state)
        visits = agent.info.get("visits") or 0
        total = agent.info.get("iterations") or 1
        return Text(f"Hint: {amigos.action_text(state, action)}  (searched {total} times, "
                    f"{visits / max(total, 1):.0%} of the search went there)", style="cyan")

    def run(self) -> Match:
        """Play to the end; on quit or Ctrl-C the file is saved and `QuitRequested` propagates."""
        self.save()
        while True:
            try:
                return play(self.match, self.controllers, on_event=self.event, save=self.save)
            except UndoRequested:
                self.undo()
            except (QuitRequested, KeyboardInterrupt):
                self.save()
                raise QuitRequested() from None

    def undo(self) -> None:
        seats = [i for i, h in enumerate(self.humans) if h]
        record = copy.deepcopy(self.match.record)
        game = record["games"][-1]
        mine = [i for i, d in enumerate(game["decisions"]) if d[0] in seats]
        if not mine:
            self.console.print("Nothing of yours to undo in this game.", style="yellow")
            return
        del game["decisions"][mine[-1]:]
        game["result"] = None
        game.pop("final_digest", None)
        record["status"] = "unfinished"
        record["result"] = None
        self.match = Match.from_record(record)
        self.save()
        self.console.print("Undone.", style="green")

    def event(self, kind: str, data: dict) -> None:
        if kind == "move":
            who = self.names[data["player"]]
            line = f"{who}: {data['text']}"
            self.log.append(line)
            if not self.humans[data["player"]] and not self.quiet:
                info = data.get("info") or {}
                extra = f"  ({info['iterations']} iterations, {data['think']:.1f} s)" if info.get("iterations") else ""
                self.console.print(Text(line, style="magenta") + Text(extra, style="dim"))
        elif kind == "game_over":
            result = data["result"]
            won = result["winners"]
            text = ("Shared victory" if len(won) > 1 else wins(self.names[won[0]])) + \
                f" game {data['game']} ({', '.join(f'{self.names[p]} {v} VP' for p, v in enumerate(result['vp']))}, " \
                f"round {result['rounds']}); match score {data['score'][0]}-{data['score'][1]}"
            self.console.print(Text(text, style="bold green"))
            for c in self.controllers:
                if isinstance(c, Human):
                    c.title = self.title()
            final = self.match.state if self.match.is_over() else self.match.previous_state
            if any(self.humans) and final is not None:
                seat = self.humans.index(True)
                self.console.print(board(final, seat, self.names, self.log, f"End of game {data['game']}"))
        elif kind == "match_over":
            result = data["result"]
            if self.match.record["best_of"] > 1:
                if result["shared"]:
                    self.console.print(Text(f"The match is drawn {result['score'][0]}-{result['score'][1]}.",
                                            style="bold yellow"))
                else:
                    self.console.print(Text(f"{wins(self.names[result['winner']])} the match "
                                            f"{max(result['score'])}-{min(result['score'])}.", style="bold green"))
            else:
                self.console.print(result_text(self.match.state, self.names))


class _Thinking:
    """An agent with a spinner while it thinks (when a person is watching)."""

    def __init__(self, agent, console: Console, name: str, quiet: bool):
        self.agent = agent
        self.console = console
        self.name = name
        self.quiet = quiet

    @property
    def info(self):
        return self.agent.info

    def reseed(self, seed: int) -> None:
        reseed = getattr(self.agent, "reseed", None)
        if reseed is not None:
            reseed(seed)

    def select(self, state):
        if self.quiet or len(state.legal_actions()) == 1 or not self.console.is_terminal:
            return self.agent.select(state)
        with self.console.status(f"{self.name} is thinking...", spinner="dots") as status:
            start = time.perf_counter()

            def progress(done):
                status.update(f"{self.name} is thinking... {done} iterations, {time.perf_counter() - start:.1f} s")

            if "progress" in inspect.signature(self.agent.select).parameters:
                action = self.agent.select(state, progress=progress)
            else:
                action = self.agent.select(state)
        return action


def resume_hint(path: Path) -> str:
    return f"amigos resume {path}"


def stderr_console() -> Console:
    return Console(file=sys.stderr)
