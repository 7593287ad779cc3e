"""Options more than one training command takes, their bounds, and the error of options that do not go together."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Final, Optional

import typer

from amigos.errors import AmigosError
from training.play import Progress

SEED_LOW: Final = -(1 << 63)        # a seed's range, as an agent spec's (`ai.agents.LIMITS`)
SEED_HIGH: Final = (1 << 64) - 1
MAX_JOBS: Final = 256               # local processes at most, as an agent's workers

Seed = Annotated[int, typer.Option("--seed", min=SEED_LOW, max=SEED_HIGH, help="The run's seed: the same seed, "
                                   "the same games.")]
Jobs = Annotated[int, typer.Option("--jobs", min=1, max=MAX_JOBS, help="Local processes playing games.")]
Scheduler = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="ADDRESS", help="Play on the Dask cluster of this scheduler (tcp://HOST:8786), not --jobs.")]


def printer(line: str) -> None:
    """A run's progress line, on stdout at once (a run in the background is followed with ``tail -f``)."""
    typer.echo(line)


@contextmanager
def reporting() -> Iterator[tuple[Callable[[str], object], Progress]]:
    """(log, progress) for a run: on a terminal, a progress bar of the games (what, done, of how many,
    time left) with the log's lines above it; elsewhere (a run in the background, its output in a file)
    the lines alone, which say how far it is."""
    if not sys.stdout.isatty():
        yield printer, lambda label, done, total: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
    from rich.progress import Progress as Bar
    with Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
             TextColumn("left"), TimeRemainingColumn()) as bar:
        task = bar.add_task("starting", total=None)

        def progress(label: str, done: int, total: int) -> None:
            if bar.tasks[0].description != label:  # (a new generation: its own count and time)
                bar.reset(task, description=label, total=total)
            bar.update(task, completed=done, total=total)

        yield (lambda line: bar.console.print(line, markup=False, highlight=False)), progress


class UsageError(AmigosError):
    """Options that do not go together, or a list option's value out of its range; one line says which."""
