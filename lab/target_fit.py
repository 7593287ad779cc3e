"""Offline: which training target and which width predict the winner best on the same held-out games.

    python lab/target_fit.py --games lab/runs/neural-4 lab/runs/neural-5 --searched 0 0.25 0.5 0.75 1 --hidden 64 128

Fits networks as `amigos-train neural` trains them (`training.neural.train`: TD(lambda) returns blended with a
``--searched`` share of the search's own chance where a game's record keeps one), each from the same
start (a new network over the linear value reading the features, as the packaged one; ``--start NET``
for a copy of a network), on the training part of every game of ``--games`` (the games the runs held out,
one in `training.neural.HOLD_OUT` of each file, are held out here too), and prints the
held-out log loss and Brier score of the game's result (`training.neural.held_out`) beside the start's.
``--out DIR`` keeps each fitted network (``fit-S-H.npz``), so that its search's speed can be measured.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # (an installed build, if any, first)

from ai.evaluator import packaged_model  # noqa: E402
from ai.network import ValueNet  # noqa: E402
from training import neural as N  # noqa: E402
from training.views import Views  # noqa: E402


def games_of(folders: list[Path]) -> tuple[list[N.Game], list[N.Game]]:
    """(training games, held-out games) of the runs' folders, replayed to their views."""
    train: list[N.Game] = []
    held: list[N.Game] = []
    for folder in folders:
        for path in N.game_files(folder):
            for k, game in enumerate(N.read_game_file(path)):
                game["views"] = Views.of(game["views"])
                (held if k % N.HOLD_OUT == 0 else train).append(game)
    return train, held


def start_net(hidden: int, seed: int, start: Path | None) -> ValueNet:
    if start is not None:
        return ValueNet.load(start, packaged_model())
    return ValueNet.initial(hidden, seed, base=True, features=True, linear=packaged_model())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=Path, nargs="+", required=True, help="folders of amigos-train neural runs")
    ap.add_argument("--searched", type=float, nargs="+", default=[0.0, 0.5], help="shares of the search's chance")
    ap.add_argument("--hidden", type=int, nargs="+", default=[64])
    ap.add_argument("--lam", type=float, default=0.7)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=Path, help="start every fit from this network (its width: --hidden is ignored)")
    ap.add_argument("--out", type=Path, help="keep each fitted network in this folder")
    args = ap.parse_args(argv)
    began = time.perf_counter()
    train, held = games_of(args.games)
    searched = sum(1 for g in train for v in g.get("values") or () if v is not None)
    print(f"{len(train)} training games ({sum(len(g['views']) for g in train)} views, {searched} searched "
          f"decisions), {len(held)} held out ({sum(len(g['views']) for g in held)} views); "
          f"{time.perf_counter() - began:.0f} s replaying", flush=True)
    for hidden in args.hidden:
        for share in args.searched:
            net = start_net(hidden, args.seed, args.start)
            print(f"hidden {net.hidden}, searched {share}: start {N.held_out(net, held)}", flush=True)
            t = time.perf_counter()
            loss = N.train(net, train, args.lam, args.epochs, 1e-3, 256, np.random.default_rng(args.seed), share)
            print(f"hidden {net.hidden}, searched {share}, {args.epochs} epochs: training {loss:.4f}, held out "
                  f"{N.held_out(net, held)} ({time.perf_counter() - t:.0f} s)", flush=True)
            if args.out is not None:
                args.out.mkdir(parents=True, exist_ok=True)
                net.save(args.out / f"fit-{share:g}-{net.hidden}.npz")
    return 0


if __name__ == "__main__":
    sys.exit(main())
