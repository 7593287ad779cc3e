"""The picker of a payment or a gain: the ways one action can be paid for (Obelisk's 84, Alchemy's,
a discard's 11) as a short scrollable list with the AI's preferred way highlighted, and a line where
the way can be typed (``4E 2D``, or ``2E / 1G`` for what a power takes and gives).  An action of
many ways that pays and gains (Transmutation's hundreds) lists its payments first, then the gains.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from amigos.config import Action
from amigos.state import GameState
from amigos.text import essences_text

from ..views.board import LETTERS
from ..views.choices import (
    ordered_variants,
    parse_essences,
    payments_first,
    step_of_two,
    typed_variant,
    variant_text,
    vectors,
)
from .keys import QUIT_ACTION, QUIT_KEY, NumberKeys

#: The keys that begin a typed way on the picker's list: the essences' letters and the "/" between what
#: a power pays and what it gains.
TYPED_KEYS = frozenset(LETTERS + "/")


class TypedWay(Input):
    """The picker's typing box, where `QUIT_KEY` saves and quits as everywhere (no essence has that
    letter; an app without the action ignores it)."""

    async def _on_key(self, event: events.Key) -> None:
        """(Called before `Input`'s own handler, which the quit key does not reach.)"""
        if event.character == QUIT_KEY:
            event.stop()
            event.prevent_default()
            await self.app.run_action(QUIT_ACTION)


def typing_example(variants: Sequence[Action]) -> str:
    """The typing field's example: the first of these ways as it is typed ("2E 1D" for a way that
    pays or gains, "3C 1D / 2G" for one that pays and gains)."""
    pay, gain = vectors(variants[0]) if variants else (None, None)
    typed = [" ".join(f"{v[k]}{LETTERS[k]}" for k in range(5) if v[k]) for v in (pay, gain) if v is not None and any(v)]
    return f"or type it, e.g. {' / '.join(typed)}" + (" (pay / gain)" if len(typed) == 2 else "") if typed else \
        "or type it"


class VariantPicker(ModalScreen[Action | None]):
    """Choose one of ``variants`` (the ways of one action); dismissed with the variant or None."""

    BINDINGS = [Binding("escape", "back", "Back")]
    DEFAULT_CSS = """
    VariantPicker { align: center middle; }
    VariantPicker > Vertical { width: 72%; min-width: 60; max-width: 95%; height: auto; max-height: 90%;
                               border: thick $accent; background: $surface; padding: 0 1; }
    VariantPicker Static { width: 100%; height: auto; }
    VariantPicker OptionList { height: auto; max-height: 14; scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    """

    def __init__(self, state: GameState, title: str, variants: Sequence[Action], preferred: Action | None) -> None:
        super().__init__()
        self.state: GameState = state
        self.title_text: str = title
        self.variants: list[Action] = ordered_variants(variants)
        self.preferred: Action | None = preferred
        self.number: NumberKeys = NumberKeys()
        self.payments: list[tuple[int, ...]] | None = payments_first(self.variants)
        self.paying: tuple[int, ...] | None = None  # the payment chosen, while the gains are listed
        self.listed: list[Action] = []  # the ways the list shows (with payments first: one per payment)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="heading")  # (Statics wrap: a long card name or payment is not cut)
            yield Static(Text("Enter takes the highlighted way; a number jumps to one; Esc goes back", style="dim"))
            yield OptionList(id="ways")
            yield TypedWay(placeholder=typing_example(self.variants), id="typed", select_on_focus=False)

    def on_mount(self) -> None:
        self._show()
        self.query_one("#ways", OptionList).focus()

    def _show(self) -> None:
        """List the ways, the payments or (once one is chosen) its gains, the suggested one highlighted."""
        ways = self.query_one("#ways", OptionList)
        ways.clear_options()
        heading = f"{self.title_text}: how? ({len(self.variants)} ways)"
        preferred = self.preferred
        if self.payments is None:
            self.listed = self.variants
            lines = [variant_text(self.state, v) for v in self.variants]
        else:
            self.listed, lines = step_of_two(self.variants, self.payments, self.paying)
            if self.paying is None:
                heading = f"{self.title_text}: what do you pay? ({len(self.variants)} ways in all)"
                if preferred is not None:  # its payment's line
                    preferred = next((v for v in self.listed if vectors(v)[0] == vectors(preferred)[0]), None)
            else:
                heading = (f"{self.title_text}, paying {essences_text(self.paying)}: what do you gain? "
                           "(Esc: the payments)")
        self.query_one("#heading", Static).update(Text(heading, style="bold"))
        for i, (v, line) in enumerate(zip(self.listed, lines), 1):
            mark = "  (suggested)" if v == preferred else ""
            ways.add_option(Option(f"{i:>3}. {line}{mark}", id=str(i - 1)))
        ways.highlighted = self.listed.index(preferred) if preferred in self.listed else 0

    def on_key(self, event: events.Key) -> None:
        """On the list, a number jumps to that way (then Enter takes it), as in the list of choices; an
        essence's letter or ``/`` goes on in the typing box, after the digits typed just before it
        (``3E`` typed on the list is the way ``3E``).  No key typed here reaches the screen under it."""
        if isinstance(self.focused, Input) or not event.is_printable or not event.character:
            return
        event.stop()
        if event.character.isdigit():
            number = self.number.add(event.character)
            if 1 <= number <= len(self.listed):
                self.query_one("#ways", OptionList).highlighted = number - 1
        elif event.character.upper() in TYPED_KEYS:
            box = self.query_one("#typed", Input)
            box.value = self.number.pending() + event.character
            box.cursor_position = len(box.value)
            box.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        chosen = self.listed[int(event.option.id or 0)]
        if self.payments is not None and self.paying is None:
            self.paying = vectors(chosen)[0]
            self._show()
            return
        self.dismiss(chosen)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """The typed way taken (`typed_variant`: in the gains' step the essences typed are the gain); in
        the payments' step a payment of several gains typed alone lists its gains."""
        event.stop()
        typed = event.value
        if self.paying is not None:
            chosen = typed_variant(self.listed, typed, gain_only=True)
        else:
            chosen = typed_variant(self.variants, typed)
            payment = parse_essences(typed) if self.payments is not None and "/" not in typed else None
            if chosen is None and payment in (self.payments or ()):
                self.paying = payment
                event.input.value = ""
                self._show()
                return
        if chosen is None:
            self.notify(f"'{typed}' is none of these ways", severity="warning")
            return
        self.dismiss(chosen)

    def action_back(self) -> None:
        if self.paying is not None:
            self.paying = None
            self._show()
            return
        self.dismiss(None)
