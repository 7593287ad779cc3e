"""``amigos replay FILE`` in a terminal: the board of a match file, stepped through one decision at a
time (left/right, Home/End), the moves listed beside it in words, a game selector for matches.

The board is seen from the seat `commands.replay.viewer_of` names: a person's (never the AI's hidden
cards) or, for a match of AIs, a spectator's, who sees every move in full.  When the file has its review
beside it (`amigos review`), each graded move is marked (?! ?, ??), the decision shown tells its grade and
the move the AI preferred, the win-chance graph of each reviewed seat is drawn under the banner (the
decision shown lit on it), and ``n`` jumps to the next mistake or blunder.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from matches.match import Match, expansion_title
from matches.review import FAULTS, MARKS, Graded, Review
from matches.session import Step, history

from ..views.board import hand_view, result_text
from ..views.graded import graded_words, graph
from ..views.log import round_of, step_line
from ..views.safe import player_names, short_names
from ..views.seen import Seen
from .board import middle, next_rival, rivals, tableau
from .cards import CardText
from .keys import RIVAL_KEY
from .terminal import LeavingApp


class ReplayApp(LeavingApp[None]):
    """Step through the decisions of ``match``, starting in game ``game`` after ``to`` decisions."""

    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #left { width: 3fr; }
    #moves { width: 2fr; min-width: 30; border-left: solid $secondary; }
    #banner, #graph { height: auto; }
    """
    BINDINGS = [
        Binding("left", "step(-1)", "back", priority=True), Binding("right", "step(1)", "forward", priority=True),
        Binding("home", "jump(0)", "start", priority=True), Binding("end", "jump(-1)", "end", priority=True),
        Binding("g", "next_game", "next game"), Binding("n", "next_fault", "next mistake"),
        Binding("q", "quit", "quit"), Binding(RIVAL_KEY, "expand_rival", "rivals"),
    ]

    def __init__(self, match: Match, name: str, viewer: int, person: bool, game: int | None = None,
                 to: int | None = None, review: Review | None = None):
        super().__init__()
        # each graded decision by (game, its index in the game's decisions), from the review kept beside the file
        self.graded: dict[tuple[int, int], Graded] = {(d.game, d.index): d for d in review.decisions} if review else {}
        self.file_name = name
        self.names = player_names(match.record)
        self.short = short_names(self.names)  # (the list's lines: the agents' specs once, in the deal's line)
        self.viewer = viewer
        self.seen_by = viewer if person else None  # None: a spectator, who sees every decision
        self.you = person and self.names[viewer] == "You"
        self.steps: list[Step] = history(match.record)
        self.count = len(match.record["games"])
        self.game = game or 1
        self.at = 0 if to is None else to  # decisions of the current game applied (the viewer opens at the deal)
        self.match = match
        self.chosen: int | None = None  # the rival shown in full (`board.expanded_rival`)

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="left"):
                yield Static(id="banner")
                yield Static(id="graph")
                with VerticalScroll():
                    yield Static(id="rival")
                    yield Static(id="centre")
                    yield Static(id="mine")
                    yield Static(id="hand")
            yield OptionList(id="moves")
        yield Footer()

    def on_mount(self) -> None:
        self.show_game()

    def game_steps(self) -> list[Step]:
        return [s for s in self.steps if s.game == self.game]

    def show_game(self) -> None:
        steps = self.game_steps()
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        players = " against ".join(self.names)
        moves.add_option(Option(Text(f"Game {self.game}: the deal ({players}; End: the last decision)", style="bold"),
                                id="0"))
        for i, s in enumerate(steps, 1):
            line = Text(f"{i:>4}. r{round_of(s.before)} {step_line(s, self.seen_by, self.short)}")
            graded = self.graded.get((self.game, i - 1))
            if graded is not None and graded.grade in MARKS:
                line.append(f"  {MARKS[graded.grade]}", style="bold red" if graded.grade in FAULTS else "bold yellow")
            moves.add_option(Option(line, id=str(i)))
        self.at = max(0, min(self.at or 0, len(steps)))
        moves.focus()
        self.draw()

    def position(self) -> Seen | None:
        """The position at the decision shown, as the replay's seat sees it."""
        steps = self.game_steps()
        if not steps:
            return None
        assert self.at is not None  # (a number once `show_game` ran, on mount)
        return Seen.of(steps[0].before if self.at == 0 else steps[self.at - 1].after, self.viewer)

    def draw(self) -> None:
        steps = self.game_steps()
        seen = self.position()
        moves = self.query_one("#moves", OptionList)
        moves.highlighted = self.at
        with_expansion = f", {expansion_title(self.match.expansions)}" if self.match.expansions else ""
        head = Text(f" {self.file_name}: game {self.game} of {self.count}{with_expansion}, decision {self.at} of "
                    f"{len(steps)} ", style="bold reverse")
        if self.at:
            head.append("  " + step_line(steps[self.at - 1], self.seen_by, self.short))
            graded = self.graded.get((self.game, self.at - 1))
            if graded is not None:
                head.append("  " + graded_words(graded), style="bold red" if graded.grade in FAULTS else "yellow")
        if seen is not None and seen.over:
            head.append("  ")
            head.append_text(result_text(seen, self.names))
        self.query_one("#banner", Static).update(head)
        self.query_one("#graph", Static).update(self.chance_graph())
        if seen is None:
            self.query_one("#centre", Static).update(Text("No decision in this game yet."))
            return
        self.query_one("#rival", Static).update(rivals(seen, self.names, self.chosen))
        self.query_one("#centre", Static).update(middle(seen, self.names, self.viewer))
        self.query_one("#mine", Static).update(tableau(seen, self.viewer, self.viewer, self.names))
        whose = "Your" if self.you else f"{self.names[self.viewer]}'s"
        self.query_one("#hand", Static).update(hand_view(seen, self.viewer, whose))

    def chance_graph(self) -> Text:
        """Each reviewed seat's chance to win before each of its decisions in this game, as bars
        (`graph`), the decision shown lit; empty without a review."""
        out = Text()
        for seat in sorted({d.seat for d in self.graded.values()}):
            mine = sorted((d for d in self.graded.values() if d.seat == seat and d.game == self.game),
                          key=lambda d: d.index)
            if not mine:
                continue
            whose = "Your" if self.names[seat] == "You" else f"{self.short[seat]}'s"
            out.append(("\n" if out else "") + f" {whose} chance to win (▁ 0% .. █ 100%): ", style="dim")
            for d, bar in zip(mine, graph(mine)):
                lit = d.index == self.at - 1
                out.append(bar, style="reverse bold" if lit else "red" if d.grade in FAULTS else "")
        return out

    def action_next_fault(self) -> None:
        """Go to the next mistake or blunder of the reviewed seats, in this game or a later one."""
        faults = sorted(key for key, d in self.graded.items() if d.grade in FAULTS)
        after = next((key for key in faults if key > (self.game, self.at - 1)), None)
        if after is None:
            self.notify("No mistake or blunder after this decision.")
            return
        if after[0] != self.game:
            self.game = after[0]
            self.at = after[1] + 1
            self.show_game()
        else:
            self.at = after[1] + 1
            self.draw()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        index = int(event.option.id or 0)
        if index != self.at:
            self.at = index
            self.draw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The next rival's key is for games of three or more (of two the rival is always in full); the
        next mistake's for a replay with a review that found one."""
        if action == "next_fault":
            return any(d.grade in FAULTS for d in self.graded.values())
        return len(self.names) > 2 if action == "expand_rival" else True

    def action_expand_rival(self, rival: int | None = None) -> None:
        """Show ``rival`` in full (None: the next rival; a click on a rival's line names it)."""
        seen = self.position()
        if seen is not None:
            self.chosen = next_rival(seen, self.chosen) if rival is None else rival
            self.draw()

    def action_show_card(self, card: str) -> None:
        """Card ``card``'s whole text (a click on its name)."""
        self.push_screen(CardText(card))

    def action_step(self, delta: int) -> None:
        self.at = max(0, min(len(self.game_steps()), (self.at or 0) + delta))
        self.draw()

    def action_jump(self, where: int) -> None:
        self.at = len(self.game_steps()) if where < 0 else where
        self.draw()

    def action_next_game(self) -> None:
        if self.count == 1:
            self.notify("This file holds one game.")
            return
        self.game = self.game % self.count + 1
        self.at = 0
        self.show_game()
