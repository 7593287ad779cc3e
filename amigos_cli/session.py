"""Running a match from the command line: controllers for each seat, saving after every decision, the
events printed as they happen, undo for a person, and Ctrl-C (or ``q``, or a closed terminal) leaving a
resumable file.
"""

from __future__ import annotations

import copy
import os
import shutil
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, cast

from rich.console import Console
from rich.markup import escape
from rich.text import Text

import amigos
from ai.agent import Agent
from ai.agents import make_agent, parse_spec, spec_text
from amigos.codes import COLLECT
from amigos.config import Action
from amigos.rng import derive_seed
from amigos.state import GameState
from matches.match import Match, config_of, play
from matches.record import MatchFileError, save

from .human import Human, QuitRequested, UndoRequested
from .settings import Settings, load_settings
from .views.board import board, match_result_text, wins
from .views.choices import automatic_collect
from .views.hints import hint_text
from .views.outcome import collects, outcome
from .views.safe import player_names

HUMAN = "human"
PERSON_CORES = 2  # the search processes of an AI that plays a person and names none (`bounded_spec`)
HINT_AGENT = "mcts:iters=600"  # quick enough to answer at once, and far better than greedy

#: The decisions a rival does not see, and what a person is told of them instead: mages are chosen in
#: secret and revealed together (rules.md §2.1.6), the card a player keeps from a draft packet stays
#: theirs to know (§2.4), and so do the cards they looked at and put back on a deck (their names are in
#: the choice's text).  The board shows the mages once both are chosen.
SECRET = {amigos.actions.CHOOSE_MAGE: "chose a mage", amigos.actions.DRAFT_PICK: "drafted a card",
          amigos.actions.SCRY_ORDER: "put the cards back"}


@dataclass
class Step:
    """A decision as a log tells it: who made it, its kind and words, the game it belongs to, the
    position after the decision before it (``settled``, None at a game's start: forced moves such as
    a round's fixed collects happen between it and ``before``), and the positions around it: in a
    Collect, ``alone`` is the position after the decision alone, before the fixed collects that
    followed it (`amigos.state.GameState.after_alone`)."""
    actor: int
    kind: int
    text: str
    game: int
    settled: GameState | None
    before: GameState
    after: GameState
    alone: GameState | None = None


@dataclass(frozen=True)
class TurnBegins:
    """A player is to decide.  ``state`` is the match's own position, which changes as the match goes
    on: a listener that keeps it (or reads it on another thread) clones it first."""
    player: int
    state: GameState


@dataclass(frozen=True)
class Moved:
    """A player decided: the action, its words, the seconds it took and what the deciding agent said
    of it (an AI's ``info``: its iterations, ...; empty for a person)."""
    player: int
    action: Action
    text: str
    think: float
    info: dict[str, Any]


@dataclass(frozen=True)
class GameOver:
    """Game number ``game`` ended with ``result`` (its record's result: winners, points, rounds), the
    match's score then ``score``."""
    game: int
    result: dict[str, Any]
    score: list[int]


@dataclass(frozen=True)
class MatchOver:
    """The match ended (``result``: the record's result)."""
    result: dict[str, Any] | None


@dataclass(frozen=True)
class Notice:
    """A message about the session itself ("Undone.", "Nothing of yours to undo ..."), in a rich style."""
    text: str
    style: str


#: What a session tells its listeners, in the order it happens.
SessionEvent = TurnBegins | Moved | GameOver | MatchOver | Notice


def session_event(kind: str, data: dict[str, Any]) -> SessionEvent | None:
    """The typed event of an event of `matches.match.play` (``kind`` and its ``data``); None for a
    kind it does not know."""
    if kind == "turn":
        return TurnBegins(data["player"], data["state"])
    if kind == "move":
        return Moved(data["player"], data["action"], data["text"], data.get("think", 0.0), data.get("info") or {})
    if kind == "game_over":
        return GameOver(data["game"], data["result"], list(data["score"]))
    if kind == "match_over":
        return MatchOver(data.get("result"))
    return None


def make_step(actor: int, action: Action, text: str, game: int, settled: GameState | None, before: GameState,
              after: GameState) -> Step:
    """The `Step` of ``action``, decided at ``before``."""
    alone = before.after_alone(action) if before.phase == COLLECT else None
    return Step(actor, action[0], text, game, settled, before, after, alone)


def step_line(step: Step, viewer: int | None, names: list[str]) -> str:
    """The log line of a decision as ``viewer`` may know it (None: a spectator, who sees everything):
    "Ann: Use Hawk: paying 2 calm -> drew Fire Dragon".  A rival's secret decision (`SECRET`) is only
    "Ann chose a mage".  A Collect decision's own gains are told apart from the fixed collects that
    followed it: "Ann: Collect 1 life from Vault -> pool +1L (then collected: Ann pool +1E; Bob pool +2D)"."""
    who = names[step.actor]
    secret = SECRET.get(step.kind)
    if secret and viewer is not None and viewer != step.actor:
        return f"{who} {secret}"
    mid = step.alone or step.after
    did = outcome(step.before, mid, step.actor, viewer, step.text)
    line = f"{who}: {step.text}" + (f" -> {did}" if did else "")
    if step.alone is not None:
        then = [f"{names[q]} {d}" for q in range(len(names)) if (d := outcome(step.alone, step.after, q, viewer))]
        if then:
            line += f" (then collected: {'; '.join(then)})"
    return line


def round_line(game: int, state: GameState, names: list[str]) -> str:
    """"Game 1, round 3: Ann 4 VP, Bob 5 VP": the score as a round of the log begins."""
    vp = state.victory_points()
    return f"Game {game}, round {state.round}: " + ", ".join(f"{names[p]} {vp[p]} VP" for p in range(len(vp)))


def settled_lines(step: Step, viewer: int | None, names: list[str]) -> list[str]:
    """What forced moves did between the decision before ``step`` and ``step`` (a round's collects,
    the first player token passed on), one line per player concerned."""
    if step.settled is None:
        return []
    round_began = collects(step.settled, step.before, names)
    if round_began:
        return [round_began]
    out = []
    for p in range(step.before.n_players):
        did = outcome(step.settled, step.before, p, viewer)
        if did:
            out.append(f"{names[p]}: {did}")
    return out


def check_spec(spec: str) -> str:
    """A player spec: ``human`` or an agent spec (raises `SpecError` for a bad one).

    The agent is built too, so that whatever its constructor refuses is refused here, before a command
    prints anything (building one starts no search and no process)."""
    if spec.strip().lower() == HUMAN:
        return HUMAN
    parse_spec(spec)
    make_agent(spec)
    return spec.strip()


def history(record: dict[str, Any]) -> list[Step]:
    """Every decision of a match record, in order, as the `Step`s a session logs: the record replayed
    through the engine (forced moves are not decisions and are not listed, as in play)."""
    decisions = [d for g in record["games"] for d in g["decisions"]]
    if not decisions:
        return []
    replay = Match.new(record["seed"], [p["spec"] for p in record["players"]], config_of(record),
                       fmt="match" if record["best_of"] > 1 else "game", names=player_names(record))
    out: list[Step] = []
    for actor, step, *_ in decisions:
        replay.to_act()
        state = replay.state
        action = amigos.action_from_json(state, step)
        before = state.clone()
        game = replay.game_number
        settled = out[-1].after if out and out[-1].game == game else None
        replay.decide(action, stamp=False)
        out.append(make_step(actor, action, amigos.action_text(before, action), game, settled, before,
                             _after(replay, game)))
    return out


def _after(match: Match, game: int) -> GameState:
    """The position right after a decision of game ``game`` (the finished game's, if it just ended)."""
    if match.game_number != game and match.previous_state is not None:
        return match.previous_state.clone()
    return match.state.clone()


def bounded_spec(spec: str, against_a_person: bool = False) -> str:
    """``spec`` with its search processes (``workers``) at most this machine's cores: a spec read from
    a file cannot start more processes than the machine can run.  ``against_a_person``: a search on a
    time budget that names no ``workers`` searches on `PERSON_CORES` of them (the AI thinks while the
    person waits: the cores would idle), and one that does not say ``ponder`` thinks on while the
    person decides (``ponder=1``); the spec as written stays the player's name and record."""
    kind, params = parse_spec(spec)
    cores = os.cpu_count() or 1
    workers = params.get("workers")
    # (an iteration budget is kept reproducible: one process, no pondering)
    timed = against_a_person and kind == "mcts" and "iters" not in params
    if workers is None and timed:
        workers = PERSON_CORES
    changed = False
    if workers is not None and (workers != params.get("workers") or workers > cores):
        params["workers"] = min(int(workers), cores)
        changed = True
    if timed and "ponder" not in params:
        params["ponder"] = 1
        changed = True
    return spec_text(kind, params) if changed else spec


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

    def __init__(self, match: Match, path: Path, console: Console | None, ask: Callable[[str], str] | None = None,
                 quiet: bool = False, seat_for: Callable[[int], Agent] | None = None, private: bool = False) -> None:
        """``console`` None prints nothing (the full-screen game listens to the events instead); then
        ``seat_for(seat)`` makes the controller of each person's seat.  ``private``: the match file holds
        secrets (a table's seat tokens) and is readable by its owner alone, after every save."""
        self.match = match
        self.path = Path(path)
        self.private = private
        self.console = console
        self.ask = ask
        self.quiet = quiet
        self.log: list[str] = []  # every decision in full
        self.steps: list[Step] = []  # the same decisions with their positions
        self._turn: tuple[int, GameState] | None = None  # (game, position) of the decision asked now
        self.listeners: list[Callable[[SessionEvent], None]] = []  # told every event after the session
        self.lock = threading.Lock()  # a save from the screen's thread and one from the match's
        self.saved: tuple[int, int] | None = None  # (game, decisions) the file holds, once saved
        specs = [p["spec"] for p in match.record["players"]]
        self.names = player_names(match.record)
        self.humans = [s == HUMAN for s in specs]
        self.seen: dict[int, list[str]] = {seat: [] for seat, h in enumerate(self.humans) if h}  # per person
        self.rebuild_logs()  # a resumed match: what was played before
        self.settings: Settings = load_settings()
        self.asked: int | None = None  # the person asked last, where several share the screen
        shared = sum(self.humans) > 1
        self.controllers: list[Any] = []  # each with `select(state)`: a Human, an agent, ...
        for seat, spec in enumerate(specs):
            if spec == HUMAN:  # (callers give a console or `seat_for`: see the docstring)
                person = seat_for(seat) if seat_for is not None else \
                    Human(seat, self.names, cast(Console, console), ask=ask, on_save=self.save,
                          hinter=self.hint, log=self.seen[seat], title=self.title(),
                          hand_over=self.passes_to if shared else None)
                self.controllers.append(_AutoCollect(person, self.settings))
                continue
            agent = make_agent(bounded_spec(spec, against_a_person=HUMAN in specs),
                               seed=derive_seed(match.record["seed"], "seat", seat))
            if console is None:
                self.controllers.append(agent)
            else:
                self.controllers.append(_Thinking(agent, console, self.names[seat],
                                                  quiet or not any(s == HUMAN for s in specs)))
        thinkers = [(seat, c) for seat, c in enumerate(self.controllers) if not self.humans[seat]]
        for c in self.controllers:
            if isinstance(c, _AutoCollect):
                c.thinkers = thinkers

    def passes_to(self, seat: int) -> bool:
        """Whether the screen passes to ``seat``'s person for the decision asked now: another person was
        asked last (with several people at one screen, each sees only their own board)."""
        passes = self.asked is not None and self.asked != seat
        self.asked = seat
        return passes

    def note(self, step: Step) -> None:
        """Log a decision in full, and for each person as they may know it."""
        self.steps.append(step)
        self.log.append(step_line(step, None, self.names))
        for seat, seen in self.seen.items():
            seen.append(step_line(step, seat, self.names))

    def rebuild_logs(self) -> None:
        """The logs from the match record (on resume, and after an undo took decisions back).  The
        lists are emptied in place: each person's controller holds theirs."""
        self.log.clear()
        self.steps.clear()
        for seen in self.seen.values():
            seen.clear()
        for step in history(self.match.record):
            self.note(step)

    def title(self) -> str:
        m = self.match
        return f"Game {m.game_number}" + (f" of a best of {m.record['best_of']}" if m.record["best_of"] > 1 else "")

    def save(self, match: Match | None = None) -> Path:
        """Save the match (to `path`, which is returned).  A save that fails (a full disk, ...) raises
        `MatchFileError` saying so and which decision the file still holds."""
        match = match or self.match
        with self.lock:
            try:
                save(match, self.path, private=self.private)
            except MatchFileError as exc:
                kept = ("nothing of this match was saved" if self.saved is None else
                        "the file holds the match up to game {}, decision {}".format(*self.saved))
                raise MatchFileError(f"{exc}: {kept}") from None
            self.saved = (match.game_number, len(match.record["games"][-1]["decisions"]))
        return self.path

    def hint(self, state: GameState) -> Text:
        action, text = self.suggest(state)
        return Text(text, style="cyan")

    def suggest(self, state: GameState) -> tuple[Action, str]:
        """The AI's suggestion for the decision asked in ``state`` and the hint that explains it."""
        agent = make_agent(HINT_AGENT, seed=derive_seed(self.match.record["seed"], "hint", len(self.log)))
        action = agent.select(state)
        return action, hint_text(state, action, agent.info)

    def say(self, text: str, style: str) -> None:
        """A message about the session itself (undone, nothing to undo)."""
        if self.console is not None:
            self.console.print(text, style=style)
        self.tell(Notice(text, style))

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
        mine = asked_decisions(game["decisions"], self.match.history(), seats, self.settings.auto_collect)
        if not mine:
            self.say("Nothing of yours to undo in this game.", "yellow")
            return
        del game["decisions"][mine[-1]:]
        game["result"] = None
        game.pop("final_digest", None)
        record["status"] = "unfinished"
        record["result"] = None
        self.match = Match.from_record(record)
        self.rebuild_logs()
        self.save()
        self.say("Undone.", "green")

    def event(self, kind: str, data: dict[str, Any]) -> None:
        """`matches.match.play`'s ``on_event``: the event logged, printed (`show`) and told to the listeners."""
        heard = session_event(kind, data)
        if heard is None:
            return
        self.show(heard)
        self.tell(heard)

    def tell(self, event: SessionEvent) -> None:
        """Tell every listener of ``event`` (on the thread that plays the match)."""
        for listener in self.listeners:
            listener(event)

    def show(self, event: SessionEvent) -> None:
        """Log an event, and print it when a console is watching."""
        if isinstance(event, TurnBegins):
            self._turn = (self.match.game_number, event.state.clone())
        elif isinstance(event, Moved) and self._turn is not None:
            game, before = self._turn
            settled = self.steps[-1].after if self.steps and self.steps[-1].game == game else None
            self.note(make_step(event.player, event.action, event.text, game, settled, before,
                                _after(self.match, game)))
        if self.console is None:
            return
        if isinstance(event, Moved):
            self.print_move(self.console, event)
        elif isinstance(event, GameOver):
            self.print_game_over(self.console, event)
        elif isinstance(event, MatchOver):
            self.console.print(match_result_text(self.match.record, self.match.state, self.names))

    def print_move(self, console: Console, event: Moved) -> None:
        """An AI's move as the people at the table know it (all of it with none), after the round's
        score when it is the first of a round; a person's own moves are not printed back."""
        p = event.player
        if self.humans[p] or self.quiet:
            return
        step = self.steps[-1] if self.steps else None
        earlier = self.steps[-2] if len(self.steps) > 1 else None
        if step is not None and (
                earlier is None or (earlier.game, earlier.before.round) != (step.game, step.before.round)):
            console.print(Text(round_line(step.game, step.before, self.names), style="bold"))
        info = event.info
        extra = f"  ({info['iterations']} iterations, {event.think:.1f} s)" if info.get("iterations") else ""
        shown = self.log[-1]
        if any(self.humans):  # as the people at the table know it
            shown = self.seen[self.humans.index(True)][-1]
        console.print(Text(shown, style="magenta") + Text(extra, style="dim"))

    def print_game_over(self, console: Console, event: GameOver) -> None:
        """The game's result and the match's score, and for a person the final board."""
        won = event.result["winners"]
        text = ("Shared victory" if len(won) > 1 else wins(self.names[won[0]])) + \
            f" game {event.game} ({', '.join(f'{self.names[p]} {v} VP' for p, v in enumerate(event.result['vp']))}, " \
            f"round {event.result['rounds']}); match score {event.score[0]}-{event.score[1]}"
        console.print(Text(text, style="bold green"))
        for c in self.controllers:
            person = c.person if isinstance(c, _AutoCollect) else c
            if isinstance(person, Human):
                person.title = self.title()
        final = self.match.state if self.match.is_over() else self.match.previous_state
        if any(self.humans) and final is not None:
            seat = self.humans.index(True)
            console.print(board(final, seat, self.names, self.seen[seat], f"End of game {event.game}"))


class Interrupted(QuitRequested):
    """Ctrl-C stopped the match; the file is saved."""


def asked_decisions(decisions: list[list[Any]], told: list[tuple[GameState, Action]], seats: list[int],
                    auto_collect: bool) -> list[int]:
    """The indices of a game's ``decisions`` that ``seats`` were asked (with ``told``, the positions
    they were made in): not those auto-collect made (`automatic_collect`), which an undo goes back past,
    since it would make them again at once."""
    return [i for i, d in enumerate(decisions) if d[0] in seats
            and not (auto_collect and i < len(told) and automatic_collect(told[i][0]) == told[i][1])]


class _AutoCollect:
    """A person's seat that makes the decisions `automatic_collect` makes while the setting is on (the
    setting may change during the game: it is read at every decision)."""

    def __init__(self, person: Agent, settings: Settings) -> None:
        self.person = person
        self.settings = settings
        self.thinkers: list[tuple[int, Agent]] = []  # the AI seats, told to ponder while the person decides

    @property
    def info(self) -> dict[str, Any]:
        return self.person.info

    def observe(self, state: GameState, action: Action) -> None:
        self.person.observe(state, action)

    def reseed(self, seed: int) -> None:
        self.person.reseed(seed)

    def close(self) -> None:
        self.person.close()

    def ponder(self, state: GameState, seat: int) -> None:
        """A person thinks for themself."""

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        made = automatic_collect(state) if self.settings.auto_collect else None
        if made is not None:
            return made
        for seat, agent in self.thinkers:
            agent.ponder(state, seat)
        return self.person.select(state, progress)


class _Thinking:
    """An agent with a spinner while it thinks (when a person is watching)."""

    def __init__(self, agent: Agent, console: Console, name: str, quiet: bool) -> None:
        self.agent = agent
        self.console = console
        self.name = name
        self.quiet = quiet

    @property
    def info(self) -> dict[str, Any]:
        return self.agent.info

    def observe(self, state: GameState, action: Action) -> None:
        self.agent.observe(state, action)

    def ponder(self, state: GameState, seat: int) -> None:
        self.agent.ponder(state, seat)

    def reseed(self, seed: int) -> None:
        self.agent.reseed(seed)

    def close(self) -> None:
        self.agent.close()

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        if self.quiet or len(state.legal_actions()) == 1 or not self.console.is_terminal:
            return self.agent.select(state)
        name = escape(self.name)  # a status line is rich markup; a stored name is any text
        with self.console.status(f"{name} is thinking...", spinner="dots") as status:
            start = time.perf_counter()

            def progress(done: int) -> None:
                status.update(f"{name} is thinking... {done} iterations, {time.perf_counter() - start:.1f} s")

            action = self.agent.select(state, progress=progress)
        return action


def resume_hint(path: Path) -> str:
    """The command that resumes ``path``: ``amigos resume FILE``, with the program as it was started
    when ``amigos`` alone would not find it (a venv not on the PATH)."""
    program = "amigos"
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name == "amigos" and started.exists():
        found = shutil.which("amigos")
        if found is None or Path(found).resolve() != started.resolve():
            program = str(started)
    return f"{program} resume {path}"


def stderr_console() -> Console:
    return Console(file=sys.stderr)
