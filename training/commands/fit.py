"""``amigos-train fit``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ai.checkpoint import check_writable
from ai.learned import ValueModel
from training.play import MAX_GAMES, read_games
from training.records import RecordError
from training.train import LAMBDA, PIPELINE_GAMES, PIPELINE_ITERS, train_model, write_model
from training.train import pipeline as run_pipeline

from .options import Jobs, Seed, UsageError, printer


def fit(
    data: Annotated[Optional[list[Path]], typer.Option("--data", help="Fit to this self-play file (repeatable).")] = None,
    pipeline: Annotated[bool, typer.Option("--pipeline", help="Play the self-play generations from --seed, then fit "
                                           "(the model's own recipe).")] = False,
    work: Annotated[Path, typer.Option("--work", help="The pipeline's files.")] = Path("runs/train"),
    seed: Seed = 1,
    games: Annotated[str, typer.Option("--games", help="Games of each generation of the pipeline, e.g. 600,600.")]
    = PIPELINE_GAMES,
    iters: Annotated[int, typer.Option("--iters", min=1, max=10_000_000, help="Search iterations a choice in "
                                       "self-play.")] = PIPELINE_ITERS,
    jobs: Jobs = 2,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write the fitted model here.")] = None,
    check: Annotated[Optional[Path], typer.Option("--check", help="Also score this model file on the held-out "
                                                  "games.")] = None,
    l2: Annotated[float, typer.Option("--l2", min=0.0, max=1e6, help="The L2 penalty.")] = 1e-4,
    prior: Annotated[Optional[Path], typer.Option("--prior", help="Regularise toward this model file's weights "
                                                  "(and card worths), not toward zero.")] = None,
    lam: Annotated[float, typer.Option("--lambda", min=0.0, max=1.0, help="Fit to TD(lambda) targets (1: to the "
                                       "games' results).")] = LAMBDA,
) -> None:
    """Fit the linear learned value to self-play files, or run its whole recipe (--pipeline)."""
    if out is not None and out.exists() and not out.is_file():  # (refused before the work, not after)
        check_writable(out, "value model file", RecordError)
    if pipeline:
        if out is None:
            raise UsageError("--pipeline needs --out")
        counts = _counts(games)
        if work.exists() and not work.is_dir():
            raise RecordError(f"{work}: not a folder (--work)")
        run_pipeline(work, out, seed, counts, iters, jobs, l2, lam, log=printer)
        return
    played = [g for path in data or () for g in read_games(path, missing_ok=False)]
    if not played:
        raise UsageError("no games (give --data files, or --pipeline)")
    checked = ValueModel.load(check) if check else None
    model = train_model(played, l2, check=check, lam=lam, prior=ValueModel.load(prior) if prior else None,
                        checked=checked)
    model.info["data"] = [str(p) for p in data or ()]
    if out:
        write_model(model, out)


def _counts(text: str) -> list[int]:
    """The games of each generation, ``--games``: whole numbers from 1 to `MAX_GAMES` with commas."""
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        counts = []
    if not counts or len(counts) > 100 or not all(1 <= c <= MAX_GAMES for c in counts):
        raise UsageError(f"--games takes whole numbers from 1 to {MAX_GAMES} with commas (600,600), "
                         f"not {ascii(text)[:40]}")
    return counts
