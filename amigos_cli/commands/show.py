"""``amigos show FILE [--json]``: a summary of a match file, or of a tournament folder (its settings,
progress, standings and crosstable, rebuilt from its files)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from matches import report as R
from matches import tournament as T
from matches.folder import find
from matches.match import Match, expansion_title
from matches.record import load
from matches.session import HUMAN

from ..errors import CliUsageError
from ..views.board import wins
from ..views.console import stdout_console
from ..views.safe import printable
from ..views.tournament import crosstable_table, settings_lines, standings_table


def expansion_line(expansions: Sequence[str]) -> str:
    """"Expansion: Lux et Tenebrae" (the line `show` and `replay` print for an expansion game)."""
    return f"Expansion{'s' if len(expansions) > 1 else ''}: {escape(expansion_title(expansions))}"


def summary(match: Match) -> dict[str, Any]:
    record = match.record
    games = []
    for g in record["games"]:
        result = g.get("result")
        games.append({"game": g["index"], "winners": result["winners"] if result else None,
                      "vp": result["vp"] if result else None, "rounds": result["rounds"] if result else None,
                      "decisions": len(g["decisions"]),
                      "think_seconds": round(sum(d[2] for d in g["decisions"]) / 1000, 1),
                      "think_seconds_by_player": [round(sum(d[2] for d in g["decisions"] if d[0] == p) / 1000, 1)
                                                  for p in range(len(record["players"]))]})
    return {"players": record["players"], "variant": record["variant"], "expansions": list(match.expansions),
            "seed": record["seed"],
            "best_of": record["best_of"], "status": record["status"], "score": match.score(),
            "result": record["result"], "games": games, "created_at": record.get("created_at"),
            "updated_at": record.get("updated_at"), "redraft": match.redraft_picks()}


def show_tournament(folder: Path, as_json: bool) -> None:
    """Print a tournament folder's settings, progress, standings and crosstable (as JSON: its
    `matches.report.summary`), from its files; a folder without a tournament is a `CliUsageError`."""
    if not os.path.lexists(folder / T.MANIFEST):
        raise CliUsageError(f"{folder}: a folder, neither a match file nor a tournament ({T.MANIFEST} missing)")
    settings, outcomes = T.collect(folder)
    data = R.summary(settings, outcomes)
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    console = stdout_console()
    for line in settings_lines(str(folder), settings, len(outcomes)):
        console.print(line, highlight=False)
    console.print(standings_table(data["standings"], table_size=data["table"]))
    console.print(crosstable_table(data["standings"], data["crosstable"], table_size=data["table"]))
    test = T.sprt_of(settings, outcomes)
    if test is not None:
        console.print(escape(test.line()), highlight=False)


def show(file: Annotated[Path, typer.Argument(help="A match file, or a tournament's folder.", metavar="FILE")],
         as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False) -> None:
    """Summarise a match (players, games, scores, winner, length) or a tournament (settings, progress,
    standings, crosstable)."""
    if file.is_dir():
        show_tournament(file, as_json)
        return
    match = load(find(file))
    data = summary(match)
    console = stdout_console()
    if as_json:
        typer.echo(json.dumps(data, indent=2))  # ASCII JSON: a control character in the file stays an escape
        return
    names = [escape(printable(p["name"])) for p in data["players"]]  # all text below is rich markup
    console.print(f"[bold]{escape(printable(file, None))}[/]: {' vs '.join(names)}, "
                  f"{escape(str(data['variant']).replace('_', ' '))}, "
                  f"best of {data['best_of']}, seed {data['seed']}, {data['status']}")
    if data["expansions"]:
        console.print(expansion_line(data["expansions"]))
    people = [p for p, player in enumerate(data["players"]) if player.get("spec") == HUMAN]
    table = Table("game", "winner", "points", "rounds", "decisions",
                  *(f"P{p + 1} {'person' if p in people else 'AI'} (s)" for p in range(len(names))))
    for g in data["games"]:
        if g["winners"] is None:
            winner, points = "(in progress)", "-"
        else:
            winner = " and ".join(names[p] for p in g["winners"]) + (" (shared)" if len(g["winners"]) > 1 else "")
            points = "-".join(str(v) for v in g["vp"])
        table.add_row(str(g["game"]), winner, points, str(g["rounds"] or "-"), str(g["decisions"]),
                      *(f"{t:.1f}" for t in g["think_seconds_by_player"]))
    console.print(table)
    if people:
        console.print("(s): thinking time; a person's is the time their choices took, an AI's its search.",
                      style="dim")
    result = data["result"]
    if result:
        if result["shared"]:
            won = data["games"][-1]["winners"] or []
            console.print(f"Shared victory: {' and '.join(names[p] for p in won)}." if data["best_of"] == 1 else
                          f"Match drawn {result['score'][0]}-{result['score'][1]}.")
        elif data["best_of"] == 1:
            console.print(f"{wins(names[result['winner']])} the game.")
        else:
            console.print(f"{wins(names[result['winner']])} the match {max(result['score'])}-{min(result['score'])}.")
    else:
        console.print(f"Score {'-'.join(map(str, data['score']))}; resume with: amigos resume "
                      f"{escape(printable(file, None))}")
