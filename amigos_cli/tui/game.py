"""The full-screen game: the board, the cards and the choices on one screen that redraws in place.

The match runs in a Textual thread worker (`GameApp.play`: `matches.session.Session.run`, the loop of
every front-end, in which the AIs think); a person's seat is a `matches.session.PersonSeat` that asks
`GameApp.ask`, which shows the choices and waits for the screen's answer.  A hint is searched for in a worker of its own.  The screen hears
the session's typed events (`TurnBegins`, `Moved`, `GameOver`, `Notice`) and redraws its widgets:
the board and the hand (`boardview`), the choices (`choosing`), the card panel (`cards`) and the log
(`gamelog`); its layout is ``game.tcss``.

Several people at one screen (a hot seat): the screen shows one person's secrets at a time, the
viewer's, who is the last person asked; before another person's decision (and the first one's) a
`HandOver` screen covers the board until they press Enter, and only then is everything drawn for
them.  Until the first hand-over nobody's hand and no log are shown.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from pathlib import Path
from typing import Sequence, cast

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input, OptionList, Static
from textual.worker import Worker, WorkerState

from amigos.config import Action
from amigos.state import GameState
from matches.events import GameOver, MatchEvent, Moved, Notice, TurnBegins
from matches.match import Match, expansion_title
from matches.session import UNDO, Interrupted, PersonSeat, QuitRequested, Session

from ..settings import Settings, load_settings, save_settings
from ..views.board import result_text
from ..views.choices import placeable
from ..views.hints import hint_text
from ..views.safe import player_names, printable, short_names
from ..views.seen import Seen
from .board import banner
from .boardview import Board, Hand
from .cards import CardPanel, CardText, TableCards
from .choosing import Choices
from .ending import GameEnd
from .gamelog import GameLog
from .handover import HandOver
from .help import HelpScreen
from .keys import RIVAL_KEY
from .picker import VariantPicker
from .terminal import LeavingApp
from .workers import DaemonThreads

ONWARD = "onward"  # the answer that ends a game's final board (besides an action, `UNDO`, `QUIT`)
RESERVED = set("hustrq?/")  # keys that are commands, not the start of a filter
MIN_SIZE = (80, 24)  # the smallest window the game is laid out for (below it, the screen says so)
CHOICE_ROWS = 5  # the rows of choices kept at any height: the board gives way first
HAND_ROWS, SHORT_HAND_ROWS = 7, 4  # the hand's most lines, in a window at least ROOMY_HEIGHT high, or shorter
ROOMY_HEIGHT = 36


class GameApp(LeavingApp[str]):
    """One match on the full screen.  Ends with "finished", "quit", "interrupted" (Ctrl-C) or "failed"
    (`failure` then holds what stopped the match).

    ``asking`` is the seat asked and its position while the match waits for the screen's answer
    (None otherwise, and while a `HandOver` screen is up); ``groups``, ``shown`` and ``suggested`` are
    the choices' (`Choices`).  ``viewer`` is the seat whose secrets the screen shows: the person at the
    screen (with several, the last one asked), or with no person the player to move."""

    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = "game.tcss"
    BINDINGS = [
        Binding("h", "hint", "hint"), Binding("u", "undo", "undo"), Binding("s", "save", "save"),
        Binding("q", "quit_game", "save & quit", priority=True), Binding("question_mark", "help", "help"),
        Binding("slash", "filter", "filter"), Binding("t", "table", "table"),
        Binding("r", "read_card", "card text"),
        Binding(RIVAL_KEY, "expand_rival", "rivals", priority=True),
        Binding("ctrl+a", "auto_collect", "auto-collect", priority=True),
        Binding("space", "pause", "pause AI"),
        Binding("right", "step", "one AI move"),
        Binding("ctrl+c", "interrupt", "quit", show=False, priority=True),
    ]

    def __init__(self, match: Match, path: Path, delay: float = 0.0) -> None:
        super().__init__()
        self.path: Path = Path(path)
        self.delay: float = delay  # seconds to wait after each AI move
        self.settings: Settings = load_settings()
        self.session: Session = Session(match, path, seat_for=lambda seat: PersonSeat(self.ask, seat),
                                        auto_collect=lambda seat: self.auto_collect)
        self.session.listeners.append(self.hear)
        self.names: list[str] = short_names(player_names(match.record))
        self.humans: list[bool] = self.session.humans
        self.answers: queue.Queue[object] = queue.Queue()  # the screen's answers to the match's worker
        self.asking: tuple[int, GameState] | None = None
        self.viewer: int = self.humans.index(True) if any(self.humans) else 0
        self.hot_seat: bool = sum(self.humans) > 1  # several people share the screen
        self.handed: bool = not self.hot_seat  # a person has the screen (with several, since a first hand-over)
        # (with several people, on from the start: a Collect no one would decide otherwise is not worth
        # a hand-over of the screen)
        self.auto_collect: bool = self.settings.auto_collect or self.hot_seat
        self.state: GameState = match.state  # the position drawn
        self.seen: Seen = Seen.of(match.state, self.viewer)  # what the viewer sees of it: what is drawn
        self.stopped: threading.Event = threading.Event()
        self.going: threading.Event = threading.Event()  # cleared while AI moves are paused (AI against AI)
        self.going.set()
        self.one_step: bool = False  # pause again after the next AI move
        self.ended_game: int = 0  # the game whose end screen is up (the match has moved on to the next)
        self.failure: Exception | None = None  # what stopped the match's worker, if anything failed
        self.board: Board = Board(id="board", can_focus=False)
        self.hand: Hand = Hand(id="hand")
        self.choices: Choices = Choices(id="choosing")
        self.card_panel: CardPanel = CardPanel(id="card")
        self.game_log: GameLog = GameLog(self.names, self.humans, id="log")
        self.small: tuple[int, int] | None = None  # the window's size when below `MIN_SIZE` (said once)

    @property
    def groups(self) -> list[Sequence[Action]]:
        return self.choices.groups

    @property
    def shown(self) -> list[int]:
        return self.choices.shown

    @property
    def suggested(self) -> Action | None:
        return self.choices.suggested

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="left"):
                yield Static(id="banner")
                yield self.board
                yield self.hand
                yield self.choices
            with Vertical(id="right"):
                yield self.card_panel
                yield self.game_log
        yield Footer(compact=self.seen.player_count > 2)  # (its one more key, '>', fits in 100 columns)

    def on_resize(self, event: events.Resize) -> None:
        """A new height leaves the board another number of lines (`Board.rivals`): laid out again once
        the screen's layout is done (a new width alone reaches the board as its own resize).  The board
        gives way to the choices, which keep `CHOICE_ROWS` at any height; below `MIN_SIZE` the screen
        says so."""
        self.fit(event.size.width, event.size.height)
        self.call_after_refresh(self.board.draw_again)

    def fit(self, width: int, height: int) -> None:
        """The board's and the hand's most lines at a window of ``width`` x ``height``: what leaves the
        choices `CHOICE_ROWS` (their border and the footer besides), the hand's lines grown into what
        the board, drawn, leaves unused; a word when the window is smaller than `MIN_SIZE`, once a size."""
        hand = HAND_ROWS if height >= ROOMY_HEIGHT else SHORT_HAND_ROWS
        hint = self.choices.hint_rows()  # (a hint shown takes its lines from the board, not the choices)
        board = max(3, height - hand - CHOICE_ROWS - hint - 4)  # (footer, banner, 2 borders)
        grown = max(0, min(HAND_ROWS - hand, board - self.board.needed)) if self.board.needed else 0
        self.hand.styles.max_height = hand + grown
        self.board.styles.max_height = board - grown
        small = (width, height) if width < MIN_SIZE[0] or height < MIN_SIZE[1] else None
        if small is not None and small != self.small:
            self.notify(f"The window is {width}x{height}: the game needs at least {MIN_SIZE[0]}x{MIN_SIZE[1]}; "
                        "make it larger to see the whole board.", severity="warning", timeout=6)
        self.small = small

    def on_mount(self) -> None:
        asyncio.get_running_loop().set_default_executor(DaemonThreads())  # (before the first worker)
        self.title = "Amigos"
        self.redraw(self.session.match.state)
        self.write_log()
        if self.hot_seat and not self.settings.auto_collect:
            self.notify("Several people at one screen: auto-collect is on, so the screen is not handed over for "
                        "a Collect no one would decide otherwise (Ctrl+A turns it off).", timeout=8)
        self.play()

    # -- the workers ------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="match", exit_on_error=False)
    def play(self) -> str:
        """Play the match in a thread worker (the session's loop, as at the prompt; the AIs think in
        it); its outcome, "finished", "quit" or "interrupted", or the exception that stopped it, is
        heard by `match_ended`."""
        try:
            self.session.run()
        except Interrupted:
            return "interrupted"
        except QuitRequested:
            return "quit"
        return "finished"

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def think_of_hint(self, state: GameState) -> tuple[GameState, Action, str]:
        """Search for a hint in a thread worker: (``state``, the suggested action, the hint's text),
        shown by `hint_found` if ``state`` is still the one asked."""
        action, info = self.session.suggest(state)
        return state, action, hint_text(state, action, info, self.names)

    @property
    def hinting(self) -> bool:
        """A hint is being searched for (one at a time)."""
        return any(w.group == "hint" and not w.is_finished for w in self.workers)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker ended: the match's (`match_ended`) or a hint's (`hint_found`).  Nothing is done
        for a worker cancelled (a hint after its decision, any at the screen's end) or once the screen
        is stopping."""
        if self.stopped.is_set() or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        if event.worker.group == "match":
            self.match_ended(event.worker)
        elif event.worker.group == "hint":
            self.hint_found(event.worker)

    def match_ended(self, worker: Worker[str]) -> None:
        """The screen closes with the match's outcome; a finished match shows its final board first,
        a failed one keeps what failed (raised by `run_screen` once the screen is closed)."""
        if worker.state == WorkerState.ERROR:
            self.fail(cast(Exception, worker.error))
        elif worker.result == "finished":
            self.show_end(True)
        else:
            self.exit(worker.result)

    def hint_found(self, worker: Worker[tuple[GameState, Action, str]]) -> None:
        """Show a hint found, or why there is none (the game goes on without it); the "Thinking of a
        hint" notice goes either way."""
        self.clear_notifications()
        if worker.state == WorkerState.SUCCESS and worker.result is not None:
            self.choices.show_hint(*worker.result)
            self.call_after_refresh(self.fit, self.size.width, self.size.height)  # (once the hint is laid out)
        else:
            self.notify(f"No hint: {worker.error}", severity="error")

    # -- the match's side (called from its worker thread) -------------------------------------------

    def ask(self, seat: int, state: GameState) -> object:
        """Show the choices of ``seat`` and wait for the answer."""
        self.call_from_thread(self.offer, seat, state.clone())
        return self.answers.get()

    def hear(self, event: MatchEvent) -> None:
        """A session's event: the screen redrawn (and waited for), an AI's move paced (``delay``, the
        pause), a game's end shown until a key is pressed, a notice told."""
        if self.stopped.is_set():
            return
        if isinstance(event, TurnBegins):
            self.call_from_thread(self.turn_begins, event.player, event.state.clone())
        elif isinstance(event, Moved):
            self.call_from_thread(self.moved)
            if not self.humans[event.player]:
                self.pace()
        elif isinstance(event, GameOver) and any(self.humans) and not self.session.match.is_over():
            self.call_from_thread(self.show_end, False)
            self.answers.get()
        elif isinstance(event, Notice):
            self.call_from_thread(self.notify, event.text)

    def pace(self) -> None:
        """After an AI's move: wait ``delay``, and while the moves are paused (space) until they go on."""
        if self.delay:
            time.sleep(self.delay)
        if self.one_step:
            self.one_step = False
            self.going.clear()
        self.going.wait()

    # -- redrawing ----------------------------------------------------------------------------------

    def redraw(self, state: GameState) -> None:
        """Draw ``state`` as the viewer sees it (`Seen`: the engine's observation for them): the banner,
        the board and the hand, with the cards of the hand the viewer may place now if the decision is
        theirs (their own choices)."""
        self.state = state
        viewer = self.viewer
        self.seen = Seen.of(state, viewer)
        self.query_one("#banner", Static).update(self.heading(self.seen))
        self.board.draw(self.seen, self.names)
        owner = "Your" if self.humans[viewer] and not self.hot_seat else self.names[viewer] + "'s"
        if self.handed:
            self.hand.draw(self.seen, f"{owner} hand", placeable(state, viewer))
        else:  # (several people, none of them handed the screen yet: nobody's hand)
            self.hand.clear_options()

    def heading(self, seen: Seen) -> Text:
        """The banner: the game, the score, the round, the expansions, who is to play, a warning."""
        m = self.session.match
        game = self.ended_game or m.game_number
        t = Text(f" Game {game}" + (f" of {m.record['best_of']}" if m.record["best_of"] > 1 else "")
                 + (f" (score {m.score()[0]}-{m.score()[1]})" if m.game_number > 1 else "")
                 + f"  round {seen.round_number}  "
                 + (f"{expansion_title(m.expansions)}  " if m.expansions else ""), style="bold reverse")
        if self.hot_seat and self.handed:  # (whose secrets the screen shows: theirs alone)
            t.append(f"  {self.names[self.viewer]}'s view ", style="bold reverse")
        if self.asking is None and not seen.over:
            actor = seen.to_play
            t.append(f"  {self.names[actor]} to play" + ("..." if not self.humans[actor] else ""), style="italic")
        warn = banner(seen, self.names)
        if warn:
            t.append("  ")
            t.append_text(warn)
        return t

    def write_log(self) -> None:
        """Bring the log up to the session's steps, as the person at the screen knows them (all of
        them with no person at the table; none before the screen is handed to one of several)."""
        if self.handed:
            self.game_log.bring_up_to(list(self.session.steps), self.viewer if any(self.humans) else None)

    def turn_begins(self, player: int, state: GameState) -> None:
        """A turn's position drawn, for the player to move when no person plays (with people, for the
        person at the screen: another person's turn is drawn for them only once it is handed over)."""
        if not any(self.humans):
            self.viewer = player
        self.redraw(state)

    def moved(self) -> None:
        self.write_log()

    # -- choosing -------------------------------------------------------------------------------------

    def offer(self, seat: int, state: GameState) -> None:
        """Ask ``seat`` for its decision at ``state``; where several people share the screen and it
        shows another's secrets (or nobody's yet), after a `HandOver` screen (then `show_offer`)."""
        if self.hot_seat and (seat != self.viewer or not self.handed):
            self.push_screen(HandOver(self.names[seat]), lambda _: self.show_offer(seat, state))
        else:
            self.show_offer(seat, state)

    def show_offer(self, seat: int, state: GameState) -> None:
        """Draw ``seat``'s decision at ``state``: its board, the log (rewritten after an undo, which
        shortened the session's steps, and for a new viewer), its choices; a new viewer's card panel
        starts empty (it may show a card of the last person's hand)."""
        if seat != self.viewer:
            self.card_panel.clear()
        self.asking = (seat, state)
        self.viewer, self.handed = seat, True
        self.redraw(state)
        self.write_log()
        self.choices.offer(state, self.names)
        self.fit(self.size.width, self.size.height)  # (no hint yet: the board has its rows back)

    def on_choices_chosen(self, event: Choices.Chosen) -> None:
        self.answer(event.action)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The card panel follows the highlight, in the choices and in the hand."""
        if event.option.id is None:
            return
        card = None
        if event.option_list.id == "choices":
            card = self.choices.card_of(int(event.option.id))
        elif event.option_list.id == "hand":
            card = event.option.id
        if card is not None:
            self.action_show_card(card)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a card of the hand: its whole text (`action_read_card`)."""
        if event.option_list.id == "hand" and event.option.id is not None:
            self.action_show_card(event.option.id)
            self.action_read_card()

    def answer(self, reply: object) -> None:
        """Give the match's worker its answer, and leave the choices empty until it asks again (a hint
        still searched for is dropped)."""
        if self.asking is None:
            return
        self.asking = None
        self.workers.cancel_group(self, "hint")
        self.choices.withdraw()
        self.answers.put(reply)

    # -- keys ------------------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """While a decision is asked on the main screen (no picker or dialog over it, and the filter has
        not the focus): a digit jumps to that choice, a letter that is no command opens the filter
        with it."""
        if self.asking is None or len(self.screen_stack) > 1 or isinstance(self.focused, Input):
            return
        if event.character and event.character.isdigit():
            self.choices.jump(event.character)
            event.stop()
        elif event.character and event.character.isalpha() and event.character.lower() not in RESERVED:
            self.action_filter(event.character)
            event.stop()

    def action_filter(self, first: str = "") -> None:
        if self.asking is not None:
            self.choices.open_filter(first)

    def elsewhere(self, key: str) -> bool:
        """True when a command key is not a command now: a dialog is open (it has the keys), or the
        filter is open and the key is a letter of it (typed before the focus reached the filter)."""
        if len(self.screen_stack) > 1:
            return True
        if self.choices.filtering:
            self.action_filter(key)
            return True
        return False

    def key_escape(self) -> None:
        self.choices.clear_filter()

    def action_hint(self) -> None:
        """Search for a hint (in a worker: the screen goes on meanwhile), if none is searched for."""
        if self.elsewhere("h"):
            return
        if self.asking is None:
            self.notify("Not your turn.")
            return
        if self.hinting:
            return
        self.notify("Thinking of a hint...")
        self.think_of_hint(self.asking[1])

    def action_table(self) -> None:
        if self.elsewhere("t"):
            return
        self.push_screen(TableCards(self.seen, self.names))

    def action_show_card(self, card: str) -> None:
        """The text of ``card`` (an id) in the card panel (also the board's click on a card's name)."""
        self.card_panel.show_card(card)

    def action_expand_rival(self, rival: int | None = None) -> None:
        """Show ``rival`` in full on the board (None: the next rival; a click on a rival's line names it)."""
        self.board.show_rival(rival)

    def action_read_card(self) -> None:
        """The card panel's card, its whole text on a screen of its own."""
        if self.elsewhere("r"):
            return
        card = self.card_panel.card
        if card is None:
            self.notify("Highlight a card first: a choice, a card in your hand, or click a card's name.")
            return
        self.push_screen(CardText(card))

    def action_undo(self) -> None:
        if self.elsewhere("u"):
            return
        if self.asking is None:
            self.notify("Undo waits for your turn.")
            return
        self.answer(UNDO)

    def action_auto_collect(self) -> None:
        """Turn auto-collect on or off (remembered between games: `amigos_cli.settings`)."""
        settings = self.settings
        settings.auto_collect = self.auto_collect = not self.auto_collect
        kept = save_settings(settings)
        state = ("on: essences stored on a card are taken at Collect without asking, unless taking them "
                 "costs points or leaving them earns something") if self.auto_collect else "off: every Collect is asked"
        self.notify(f"Auto-collect {state}" + ("" if kept else " (this time only: the settings could not be saved)"))

    def action_save(self) -> None:
        if self.elsewhere("s") or self.stopped.is_set():
            return
        if self.asking is not None:  # the match waits for us: its record is not changing
            self.session.save()
        # (otherwise the match's worker is playing on and saves after every move itself)
        self.notify(f"Saved to {printable(self.path, None)}")

    def action_help(self) -> None:
        if self.elsewhere("?"):
            return
        self.push_screen(HelpScreen())

    @property
    def dialog(self) -> bool:
        """A screen other than the payment picker and the hand-over is over the game (help, the
        table's cards, a card's text, a game's end): it has the keys, q too."""
        return len(self.screen_stack) > 1 and not isinstance(self.screen, (VariantPicker, HandOver))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Pausing and stepping are for watching AI against AI: not shown when a person plays.  Quitting
        and auto-collect (keys of their own everywhere, the picker and the filter's box too) leave
        their keys to a dialog; the next rival's key (the filter's box too) is for games of three or
        more, on the board's own screen.  Hints, undo, the filter and auto-collect are a person's: not
        shown when agents play each other."""
        if action in ("pause", "step"):
            return not any(self.humans)
        if action in ("hint", "undo", "filter") and not any(self.humans):
            return False
        if action == "expand_rival":  # (of two players the one rival is always in full; a dialog has the keys)
            return self.seen.player_count > 2 and len(self.screen_stack) == 1
        if action == "quit_game":
            return not self.dialog
        if action == "auto_collect":
            return any(self.humans) and not self.dialog and not isinstance(self.screen, HandOver)
        return True

    def action_pause(self) -> None:
        """Pause the AI's moves, or go on (for watching AI against AI; a person's turn waits anyway)."""
        if self.going.is_set():
            self.going.clear()
            self.notify("Paused: space goes on, right plays one AI move.")
        else:
            self.going.set()

    def action_step(self) -> None:
        if not self.going.is_set():
            self.one_step = True
            self.going.set()

    def action_quit_game(self) -> None:
        self.stop("quit")

    def action_interrupt(self) -> None:
        self.stop("interrupted")

    def stop(self, outcome: str) -> None:
        """Leave now, the file saved: the match's worker may be in an AI's search, which is not waited
        for (its thread is a daemon, `DaemonThreads`, and whatever it decides is neither shown nor
        saved).  When it waits for us its record is still and is saved here; else it saved after its
        last move, and a save it may be making is waited for.  The session's lock is then kept, so
        that no save starts as the program ends.  A second stop (keys typed fast) does nothing."""
        if self.stopped.is_set():
            return
        self.stopped.set()
        if self.session.match.is_over():
            outcome = "finished"
        elif self.asking is not None:
            self.session.save()
        self.session.lock.acquire()
        self.exit(outcome)

    # -- ends --------------------------------------------------------------------------------------------

    def show_end(self, last: bool) -> None:
        """The final board of the game just ended, until a key is pressed (`onward`)."""
        m = self.session.match
        final = m.state if m.is_over() or m.previous_state is None else m.previous_state
        self.write_log()
        self.ended_game = m.game_number if m.is_over() else m.game_number - 1
        self.redraw(final)
        summary = result_text(self.seen, self.names)
        if m.record["best_of"] > 1:
            summary.append(f"; match score {m.score()[0]}-{m.score()[1]}")
        self.push_screen(GameEnd(self.seen, self.names, summary, last), lambda _: self.onward(last))

    def onward(self, last: bool) -> None:
        """After a game's end screen: the next game (the match's worker waits for it), or after the
        ``last`` the screen closes."""
        self.ended_game = 0
        if last:
            self.exit("finished")
        else:
            self.answers.put(ONWARD)

    def fail(self, exc: Exception) -> None:
        self.failure = exc
        self.exit("failed")


def run_screen(match: Match, path: Path, delay: float = 0.0) -> str:
    """Play ``match`` on the full screen; the outcome ("finished", "quit", "interrupted", "failed")."""
    app = GameApp(match, path, delay)
    outcome = app.run() or "quit"
    if app.failure is not None:
        raise app.failure
    return outcome
