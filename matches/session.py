"""A match in play, for every front-end alike (the line prompt, the full screen, the online table): a
controller for each seat, the match saved after every decision, the decisions logged as data (`Step`),
undo for the people at the table, and a quit or Ctrl-C leaving a resumable file.

It draws and prints nothing: a front-end makes each person's seat (`PersonSeat`, which asks the
front-end), listens to the events (`matches.events`) and puts the log into words.
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Final

import amigos
from ai.agent import Agent, AgentWrapper, BaseAgent
from ai.agents import make_agent, parse_spec, spec_text
from ai.collect import automatic_collect
from amigos import actions as A
from amigos.codes import COLLECT
from amigos.config import Action
from amigos.rng import derive_seed
from amigos.state import GameState

from .events import DONE, REFUSED, MatchEvent, Moved, Notice, TurnBegins
from .match import Match, config_of, play
from .record import MatchFileError, save

HUMAN: Final = "human"  # the player spec of a person's seat
PERSON_CORES: Final = 2  # the search processes of an AI that plays a person and names none (`bounded_spec`)
HINT_AGENT: Final = "mcts:iters=600"  # quick enough to answer at once, and far better than greedy


class QuitRequested(Exception):
    """The person asked to stop; the match is saved."""


class UndoRequested(Exception):
    """The person asked to take back their previous decision."""


class Interrupted(QuitRequested):
    """Ctrl-C stopped the match; the file is saved."""


#: A person's answers besides an action (`PersonSeat`): take back their last decision, or stop.
UNDO: Final = "undo"
QUIT: Final = "quit"


@dataclass
class Step:
    """A decision as a log tells it: who made it, its kind and words, the game it belongs to, the
    position after the decision before it (``settled``, None at a game's start: forced moves such as
    a round's fixed collects happen between it and ``before``), and the positions around it: in a
    Collect, ``alone`` is the position after the decision alone, before the fixed collects that
    followed it (`amigos.state.GameState.after_alone`); ``card``: the card (its id) the decision is
    about (`amigos.actions.card`), None for none; ``action``: the decision itself, for words that
    name the players as a reader knows them (`amigos.text.action_text`)."""
    actor: int
    kind: int
    text: str
    game: int
    settled: GameState | None
    before: GameState
    after: GameState
    alone: GameState | None = None
    card: str | None = None
    action: Action | None = None


def make_step(actor: int, action: Action, text: str, game: int, settled: GameState | None, before: GameState,
              after: GameState) -> Step:
    """The `Step` of ``action``, decided at ``before``."""
    alone = before.after_alone(action) if before.phase == COLLECT else None
    e = A.card(action)
    card = before.cards[e].id if e is not None and 0 <= e < len(before.cards) else None
    return Step(actor, A.kind(action), text, game, settled, before, after, alone, card, action)


def history(record: dict[str, Any]) -> list[Step]:
    """Every decision of a match record, in order, as the `Step`s a session logs: the record replayed
    through the engine (forced moves are not decisions and are not listed, as in play)."""
    decisions = [d for g in record["games"] for d in g["decisions"]]
    if not decisions:
        return []
    replay = Match.new(record["seed"], [p["spec"] for p in record["players"]], config_of(record),
                       fmt="match" if record["best_of"] > 1 else "game",
                       names=[p["name"] for p in record["players"]])
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


def check_spec(spec: str) -> str:
    """A player spec: `HUMAN` or an agent spec (raises `ai.agents.SpecError` for a bad one).

    The agent is built too, so that whatever its constructor refuses is refused here, before a command
    prints anything (building one starts no search and no process)."""
    if spec.strip().lower() == HUMAN:
        return HUMAN
    parse_spec(spec)
    make_agent(spec)
    return spec.strip()


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


def new_seed() -> int:
    """A fresh match seed (32 bits, from the system's randomness)."""
    return int.from_bytes(os.urandom(4), "big")


class PersonSeat(BaseAgent):
    """A person's seat: each decision is asked of a front-end, ``ask(seat, state)``, on the match's
    thread; its answer is an action, `UNDO` or `QUIT` (raised as `UndoRequested` / `QuitRequested`)."""

    def __init__(self, ask: Callable[[int, GameState], object], seat: int) -> None:
        super().__init__()
        self.ask: Callable[[int, GameState], object] = ask
        self.seat: int = seat

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        answer = self.ask(self.seat, state)
        if answer == UNDO:
            raise UndoRequested()
        if answer == QUIT:
            raise QuitRequested()
        return answer  # type: ignore[return-value]  # (any other answer to a seat is an action)


class Session:
    """One match in play.  ``seat_for(seat)`` makes the controller of each person's seat (a `PersonSeat`,
    or the prompt's `amigos_cli.human.Human`); an AI's seat gets its agent, passed through
    ``wrap_agent(seat, agent)`` if given (the prompt's spinner).  ``private``: the match file holds
    secrets (a table's seat tokens) and is readable by its owner alone, after every save.
    ``auto_collect(seat)``, read at every decision of a person's, says whether
    `ai.collect.automatic_collect` decides for that seat's person where it can.

    `steps` is the log as data: every decision with the positions around it.  `listeners` hear every
    event (`matches.events`) on the match's thread, after the session has logged it."""

    def __init__(self, match: Match, path: Path, seat_for: Callable[[int], Agent],
                 wrap_agent: Callable[[int, Agent], Agent] | None = None, private: bool = False,
                 auto_collect: Callable[[int], bool] = lambda seat: False) -> None:
        self.match: Match = match
        self.path: Path = Path(path)
        self.private: bool = private
        self.auto_collect: Callable[[int], bool] = auto_collect
        self.steps: list[Step] = []
        self._turn: tuple[int, GameState] | None = None  # (game, position) of the decision asked now
        self.listeners: list[Callable[[MatchEvent], None]] = []
        self.lock: threading.Lock = threading.Lock()  # a save from a screen's thread and one from the match's
        self.saved: tuple[int, int] | None = None  # (game, decisions) the file holds, once saved
        specs = [p["spec"] for p in match.record["players"]]
        self.humans: list[bool] = [s == HUMAN for s in specs]
        self.steps.extend(history(match.record))  # a resumed match: what was played before
        self.controllers: list[Agent] = []
        for seat, spec in enumerate(specs):
            if spec == HUMAN:
                self.controllers.append(_AutoCollect(seat_for(seat), partial(auto_collect, seat)))
                continue
            agent = make_agent(bounded_spec(spec, against_a_person=HUMAN in specs),
                               seed=derive_seed(match.record["seed"], "seat", seat))
            self.controllers.append(wrap_agent(seat, agent) if wrap_agent is not None else agent)
        thinkers = [(seat, c) for seat, c in enumerate(self.controllers) if not self.humans[seat]]
        for c in self.controllers:
            if isinstance(c, _AutoCollect):
                c.thinkers = thinkers

    def people(self) -> list[Agent]:
        """The controllers of the people's seats, as ``seat_for`` made them."""
        return [c.inner for c in self.controllers if isinstance(c, _AutoCollect)]

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

    def suggest(self, state: GameState) -> tuple[Action, dict[str, Any]]:
        """The AI's suggestion for the decision asked in ``state``, with what its search said of it."""
        agent = make_agent(HINT_AGENT, seed=derive_seed(self.match.record["seed"], "hint", len(self.steps)))
        action = agent.select(state)
        return action, agent.info

    def run(self) -> Match:
        """Play to the end; on quit or Ctrl-C the file is saved and `QuitRequested` (`Interrupted`)
        propagates."""
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
        """Take back the people's last decision of this game (and every decision after it)."""
        seats = [i for i, h in enumerate(self.humans) if h]
        record = copy.deepcopy(self.match.record)
        game = record["games"][-1]
        mine = asked_decisions(game["decisions"], self.match.history(), seats, self.auto_collect)
        if not mine:
            self.tell(Notice("Nothing of yours to undo in this game.", REFUSED))
            return
        del game["decisions"][mine[-1]:]
        game["result"] = None
        game.pop("final_digest", None)
        record["status"] = "unfinished"
        record["result"] = None
        self.match = Match.from_record(record)
        self.steps[:] = history(record)
        self.save()
        self.tell(Notice("Undone.", DONE))

    def event(self, event: MatchEvent) -> None:
        """`matches.match.play`'s ``on_event``: the event logged, then told to the listeners."""
        if isinstance(event, TurnBegins):
            self._turn = (self.match.game_number, event.state.clone())
        elif isinstance(event, Moved) and self._turn is not None:
            game, before = self._turn
            settled = self.steps[-1].after if self.steps and self.steps[-1].game == game else None
            self.steps.append(make_step(event.player, event.action, event.text, game, settled, before,
                                        _after(self.match, game)))
        self.tell(event)

    def tell(self, event: MatchEvent) -> None:
        """Tell every listener of ``event`` (on the thread that plays the match)."""
        for listener in self.listeners:
            listener(event)


def asked_decisions(decisions: list[list[Any]], told: list[tuple[GameState, Action]], seats: list[int],
                    auto_collect: Callable[[int], bool]) -> list[int]:
    """The indices of a game's ``decisions`` that ``seats`` were asked (with ``told``, the positions
    they were made in): not those auto-collect made for a seat with it on (``auto_collect(seat)``:
    `automatic_collect`), which an undo goes back past, since it would make them again at once."""
    return [i for i, d in enumerate(decisions) if d[0] in seats
            and not (auto_collect(d[0]) and i < len(told) and automatic_collect(told[i][0]) == told[i][1])]


class _AutoCollect(AgentWrapper):
    """A person's seat that makes the decisions `automatic_collect` makes while ``enabled()`` (a setting
    that may change during the game: it is read at every decision), and lets the AI seats think on
    while the person decides."""

    def __init__(self, person: Agent, enabled: Callable[[], bool]) -> None:
        super().__init__(person)
        self.enabled: Callable[[], bool] = enabled
        self.thinkers: list[tuple[int, Agent]] = []  # the AI seats, told to ponder while the person decides

    def ponder(self, state: GameState, seat: int) -> None:
        """A person thinks for themself."""

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        made = automatic_collect(state) if self.enabled() else None
        if made is not None:
            return made
        for seat, agent in self.thinkers:
            agent.ponder(state, seat)
        return self.inner.select(state, progress)
