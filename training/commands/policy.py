"""``amigos-train policy``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ai.checkpoint import MAX_HIDDEN
from training.policy import fit
from training.records import RecordError

from .options import SEED_HIGH, printer


def policy(
    games: Annotated[list[Path], typer.Option("--games", metavar="PATH", help="A folder of amigos-train neural "
                                              "(its games files) or a file of game records (repeatable).")],
    out: Annotated[Path, typer.Option("--out", help="The model's file (.npz).")],
    hidden: Annotated[int, typer.Option("--hidden", min=1, max=MAX_HIDDEN, help="Hidden units.")] = 64,
    epochs: Annotated[int, typer.Option("--epochs", min=1, max=1000, help="Passes over the decisions.")] = 4,
    seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_HIGH, help="The fit's seed.")] = 1,
) -> None:
    """Train the model of a player's choices on the games of neural's runs."""
    missing = [str(p) for p in games if not p.exists()]
    if missing:
        raise RecordError(f"no such file or folder: {', '.join(missing)}")
    fit(games, out, hidden, epochs, seed=seed, log=printer)
