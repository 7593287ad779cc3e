"""``amigos-train selfplay``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ai.agents import parse_spec
from training.play import MAX_GAMES, play

from .options import Jobs, Scheduler, Seed, reporting


def selfplay(
    games: Annotated[int, typer.Option("--games", min=1, max=MAX_GAMES, help="Games to play (0 .. N-1).")],
    agent: Annotated[str, typer.Option("--agent", metavar="SPEC", help="The agent that plays itself, with an "
                                       "iteration budget (mcts:iters=300).")],
    out: Annotated[Path, typer.Option("--out", help="The JSON-lines file the games are added to.")],
    seed: Seed = 1,
    jobs: Jobs = 2,
    scheduler: Scheduler = None,
) -> None:
    """Play games of an agent against itself into a JSON-lines file (resumable: a file that holds some of
    the games goes on with the others)."""
    parse_spec(agent)
    with reporting() as (log, progress):
        play(out, games, agent, seed, jobs, log=log, scheduler=scheduler, progress=progress)
