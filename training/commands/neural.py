"""``amigos-train neural``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ai.agents import SpecError, parse_spec
from ai.checkpoint import MAX_HIDDEN
from training.neural import HOLD_OUT, WINDOW, run

from .options import Jobs, Scheduler, Seed, UsageError, reporting

DEEP_SHARE = 0.25  # with --fast-iters and no --deep-share: KataGo's share of full searches


def neural(
    work: Annotated[Path, typer.Option("--work", help="The run's folder (networks, games and progress).")],
    generations: Annotated[int, typer.Option("--generations", min=0, max=100_000, help="Train up to this "
                                             "generation.")] = 60,
    games: Annotated[int, typer.Option("--games", min=HOLD_OUT, max=10_000_000, help="Games a generation.")] = 500,
    seed: Seed = 1,
    jobs: Jobs = 2,
    scheduler: Scheduler = None,
    hidden: Annotated[int, typer.Option("--hidden", min=1, max=MAX_HIDDEN, help="A new run's hidden units.")] = 64,
    lux: Annotated[float, typer.Option("--lux", min=0.0, max=1.0, help="Share of games with Lux et Tenebrae.")] = 0.25,
    players: Annotated[int, typer.Option("--players", min=2, max=5, help="Players a game (a network for this "
                                         "count; five play with Lux et Tenebrae).")] = 2,
    draft: Annotated[float, typer.Option("--draft-share", min=0.0, max=1.0, metavar="SHARE", help="Share of games "
                                         "dealt by the draft (its picks become training positions).")] = 0.0,
    epsilon: Annotated[float, typer.Option("--epsilon", min=0.0, max=1.0, help="Share of random moves in self-play.")] = 0.1,
    lam: Annotated[float, typer.Option("--lambda", min=0.0, max=1.0, help="TD(lambda)'s lambda.")] = 0.7,
    epochs: Annotated[int, typer.Option("--epochs", min=1, max=1000, help="Passes over the window a "
                                        "generation.")] = 2,
    play: Annotated[Optional[str], typer.Option("--play", metavar="SPEC", help="Self-play by this MCTS agent with "
                                                "the network as its value (mcts:iters=300), not one move deep.")] = None,
    bootstrap: Annotated[bool, typer.Option("--bootstrap", help="With --play: generation 0 plays the spec's own "
                                            "value (the linear learned value), not network 0.")] = False,
    start: Annotated[Optional[Path], typer.Option("--start", metavar="NET", help="Network 0: a copy of this "
                                                  "file.")] = None,
    residual: Annotated[bool, typer.Option("--residual", help="A new run's network learns corrections to the "
                                           "linear learned value (network 0 is that value).")] = False,
    features: Annotated[bool, typer.Option("--features", help="A new run's network reads the hand-named features "
                                           "of both players too.")] = False,
    seed_games: Annotated[Optional[list[Path]], typer.Option(
        "--seed-games", metavar="RUN", help="A new run starts from the games an earlier run's folder keeps "
        "(repeatable): they join the window, and network 0 (unless --start) is first trained on them.")] = None,
    searched: Annotated[float, typer.Option("--searched-target", min=0.0, max=1.0, metavar="SHARE", help="With --play: each "
                                            "searched decision's target blends this share of the search's own chance "
                                            "of winning into the TD(lambda) return.")] = 0.0,
    window: Annotated[int, typer.Option("--window", min=1, max=100_000_000, metavar="POSITIONS", help="Train on the "
                                        "newest POSITIONS positions of every generation's games.")] = WINDOW,
    deep: Annotated[Optional[float], typer.Option("--deep-share", min=0.0, max=1.0, metavar="SHARE", help="With "
                                                  "--fast-iters: the share of decisions searched with the spec's "
                                                  "iterations, their values and visits kept (capped playouts; "
                                                  "default 0.25).")] = None,
    fast: Annotated[Optional[int], typer.Option("--fast-iters", min=1, max=10_000_000, metavar="N", help="With "
                                                "--play: the other decisions are searched with N iterations, to "
                                                "play on quickly.")] = None,
    measure: Annotated[int, typer.Option("--measure", min=0, max=100_000, metavar="GAMES", help="Each new network "
                                         "plays GAMES games against the one before (seat-swapped pairs), its score "
                                         "in progress.jsonl (0: none).")] = 0,
    measure_iters: Annotated[int, typer.Option("--measure-iters", min=1, max=10_000_000, metavar="N", help="The "
                                               "iterations a move of --measure's games.")] = 300,
) -> None:
    """Train the neural value by TD(lambda) from self-play, in generations (resumable from its folder)."""
    if fast is not None and play is None:
        raise UsageError("--fast-iters is for a searched self-play (--play SPEC)")
    if deep is not None and fast is None:
        raise UsageError("--deep-share is for capped playouts (--fast-iters N)")
    if searched and players != 2:
        raise UsageError("--searched-target is for two players (a record keeps player 0's chance)")
    if play is not None:
        name, params = parse_spec(play)
        if name != "mcts" or "iters" not in params or "value" in params:
            raise SpecError(f"--play takes an mcts spec with iters and no value, not {play!r}")
    with reporting() as (log, progress):
        run(work, generations, games, seed, jobs, hidden, lux, epsilon, lam, epochs, scheduler=scheduler, log=log,
            play=play, bootstrap=bootstrap, start=start, residual=residual, searched=searched, features=features,
            seed_games=seed_games or (), size=window, deep=DEEP_SHARE if deep is None else deep, fast=fast,
            progress=progress,
            measure=measure, measure_iters=measure_iters, draft=draft, players=players)
