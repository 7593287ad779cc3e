"""A table: one game (2 to 5 seats) or best-of-three match (2) that people at a distance play
together, each seat a person or an agent.

The match is played by a `matches.session.Session` in a thread of its own, as on the full screen:
it saves the match file after every decision (the table is its match file) and keeps each person's
log as they may know it.  A person's seat (a `matches.session.PersonSeat`) answers through the table: `Table.ask` waits
for `Table.choose`, which the web server calls for a seat's answer over its websocket; an answer that
is not for the decision asked now (another seat's, a past one's, one replayed) is refused and changes
nothing.  After every change the table takes a `Snapshot` on the match's thread and calls
``on_change``: the server sends each connection its view of it (`amigos_cli.table.view`).

A seat is reached only through its token, a random 128-bit secret in its link; the tokens are kept in
the match file (``"table"``), so a resumed table keeps its links.  The host may hand a seat whose
person is gone to an agent (`hand_to_agent`).
"""

from __future__ import annotations

import queue
import re
import secrets
import stat
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ai.agent import Agent
from ai.agents import make_agent
from ai.collect import automatic_collect
from amigos.config import Action
from amigos.errors import AmigosError
from amigos.state import GameState
from amigos.together import StepKey, ahead, together
from matches.events import GameOver, MatchEvent, MatchOver, Moved, Notice, TurnBegins
from matches.folder import default_path, matches_folder
from matches.match import Match
from matches.session import HUMAN, UNDO, PersonSeat, QuitRequested, Session, Step

from ..views.choices import menu_groups, ordered_variants
from ..views.hints import hint_text
from ..views.safe import printable
from .clock import ClockError, Clocks

TOKEN_BYTES = 16
TOKEN_SHAPE = r"[A-Za-z0-9_-]{22}"  # what `secrets.token_urlsafe(TOKEN_BYTES)` makes
TOKEN_FORM = re.compile(f"^{TOKEN_SHAPE}$")
STOP_SECONDS = 2.0  # how long `stop` waits for the match's thread (an agent's search in it, say)
TABLE_KEY = "table"  # the match record's key for the table's tokens and handed seats
TABLES = "tables"  # the folder of tables' match files in the match files' (`table_path`)


class TableError(AmigosError):
    """A table that cannot be made or resumed; the message says why in one line."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def table_path(seed: int) -> Path:
    """Where a new table's match file is saved unless told otherwise: in the folder `TABLES` of the
    match files' (`matches.folder.matches_folder`), which `private_folder` makes its owner's alone (the
    file holds every seat's token, and the seed)."""
    return matches_folder() / TABLES / default_path(seed).name


def private_folder(folder: Path) -> None:
    """Make ``folder`` (and its parents) if it is missing, and let nobody but its owner list or enter
    it; `TableError` in one line if that cannot be done."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if stat.S_IMODE(folder.stat().st_mode) & 0o077:
            folder.chmod(0o700)
    except OSError as exc:
        raise TableError(f"{printable(folder, None)}: cannot keep the table's file there "
                         f"({exc.strerror or type(exc).__name__})") from None


@dataclass(frozen=True)
class Together:
    """A step the players take at once (`amigos.together`) as the table shows it while it lasts: the
    position and the number of log steps as it began (what every seat is shown of the others until all
    have chosen), each person's own standing in it (`amigos.together.ahead`: the position at their next
    decision, or after their last), the seats asked ahead of their turn with the asks' numbers, and the
    seats still to decide."""
    start: GameState
    steps: int
    places: dict[int, GameState]
    offers: dict[int, int]
    deciding: list[int]


@dataclass(frozen=True)
class Snapshot:
    """The table at one moment: the position (a copy), how many of the session's log steps it has, the
    seat the match waits for and the ask's number (None when no person is asked), whether the match is
    over, and the step taken together under way (None when there is none)."""
    state: GameState
    steps: int
    asked: tuple[int, int] | None
    over: bool
    together: Together | None = None


_HANDED = object()  # an answer that tells a waiting seat it is an agent's now
_STOP = object()    # an answer that stops the match (the host stops the table)


class Table:
    """One table (see the module docstring).  ``tokens[p]``: seat ``p``'s token (None for an agent's
    seat); ``spectator``: the spectators' token."""

    def __init__(self, match: Match, path: Path, tokens: Sequence[str | None], spectator: str,
                 handed: dict[int, str] | None = None, clocks: Clocks | None = None) -> None:
        self.match: Match = match
        self.path: Path = Path(path)
        self.tokens: list[str | None] = list(tokens)
        self.spectator: str = spectator
        self.handed: dict[int, str] = dict(handed or {})  # seats of people gone, played by an agent: the spec
        self.agents: dict[int, Agent] = {}
        self.lock = threading.Lock()
        self.answers: dict[int, queue.Queue[object]] = {p: queue.Queue() for p in range(len(self.tokens))}
        self.asks = 0  # the number of the last decision asked of a person
        self.asked: tuple[int, int, GameState] | None = None  # (seat, ask, position) waiting for an answer
        # A step taken together (`amigos.together`): its key, position and log steps as it began; each
        # person's answers given ahead of their turn in it, in order; the decision each is asked ahead
        # (its ask's number and its groups, which keep the number while the decision stays the same).
        self.begun: tuple[StepKey, GameState, int] | None = None
        self.early: dict[int, list[Action]] = {}
        self.offered: dict[int, tuple[int, object]] = {}
        self.auto: dict[int, bool] = {}  # the seats whose person turned auto-collect on (the page's setting)
        self.sent: int | None = None  # the seat whose answer is on its way to the match's thread
        self.notice: str | None = None  # what the session said of an undo ("Undone."), until the next move
        self.clocks: Clocks | None = clocks  # the people's move clocks (`amigos_cli.table.clock`), if any
        self.on_change: Callable[[], None] = lambda: None
        match.record[TABLE_KEY] = self.record()
        # (the file holds the seats' tokens: private)
        self.session: Session = Session(match, path, seat_for=lambda seat: PersonSeat(self.ask, seat), private=True,
                                        auto_collect=lambda seat: self.auto.get(seat, False))
        self.session.listeners.append(self._heard)
        self.snapshot: Snapshot = self._take()
        self.thread: threading.Thread | None = None
        self.failure: BaseException | None = None
        self.stopping = False  # `stop` was called

    # -- making and resuming ---------------------------------------------------------------------------

    @classmethod
    def new(cls, match: Match, path: Path, clock_minutes: float | None = None, clock_agent: str | None = None) -> Table:
        """A table for a new ``match``: a token for each person's seat and one for spectators; with
        ``clock_minutes``, a move clock of that many minutes for each person (`Clocks`), whose seat
        ``clock_agent`` (an agent spec) takes over when it runs out, if given."""
        tokens = [new_token() if p["spec"] == HUMAN else None for p in match.record["players"]]
        people = [seat for seat, token in enumerate(tokens) if token is not None]
        clocks = Clocks.new(people, clock_minutes, clock_agent) if clock_minutes is not None else None
        return cls(match, path, tokens, new_token(), clocks=clocks)

    @classmethod
    def resumed(cls, match: Match, path: Path) -> Table:
        """The table of a match file a table saved (its tokens and handed seats kept in it)."""
        kept = match.record.get(TABLE_KEY)
        people = [p["spec"] == HUMAN for p in match.record["players"]]
        if not isinstance(kept, dict):
            raise TableError(f"{path}: not a table's match file (no '{TABLE_KEY}'); resume it with 'amigos resume'")
        tokens, spectator, handed = kept.get("tokens"), kept.get("spectator"), kept.get("handed", {})
        if not isinstance(tokens, list) or len(tokens) != len(people) or not all(
                (t is None and not person) or (isinstance(t, str) and TOKEN_FORM.match(t) and person)
                for t, person in zip(tokens, people)) or not isinstance(spectator, str) \
                or not TOKEN_FORM.match(spectator) or not isinstance(handed, dict):
            raise TableError(f"{path}: a table's match file with broken seat tokens")
        seats = {}
        for key, spec in handed.items():
            if not (isinstance(key, str) and key.isdigit() and int(key) < len(people) and people[int(key)]
                    and isinstance(spec, str)):
                raise TableError(f"{path}: a table's match file with a broken handed seat")
            seats[int(key)] = spec
        try:
            clocks = Clocks.from_record(kept["clock"], len(people)) if kept.get("clock") is not None else None
        except ClockError as exc:
            raise TableError(f"{path}: {exc}") from None
        return cls(match, path, tokens, spectator, seats, clocks)

    def record(self) -> dict[str, Any]:
        """What the match file keeps of the table (``"table"``)."""
        return {"tokens": list(self.tokens), "spectator": self.spectator,
                "handed": {str(seat): spec for seat, spec in self.handed.items()},
                "clock": None if self.clocks is None else self.clocks.record(time.monotonic())}

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens (None: the spectators'); `KeyError` for a token of no seat."""
        if secrets.compare_digest(token.encode(), self.spectator.encode()):
            return None
        for seat, mine in enumerate(self.tokens):
            if mine is not None and secrets.compare_digest(token.encode(), mine.encode()):
                return seat
        raise KeyError("no such seat")

    # -- playing ---------------------------------------------------------------------------------------

    def start(self, on_change: Callable[[], None], on_end: Callable[[], None] = lambda: None) -> None:
        """Play the match in a thread of its own, calling ``on_change`` (on that thread) after every change,
        and ``on_end`` as the thread ends, however it ends (after its last ``on_change``)."""
        self.on_change = on_change

        def play() -> None:
            try:
                self._play()
            finally:
                on_end()

        self.thread = threading.Thread(target=play, name="table", daemon=True)
        self.thread.start()

    def _play(self) -> None:
        try:
            self.session.run()
        except QuitRequested:
            pass
        except BaseException as exc:  # noqa: BLE001 - told to the host, who stops the table
            if not self.stopping:  # (a search cut short by `stop` is no failure)
                self.failure = exc
        with self.lock:
            self.snapshot = self._take()
        self.on_change()

    def stop(self) -> None:
        """End the match's thread within `STOP_SECONDS` (every decision is saved already): a person's
        seat stops waiting, and an agent's worker processes are ended, a search under way in them too."""
        self.stopping = True
        for answers in self.answers.values():
            answers.put(_STOP)
        for agent in [*self.session.controllers, *self.agents.values()]:
            agent.close()
        if self.thread is not None:
            self.thread.join(timeout=STOP_SECONDS)

    def ask(self, seat: int, state: GameState) -> Action:
        """A person's decision, on the match's thread: the answer they gave ahead of their turn in a step
        taken together, else wait for `choose` (or the seat handed to an agent).  A decision asked ahead
        keeps its ask's number when the match comes to it, so an answer on its way is taken."""
        if seat in self.handed:
            return self._agent(seat).select(state)
        with self.lock:
            early = self.early.get(seat)
            if early:
                given = early.pop(0)
                if given in state.legal_actions():
                    return given
                early.clear()  # (answers for another position: ask again)
            offered = self.offered.pop(seat, None)
            if offered is None or offered[1] != _decision(state):
                self.asks += 1
                offered = (self.asks, None)
            self.asked = (seat, offered[0], state.clone())
            self._clock(seat, True)
            self.snapshot = self._take()
        self.on_change()
        answer = self.answers[seat].get()
        if answer is _STOP:
            raise QuitRequested()
        if answer is _HANDED:
            return self._agent(seat).select(state)
        return answer  # type: ignore[return-value]  # (an action: `choose` puts nothing else)

    def choose(self, seat: int, ask: int, group: int, way: int) -> str | None:
        """Seat ``seat``'s answer to decision number ``ask``: the ``way`` of the ``group`` of its choices
        (`amigos_cli.table.view.choices`), the decision the match waits for or one asked ahead of the
        seat's turn.  None when taken; else why it is refused (nothing changes)."""
        with self.lock:
            waited = self.asked is not None and self.asked[0] == seat
            asked = self._asked_of(seat)
            if asked is None:
                return "it is not your decision"
            number, position = asked
            if number != ask:
                return "that decision is past"
            groups = menu_groups(position)
            if not 0 <= group < len(groups):
                return "no such choice"
            ways = ordered_variants(groups[group])
            if not 0 <= way < len(ways):
                return "no such way"
            self._clock(seat, False)
            if not waited:
                self.early.setdefault(seat, []).append(ways[way])
                self.offered.pop(seat, None)
                self.snapshot = self._take(self.snapshot)
            else:
                self.asked = None
                self.sent = seat  # (until the match's thread takes it: not asked ahead meanwhile)
                self.snapshot = replace(self.snapshot, asked=None)  # (answered: no view offers it again)
        if waited:
            self.answers[seat].put(ways[way])
        else:
            self.on_change()
        return None

    def hand_to_agent(self, seat: int, spec: str) -> None:
        """Seat ``seat``'s person is gone: an agent of ``spec`` plays it from now on (kept in the file)."""
        if not 0 <= seat < len(self.tokens) or self.tokens[seat] is None:
            raise TableError(f"seat {seat + 1} is not a person's")
        make_agent(spec)  # (a bad spec is refused here, in one line)
        with self.lock:
            self.handed[seat] = spec
            self.match.record[TABLE_KEY] = self.record()
            waiting = self.asked is not None and self.asked[0] == seat
            if waiting:
                self.asked = None
            self.early.pop(seat, None)
            self.offered.pop(seat, None)
            self._clock(seat, False)
        if waiting:
            self.answers[seat].put(_HANDED)

    def _agent(self, seat: int) -> Agent:
        if seat not in self.agents:
            self.agents[seat] = make_agent(self.handed[seat], seed=self.match.decision_seed(seat))
        return self.agents[seat]

    # -- what the seats are shown -----------------------------------------------------------------------

    def _heard(self, event: MatchEvent) -> None:
        """A session event, on the match's thread: a new snapshot, and the seats told (after an undo, the
        session's match is a new one: the table's from then on)."""
        if self.session.match is not self.match:
            self.match = self.session.match
        if isinstance(event, Notice):
            self.notice = event.text
        elif isinstance(event, Moved):
            self.notice = None
        if isinstance(event, (TurnBegins, Moved, GameOver, MatchOver, Notice)):
            with self.lock:
                self.snapshot = self._take()
            self.on_change()

    def _take(self, since: Snapshot | None = None) -> Snapshot:
        """A snapshot of the table now (under `lock`): of the match on its own thread, or, from another
        thread, of the position of the snapshot ``since`` with the answers given ahead since then."""
        if since is None:
            state, steps, over = self.match.state.clone(), len(self.session.steps), self.match.is_over()
            self.sent = None
        else:
            state, steps, over = since.state, since.steps, since.over
        asked = None if self.asked is None else (self.asked[0], self.asked[1])
        return Snapshot(state, steps, asked, over, self._together(state, steps))

    def _together(self, state: GameState, steps: int) -> Together | None:
        """The step taken together under way at ``state`` as the table shows it (None when there is none):
        each person's standing with their answers given ahead, and the decisions asked ahead (a new ask's
        number for a new decision)."""
        key = together(state)
        if key is None or self.begun is None or self.begun[0] != key:
            self.early.clear()
            self.offered.clear()
            self.begun = None if key is None else (key, state.clone(), steps)
        if key is None or self.begun is None:
            return None
        places: dict[int, GameState] = {}
        offers: dict[int, int] = {}
        deciding = []
        for seat in range(state.n_players):
            person = self.tokens[seat] is not None and seat not in self.handed
            answers = self.early.setdefault(seat, []) if person else []
            place = ahead(state, seat, answers, self._automatic(seat))
            if place is None:  # (answers that belong to no position of this step: forgotten)
                answers.clear()
                place = ahead(state, seat, answers, self._automatic(seat))
            if place is None:
                continue
            if seat == self.sent:
                place = (place[0], False)
            if place[1]:
                deciding.append(seat)
            if not person:
                continue
            places[seat] = place[0]
            if place[1] and not (self.asked is not None and self.asked[0] == seat):
                decision = _decision(place[0])
                kept = self.offered.get(seat)
                if kept is None or kept[1] != decision:
                    self.asks += 1
                    kept = (self.asks, decision)
                    self.offered[seat] = kept
                offers[seat] = kept[0]
                self._clock(seat, True)
            else:
                self.offered.pop(seat, None)
        return Together(self.begun[1], self.begun[2], places, offers, deciding)

    def _clock(self, seat: int, running: bool) -> None:
        """Start or stop ``seat``'s move clock (under `lock`), the time left kept in the match record."""
        if self.clocks is None:
            return
        if running:
            self.clocks.start(seat, time.monotonic())
        else:
            self.clocks.stop(seat, time.monotonic())
            self.match.record[TABLE_KEY] = self.record()

    def clocks_run_out(self) -> list[int]:
        """The people whose clocks have just run out (each told once); each seat's is handed to the clock's
        agent, if the host named one.  Called now and then by the server."""
        if self.clocks is None:
            return []
        with self.lock:
            gone = self.clocks.run_out(time.monotonic())
            if gone:
                self.match.record[TABLE_KEY] = self.record()
        for seat in gone:
            if self.clocks.agent is not None and seat not in self.handed:
                self.hand_to_agent(seat, self.clocks.agent)
        if gone:
            self.on_change()
        return gone

    def _automatic(self, seat: int) -> Callable[[GameState], Action | None]:
        """What auto-collect decides for ``seat`` at a position (None: nothing), while its person has it on."""
        return lambda state: automatic_collect(state) if self.auto.get(seat, False) else None

    def set_auto_collect(self, seat: int, on: bool) -> None:
        """Seat ``seat``'s person turns auto-collect on or off (`ai.collect.automatic_collect`, as on the
        full screen): read at their next decision, at once for the decisions asked ahead, and for the
        decision the match waits for, which it makes when it can."""
        made = None
        with self.lock:
            self.auto[seat] = on
            if on and self.asked is not None and self.asked[0] == seat:
                made = automatic_collect(self.asked[2])
                if made is not None:
                    self.asked = None
                    self.sent = seat
                    self._clock(seat, False)
            self.snapshot = self._take(self.snapshot)
        if made is not None:
            self.answers[seat].put(made)
        self.on_change()

    # -- the terminal's tools ---------------------------------------------------------------------------

    def people(self) -> list[int]:
        """The seats a person plays (not handed to an agent)."""
        return [seat for seat, token in enumerate(self.tokens) if token is not None and seat not in self.handed]

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back its last decision: it is the only person at the table (an undo
        changes no other person's game), the match waits for it, and it has decided in this game."""
        return self.people() == [seat] and self.asked is not None and self.asked[0] == seat and any(
            d[0] == seat for d in self.match.record["games"][-1]["decisions"])

    def undo(self, seat: int) -> str | None:
        """Take back ``seat``'s last decision of this game, and the agents' after it (`Session.undo`);
        None when asked for, else why not (nothing changes)."""
        with self.lock:
            if not self.can_undo(seat):
                return ("only the one person at a table of agents may undo" if self.people() != [seat]
                        else "wait for your decision")
            self.asked = None
            self.sent = seat
            self._clock(seat, False)
        self.answers[seat].put(UNDO)
        return None

    def _asked_of(self, seat: int) -> tuple[int, GameState] | None:
        """(under `lock`) ``seat``'s decision now, as (the ask's number, its position): the one the match
        waits for, else the one asked ahead of its turn in a step taken together; None when it has none."""
        if self.asked is not None and self.asked[0] == seat:
            return self.asked[1], self.asked[2]
        together = self.snapshot.together
        if together is not None and seat in together.offers:
            return together.offers[seat], together.places[seat]
        return None

    def hint(self, seat: int) -> tuple[int, int, int, str] | None:
        """The AI's suggestion for ``seat``'s decision now (the one the match waits for, or the one asked
        ahead), from the seat's view of the game: (the ask's number, the group, the way, the hint in
        words, `amigos_cli.views.hints.hint_text`); None when the seat has no decision.  It searches (a
        second or so): call it off the match's thread and the server's loop."""
        with self.lock:
            asked = self._asked_of(seat)
        if asked is None:
            return None
        number, position = asked
        action, info = self.session.suggest(position.clone())
        for g, group in enumerate(menu_groups(position)):
            ways = ordered_variants(group)
            if action in ways:
                return number, g, ways.index(action), hint_text(position, action, info, [p["name"] for p in self.match.record["players"]])
        return None

    def steps(self, snapshot: Snapshot) -> list[Step]:
        """The log steps of ``snapshot`` (an undo, at a table of one person, makes them anew)."""
        return self.session.steps[:snapshot.steps]


def _decision(state: GameState) -> object:
    """What tells one decision from another for a seat asked ahead of its turn: its groups of legal actions."""
    return tuple(tuple(group) for group in state.legal_groups())
