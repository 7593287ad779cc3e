"""``amigos review FILE``: where a game was won and lost, move by move (`matches.review`): for each
decision of the chosen seats the chance to win before and after it, the AI's preferred move and a
grade; a summary per game and seat (accuracy, each grade's count, the turning point) and the win-chance
graph."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from matches.charts import ChartsUnavailable, review_chart
from matches.folder import find
from matches.record import load
from matches.review import BLUNDER, DEFAULT_ITERS, GRADES, MARKS, Review, accuracy, review_file, turning_point
from matches.session import HUMAN

from ..errors import CliUsageError
from ..views.console import stdout_console
from ..views.graded import graded_words, graph
from ..views.safe import player_names, printable

SHOWN = ("inaccuracy", "mistake", BLUNDER)  # the grades listed without --all


def _summary_table(result: Review, names: list[str], games: list[int]) -> Table:
    table = Table("game", "player", "accuracy", *(name for name, _ in GRADES), BLUNDER, "turning point")
    for game in games:
        for seat in result.seats:
            mine = result.of(seat, game)
            if not mine:
                continue
            counts = [sum(d.grade == name for d in mine) for name, _ in GRADES] + [sum(d.grade == BLUNDER for d in mine)]
            worst = turning_point(mine)
            table.add_row(str(game), escape(names[seat]), f"{accuracy(mine):.0f}%", *map(str, counts),
                          escape(f"#{worst.index + 1} {worst.played} (-{100 * worst.lost:.0f}%)") if worst else "-")
    return table


def review(file: Annotated[Path, typer.Argument(help="A match file (a bare name is looked for in the folder of "
                                                     "match files too).", metavar="FILE")],
           game: Annotated[Optional[int], typer.Option("--game", min=1, help="Review this game only.")] = None,
           seat: Annotated[Optional[list[int]], typer.Option(
               "--seat", min=1, metavar="N", help="Review this seat (1 for player 1; repeat for several; default: each "
                                     "person in the file, or every seat of a game of agents).")] = None,
           iters: Annotated[int, typer.Option("--iters", min=50, max=100_000, help="The search's budget a "
                                              "decision, in iterations.")] = DEFAULT_ITERS,
           seed: Annotated[int, typer.Option("--seed", min=0, max=2**63 - 1, help="The search's seed.")] = 0,
           jobs: Annotated[int, typer.Option("--jobs", min=1, max=64, help="Processes to search on (the same "
                                             "review whatever their number).")] = 1,
           scheduler: Annotated[Optional[str], typer.Option(
               "--scheduler", metavar="tcp://HOST:8786", help="Search on the workers of this Dask scheduler instead "
                                                              "(needs pip install 'amigos\\[cluster]').")] = None,
           every: Annotated[bool, typer.Option("--all", help="List every decision, not only the inaccuracies, "
                                                             "mistakes and blunders.")] = False,
           as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
           png: Annotated[Optional[Path], typer.Option("--png", metavar="PNG", help="Also draw the win-chance graph "
                                                       "to this PNG file (needs the plots extra).")] = None) -> None:
    """Review a match file: every decision of the chosen seats graded by the chance to win it gave away, as
    the AI's search judges it from that seat's information only; the better move; each game's accuracy,
    turning point and win-chance graph. Kept beside the file (FILE.review), so it opens at once the second
    time."""
    path = find(file)
    match = load(path)
    record = match.record
    names = player_names(record)
    seats = sorted({s - 1 for s in seat}) if seat else \
        [p for p, player in enumerate(record["players"]) if player["spec"] == HUMAN] or list(range(len(names)))
    if any(s >= len(names) for s in seats):
        raise CliUsageError(f"--seat: the file has seats 1 to {len(names)}")
    if game is not None and game > len(record["games"]):
        raise CliUsageError(f"--game {game}: the file has {len(record['games'])} game(s)")
    if scheduler is not None and jobs != 1:
        raise CliUsageError("give --jobs or --scheduler, not both (a cluster's workers are its processes)")
    with Progress(transient=True, console=Console(stderr=True), disable=as_json) as bar:
        task = bar.add_task("Reviewing", total=None)
        result, _ = review_file(path, record, seats, iters, seed,
                                progress=lambda done, total: bar.update(task, completed=done, total=total), jobs=jobs,
                                scheduler=scheduler)
    games = sorted({d.game for d in result.decisions if game is None or d.game == game})
    if png is not None:
        draw(result, names, games, png)
    if as_json:
        typer.echo(json.dumps({"file": str(path), "iters": iters, "seed": seed, "seats": [s + 1 for s in seats],
                               "decisions": [asdict(d) for d in result.decisions if game is None or d.game == game]},
                              indent=2))
        return
    _print(result, names, games, every)


def draw(result: Review, names: list[str], games: list[int], png: Path) -> None:
    """The win-chance graph of ``games`` (each reviewed seat's decisions in order) drawn to ``png``."""
    order = sorted((d.game, d.index) for d in result.decisions if d.game in games)
    number = {key: k for k, key in enumerate(order, 1)}  # (the reviewed decisions in the match's order)
    lines = {names[seat]: [(number[d.game, d.index], d.before, d.grade) for g in games for d in result.of(seat, g)]
             for seat in result.seats}
    try:
        review_chart({name: points for name, points in lines.items() if points}, png)
    except ChartsUnavailable as exc:
        raise CliUsageError(str(exc)) from None


def _print(result: Review, names: list[str], games: list[int], every: bool) -> None:
    console = stdout_console()
    console.print(_summary_table(result, names, games))
    for game in games:
        for seat in result.seats:
            mine = result.of(seat, game)
            if not mine:
                continue
            console.print(f"\n[bold]Game {game}, {escape(names[seat])}[/]: chance to win before each decision "
                          f"(▁ 0% .. █ 100%)")
            console.print(graph(mine), highlight=False)
            for d in mine:
                if every or d.grade in SHOWN:
                    played = f"{printable(d.played, 200)}{MARKS.get(d.grade, '')}"
                    console.print(f"  #{d.index + 1} {played}  {graded_words(d)}",
                                  highlight=False, markup=False)
