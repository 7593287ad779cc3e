"""``amigos replay FILE [--game K] [--to N] [--json]``: the position after any recorded decision."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

import amigos
from amigos.observe import observation
from matches.folder import find
from matches.match import Match
from matches.record import MatchFileError, load
from matches.review import kept_review, review_path
from matches.session import HUMAN, history

from ..errors import CliUsageError
from ..tui.replay import ReplayApp
from ..views.board import board, result_text
from ..views.console import stdout_console
from ..views.log import step_line
from ..views.safe import player_names, printable
from ..views.seen import Seen
from .match import full_screen
from .show import expansion_line

if TYPE_CHECKING:
    from amigos.state import GameState


def position(match: Match, game: int | None, to: int | None, name: str = "match file") -> tuple[GameState, int, int]:
    """The state of game ``game`` (default the last) after its first ``to`` decisions (default all);
    ``name`` (the file's) begins the message of a decision that does not replay."""
    games = match.record["games"]
    k = len(games) if game is None else game
    if not 1 <= k <= len(games):
        raise CliUsageError(f"no game {k} in this match (it has {len(games)})")
    decisions = games[k - 1]["decisions"]
    n = len(decisions) if to is None else to
    if not 0 <= n <= len(decisions):
        raise CliUsageError(f"game {k} has {len(decisions)} decisions; --to must be from 0 to {len(decisions)}")
    record = copy.deepcopy(match.record)
    record["games"] = record["games"][:k]
    record["games"][-1]["decisions"] = record["games"][-1]["decisions"][:n]
    if n < len(decisions):  # a game cut short is unfinished; a whole one keeps its result
        record["games"][-1]["result"] = None
        record["games"][-1].pop("final_digest", None)
    record["status"], record["result"] = "unfinished", None
    try:
        partial = Match.from_record(record)
    except amigos.AmigosError as exc:
        raise MatchFileError(f"{name}: {exc}") from None
    if partial.game_number > k:  # the last decision ended the game: show its final position
        assert partial.previous_state is not None  # (set when the next game began)
        return partial.previous_state, k, n
    return partial.state, k, n


def viewer_of(match: Match) -> tuple[int, bool]:
    """Whose side a replay shows, and whether that is a person's: the first person in the match (so
    a person never sees the hidden cards of the AI they play), or player 1 in a match of AIs."""
    specs = [p["spec"] for p in match.record["players"]]
    people = [p for p, spec in enumerate(specs) if spec == HUMAN]
    return (people[0], True) if people else (0, False)


def list_decisions(match: Match, game: int, viewer: int | None) -> None:
    """Print game ``game``'s decisions, one a line: "12. Ann: Use Hawk ..." (the number is ``--to``'s),
    as ``viewer`` (None: every card) may know them."""
    names = player_names(match.record)
    steps = [st for st in history(match.record) if st.game == game]
    console = stdout_console()
    console.print(f"Game {game}: {len(steps)} decisions")
    for n, step in enumerate(steps, 1):
        console.print(f"{n:>4}. {step_line(step, viewer, names)}", markup=False, soft_wrap=True)


def replay(file: Annotated[Path, typer.Argument(help="The match file.", metavar="FILE")],
           game: Annotated[Optional[int], typer.Option("--game", help="Which game (default the last).")] = None,
           to: Annotated[Optional[int], typer.Option("--to", help="After this many decisions (default all).")] = None,
           as_json: Annotated[bool, typer.Option(
               "--json", help="Print the protocol's get_state form; in a match with a person, what that person "
                              "may see instead (the engine's observation), as the board shows.")] = False,
           plain: Annotated[bool, typer.Option("--plain", help="Print the position even in a terminal.")] = False,
           listed: Annotated[bool, typer.Option(
               "--list", help="List the game's decisions with their numbers (for --to N), as the board's seat "
                              "knows them.")] = False,
           ) -> None:
    """Show the position after any decision of a match file; in a terminal (without --to or --json),
    step through its decisions with the arrows, from the first deal (End: the last decision).

    The board is seen from a person's seat when the match has one (their hand, not the AI's), else from
    player 1's.  --json follows the same rule: the whole state (the protocol's get_state form) only for
    a match of AIs, otherwise the person's observation, which holds no hidden card of the rival."""
    path = find(file)
    match = load(path)
    state, k, n = position(match, game, to, str(file))
    viewer, person = viewer_of(match)
    if listed:
        list_decisions(match, k, viewer if person else None)
        return
    if to is None and not as_json and full_screen(plain):
        review = kept_review(review_path(path), match.record)  # (its marks, if `amigos review` made one)
        ReplayApp(match, printable(file.name), viewer, person, game=game or 1, review=review).run()  # (from the deal)
        return
    console = stdout_console()
    if as_json:
        data = observation(state, viewer) if person else amigos.dump_state(state)
        typer.echo(json.dumps(data, indent=2))  # ASCII JSON: a control character in the file stays an escape
        return
    names = player_names(match.record)
    you = person and names[viewer] == "You"
    seen = Seen.of(state, viewer)  # (what is drawn: the seat's observation)
    if match.expansions:
        console.print(expansion_line(match.expansions))
    console.print(board(seen, viewer, names, title=f"{printable(file.name)}: game {k} after {n} decisions", you=you))
    if n:  # the decision that led here, as the log told it
        step = [st for st in history(match.record) if st.game == k][n - 1]
        console.print(f"Decision {n}: {step_line(step, viewer if person else None, names)}", markup=False)
    if seen.over:  # who won, and by how much, under the final position
        console.print(result_text(seen, names))
