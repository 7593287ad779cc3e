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
from rich.markup import escape
from rich.text import Text

import amigos
from ai.agents import make_agent, parse_spec
from amigos.rng import derive_seed
from matches.match import Match, play
from matches.record import save

from .human import Human, QuitRequested, UndoRequested
from .views.board import board, result_text, wins

HUMAN = "human"

#: The decisions a rival does not see, and what a person is told of them instead: mages are chosen in
#: secret and revealed together (rules.md §2.1.6), the card a player keeps from a draft packet stays
#: theirs to know (§2.4), and so do the cards they looked at and put back on a deck (their names are in
#: the choice's text).  The board shows the mages once both are chosen.
SECRET = {amigos.actions.CHOOSE_MAGE: "chose a mage", amigos.actions.DRAFT_PICK: "drafted a card",
          amigos.actions.SCRY_ORDER: "put the cards back"}


def check_spec(spec: str) -> str:
    """A player spec: ``human`` or an agent spec (raises `SpecError` for a bad one).

    The agent is built too, so that whatever its constructor refuses is refused here, before a command
    prints anything (building one starts no search and no process)."""
    if spec.strip().lower() == HUMAN:
        return HUMAN
    parse_spec(spec)
    make_agent(spec)
    return spec.strip()


def history(record: dict) -> list[tuple[int, int, str]]:
    """Every decision of a match record, in order, as ``(actor, action kind, text)``: the record replayed
    through the engine (forced moves are not decisions and are not listed, as in play)."""
    decisions = [d for g in record["games"] for d in g["decisions"]]
    if not decisions:
        return []
    replay = Match.new(record["seed"], [p["spec"] for p in record["players"]], variant=record["variant"],
                       fmt="match" if record["best_of"] > 1 else "game",
                       names=[p["name"] for p in record["players"]], ruleset=record.get("ruleset", "official"))
    out = []
    for actor, step, *_ in decisions:
        replay.to_act()
        state = replay.state
        action = amigos.action_from_json(state, step)
        out.append((actor, action[0], amigos.action_text(state, action)))
        replay.decide(action, stamp=False)
    return out


def default_path(seed: int) -> Path:
    return Path(f"amigos-{seed}.amigos")


def new_seed() -> int:
    return int.from_bytes(os.urandom(4), "big")


class Session:
    """One match on the terminal.

    Who sees what: each person at the table (a ``human`` seat) has their own log of the decisions, in
    which a rival's secret decisions (`SECRET`) read only "Player 1 chose a mage"; the moves of an AI are
    printed that way too while a person plays.  With no person at the table (AI against AI) the console
    is a spectator's and shows every decision in full, as ``amigos replay`` shows the whole position."""

    def __init__(self, match: Match, path: Path, console: Console, ask=None, quiet: bool = False):
        self.match = match
        self.path = Path(path)
        self.console = console
        self.ask = ask
        self.quiet = quiet
        self.log: list[str] = []  # every decision in full
        specs = [p["spec"] for p in match.record["players"]]
        self.names = [p["name"] for p in match.record["players"]]
        self.humans = [s == HUMAN for s in specs]
        self.seen: dict[int, list[str]] = {seat: [] for seat, h in enumerate(self.humans) if h}  # per person
        self.rebuild_logs()  # a resumed match: what was played before
        self.controllers = []
        for seat, spec in enumerate(specs):
            if spec == HUMAN:
                self.controllers.append(Human(seat, self.names, console, ask=ask, on_save=self.save,
                                              hinter=self.hint, log=self.seen[seat], title=self.title()))
            else:
                self.controllers.append(_Thinking(make_agent(spec, seed=derive_seed(match.record["seed"], "seat", seat)),
                                                  console, self.names[seat], quiet or not any(s == HUMAN for s in specs)))

    def note(self, p: int, kind: int | None, text: str) -> None:
        """Log a decision of player ``p`` in full, and for each person as they may know it."""
        who = self.names[p]
        line = f"{who}: {text}"
        secret = SECRET.get(kind)
        hidden = f"{who} {secret}" if secret else line  # as p's rivals see it
        self.log.append(line)
        for seat, seen in self.seen.items():
            seen.append(line if seat == p else hidden)

    def rebuild_logs(self) -> None:
        """The logs from the match record (on resume, and after an undo took decisions back).  The
        lists are emptied in place: each person's controller holds theirs."""
        self.log.clear()
        for seen in self.seen.values():
            seen.clear()
        for actor, kind, text in history(self.match.record):
            self.note(actor, kind, text)

    def title(self) -> str:
        m = self.match
        return f"Game {m.game_number}" + (f" of a best of {m.record['best_of']}" if m.record["best_of"] > 1 else "")

    def save(self, match: Match | None = None) -> None:
        save(match or self.match, self.path)

    def hint(self, state):
        agent = make_agent("mcts:iters=600", seed=derive_seed(self.match.record["seed"], "hint", len(self.log)))
        action = agent.select(state)
        return Text(hint_text(state, action, agent.info), style="cyan")

    def run(self) -> Match:
        """Play to the end; on quit or Ctrl-C the file is saved and `QuitRequested` propagates."""
        self.save()
        while True:
            try:
                return play(self.match, self.controllers, on_event=self.event, save=self.save)
            except UndoRequested:
                self.undo()
            except QuitRequested:
                self.save()
                raise
            except KeyboardInterrupt:
                self.save()
                raise Interrupted() from None

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
        self.rebuild_logs()
        self.save()
        self.console.print("Undone.", style="green")

    def event(self, kind: str, data: dict) -> None:
        if kind == "move":
            p = data["player"]
            self.note(p, data["action"][0], data["text"])
            if not self.humans[p] and not self.quiet:
                info = data.get("info") or {}
                extra = f"  ({info['iterations']} iterations, {data['think']:.1f} s)" if info.get("iterations") else ""
                shown = self.log[-1]
                if any(self.humans):  # as the people at the table know it
                    shown = self.seen[self.humans.index(True)][-1]
                self.console.print(Text(shown, style="magenta") + Text(extra, style="dim"))
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
                self.console.print(board(final, seat, self.names, self.seen[seat], f"End of game {data['game']}"))
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


class Interrupted(QuitRequested):
    """Ctrl-C stopped the match; the file is saved."""


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
        name = escape(self.name)  # a status line is rich markup; a stored name is any text
        with self.console.status(f"{name} is thinking...", spinner="dots") as status:
            start = time.perf_counter()

            def progress(done):
                status.update(f"{name} is thinking... {done} iterations, {time.perf_counter() - start:.1f} s")

            if "progress" in inspect.signature(self.agent.select).parameters:
                action = self.agent.select(state, progress=progress)
            else:
                action = self.agent.select(state)
        return action


def hint_text(state, action, info: dict) -> str:
    """The hint line for ``action``, with the agent's reasons: a draft pick's worth, its fit to your plan
    and to the rival's, and the runners-up; a searched move's share of the search and its value."""
    text = f"Hint: {amigos.action_text(state, action)}"
    picks = info.get("picks")
    if picks:
        best, rest = picks[0], picks[1:]
        text += (f"  (worth {best['worth']:+.2f} in self-play, fits your plan {best['fit']:.1f}, "
                 f"the rival's {best['deny']:.1f}" + (", part of the engine that won the last game"
                                                      if best["engine"] else ""))
        if rest:
            text += "; next: " + ", ".join(f"{r['card']} {r['score']:+.2f}" for r in rest)
        return text + ")"
    total = info.get("iterations") or 0
    if not total:
        return text
    visits = info.get("visits") or 0
    value = info.get("value")
    chance = f", about {value:.0%} to win" if value is not None else ""
    return text + f"  ({visits / total:.0%} of {total} searches went there{chance})"


def resume_hint(path: Path) -> str:
    return f"amigos resume {path}"


def stderr_console() -> Console:
    return Console(file=sys.stderr)
