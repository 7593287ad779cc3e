"""The full-screen game: the board, the cards and the choices on one screen that redraws in place.

The match runs in a thread of its own (`Session.run`, the same loop as the line mode); a person's
seat is a `ScreenSeat`, whose ``select`` shows the choices and waits for the screen's answer.  The
screen hears the session's events (a turn begins, a move is made, a game ends) and redraws.
"""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path
from typing import Callable, cast

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from ai.agent import BaseAgent
from ai.heuristics import best_variant
from amigos.state import GameState
from matches.match import Match, expansion_title

from ..human import QuitRequested, UndoRequested
from ..views.choices import group_text
from ..views.safe import printable
from ..session import Interrupted, Session, Step, round_line, settled_lines, step_line
from ..views.outcome import collects
from ..views.board import face_down_line, known_deck, result_text
from .cards import CARD_LINES, TableCards, flat_details
from .board import flatten, banner, card_of, hand_entities, hand_line, middle, placeable, tableau
from .ending import GameEnd
from .keys import NumberKeys
from .picker import VariantPicker

UNDO, QUIT, ONWARD = "undo", "quit", "onward"  # answers to a seat besides an action
RESERVED = set("hustq?/")  # keys that are commands, not the start of a filter
HELP = ("Up/Down choose, Enter plays, a number jumps to that choice, letters filter by card name "
        "(Esc clears).  h hint (Enter then plays it), u undo, s save, q save and quit, t every card "
        "on the table with its text, Tab to your hand and back: the card panel shows the text of what is "
        "highlighted; a click on a card's name shows its text too.")


def short_names(names: list[str]) -> list[str]:
    """The players' names without their agent specs ("AI (mcts:time=1.0)" -> "AI"), where that keeps
    them apart: the board's lines have no room for a spec (the log's first line names it)."""
    short = [n.split(" (")[0] for n in names]
    return short if len(set(short)) == len(short) else list(names)


class ScreenSeat(BaseAgent):
    """A person's seat: asks the screen for each decision (from the match's thread)."""

    def __init__(self, app: "GameApp", seat: int):
        self.app = app
        self.seat = seat
        self.info = {}

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> tuple:
        answer = self.app.ask(self.seat, state)
        if answer == UNDO:
            raise UndoRequested()
        if answer == QUIT:
            raise QuitRequested()
        return cast("tuple", answer)  # (any other answer to a seat is an action)


class GameApp(App[str]):
    """One match on the full screen.  Ends with "finished", "quit" or "interrupted" (Ctrl-C)."""

    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #left { width: 3fr; }
    #right { width: 2fr; min-width: 32; }
    #banner { height: auto; }
    #board { height: auto; max-height: 60%; }
    #board > Static { height: auto; }
    #hand { height: auto; max-height: 7; border-top: solid $secondary; }
    #choices { height: 1fr; min-height: 4; border-top: solid $accent; }
    #hint { height: auto; color: $warning; display: none; }
    #hint.shown { display: block; }
    #filter { display: none; height: 1; border: none; padding: 0 1; }
    #filter.shown { display: block; }
    #card { height: 2fr; border: round $secondary; overflow-y: scroll; }
    #log { height: 3fr; border-left: solid $secondary; border-top: solid $secondary; }
    """
    BINDINGS = [
        Binding("h", "hint", "hint"), Binding("u", "undo", "undo"), Binding("s", "save", "save"),
        Binding("q", "quit_game", "save & quit"), Binding("question_mark", "help", "help"),
        Binding("slash", "filter", "filter"), Binding("t", "table", "table cards"),
        Binding("space", "pause", "pause AI"),
        Binding("right", "step", "one AI move"),
        Binding("ctrl+c", "interrupt", "quit", show=False, priority=True),
    ]

    def __init__(self, match: Match, path: Path, delay: float = 0.0):
        super().__init__()
        self.path = Path(path)
        self.delay = delay
        self.session = Session(match, path, None, seat_for=lambda seat: ScreenSeat(self, seat))
        self.session.listeners.append(self.hear)
        self.names = short_names(self.session.names)
        self.humans = self.session.humans
        self.answers: queue.Queue = queue.Queue()
        self.asking: tuple[int, GameState] | None = None
        self.groups: list[list[tuple]] = []
        self.shown: list[int] = []  # the indices into `groups` the choice list shows (after the filter)
        self.suggested: tuple | None = None
        self.viewer = self.humans.index(True) if any(self.humans) else 0
        self.state: GameState = match.state
        self.logged = 0  # the session's steps written to the log panel
        self.last_logged: Step | None = None  # the last of them (an undo rebuilds the steps anew)
        self.header: tuple[int, int] | None = None  # the (game, round) of the log's last round line
        self.number = NumberKeys()
        self.stopped = threading.Event()
        self.going = threading.Event()  # cleared while AI moves are paused (watching AI against AI)
        self.going.set()
        self.one_step = False
        self.card_shown: int | None = None  # the card whose text the card panel shows
        self.card_lines = 0  # the lines of the text in the card panel
        self.ended_game = 0  # the game whose end screen is up (the match has moved on to the next)
        self.hinting = False  # a hint is being searched for
        self.failure: Exception | None = None  # what stopped the match's thread, if anything failed

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="left"):
                yield Static(id="banner")
                with VerticalScroll(id="board", can_focus=False):
                    yield Static(id="rival")
                    yield Static(id="centre")
                    yield Static(id="mine")
                yield OptionList(id="hand")
                yield Static(id="hint")
                yield OptionList(id="choices")
                yield Input(id="filter", placeholder="filter by card name (Esc clears)", select_on_focus=False)
            with Vertical(id="right"):
                yield VerticalScroll(Static(id="card-text"), id="card", can_focus=False)
                yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Amigos"
        self.query_one("#log", RichLog).can_focus = False  # Tab goes between the choices and the hand
        self.redraw(self.session.match.state)
        self.write_log()
        threading.Thread(target=self.play, daemon=True, name="match").start()

    # -- the match's thread -----------------------------------------------------------------------

    def play(self) -> None:
        try:
            self.session.run()
            outcome = "finished"
        except Interrupted:
            outcome = "interrupted"
        except QuitRequested:
            outcome = "quit"
        except Exception as exc:  # shown after the screen closes, the file saved as it was
            self.call_from_thread(self.fail, exc)
            return
        if outcome == "finished":
            self.call_from_thread(self.show_end, True)
            self.answers.get()
        self.call_from_thread(self.exit, outcome)

    def ask(self, seat: int, state: GameState) -> object:
        """Show the choices of ``seat`` and wait for the answer (called from the match's thread)."""
        self.call_from_thread(self.offer, seat, state.clone())
        return self.answers.get()

    def hear(self, kind: str, data: dict) -> None:
        """The session's events, from the match's thread."""
        if self.stopped.is_set():
            return
        if kind == "turn":
            self.call_from_thread(self.turn_begins, data["player"], data["state"].clone())
        elif kind == "move":
            self.call_from_thread(self.moved)
            if not self.humans[data["player"]]:
                if self.delay:
                    time.sleep(self.delay)
                if self.one_step:
                    self.one_step = False
                    self.going.clear()
                self.going.wait()
        elif kind == "game_over" and any(self.humans) and not self.session.match.is_over():
            self.call_from_thread(self.show_end, False)
            self.answers.get()
        elif kind == "message":
            self.call_from_thread(self.notify, data["text"])

    # -- redrawing ----------------------------------------------------------------------------------

    def redraw(self, state: GameState) -> None:
        self.state = state
        viewer = self.viewer
        rival = 1 - viewer
        width = max(20, self.query_one("#board").scrollable_content_region.width)
        self.query_one("#banner", Static).update(self.heading(state))
        self.query_one("#rival", Static).update(flatten(tableau(state, rival, viewer, self.names), width))
        self.query_one("#centre", Static).update(flatten(middle(state, self.names, viewer), width))
        self.query_one("#mine", Static).update(flatten(tableau(state, viewer, viewer, self.names), width))
        hand = self.query_one("#hand", OptionList)
        can = placeable(state, viewer)
        highlighted = hand.highlighted
        hand.clear_options()
        mine = hand_entities(state, viewer)
        hand.add_options([Option(hand_line(state, e, e in can), id=str(e)) for e in mine])
        face_down = face_down_line(state, viewer)  # a First Game's deck, not seen at the deal
        deck = known_deck(state, viewer) + ([face_down] if face_down else [])
        if deck:
            hand.add_option(Option(Text("  in your deck: " + ", ".join(deck), style="dim"), disabled=True))
        if highlighted is not None and highlighted < len(mine):
            hand.highlighted = highlighted
        hand.border_title = f"{'Your' if self.humans[viewer] else self.names[viewer] + chr(39) + 's'} hand"

    def heading(self, state: GameState) -> Text:
        m = self.session.match
        game = self.ended_game or m.game_number
        t = Text(f" Game {game}" + (f" of {m.record['best_of']}" if m.record["best_of"] > 1 else "")
                 + (f" (score {m.score()[0]}-{m.score()[1]})" if m.game_number > 1 else "")
                 + f"  round {state.round}  "
                 + (f"{expansion_title(m.expansions)}  " if m.expansions else ""), style="bold reverse")
        if self.asking is None and not state.is_terminal():
            actor = state.current_player()
            t.append(f"  {self.names[actor]} to play" + ("..." if not self.humans[actor] else ""), style="italic")
        warn = banner(state, self.names)
        if warn:
            t.append("  ")
            t.append_text(warn)
        return t

    def write_log(self) -> None:
        """Bring the log panel up to the session's steps (all over again after an undo, which rebuilt
        them), with a line for each new round: the score, then the round's collects."""
        log = self.query_one("#log", RichLog)
        steps = list(self.session.steps)
        if self.logged and (len(steps) < self.logged or steps[self.logged - 1] is not self.last_logged):
            log.clear()
            self.logged, self.header = 0, None
        viewer = self.viewer if any(self.humans) else None
        for step in steps[self.logged:]:
            self.round_header(log, step.game, step.before)
            for line in settled_lines(step, viewer, self.names):
                log.write(Text(line, style="dim"))
            log.write(Text(step_line(step, viewer, self.names),
                           style="cyan" if self.humans[step.actor] else "magenta"))
            began = collects(step.before, step.after, self.names)
            if began:
                self.round_header(log, step.game, step.after)
                log.write(Text(began, style="dim"))
        self.logged = len(steps)
        self.last_logged = steps[-1] if steps else None

    def round_header(self, log: RichLog, game: int, state: GameState) -> None:
        """"Game 1, round 3: You 4 VP, AI 5 VP", once for each round."""
        if (game, state.round) == self.header:
            return
        self.header = (game, state.round)
        log.write(Text(round_line(game, state, self.names), style="bold"))

    def on_resize(self, event: events.Resize) -> None:
        """Lay the board out again at the new width (its parts are laid out text, see `flatten`)."""
        self.card_shown = None
        self.call_after_refresh(self.redraw, self.state)

    def turn_begins(self, player: int, state: GameState) -> None:
        if self.humans[player]:
            self.viewer = player
        elif not any(self.humans):
            self.viewer = player
        self.redraw(state)

    def moved(self) -> None:
        self.write_log()

    # -- choosing -------------------------------------------------------------------------------------

    def offer(self, seat: int, state: GameState) -> None:
        self.asking = (seat, state)
        self.viewer = seat
        self.groups = state.legal_groups()
        self.suggested = None
        self.redraw(state)
        self.write_log()  # after an undo the session's log is shorter: it is rewritten
        self.fill_choices("")
        choices = self.query_one("#choices", OptionList)
        choices.focus()
        if len(self.groups) == 1 and len(self.groups[0]) > 1:  # one action, several ways: ask the way
            choices.action_select()

    def fill_choices(self, needle: str) -> None:
        choices = self.query_one("#choices", OptionList)
        choices.clear_options()
        if self.asking is None:
            return
        state = self.asking[1]
        needle = needle.lower()
        self.shown = [i for i, g in enumerate(self.groups) if needle in group_text(state, g).lower()]
        for i in self.shown:
            g = self.groups[i]
            t = Text(f"{i + 1:>3}. ", style="bold cyan")
            t.append(group_text(state, g))
            if len(g) > 1:
                t.append(f"  ({len(g)} ways)", style="dim")
            if self.suggested is not None and self.suggested in g:
                t.append("  <- hint", style="bold yellow")
            choices.add_option(Option(t, id=str(i)))
        choices.border_title = f"Your choice ({len(self.groups)})" + (f", filter '{needle}'" if needle else "")
        if self.shown:
            choices.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "choices" or self.asking is None:
            return
        group = self.groups[int(event.option.id or 0)]
        if len(group) == 1:
            self.answer(group[0])
            return
        state = self.asking[1]
        preferred = self.suggested if self.suggested in group else best_variant(state, group)
        self.push_screen(VariantPicker(state, group_text(state, group), group, preferred), self.chose_way)

    def chose_way(self, chosen: tuple | None) -> None:
        """The payment picker's answer: a way of paying (played), or None (back to the choices)."""
        if chosen is not None:
            self.answer(chosen)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is None:
            return
        entity = None
        if event.option_list.id == "choices" and self.asking is not None:
            entity = card_of(self.asking[1], self.groups[int(event.option.id)][0])
        elif event.option_list.id == "hand":
            entity = int(event.option.id)
        if entity is not None:
            self.action_show_card(entity)

    def answer(self, reply: object) -> None:
        """Give the match's thread its answer, and leave the choices empty until it asks again."""
        if self.asking is None:
            return
        self.asking = None
        self.query_one("#hint", Static).remove_class("shown")
        self.groups = []
        self.hide_filter()
        self.fill_choices("")
        self.answers.put(reply)

    # -- keys ------------------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        if self.asking is None or isinstance(self.focused, Input):
            return
        if event.character and event.character.isdigit():
            number = self.number.add(event.character)
            if 1 <= number <= len(self.groups) and number - 1 in self.shown:
                choices = self.query_one("#choices", OptionList)
                choices.highlighted = self.shown.index(number - 1)
                choices.focus()
            event.stop()
        elif event.character and event.character.isalpha() and event.character.lower() not in RESERVED:
            self.action_filter(event.character)
            event.stop()

    def action_filter(self, first: str = "") -> None:
        if self.asking is None:
            return
        box = self.query_one("#filter", Input)
        if box.has_class("shown"):  # keys typed faster than the focus moved: they are the filter's
            box.insert_text_at_cursor(first)
        else:
            box.add_class("shown")
            box.value = first
            box.cursor_position = len(first)
        box.focus()
        self.fill_choices(box.value)

    def elsewhere(self, key: str) -> bool:
        """True when a command key is not a command now: a dialog is open (it has the keys), or the
        filter is open and the key is a letter of it (typed before the focus reached the filter)."""
        if len(self.screen_stack) > 1:
            return True
        if self.query_one("#filter", Input).has_class("shown"):
            self.action_filter(key)
            return True
        return False

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            self.fill_choices(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "filter":
            choices = self.query_one("#choices", OptionList)
            if self.shown:
                choices.focus()
                choices.action_select()

    def hide_filter(self) -> None:
        box = self.query_one("#filter", Input)
        box.value = ""
        box.remove_class("shown")
        self.query_one("#choices", OptionList).focus()

    def key_escape(self) -> None:
        if self.query_one("#filter", Input).has_class("shown"):
            self.hide_filter()
            self.fill_choices("")

    def action_hint(self) -> None:
        if self.elsewhere("h"):
            return
        if self.asking is None:
            self.notify("Not your turn.")
            return
        if self.hinting:
            return
        state = self.asking[1]
        self.hinting = True
        self.notify("Thinking of a hint...")

        def think() -> None:
            try:
                action, text = self.session.suggest(state)
            except Exception as exc:  # the game goes on without a hint, and says why
                self.call_from_thread(self.notify, f"No hint: {exc}", severity="error")
            else:
                self.call_from_thread(self.show_hint, state, action, text)
            finally:
                self.hinting = False

        threading.Thread(target=think, daemon=True).start()

    def show_hint(self, state: GameState, action: tuple, text: str) -> None:
        if self.asking is None or self.asking[1] is not state:
            return
        self.suggested = action
        self.hide_filter()
        self.fill_choices("")
        index = next((i for i, g in enumerate(self.groups) if action in g), None)
        if index is not None:
            self.query_one("#choices", OptionList).highlighted = self.shown.index(index)
        hint = self.query_one("#hint", Static)
        hint.update(Text(text))
        hint.add_class("shown")

    def action_table(self) -> None:
        if self.elsewhere("t"):
            return
        self.push_screen(TableCards(self.state, self.viewer))

    def action_show_card(self, e: int) -> None:
        if e == self.card_shown:
            return
        self.card_shown = e
        width = self.query_one("#card-text").size.width or self.query_one("#card").scrollable_content_region.width
        text = flat_details(self.state, e, width)
        same_height = self.card_lines == CARD_LINES == text.plain.count("\n") + 1
        self.query_one("#card-text", Static).update(text, layout=not same_height)
        self.card_lines = text.plain.count("\n") + 1

    def action_undo(self) -> None:
        if self.elsewhere("u"):
            return
        if self.asking is None:
            self.notify("Undo waits for your turn.")
            return
        self.answer(UNDO)

    def action_save(self) -> None:
        if self.elsewhere("s") or self.stopped.is_set():
            return
        if self.asking is not None:  # the match waits for us: its record is not changing
            self.session.save()
        # (otherwise the match's thread is playing on and saves after every move itself)
        self.notify(f"Saved to {printable(self.path, None)}")

    def action_help(self) -> None:
        if self.elsewhere("?"):
            return
        self.card_shown, self.card_lines = None, 0
        self.query_one("#card-text", Static).update(Text(HELP))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """Pausing and stepping are for watching AI against AI: not shown when a person plays."""
        if action in ("pause", "step"):
            return not any(self.humans)
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
        if self.elsewhere("q"):
            return
        self.stop("quit")

    def action_interrupt(self) -> None:
        self.stop("interrupted")

    def stop(self, outcome: str) -> None:
        """Leave now, the file saved: the match's thread may be in an AI's search, which is not
        waited for.  When it waits for us its record is still and is saved here; else it saved after
        its last move, and a save it may be making is waited for.  The session's lock is then kept,
        so that no save starts as the program ends.  A second stop (keys typed fast) does nothing."""
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
        """The final board of the game just ended, until a key is pressed."""
        m = self.session.match
        final = m.state if m.is_over() or m.previous_state is None else m.previous_state
        self.write_log()
        self.ended_game = m.game_number if m.is_over() else m.game_number - 1
        self.redraw(final)
        summary = result_text(final, self.names)
        if m.record["best_of"] > 1:
            summary.append(f"; match score {m.score()[0]}-{m.score()[1]}")

        def onward(_: object) -> None:
            self.ended_game = 0
            self.answers.put(ONWARD)

        self.push_screen(GameEnd(final, self.names, self.viewer, summary, last), onward)

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

