"""Offline: which training target and which width predict the winner best on the same held-out games.

    python -m lab.target_fit --games lab/runs/neural-4 lab/runs/neural-5 --searched 0 0.25 0.5 0.75 1 --hidden 64 128

Fits networks as `amigos-train neural` trains them (`training.neural.train`: TD(lambda) returns blended with a
``--searched`` share of the search's own chance where a game's record keeps one), each from the same
start (a new network over the linear value reading the features, as the packaged one; ``--start NET``
for a copy of a network), on the training part of every game of ``--games`` (the games the runs held out,
one in `training.neural.HOLD_OUT` of each file, are held out here too), and prints the
held-out log loss and Brier score of the game's result (`training.neural.held_out`) beside the start's.
``--out DIR`` keeps each fitted network (``fit-S-H.npz``), so that its search's speed can be measured;
``--layers 2`` fits a network of two hidden layers instead (`Deeper`, offline only: the search has none).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from ai import encoding as E
from ai.evaluator import packaged_model
from ai.network import N_FEATURE_INPUTS, ValueNet
from training import neural as N
from training.views import Views


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


class Deeper:
    """A network of two hidden layers (``hidden`` then ``hidden // 2`` units) over the same inputs and the
    linear value's log-odds as the packaged one (``base`` and ``features``), for offline fits only: it
    starts as the linear value (a zero output layer)."""

    def __init__(self, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        inputs = E.N_INPUTS + N_FEATURE_INPUTS
        self.params = [rng.normal(0.0, np.sqrt(2.0 / 60.0), (inputs, hidden)), np.zeros(hidden),
                       rng.normal(0.0, np.sqrt(2.0 / hidden), (hidden, hidden // 2)), np.zeros(hidden // 2),
                       np.zeros(hidden // 2), np.zeros(1)]

    def forward(self, views: Views, rows: np.ndarray) -> tuple[np.ndarray, ...]:
        w1, b1, w2, b2, w3, b3 = self.params
        x = views.batch(rows, True)
        h1 = np.maximum(x @ w1 + b1, 0.0)
        h2 = np.maximum(h1 @ w2 + b2, 0.0)
        z = h2 @ w3 + b3[0] + views.linear[rows]
        return x, h1, h2, 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))

    def chances(self, views: Views) -> np.ndarray:
        return np.concatenate([self.forward(views, np.arange(s, min(len(views), s + N.CHUNK)))[3]
                               for s in range(0, len(views), N.CHUNK)] or [np.zeros(0)])

    def train(self, games: list[N.Game], lam: float, epochs: int, rng: np.random.Generator, searched: float) -> float:
        """As `training.neural.train`: Adam on the cross-entropy of TD(lambda) targets under this network."""
        adam = N.Adam([p.shape for p in self.params], 1e-3)
        loss = 0.0
        for _ in range(epochs):
            views, y = N.targets(self.chances, games, lam, searched)
            order, total = rng.permutation(len(views)), 0.0
            for start in range(0, len(order), N.BATCH):
                rows = order[start:start + N.BATCH]
                x, h1, h2, p = self.forward(views, rows)
                t = y[rows]
                total += float(-np.sum(t * np.log(p + 1e-9) + (1 - t) * np.log(1 - p + 1e-9)))
                dz = (p - t) / len(rows)
                dh2 = np.outer(dz, self.params[4]) * (h2 > 0)
                dh1 = (dh2 @ self.params[2].T) * (h1 > 0)
                adam.step(self.params, [x.T @ dh1, dh1.sum(0), h1.T @ dh2, dh2.sum(0), h2.T @ dz, np.array([dz.sum()])])
            loss = total / max(1, len(order))
        return loss



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
    ap.add_argument("--layers", type=int, choices=(1, 2), default=1, help="2: two hidden layers (`Deeper`)")
    args = ap.parse_args(argv)
    began = time.perf_counter()
    train, held = games_of(args.games)
    searched = sum(1 for g in train for v in g.get("values") or () if v is not None)
    print(f"{len(train)} training games ({sum(len(g['views']) for g in train)} views, {searched} searched "
          f"decisions), {len(held)} held out ({sum(len(g['views']) for g in held)} views); "
          f"{time.perf_counter() - began:.0f} s replaying", flush=True)
    for hidden in args.hidden:
        for share in args.searched:
            if args.layers == 2:
                deeper = Deeper(hidden, args.seed)
                t = time.perf_counter()
                loss = deeper.train(train, args.lam, args.epochs, np.random.default_rng(args.seed), share)
                print(f"two layers of {hidden} and {hidden // 2}, searched {share}, {args.epochs} epochs: training "
                      f"{loss:.4f}, held out {N.held_out(deeper.chances, held)} ({time.perf_counter() - t:.0f} s)", flush=True)
                continue
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
