"""``amigos tournament``: agents against agents, in seat-swapped pairs, in parallel processes or on a Dask
cluster (``--scheduler``)."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Optional, cast

import typer
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from amigos.config import GameConfig
from amigos.errors import AmigosError
from matches import cardstats as CS
from matches import charts
from matches import report as R
from matches import runner as RUN
from matches import sprt as S
from matches import tournament as T

from ..errors import CliUsageError
from ..views.console import stdout_console
from ..views.safe import printable
from ..views.tournament import card_table, crosstable_table, standings_table
from .match import EXPANSION, check_seed, expansion_names, variant_name


def print_command(console: Console, command: str) -> None:
    """Print a command to copy, indented, on one line however narrow the terminal: rich neither
    wraps it (which would break an option or a path in two) nor crops it; the terminal may fold it."""
    console.print("  " + command, soft_wrap=True, highlight=False, markup=False)


def sprt_settings(bounds: str | None, alpha: float, beta: float) -> S.SprtTest | None:
    """The ``--sprt``/``--alpha``/``--beta`` options' test (None without ``--sprt``); a bad value is a
    usage error."""
    if bounds is None:
        return None
    try:
        elo0, elo1 = S.parse_bounds(bounds)
        S.check_rates(alpha, beta)
    except ValueError as e:
        raise CliUsageError(str(e)) from None
    return S.SprtTest(elo0, elo1, alpha, beta)


def tournament(
    agent: Annotated[list[str], typer.Option("--agent", metavar="SPEC", help="An agent spec; give two or more.")],
    games: Annotated[Optional[int], typer.Option(
        "--games", help="Games (or matches) per pairing, or per table with --players (default 10; with "
                        "--sprt, the most to play, default 2000).")] = None,
    players: Annotated[int, typer.Option(
        "--players", help="Players at each game: every table of that many agents plays, each deal in "
                          "every rotation of the seats (2 to 4; 5 with --expansion lux).")] = 2,
    fmt: Annotated[str, typer.Option("--format", help="game or match (best of three with the redraft).")] = "game",
    variant: Annotated[str, typer.Option("--variant", help="standard, first-game or draft.")] = "standard",
    expansion: EXPANSION = None,
    jobs: Annotated[int, typer.Option("--jobs", help="Parallel processes.")] = 1,
    scheduler: Annotated[Optional[str], typer.Option(
        "--scheduler", metavar="tcp://HOST:8786",
        help="Play every game on the workers of this Dask scheduler instead of local processes "
             "(needs pip install 'amigos\\[cluster]').")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Tournament seed: same seed, same schedule.")] = 0,
    out: Annotated[Optional[Path], typer.Option(
        "--out", help="Folder for the match files and the summary (default tournament-SEED, "
                      "e.g. tournament-0).")] = None,
    gauntlet: Annotated[bool, typer.Option("--gauntlet", help="The first agent against each other one.")] = False,
    resume: Annotated[bool, typer.Option("--resume", help="Continue a killed tournament in --out.")] = False,
    card_stats: Annotated[bool, typer.Option("--card-stats", help="Report win rates by card.")] = False,
    sprt: Annotated[Optional[str], typer.Option(
        "--sprt", metavar="ELO0,ELO1",
        help="Test whether the first agent is ELO1 rather than ELO0 Elo stronger than the second, on "
             "seat-swapped pairs, and stop at the verdict.")] = None,
    alpha: Annotated[float, typer.Option("--alpha", help="The SPRT's false-positive rate.")] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="The SPRT's false-negative rate.")] = 0.05,
) -> None:
    """Run a round robin (or a gauntlet) between agents and report the standings; with --sprt, a
    sequential test of two agents."""
    if fmt not in ("game", "match"):
        raise CliUsageError(f"unknown --format {fmt!r} (expected game or match)")
    if jobs < 1:
        raise CliUsageError("--jobs must be at least 1")
    if scheduler is not None and jobs != 1:
        raise CliUsageError("give --jobs or --scheduler, not both (a cluster's workers are its parallel games)")
    variant = variant_name(variant)
    expansions = expansion_names(expansion)
    check_seed(seed)  # the same seeds as play and match, though only derived seeds reach the files
    test = sprt_settings(sprt, alpha, beta)
    if games is None:
        games = 10 if test is None else 2000
    out = out or Path(f"tournament-{seed}")
    config = GameConfig.parse(variant, expansions=expansions, players=players)  # (a count it refuses: one line)
    spec = T.TournamentSpec(tuple(agent), games, seed, cast("T.MatchFormat", fmt), config, gauntlet, test)
    settings = T.manifest(spec)  # checks agents and counts
    T.check_folder(out, settings, resume)
    # Connected before anything is printed or written: a scheduler out of reach is a one-line error.
    runner = RUN.open_runner(jobs, scheduler)
    T.make_folder(out)
    console = stdout_console()
    command = resume_command(out)
    console.print(f"Results in {escape(str(out))}/. If stopped, continue with:")
    print_command(console, command)

    def stopped() -> typer.Exit:
        console.print(f"Stopped. Finished games are kept in {escape(str(out))}/; continue with:")
        print_command(console, command)
        return typer.Exit(130)

    try:
        play_live(console, out, settings, agent, "games" if fmt == "game" else "matches",
                  lambda on_result, warn: T.run(out, spec, jobs, resume, on_result, warn, runner))
    except KeyboardInterrupt:
        raise stopped() from None
    except RUN.RunnerError:  # (a lost scheduler: the error is the one line on stderr, exit code 2)
        stopped()
        raise
    finally:
        runner.stop()  # (T.run stops it too; this is for a run refused before it started)
    try:  # every game is played; the reports are rebuilt from the files, by --resume too if stopped here
        report(console, out, card_stats)
    except KeyboardInterrupt:
        raise stopped() from None


def resume_command(out: Path) -> str:
    """The command that continues this tournament: its own arguments with --resume (and --out)."""
    command = "amigos tournament " + " ".join(shlex.quote(a) for a in sys.argv[2:] if a != "--resume") + " --resume"
    if "--out" not in sys.argv:
        command += f" --out {shlex.quote(str(out))}"
    return command


Run = Callable[[Callable[[dict[str, Any], int, int], None], Callable[[str], None]], object]


def play_live(console: Console, out: Path, settings: dict[str, Any], agents: list[str], unit: str, run: Run) -> None:
    """Play the tournament by ``run(on_result, warn)`` under a live view: a line a finished game, the
    progress in ``unit`` (games or matches), the standings and the SPRT's line; on --resume the games
    already in ``out`` count from the start."""
    test = settings.get("sprt")
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    task = progress.add_task(unit, total=len(settings["schedule"]))
    outcomes: list[dict[str, Any]] = []

    def view() -> Group:
        parts: list[RenderableType] = [progress, standings_table(T.standings(agents, outcomes),
                                                                 table_size=settings.get("table", 2))]
        if test is not None:
            parts.append(cast("S.Sprt", T.sprt_of(settings, outcomes)).line())  # (a test: the settings have it)
        return Group(*parts)

    # Transient: the live standings make way for the final ones, so the table is printed once.
    with Live(view(), console=console, refresh_per_second=4, transient=True) as live:
        def on_result(result: dict[str, Any], done: int, total: int) -> None:
            outcomes.append(result)
            progress.update(task, completed=done)
            live.console.print(printable(R.game_line(R.game_row(settings, result), done, total), None),
                               markup=False, highlight=False, soft_wrap=True)  # (a line a game, unbroken)
            live.update(view())

        if (out / T.MANIFEST).exists():
            try:
                _, outcomes[:] = T.collect(out)
            except AmigosError:  # a damaged file: it is played again, and counted then
                outcomes.clear()
        run(on_result, lambda line: live.console.print(escape(printable(line, None)), style="yellow"))


def report(console: Console, out: Path, card_stats: bool) -> None:
    """Write a finished tournament's reports in ``out`` and print them: the standings, the crosstable,
    the SPRT's verdict, the card statistics with ``card_stats``, and where the charts are (or what to
    install for them)."""
    settings, outcomes = T.collect(out)
    data = R.write_files(out, settings, outcomes)
    folder = escape(str(out))
    size = settings.get("table", 2)
    console.print(standings_table(data["standings"], title=f"Final standings ({folder}/{R.SUMMARY_JSON}, "
                                                           f"{R.SUMMARY_CSV}, {R.GAMES_CSV})", table_size=size))
    console.print(crosstable_table(data["standings"], data["crosstable"], table_size=size))
    if "sprt" in data:
        console.print(escape(cast("S.Sprt", T.sprt_of(settings, outcomes)).line()), highlight=False)
    cards = None
    if card_stats:
        cards = CS.card_stats(out)
        CS.write_card_stats(out, cards)
        console.print(card_table(cards, title=f"Card statistics ({folder}/{CS.CARD_STATS_CSV}, "
                                              f"{CS.CARD_STATS_JSON})"))
    wanted = [charts.STANDINGS_PNG] + ([charts.CARD_STATS_PNG] if card_stats else [])
    try:
        charts.write_charts(out, data["standings"], cards)
        console.print(f"Charts: {folder}/{', '.join(wanted)}", highlight=False, soft_wrap=True)
    except charts.ChartsUnavailable:
        console.print(f"Charts ({', '.join(wanted)}) need matplotlib: {charts.INSTALL_HINT}", highlight=False,
                      markup=False, soft_wrap=True)
