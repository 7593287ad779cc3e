"""The choosing part of the full screen: the hint's line, the numbered list of the choices of the
decision asked, and the filter box that narrows the list to the lines with the letters typed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ai.heuristics import best_variant
from amigos.config import Action
from amigos.state import GameState

from ..views.choices import card_of, group_text, keeps_a_bonus, menu_groups, pass_leaves
from .confirm import PassConfirm
from .keys import QUIT_ACTION, QUIT_KEY, NumberKeys
from .picker import VariantPicker


class Numbered:
    """A numbered line of a list, wrapped under its text rather than under its number (a long choice
    keeps every word, and its number stands out); ``str`` is its plain text."""

    def __init__(self, number: int, text: Text) -> None:
        self.number: Text = Text(f"{number:>3}. ", style="bold cyan")
        self.text: Text = text

    def __str__(self) -> str:
        return self.number.plain + self.text.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        grid = Table.grid()
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_row(self.number, self.text)
        yield grid


class FilterBox(Input):
    """The filter's box: letters filter the choices; a digit is not part of a filter (card names have
    none) and jumps to that choice (`Choices.jump`) as it does on the list, and `QUIT_KEY` saves and
    quits as everywhere."""

    class Digit(Message):
        def __init__(self, digit: str) -> None:
            super().__init__()
            self.digit: str = digit

    async def _on_key(self, event: events.Key) -> None:
        """(Called before `Input`'s own handler, which a digit does not reach.)"""
        if event.character and event.character.isdigit():
            event.stop()
            event.prevent_default()
            self.post_message(self.Digit(event.character))
        elif event.character == QUIT_KEY:
            event.stop()
            event.prevent_default()
            await self.app.run_action(QUIT_ACTION)


class Choices(Vertical):
    """The choices of the decision offered (`offer`), one line per action (its ways of paying are
    asked in a `VariantPicker` when it has several), until `withdraw`.  A choice made is posted as
    `Choices.Chosen`.  ``groups`` are the offered position's legal groups, ``shown`` the indices into
    them that the list shows (after the filter) and ``suggested`` the hint's action, if one came."""

    class Chosen(Message):
        """An action chosen from the list (with its way of paying, when it has several)."""

        def __init__(self, action: Action) -> None:
            super().__init__()
            self.action: Action = action

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.offered: GameState | None = None  # the position whose choices are listed
        self.names: list[str] | None = None  # the players' names as the reader knows them (a rival chosen)
        self.groups: list[Sequence[Action]] = []
        self.shown: list[int] = []
        self.suggested: Action | None = None
        self.number: NumberKeys = NumberKeys()
        self.awaiting_hint: bool = False  # Enter was pressed while a hint was searched for: it plays the hint

    def compose(self) -> ComposeResult:
        yield Static(id="hint")
        yield OptionList(id="choices")
        yield FilterBox(id="filter", placeholder="filter by card name (Esc clears; a number jumps)", select_on_focus=False)

    @property
    def options(self) -> OptionList:
        """The list of the choices."""
        return self.query_one("#choices", OptionList)

    @property
    def filter_box(self) -> Input:
        return self.query_one("#filter", Input)

    @property
    def filtering(self) -> bool:
        """The filter box is open."""
        return self.filter_box.has_class("shown")

    # -- offering ---------------------------------------------------------------------------------------

    def offer(self, state: GameState, names: list[str] | None = None) -> None:
        """List the choices of ``state`` (no hint yet) with the focus on them, a rival named by ``names``;
        an only action of several ways goes straight to the question of its way."""
        self.offered = state
        self.names = names
        self.groups = menu_groups(state)
        self.suggested = None
        self.awaiting_hint = False
        self.fill("")
        self.options.focus()
        if len(self.groups) == 1 and len(self.groups[0]) > 1:
            self.options.action_select()

    def withdraw(self) -> None:
        """Empty the list (and hide the hint and the filter) until the next offer."""
        self.offered = None
        self.awaiting_hint = False
        self.query_one("#hint", Static).remove_class("shown")
        self.groups = []
        self.hide_filter()
        self.fill("")

    def fill(self, needle: str) -> None:
        """List the choices whose lines hold ``needle`` (case ignored), the first highlighted; the hint's
        choice marked."""
        options = self.options
        options.clear_options()
        if self.offered is None:
            return
        needle = needle.lower()
        self.shown = [i for i, g in enumerate(self.groups) if needle in group_text(self.offered, g, self.names).lower()]
        options.add_options([Option(self.line(i), id=str(i)) for i in self.shown])
        options.border_title = f"Your choice ({len(self.groups)})" + (f", filter '{needle}'" if needle else "")
        if self.shown:
            offered = self.offered
            options.highlighted = next((k for k, i in enumerate(self.shown) if keeps_a_bonus(offered, self.groups[i][0])),
                                       0)

    def line(self, i: int) -> Numbered:
        """The line of choice ``i``: its number, its text, its ways of paying, and the hint's mark."""
        assert self.offered is not None
        g = self.groups[i]
        t = Text(group_text(self.offered, g, self.names))
        if len(g) > 1:
            t.append(f"  ({len(g)} ways)", style="dim")
        if self.suggested is not None and self.suggested in g:
            t.append("  <- hint", style="bold yellow")
        return Numbered(i + 1, t)

    def card_of(self, i: int) -> str | None:
        """The card choice ``i`` is about (for the card panel), if any."""
        return None if self.offered is None else card_of(self.offered, self.groups[i][0])

    def hint_rows(self) -> int:
        """The lines the hint takes while it is shown (0 when hidden or not laid out yet)."""
        hint = self.query_one("#hint", Static)
        return hint.outer_size.height if hint.has_class("shown") else 0

    def show_hint(self, state: GameState, action: Action, text: str) -> None:
        """Mark and highlight the hint's ``action`` and show its reasons, if ``state`` is still the
        position offered (a hint that comes after the choice is dropped)."""
        if self.offered is not state:
            return
        self.suggested = action
        self.hide_filter()
        self.fill("")
        index = next((i for i, g in enumerate(self.groups) if action in g), None)
        if index is not None:
            self.options.highlighted = self.shown.index(index)
        hint = self.query_one("#hint", Static)
        hint.update(Text(text))
        hint.add_class("shown")
        self.call_after_refresh(self.options.scroll_to_highlight)  # (the hint's lines took rows: keep it seen)
        if self.awaiting_hint:  # ("h" then Enter: the hint's move, as the README says)
            self.awaiting_hint = False
            self.post_message(self.Chosen(action))

    # -- choosing -----------------------------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a choice: chosen, or (several ways) the way asked first; on the hint's choice, the
        hint's move, way and all ("Enter plays it")."""
        if event.option_list.id != "choices" or self.offered is None:
            return
        event.stop()
        if getattr(self.app, "hinting", False) and self.suggested is None:
            # (Enter right after "h": it means the hint's move, which comes in a moment)
            self.awaiting_hint = True
            self.app.notify("Enter: the hint's move, as soon as it comes.")
            return
        group = self.groups[int(event.option.id or 0)]
        hinted = self.suggested if self.suggested in group else None  # (the hint's line: its way too)
        if len(group) == 1 or hinted is not None:
            chosen = group[0] if hinted is None else hinted
            usable = pass_leaves(self.offered, self.groups, chosen) if hinted is None else []
            if usable:  # (a pass that leaves powers usable: asked first, as at the line prompt)
                def answered(yes: bool | None) -> None:
                    if yes:
                        self.post_message(self.Chosen(chosen))
                self.app.push_screen(PassConfirm(usable), answered)
                return
            self.post_message(self.Chosen(chosen))
            return
        state = self.offered
        preferred = self.suggested if self.suggested in group else best_variant(state, group)
        self.app.push_screen(VariantPicker(state, group_text(state, group, self.names), group, preferred), self.chose_way)

    def chose_way(self, chosen: Action | None) -> None:
        """The payment picker's answer: a way of paying (chosen), or None (back to the choices)."""
        if chosen is not None:
            self.post_message(self.Chosen(chosen))

    def jump(self, digit: str) -> None:
        """A digit typed: the choice of the number typed so far (`NumberKeys`) highlighted, if there is
        one; a filter that hides it is cleared."""
        number = self.number.add(digit)
        if not 1 <= number <= len(self.groups):
            return
        if number - 1 not in self.shown:
            self.hide_filter()
            self.fill("")
        self.options.highlighted = self.shown.index(number - 1)
        self.options.focus()

    def on_filter_box_digit(self, event: FilterBox.Digit) -> None:
        self.jump(event.digit)

    # -- the filter -----------------------------------------------------------------------------------------

    def open_filter(self, first: str = "") -> None:
        """Open the filter box with ``first`` typed (or add it, if the box is open) and focus it."""
        box = self.filter_box
        if box.has_class("shown"):  # keys typed faster than the focus moved: they are the filter's
            box.insert_text_at_cursor(first)
        else:
            box.add_class("shown")
            box.value = first
            box.cursor_position = len(first)
        box.focus()
        self.fill(box.value)

    def hide_filter(self) -> None:
        """Close and empty the filter box; the focus back on the list (which is not refilled)."""
        box = self.filter_box
        box.value = ""
        box.remove_class("shown")
        self.options.focus()

    def clear_filter(self) -> None:
        """Esc: an open filter closed and every choice listed again."""
        if self.filtering:
            self.hide_filter()
            self.fill("")

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            self.fill(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the filter: the highlighted choice taken, if any is shown."""
        if event.input.id == "filter" and self.shown:
            self.options.focus()
            self.options.action_select()
