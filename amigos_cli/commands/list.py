"""``amigos list [--dir DIR]``: the saved match files of the folder of match files (or of another
folder), newest first: players, format, progress or result, when each was last saved, and the command
that resumes each unfinished one.  A file that cannot be read is listed as such, and left as it is."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from matches.folder import MATCHES_ENV, Kept, kept, matches_folder
from matches.match import Match

from ..errors import CliUsageError
from ..session import resume_hint
from ..views.board import wins
from ..views.console import stdout_console
from ..views.safe import player_names, printable

DIR = Annotated[Optional[Path], typer.Option(
    "--dir", metavar="DIR", help=f"The folder to list (default: the folder of match files, where 'amigos play', "
                                 f"'amigos match' and 'amigos serve' save them; {MATCHES_ENV}=FOLDER chooses it).")]


def progress(match: Match) -> str:
    """Where a match stands: "round 4" of a single game, "game 2, round 4, score 1-0" of a best of three,
    "before round 1" while the players set up; when it is over, who won and by how much ("Ann wins 11-6",
    the winner's points first)."""
    record = match.record
    names = player_names(record)
    if not match.is_over():
        state = match.state
        where = f"round {state.round}" if state.round >= 1 else "before round 1"
        if record["best_of"] == 1:
            return where
        return f"game {match.game_number}, {where}, score {'-'.join(map(str, match.score()))}"
    if record["best_of"] > 1:
        result = record["result"]
        score = f"{max(result['score'])}-{min(result['score'])}"
        return f"match drawn {score}" if result["shared"] else f"{wins(names[result['winner']])} {score}"
    game = record["games"][-1]["result"]
    points = "-".join(map(str, sorted(game["vp"], reverse=True)))  # (the winner's first, as a score is told)
    if len(game["winners"]) > 1:
        return f"shared by {' and '.join(names[p] for p in game['winners'])}, {points}"
    return f"{wins(names[game['winners'][0]])} {points}"


def row(entry: Kept) -> list[str]:
    """A file's cells (rich markup): name, players, format, progress, when it was last saved."""
    saved = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.modified)) if entry.modified else "-"
    name = escape(printable(entry.path.name))
    if entry.match is None:
        return [name, "", "", f"[red]unreadable: {escape(printable(entry.problem, 200))}[/]", saved]
    record = entry.match.record
    players = " vs ".join(escape(n) for n in player_names(record))
    kind = "game" if record["best_of"] == 1 else "best of three"
    state = escape(progress(entry.match))
    return [name, players, kind, state if entry.match.is_over() else f"[bold]{state}[/]", saved]


def list_matches(folder: DIR = None) -> None:
    """List the saved match files, newest first: players, format (a game or a best of three), how far each has
    come or who won, when it was last saved, and the command that resumes each unfinished one.

    The folder of match files is $AMIGOS_MATCHES if set, else 'matches' in your user data folder
    (~/.local/share/amigos/matches on Linux); --dir lists another."""
    where = Path(os.path.abspath(folder)) if folder is not None else matches_folder()
    if folder is not None and not os.path.isdir(where):
        what = "not a folder" if os.path.lexists(where) else "no such folder"
        raise CliUsageError(f"--dir {folder}: {what}")
    shown = escape(printable(where, None))
    console = stdout_console()
    if not os.path.isdir(where):  # (the default folder, before anything is saved in it)
        console.print(f"No match files in {shown}: none has been saved there yet.", soft_wrap=True)
        return
    entries = kept(where)
    if not entries:
        console.print(f"No match files in {shown}.", soft_wrap=True)
        return
    count = f"{len(entries)} match file{'s' if len(entries) > 1 else ''}"
    console.print(f"{count} in {shown}, newest first:", soft_wrap=True, highlight=False)
    table = Table("file", "players", "format", "progress", "saved")
    for entry in entries:
        table.add_row(*row(entry))
    console.print(table)
    unfinished = [e for e in entries if e.match is not None and not e.match.is_over()]
    if unfinished:
        console.print("Resume with:")
        for entry in unfinished:
            console.print(f"  {escape(printable(resume_hint(entry.path), None))}", soft_wrap=True, highlight=False)
