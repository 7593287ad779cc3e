"""``amigos resume FILE``: continue an unfinished match exactly where it stopped."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from matches.folder import find, matches_folder
from matches.lock import Lock
from matches.record import load

from ..errors import CliUsageError
from ..views.console import stdout_console
from ..views.safe import printable
from .match import DELAY, PLAIN, full_screen, run_session


def _missing(path: Path) -> bool:
    """True if nothing is at ``path`` (not for a name that cannot be looked up: its loading says why)."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return True
    except (OSError, ValueError):  # (a name too long, a NUL in it, ...)
        return False
    return False


def resume(file: Annotated[Path, typer.Argument(
               help="The match file: a path, or the name of a file in the folder of match files ('amigos list' "
                    "lists them), where it is looked for when no such file is here.", metavar="FILE")],
           plain: PLAIN = False, delay: DELAY = 0.0) -> None:
    """Continue an unfinished match."""
    file = find(Path(file))
    if not file.is_absolute() and _missing(file):
        raise CliUsageError(f"{file}: no such file, here or in the folder of match files, {matches_folder()} "
                            "('amigos list' lists it)")
    if not Path(file).is_file():
        load(file)  # says what is wrong with the path, in one line
    lock = Lock(file).acquire()  # before loading: the file is not changing under us
    try:
        match = load(file)
        if match.is_over():
            raise CliUsageError(f"{file}: this match is finished (see 'amigos show {file}')")
        console = stdout_console()
        console.print(f"Resuming {escape(printable(file, None))}: game {match.game_number}, "
                      f"score {match.score()[0]}-{match.score()[1]}")
        run_session(match, Path(file), console, full_screen(plain), delay, lock)
    finally:
        lock.release()
