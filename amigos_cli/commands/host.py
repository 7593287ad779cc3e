"""``amigos host``: one game or match at a table of people at a distance (and agents), each seat in a
browser through its own link (`amigos_cli.table`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from amigos.config import GameConfig
from amigos.errors import AmigosError
from matches.lock import Lock, clean_stale
from matches.match import Match
from matches.record import load
from matches.session import HUMAN, check_spec, new_seed

from ..errors import CliUsageError
from ..table.clock import MAX_MINUTES
from ..table.links import Links, bound, check_public_url, links
from ..table.logs import quiet_logging
from ..table.model import Table, TableError, private_folder, table_path
from ..table.server import TableServer
from ..views.console import stdout_console
from ..views.safe import printable
from .match import AI, EXPANSION, NAME, P3, P4, P5, PLAYERS, SEED, VARIANT, check_seed, expansion_names, given_names, seat_count, variant_name
from .serve import HOST, PUBLIC_URL

P1 = Annotated[str, typer.Option("--p1", help="Player 1: 'human' (a person, through a link) or an agent spec.")]
P2 = Annotated[str, typer.Option("--p2", help="Player 2: 'human' or an agent spec.")]
FORMAT = Annotated[str, typer.Option("--format", help="game (a single game) or match (best of three, two players).")]
SAVE = Annotated[Optional[Path], typer.Option("--save", help="The table's match file (default "
                                                             "amigos-SEED.amigos in 'tables' in the folder of match "
                                                             "files: see 'amigos list'); only you may read it.")]
RESUME = Annotated[Optional[Path], typer.Option("--resume", help="Open again a table saved in this match file "
                                                                 "(the same links work again).")]
PORT = Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on (0: any free port; "
                                                                   "the links name the one taken).")]
CLOCK = Annotated[Optional[float], typer.Option(
    "--clock", metavar="MINUTES", help="A move clock: each person has this many minutes for the whole match, "
                                       "running while the table waits for them; shown on the board.")]
CLOCK_AGENT = Annotated[Optional[str], typer.Option(
    "--clock-agent", metavar="SPEC", help="With --clock: the agent that plays a seat whose time runs out "
                                          "(default: nobody; the seat is shown out of time).")]
MAX_COMMAND = 200  # the longest command line read (a longer one is refused whole)
REVIEW_HOURS = 2.0  # how long a table over stays open at most for its players' reviews
GONE_SECONDS = 1.0  # how often a table over looks whether its players' pages are still open
HELP_LINE = "Type 'agent N [SPEC]' to let the AI play seat N (its person gone), 'links' for the links, 'quit' to stop."


def host(p1: P1 = HUMAN, p2: P2 = HUMAN, players: PLAYERS = None, p3: P3 = None, p4: P4 = None, p5: P5 = None,
         seed: SEED = None, variant: VARIANT = "standard", expansion: EXPANSION = None, format: FORMAT = "game",
         save: SAVE = None, resume: RESUME = None, host: HOST = "127.0.0.1", port: PORT = 8000,
         public_url: PUBLIC_URL = None, name: NAME = None, clock: CLOCK = None, clock_agent: CLOCK_AGENT = None) -> None:
    """Host a table: one game (2 to 5 seats) or a best of three (2), each seat a person or an agent;
    print one link for each person's seat and one for spectators, and serve the board to browsers.

    The table is its match file, saved after every decision: stop it with Ctrl-C or 'quit' and open it
    again with --resume FILE, and the same links work again.  How to share a table with people on
    other machines: docs/TABLE.md."""
    public = check_public_url(public_url)
    check_clock(clock, clock_agent)
    if resume is not None:
        if name:
            raise CliUsageError("--name is for a new table: a resumed table keeps the names it was opened with")
        if clock is not None or clock_agent is not None:
            raise CliUsageError("--clock is for a new table: a resumed table keeps its clocks and the time left")
        path = resume
        match = load(path)
        table = Table.resumed(match, path)
    else:
        path, match = new_match([p1, p2, p3, p4, p5], players, seed, variant, expansion, format, save, name)
        table = Table.new(match, path, clock, clock_agent)
    lock = Lock(path).acquire()
    try:
        clean_stale(path)  # (a save cut short by a kill left its temporary file)
        quiet_logging()
        asyncio.run(serve_table(table, host, port, public))
    finally:
        lock.release()
    if table.failure is not None:
        raise TableError(f"the table stopped: {table.failure}")


def check_clock(minutes: float | None, agent: str | None) -> None:
    """--clock and --clock-agent: a number of minutes up to `MAX_MINUTES`, and an agent spec only with a
    clock; `CliUsageError` in one line otherwise."""
    if minutes is not None and not 0 < minutes <= MAX_MINUTES:
        raise CliUsageError(f"--clock takes minutes, more than 0 and at most {MAX_MINUTES:g}")
    if agent is not None:
        if minutes is None:
            raise CliUsageError("--clock-agent is for a table with a clock: give --clock MINUTES too")
        if check_spec(agent) == HUMAN:
            raise CliUsageError("--clock-agent names an agent (e.g. mcts), not 'human'")


def new_match(seats: list[str | None], players: int | None, seed: int | None, variant: str,
              expansion: list[str] | None, fmt: str, save: Path | None,
              given_names: list[str] | None = None) -> tuple[Path, Match]:
    """A new table's match and its file: ``players`` seats (None: as many as the seats named need,
    `seat_count`), the seats beyond --p2 the AI unless named, each named "Player N" (an agent's with its
    spec) unless ``given_names`` (``--name`` values, `table_names`) names it."""
    if fmt not in ("game", "match"):
        raise CliUsageError(f"unknown --format {fmt!r} (expected game or match)")
    players = seat_count(players, seats)
    if fmt == "match" and players != 2:
        raise CliUsageError("a best-of-three match (with the redraft) is for two players: --format game")
    specs = [check_spec(spec if spec is not None else AI) for spec in seats[:players]]
    if HUMAN not in specs:
        raise CliUsageError("a table needs at least one person ('human' seat): for AIs alone, 'amigos tournament'")
    config = GameConfig.parse(variant_name(variant), expansions=expansion_names(expansion), players=players)
    names = table_names(specs, given_names or [])
    check_seed(seed)
    seed = new_seed() if seed is None else seed
    path = Path(save) if save else table_path(seed)
    if path.exists():
        raise CliUsageError(f"{path} exists already: open it again with 'amigos host --resume {path}' or choose --save")
    if not save:
        private_folder(path.parent)
    return path, Match.new(seed, specs, config, fmt=fmt, names=names)


def table_names(specs: list[str], given: list[str]) -> list[str]:
    """The players' names at a table of these seats' specs: "Player N" (an agent's "Player N (SPEC)"),
    but for the seats ``given`` names (``--name N=NAME``, N from 1).  A value not of that form, a seat
    not at the table, a seat named twice, a name that is empty, longer than `MAX_NAME` or not printable,
    or one that another seat has already, is a one-line `CliUsageError`."""
    names = [f"Player {p + 1}" if spec == HUMAN else f"Player {p + 1} ({spec})" for p, spec in enumerate(specs)]
    return given_names(names, given)


async def serve_table(table: Table, host: str, port: int, public_url: str | None = None) -> None:
    """Serve ``table`` until it ends, Ctrl-C, SIGTERM or 'quit' on standard input: listening on
    ``host``:``port`` (port 0: any free one), its links made from the addresses taken, or from
    ``public_url`` (`amigos_cli.table.links`)."""
    server = TableServer(table)
    console = stdout_console()
    done = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):  # (before the links: a stop as soon as they show is a stop)
        loop.add_signal_handler(sig, done.set)
    table.session.save()  # (the file exists, private, before anyone is given a link)
    try:
        runner = await server.start(host, port)
    except OSError as exc:
        raise CliUsageError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    where = links(bound(runner), public_url)
    console.print(f"Table saved to {escape(printable(table.path, None))} after every decision. Links:")
    print_links(table, where)
    console.print(HELP_LINE)
    tasks = {asyncio.create_task(_end_of_play(server, done))}  # (kept: the loop holds tasks weakly)
    if sys.stdin is not None:
        tasks.add(asyncio.create_task(_commands(table, where, done)))
    await done.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    table.stop()
    await runner.cleanup()
    console.print(f"Stopped. Open it again with: amigos host --resume {escape(printable(table.path, None))}"
                  if not table.match.is_over() else "The game is over.")


def print_links(table: Table, where: Links) -> None:
    """One link for each person's seat and one for spectators, made from ``where``'s main origin, and
    its note (who can open them, the other addresses they work at)."""
    console = stdout_console()
    for seat, token in enumerate(table.tokens):
        if token is not None:
            name = printable(table.match.record["players"][seat]["name"])
            console.print(f"  {escape(name)}: {escape(where.seat(token))}", soft_wrap=True)
    console.print(f"  spectators: {escape(where.seat(table.spectator))}", soft_wrap=True)
    if where.note:
        console.print(escape(where.note), soft_wrap=True)


async def _end_of_play(server: TableServer, done: asyncio.Event) -> None:
    """Stop the host once the match's thread has ended (the match over, or failed) and its last views
    have gone out; a match over, once no person's page is open either (each may read their review), or
    after `REVIEW_HOURS`."""
    await server.ended.wait()
    await server.sent()
    if server.table.match.is_over() and server.people_connected():
        stdout_console().print("The game is over. The table stays open while its players read their reviews; "
                               "it ends when they close their pages ('quit' ends it now).")
        ends = asyncio.get_running_loop().time() + REVIEW_HOURS * 3600
        while server.people_connected() and asyncio.get_running_loop().time() < ends:
            await asyncio.sleep(GONE_SECONDS)
    done.set()


async def _commands(table: Table, where: Links, done: asyncio.Event) -> None:
    """The host's commands on standard input (see `HELP_LINE`), read by a daemon thread: one blocked
    on a terminal's input must not keep the program from ending when the table stops.  Any line is
    answered (a refusal in one line) and the next one read."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()  # (None: the input's end)

    def read() -> None:
        with contextlib.suppress(OSError, ValueError):  # (an input with no descriptor: no commands)
            for line in command_lines(sys.stdin.fileno()):
                loop.call_soon_threadsafe(lines.put_nowait, line)
        loop.call_soon_threadsafe(lines.put_nowait, None)

    threading.Thread(target=read, name="host-commands", daemon=True).start()
    while not done.is_set():
        line = await lines.get()
        if line is None:
            return  # (no input: the table runs until it ends or is stopped)
        if not line.strip():
            continue
        try:
            command(table, where, done, line.split())
        except Exception as exc:  # noqa: BLE001 - a command that fails is refused, the reader goes on
            stdout_console().print(escape(printable(f"Not done: {exc}", MAX_COMMAND)), style="yellow")


def command_lines(fd: int) -> Iterator[str]:
    """The lines read from file descriptor ``fd`` until its end, each without its newline (a line
    longer than `MAX_COMMAND` bytes as ``?``, bytes that are no UTF-8 replaced).  It reads the
    descriptor itself, never ``sys.stdin``: a thread blocked in a buffered read holds the buffer's lock,
    which the interpreter's exit then waits for in vain, and a process forked meanwhile inherits held."""
    pending = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            return
        pending += chunk
        while b"\n" in pending:
            raw, pending = pending.split(b"\n", 1)
            yield "?" if len(raw) > MAX_COMMAND else raw.decode("utf-8", "replace")
        if len(pending) > MAX_COMMAND:  # (a line too long: skipped to its end)
            pending = b"\x00" * (MAX_COMMAND + 1)


def command(table: Table, where: Links, done: asyncio.Event, words: list[str]) -> None:
    """Carry out one of the host's commands (`HELP_LINE`); anything else prints the help line."""
    console = stdout_console()
    if words == ["quit"]:
        done.set()
    elif words == ["links"]:
        print_links(table, where)
    elif len(words) in (2, 3) and words[0] == "agent" and words[1].isascii() and words[1].isdigit() \
            and len(words[1]) <= 2:
        spec = words[2] if len(words) > 2 else AI
        try:
            check_spec(spec)
            table.hand_to_agent(int(words[1]) - 1, spec)
            console.print(f"Seat {words[1]} is the AI's now.")
        except AmigosError as exc:
            console.print(escape(printable(str(exc), MAX_COMMAND)), style="yellow")
    else:
        console.print(HELP_LINE)
