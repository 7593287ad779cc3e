"""A person at the prompt: the same `select(state)` protocol as an agent.

The choices are a numbered list, one line per action; an action with several ways to pay is listed once
and its payments are asked next (for an action of many ways that both pays and gains, such as
Transmutation's hundreds, in two steps: what to pay, then what to gain), by number, by words or by the
essences as the board writes them (``2E 1G``; ``2E / 1G`` for what a power pays and gains). A choice
is a number or words of its line (``pass research``, ``place night``: every word the start of a word
of the line), which stay right when the numbers move because a rival's move changed the list. Besides: ``h`` a hint from the AI,
``u`` undo back to your previous decision, ``s`` save, ``q`` save and quit, ``?`` help, ``c NAME`` a
card's text. A mistyped answer is explained and asked again.
"""

from __future__ import annotations

import re
import sys
from typing import Callable, Sequence, TextIO

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.text import Text

from ai.agent import BaseAgent
from amigos.config import Action
from amigos.state import GameState
from amigos.text import essences_text
from matches.session import QuitRequested, UndoRequested

from .views.board import board
from .views.choices import (
    group_text,
    menu_groups,
    ordered_variants,
    parse_essences,
    pass_leaves,
    payments_first,
    step_of_two,
    typed_variant,
    variant_text,
)

#: How many cards ``c NAME`` prints in full; the names of any others follow.
CARD_MATCHES = 4

HELP = ("Type the number of your choice, or words of its line (e.g. place night).  h: hint from the AI   "
        "u: undo to your previous decision   s: save   q: save and quit   c NAME: a card's text   "
        "? or help: this help")


def discard_typeahead(stream: TextIO | None = None) -> None:
    """Drop what was typed at the terminal before the question was shown: a line typed while the AI
    moved was meant for the list before its move, and the numbers have changed.  Only a terminal
    (``stream``, default stdin) keeps such a buffer; a pipe or a file is read as it is."""
    stream = sys.stdin if stream is None else stream
    try:
        import termios
        if stream.isatty():
            termios.tcflush(stream.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError, AttributeError):  # (no termios on Windows; a closed stdin)
        pass


def matching(answer: str, lines: list[str]) -> list[int]:
    """The indices of the ``lines`` that fit ``answer``: each of its words (case ignored) is the start
    of a word of the line.  A line that is exactly the answer is the only fit; else the lines where the
    words start consecutive words in their order ("use alchemist power 1" is power 1, not power 2,
    whose text has "gain 1" further on) come before the others."""
    words = _words(answer)
    if not words:
        return []
    exact = [i for i, line in enumerate(lines) if _words(line) == words]
    if exact:
        return exact
    fits = [i for i, line in enumerate(lines)
            if all(any(w.startswith(typed) for w in _words(line)) for typed in words)]
    phrases = [i for i in fits if _in_order(words, _words(lines[i]))]
    return phrases or fits


def _in_order(typed: list[str], words: list[str]) -> bool:
    """True if the ``typed`` words start consecutive ``words``, in order."""
    n = len(typed)
    return any(all(words[k + j].startswith(typed[j]) for j in range(n)) for k in range(len(words) - n + 1))


def _words(text: str) -> list[str]:
    """The words of ``text``, lower case, without punctuation (so that "Calm / Elan," gives calm, elan)."""
    return re.findall(r"[a-z0-9']+", text.lower())


def _index(items: Sequence[object], item: object) -> int | None:
    """The index of ``item`` in ``items``; None when it is None or not there."""
    return items.index(item) if item is not None and item in items else None


class Human(BaseAgent):
    """Asks ``console`` (reading with ``ask``) for every decision of seat ``seat``."""

    def __init__(self, seat: int, names: list[str], console: Console, ask: Callable[[str], str] | None = None,
                 on_save: Callable[[], object] | None = None,
                 hinter: Callable[[GameState], RenderableType] | None = None,
                 log: list[str] | None = None, title: str = "",
                 flush: Callable[[], None] | None = None, hand_over: Callable[[int], bool] | None = None) -> None:
        """``hand_over(seat)``, where several people share the screen: whether the screen passes to this
        seat's person now (`hand_over_to` then hides the last person's board until this one is ready)."""
        self.seat = seat
        self.names = names
        self.console = console
        self.ask = ask or (lambda prompt: console.input(prompt))
        # Before each decision, what was typed ahead is dropped (at the terminal; ``ask`` given: nothing).
        self.flush = flush or (discard_typeahead if ask is None else (lambda: None))
        self.on_save = on_save
        self.hinter = hinter
        self.log = log if log is not None else []
        self.title = title
        self.hand_over = hand_over
        self.info = {}

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        if self.hand_over is not None and self.hand_over(self.seat):
            self.hand_over_to()
        self.console.print(board(state, self.seat, self.names, self.log, self.title))
        groups = menu_groups(state)
        self.flush()  # once a decision, before its menu: a retyped answer after a mistake is kept
        while True:
            self.console.print(self._menu(state, groups))
            answer = self._read("Your choice: ")
            chosen = self._interpret(state, groups, answer)
            if chosen is None or not self._pass_confirmed(state, groups, chosen):
                continue
            if len(chosen) == 1:
                return chosen[0]
            action = self._choose_variant(state, chosen)
            if action is not None:
                return action

    def _pass_confirmed(self, state: GameState, groups: list[Sequence[Action]], chosen: Sequence[Action]) -> bool:
        """True unless ``chosen`` is a pass that leaves powers usable this round (one mistyped number
        can pass by accident: the numbers shift after every move) and the person does not confirm it."""
        usable = pass_leaves(state, groups, chosen[0])
        if not usable:
            return True
        answer = self._read(f"Pass with {', '.join(usable)} still usable this round? (y/n) ")
        return answer.lower() in ("y", "yes")

    def hand_over_to(self) -> None:
        """Clear the screen, which showed another person's hand, and wait until this seat's person has
        it: their board comes only then."""
        self.console.clear()
        self.console.print(f"{self.names[self.seat]}: your turn. Everyone else, look away.", style="bold")
        self._read(f"Press Enter when only {self.names[self.seat]} sees the screen. ")
        self.console.clear()

    # -- the dialogue --------------------------------------------------------------------------

    def _read(self, prompt: str) -> str:
        try:
            return self.ask(prompt).strip()
        except EOFError:
            raise QuitRequested() from None

    def _menu(self, state: GameState, groups: list[Sequence[Action]]) -> Text:
        t = Text()
        for i, g in enumerate(groups, 1):
            line = group_text(state, g, self.names)
            t.append(f"{i:>3}. ", style="bold cyan")
            t.append(line)
            if len(g) > 1:
                t.append(f"  ({len(g)} ways)", style="dim")
            t.append("\n")
        return t

    def _interpret(self, state: GameState, groups: list[Sequence[Action]], answer: str) -> Sequence[Action] | None:
        if not answer:
            self.console.print("Type a number (or ? for help).", style="yellow")
            return None
        if answer in ("?", "help"):
            self.console.print(HELP)
            return None
        if answer == "q":
            raise QuitRequested()
        if answer == "u":
            raise UndoRequested()
        if answer == "s":
            if self.on_save:
                where = self.on_save()
                self.console.print(f"Saved{' to ' + escape(str(where)) if where else ''}.", style="green")
            return None
        if answer == "h":
            if self.hinter is None:
                self.console.print("No hint available.", style="yellow")
            else:
                self.console.print(self.hinter(state))
            return None
        if answer.startswith("c ") or answer.startswith("? "):
            self._card_text(answer[2:].strip(), state.sets)
            return None
        if answer == "c":
            self.console.print("Type c and a card's name (or part of it), e.g. c fire dragon.", style="yellow")
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(groups):
            return groups[int(answer) - 1]
        numbers = "1, the only choice here" if len(groups) == 1 else f"a number from 1 to {len(groups)}"
        i = self._by_words(answer, [group_text(state, g, self.names) for g in groups],
                           f"'{escape(answer)}' is not a choice: type {numbers}, or words of a choice "
                           "(or ? for help).")
        return None if i is None else groups[i]

    def _by_words(self, answer: str, lines: list[str], otherwise: str) -> int | None:
        """The index of the only line of ``lines`` that ``answer`` fits (`matching`; a number fits
        none).  Else None, having listed the lines it fits with their numbers, or, if it fits none,
        said ``otherwise``."""
        found = [] if answer.isdigit() else matching(answer, lines)
        if len(found) == 1:
            return found[0]
        if not found:
            self.console.print(otherwise, style="yellow")
            return None
        self.console.print(f"'{escape(answer)}' fits {len(found)} choices: type a number, or more words.",
                           style="yellow")
        for i in found:
            self.console.print(Text(f"{i + 1:>3}. ", style="bold cyan") + Text(lines[i]))
        return None

    def _choose_variant(self, state: GameState, variants: Sequence[Action]) -> Action | None:
        """One of ``variants`` (the ways of one action), or None to go back to the menu."""
        title = group_text(state, variants, self.names)
        variants = ordered_variants(variants)
        pays = payments_first(variants)
        if pays is None:
            i = self._pick(f"{title}: how?", [variant_text(state, a) for a in variants], "a way",
                           typed=lambda answer: _index(variants, typed_variant(variants, answer)))
            return None if i is None else variants[i]
        while True:
            i = self._pick(f"{title}: what do you pay? ({len(variants)} ways in all)",
                           step_of_two(variants, pays, None)[1], "a payment",
                           typed=lambda answer: _index(pays, parse_essences(answer)))
            if i is None:
                return None
            ways, lines = step_of_two(variants, pays, pays[i])
            j = self._pick(f"{title}, paying {essences_text(pays[i])}: what do you gain?", lines, "a gain",
                           back="back to the payments",
                           typed=lambda answer: _index(ways, typed_variant(ways, answer, gain_only=True)))  # noqa: B023 - used at once
            if j is not None:
                return ways[j]

    def _pick(self, header: str, lines: list[str], what: str, back: str = "back",
              typed: Callable[[str], int | None] | None = None) -> int | None:
        """Ask for one of ``lines`` (by number, by the essences ``typed`` reads, e.g. ``2E 1G``, or by
        words) under ``header``: its index, or None for 0."""
        self.console.print(Text(header, style="bold"))
        for i, line in enumerate(lines, 1):
            self.console.print(Text(f"{i:>3}. ", style="bold cyan") + Text(line))
        self.console.print(Text(f"  0. {back}", style="dim"))
        while True:
            answer = self._read("Which way: ")
            if answer == "0":
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(lines):
                return int(answer) - 1
            if answer == "q":
                raise QuitRequested()
            by_essences = typed(answer) if typed is not None and answer else None
            if by_essences is not None:
                return by_essences
            found = self._by_words(answer, lines,
                                   f"Type a number from 1 to {len(lines)}, words of {what} or its essences (2E 1G), "
                                   f"or 0 to go {back}.")
            if found is not None:
                return found

    def _card_text(self, name: str, sets: tuple[str, ...]) -> None:
        """The text of the cards of the game's ``sets`` whose name contains ``name`` (an exact name
        first): at most `CARD_MATCHES` of them, then the names of the others, if any."""
        from amigos import cards as C
        needle = name.lower()
        matches = [c for c in C.CARDS if c.set in sets and (needle in c.name.lower() or needle == c.id)]
        matches.sort(key=lambda c: c.name.lower() != needle)  # stable: otherwise in the table's order
        if not matches:
            from amigos.carddata import components

            from .views.cards import nearest_name
            self.console.print(f"No card named '{escape(name)}'{escape(nearest_name(name, components(sets)))}.",
                               style="yellow")
        for c in matches[:CARD_MATCHES]:
            self.console.print(Text(c.name, style="bold") + Text(": " + c.text))
        if len(matches) > CARD_MATCHES:
            rest = matches[CARD_MATCHES:]
            self.console.print(Text(f"(and {len(rest)} more: {', '.join(c.name for c in rest)}; "
                                    "be more specific)", style="dim"))
