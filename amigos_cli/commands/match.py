"""``amigos match`` (best of three with the redraft) and ``amigos play`` (a single game)."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape

import amigos
from amigos.config import EXPANSIONS, GameConfig, check_players
from matches.folder import MATCHES_ENV, default_path, make_folder
from matches.lock import Lock, clean_stale
from matches.match import Match, expansion_title
from matches.record import load
from matches.session import HUMAN, Interrupted, QuitRequested, check_spec, new_seed

from ..errors import CliUsageError
from ..levels import ask_level_at_prompt
from ..session import PromptSession, resume_hint
from ..tui.game import run_screen
from ..tui.levels import ask_level
from ..views.board import match_result_text
from ..views.console import stdout_console
from ..views.safe import player_names, printable

P1 = Annotated[str, typer.Option("--p1", help="Player 1: 'human' or an agent spec (random, greedy, "
                                             "expectimax:depth=2, mcts:time=1.0, ...).")]
P2 = Annotated[str, typer.Option("--p2", help="Player 2: 'human' or an agent spec.")]
P2_ASKED = Annotated[Optional[str], typer.Option(
    "--p2", help="Player 2: 'human' or an agent spec, e.g. level:1 (gentle) to level:5 (the default, mcts:time=1.0); "
                 "without it a person at a terminal is asked the AI's level.")]
P3 = Annotated[Optional[str], typer.Option("--p3", help="Player 3 (seats three players at least; default the AI).")]
P4 = Annotated[Optional[str], typer.Option("--p4", help="Player 4 (seats four at least; default the AI).")]
P5 = Annotated[Optional[str], typer.Option("--p5", help="Player 5 (seats five, with --expansion lux; "
                                                         "default the AI).")]
PLAYERS = Annotated[Optional[int], typer.Option(
    "--players", show_default="2, or the last seat named: --p3 alone seats three",
    help="Players at the table: 2 to 4, 5 with --expansion lux (the seats beyond --p2 are the AI unless named).")]
AI = "mcts:time=1.0"  # the default rival
SEED = Annotated[Optional[int], typer.Option("--seed", help="Match seed (random if not given).")]
VARIANT = Annotated[str, typer.Option("--variant", help="standard, first-game or draft.")]
EXPANSION = Annotated[Optional[list[str]], typer.Option(
    "--expansion", metavar="NAME", help="Play with an expansion: lux (Lux et Tenebrae). Default: the base game.")]
SAVE = Annotated[Optional[Path], typer.Option("--save", help=f"Match file (default: amigos-SEED.amigos in the folder of "
                                                             f"match files, which {MATCHES_ENV}=FOLDER chooses; "
                                                             "'amigos list' lists them and names the folder).")]
PLAIN = Annotated[bool, typer.Option("--plain", help="The line-by-line prompt even in a terminal "
                                                     "(as when input or output is not a terminal).")]
NAME = Annotated[Optional[list[str]], typer.Option(
    "--name", metavar="N=NAME", help="Seat N's player name (at most 20 characters); one --name for each seat named.")]
MAX_NAME = 20  # the longest name --name gives a seat (the board's lines and the log repeat it)
DELAY = Annotated[float, typer.Option("--delay", min=0.0, help="Seconds to wait after each AI move "
                                                               "on the full screen (to watch AI games).")]


#: The seeds a match file can hold: msgpack stores integers from -2**63 to 2**64 - 1.
SEED_MIN, SEED_MAX = -(1 << 63), (1 << 64) - 1


def check_seed(seed: int | None) -> None:
    """Raise `CliUsageError` for a seed a match file cannot store (``None``, a random seed, is fine)."""
    if seed is not None and not SEED_MIN <= seed <= SEED_MAX:
        raise CliUsageError(f"--seed {seed} is out of range: a seed is a 64-bit integer, "
                            f"from {SEED_MIN} to {SEED_MAX}")


def variant_name(text: str) -> str:
    name = text.strip().lower().replace("-", "_")
    if name not in amigos.VARIANTS:
        raise CliUsageError(f"unknown variant {text!r} (expected standard, first-game or draft)")
    return name


#: What ``--expansion`` accepts for each expansion (after lower-casing and turning '-', '_' into spaces).
EXPANSION_ALIASES = {"lux": "lux", "lux et tenebrae": "lux"}


def expansion_names(values: Sequence[str] | None) -> tuple[str, ...]:
    """The ``--expansion`` values as the engine names them (`amigos.config.EXPANSIONS`), each once;
    () for none (the base game).  An unknown one is a `CliUsageError`."""
    out: list[str] = []
    for text in values or ():
        key = " ".join(text.strip().lower().replace("-", " ").replace("_", " ").split())
        name = EXPANSION_ALIASES.get(key)
        if name is None or name not in EXPANSIONS:
            raise CliUsageError(f"unknown expansion {text!r} (expected {' or '.join(EXPANSIONS)})")
        if name not in out:
            out.append(name)
    return tuple(out)


def seat_count(players: int | None, seats: Sequence[str | None]) -> int:
    """The players at a table whose seats ``seats`` name (``--p1``, ``--p2``, ...; None: not named):
    ``players`` (``--players``) when given, else two or as many as the last seat named (``--p3`` alone
    seats three).  A seat named beyond a given count is a `CliUsageError` that names the ``--players``
    it needs."""
    last = max((p + 1 for p, spec in enumerate(seats) if spec is not None), default=2)
    if players is None:
        return max(2, last)
    if last > players:
        raise CliUsageError(f"--p{last} names a seat beyond --players {players}: give --players {last} "
                            "(or no --players)")
    return players


def served() -> bool:
    """True in a browser tab of ``amigos serve`` (Textual's web driver talks through our output)."""
    return "web_driver" in os.environ.get("TEXTUAL_DRIVER", "")


def full_screen(plain: bool) -> bool:
    """True when the game opens the full screen: input and output are a terminal (or a browser tab of
    ``amigos serve``) and --plain is off."""
    return not plain and (served() or sys.stdin.isatty() and sys.stdout.isatty())


def interactive() -> bool:
    """True when a person types the input (a terminal), so that a question can be asked at the prompt."""
    return sys.stdin.isatty()


def say_saved(console: Console, path: Path) -> None:
    """The line that ends a game left unfinished: where it is saved and how to go on with it."""
    console.print(f"Saved to {escape(printable(path, None))}. Resume with: "
                  f"{escape(printable(resume_hint(path), None))}", soft_wrap=True)


def run_new(fmt: str, seats: Sequence[str | None], seed: int | None, variant: str, save_path: Path | None,
            plain: bool = False, delay: float = 0.0, expansion: Sequence[str] | None = None,
            players: int | None = 2, given: Sequence[str] = ()) -> None:
    """A new match (``fmt`` "match") or game of ``players`` seats (None: as many as `seat_count` says),
    ``seats`` naming the first ones (``--p1``, ``--p2``, ...; None or missing: the AI), ``given`` the
    ``--name`` values."""
    if players is not None:
        check_players(players, expansion_names(expansion))  # (first: a count of 10**20 seats is one line too)
    players = seat_count(players, seats)  # (a count implied by the seats: GameConfig.parse checks it below)
    seated = list(seats[:players]) + [None] * (players - len(seats[:players]))
    specs = [check_spec(spec if spec is not None else AI) for spec in seated]
    variant = variant_name(variant)
    expansions = expansion_names(expansion)
    config = GameConfig.parse(variant, expansions=expansions, players=players)  # (a count it refuses: one line)
    if fmt == "match" and players != 2:
        raise CliUsageError("a best-of-three match (with the redraft) is for two players: "
                            f"'amigos play --players {players}' plays a single game")
    check_seed(seed)
    seed = new_seed() if seed is None else seed
    path = Path(save_path) if save_path else default_path(seed)
    names = seat_names(specs, given)
    if path.exists():
        raise CliUsageError(f"{path} exists already: resume it with 'amigos resume {path}' or choose --save")
    if None in seated and HUMAN in specs and not served() and (full_screen(plain) or interactive()):
        # (the AI's level, asked once all else is checked: every seat not named plays it)
        level = ask_level() if full_screen(plain) else ask_level_at_prompt(stdout_console())
        if level is None:
            raise typer.Exit(0)  # (they left before the game began: nothing is saved)
        specs = [check_spec(spec if spec is not None else level) for spec in seated]
        names = seat_names(specs, given)
    if not save_path:
        make_folder(path.parent)
    match = Match.new(seed, specs, config, fmt=fmt, names=names)
    console = Console(file=io.StringIO()) if served() else stdout_console()  # the web driver owns the output
    with_expansion = f" with {expansion_title(expansions)}" if expansions else ""
    console.print(f"{'Best-of-three match' if fmt == 'match' else 'Single game'}, seed {seed}, "
                  f"{variant.replace('_', ' ')}{with_expansion}: {' vs '.join(escape(n) for n in names)}; "
                  f"saving to {escape(printable(path, None))}", soft_wrap=True)
    run_session(match, path, console, full_screen(plain), delay)


def seat_names(specs: Sequence[str], given: Sequence[str] = ()) -> list[str]:
    """The players' names: "You" for the one person against AIs, else "Player N"; an AI's with its
    spec ("AI (mcts:time=1.0)", or "AI 2 (...)" with several AIs; "Player 2 (...)" with no person at
    all); but the seats ``given`` names
    (``--name N=NAME``: `given_names`)."""
    people = sum(spec == HUMAN for spec in specs)
    ais = len(specs) - people
    names = []
    for p, spec in enumerate(specs):
        if spec == HUMAN:
            names.append("You" if people == 1 else f"Player {p + 1}")
        elif not people:  # (agents alone: each by its seat, as a tournament's)
            names.append(f"Player {p + 1} ({spec})")
        else:
            names.append(f"AI ({spec})" if ais == 1 else f"AI {p + 1} ({spec})")
    return given_names(names, given)


def given_names(names: list[str], given: Sequence[str]) -> list[str]:
    """``names`` (a name for each seat) but for the seats ``given`` names (``--name N=NAME``, N from 1).
    A value not of that form, a seat not at the table, a seat named twice, a name that is empty, longer
    than `MAX_NAME` or not printable, or one that another seat has already, is a one-line
    `CliUsageError`."""
    names = list(names)
    named: set[int] = set()
    for value in given:
        seat, sep, text = value.partition("=")
        shown = printable(value, 40)
        if not sep or not (seat.strip().isascii() and seat.strip().isdigit()):
            raise CliUsageError(f"--name {shown} is not N=NAME (a seat's number, then its name: --name 2=Bob)")
        number = int(seat.strip())
        if not 1 <= number <= len(names):
            raise CliUsageError(f"--name {shown}: no seat {number} at a table of {len(names)} (1 to {len(names)})")
        if number in named:
            raise CliUsageError(f"--name names seat {number} twice")
        text = text.strip()
        if not text:
            raise CliUsageError(f"--name {shown}: the name is empty")
        if len(text) > MAX_NAME:
            raise CliUsageError(f"--name {shown}: a name is at most {MAX_NAME} characters")
        if not text.isprintable():  # (no control, format or line-breaking character: one line, as typed)
            raise CliUsageError(f"--name {shown}: a name is printable characters only")
        named.add(number)
        names[number - 1] = text
    folded = [n.casefold() for n in names]
    for p, name in enumerate(folded):
        if folded.index(name) != p:
            raise CliUsageError(f"--name: seats {folded.index(name) + 1} and {p + 1} would both be called "
                                f"{names[p]}")
    return names


def run_session(match: Match, path: Path, console: Console, screen: bool = False, delay: float = 0.0,
                lock: Lock | None = None) -> None:
    """Play ``match`` saving to ``path``, on the full screen or at the prompt, holding ``path``'s lock
    (``lock``, or taken here: `InUse` while another session plays it).  On ``q`` or the end of input
    the resume command is printed and the exit code is 0; on Ctrl-C the same, with exit code 130 (as
    every interrupted command)."""
    lock = lock or Lock(path).acquire()
    try:
        clean_stale(path)
        _run_locked(match, path, console, screen, delay)
    finally:
        lock.release()


def _run_locked(match: Match, path: Path, console: Console, screen: bool, delay: float) -> None:
    if screen:  # (several people at it hand it over: `amigos_cli.tui.handover`)
        outcome = run_screen(match, path, delay)
        if outcome == "finished":
            final = load(path)
            over = "The match is over" if final.record["best_of"] > 1 else "The game is over"
            console.print(f"{over}; saved to {escape(str(path))} (see 'amigos show {escape(str(path))}').")
            console.print(match_result_text(final.record, final.state, player_names(final.record)))
            return
        say_saved(console, path)
        raise typer.Exit(130 if outcome == "interrupted" else 0)
    session = PromptSession(match, path, console)
    try:
        session.run()
    except QuitRequested as stop:
        interrupted = isinstance(stop, Interrupted)
        if interrupted:
            console.print()  # off the line where the terminal echoed ^C
        say_saved(console, path)
        raise typer.Exit(130 if interrupted else 0) from None


def match(p1: P1 = HUMAN, p2: P2_ASKED = None, seed: SEED = None, variant: VARIANT = "standard",
          save: SAVE = None, plain: PLAIN = False, delay: DELAY = 0.0, expansion: EXPANSION = None,
          players: Annotated[int, typer.Option("--players", help="Two: a best of three is a two-player match.")] = 2,
          name: NAME = None) -> None:
    """Play a best-of-three match with the face-up redraft between games (two players)."""
    run_new("match", [p1, p2], seed, variant, save, plain, delay, expansion, players, name or ())


def play(p1: P1 = HUMAN, p2: P2_ASKED = None, seed: SEED = None, variant: VARIANT = "standard",
         save: SAVE = None, plain: PLAIN = False, delay: DELAY = 0.0, expansion: EXPANSION = None,
         players: PLAYERS = None, p3: P3 = None, p4: P4 = None, p5: P5 = None, name: NAME = None) -> None:
    """Play a single game (2 to 5 players)."""
    run_new("game", [p1, p2, p3, p4, p5], seed, variant, save, plain, delay, expansion, players, name or ())
