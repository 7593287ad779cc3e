"""Options more than one training command takes, their bounds, and the error of options that do not go together."""

from __future__ import annotations

from typing import Annotated, Final, Optional

import typer

from amigos.errors import AmigosError

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



class UsageError(AmigosError):
    """Options that do not go together, or a list option's value out of its range; one line says which."""
