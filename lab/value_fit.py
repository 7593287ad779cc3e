"""Offline fits of a value network to a run's recorded games: which inputs and targets generalise.

    python -m lab.value_fit --games lab/runs/neural-3 --inputs cards feats --target td --lam 0.7 --epochs 3

Replays the games (``games-G.jsonl`` of a run folder, `training.neural.read_games`) to both players'
views: the card encoding (`ai.encoding`), the hand-named features of both players in a world dealt for
the viewer (`ai.features`, standardised) and the linear value's log-odds, which every fit starts from
(a network of corrections, as ``--residual``).  One game in ten is held out by game, so a network that
learns a deal's winner from its cards is caught.  Targets: ``result`` (the game's result for every
view), ``td`` (TD(lambda) returns under the network being fitted, as training does).  Prints the
held-out log loss and Brier score after each epoch, beside the linear value's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

import amigos
from ai import encoding as E
from ai.evaluator import packaged_model
from ai.features import player_features
from ai.learned import progress
from amigos.config import GameConfig
from amigos.determinize import determinize
from amigos.rng import derive_seed

HOLD_OUT = 10  # one game in this many is held out


class Views:
    """Every view of the games: sparse card inputs (CSR), features, linear log-odds, result, game."""

    def __init__(self, folder: Path) -> None:
        model = packaged_model()
        idx: list[int] = []
        val: list[float] = []
        starts = [0]
        feats, lin, result, game_of, viewer_of = [], [], [], [], []
        files = sorted(folder.glob("games-*.jsonl"))
        for number, path in enumerate(files):
            for k, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                game = json.loads(line)
                state = amigos.deal(game["seed"], GameConfig(expansions=tuple(game["expansions"])))
                for j, choice in enumerate(game["choices"]):
                    legal = state.legal_actions()
                    if len(legal) > 1:
                        seed = derive_seed(game["seed"], "view", j)
                        for viewer in (0, 1):
                            for i, v in E.encode(state, viewer):
                                idx.append(i)
                                val.append(v)
                            starts.append(len(idx))
                            world = determinize(state, viewer, seed + viewer)
                            rows = player_features(world)
                            feats.append(rows[viewer] + rows[1 - viewer] + [progress(rows)])
                            lin.append(model.win_log_odds(world, viewer))
                            result.append(game["result"][viewer])
                            game_of.append(number * 100_000 + k)
                            viewer_of.append(viewer)
                    state.apply(legal[choice])
        self.idx, self.val, self.starts = np.array(idx), np.array(val, dtype=np.float32), np.array(starts)
        f = np.array(feats, dtype=np.float32)
        self.feats = (f - f.mean(0)) / (f.std(0) + 1e-6)
        self.lin, self.result = np.array(lin), np.array(result)
        self.game, self.viewer = np.array(game_of), np.array(viewer_of)

    def inputs(self, rows: np.ndarray, which: list[str]) -> np.ndarray:
        parts = []
        if "cards" in which:
            x = np.zeros((len(rows), E.N_INPUTS), dtype=np.float32)
            for r, i in enumerate(rows):
                x[r, self.idx[self.starts[i]:self.starts[i + 1]]] = self.val[self.starts[i]:self.starts[i + 1]]
            parts.append(x)
        if "feats" in which:
            parts.append(self.feats[rows])
        return np.concatenate(parts, 1)


def fit(views: Views, which: list[str], target: str, lam: float, hidden: int, epochs: int, seed: int) -> None:
    held = views.game % HOLD_OUT == 0
    train, test = np.where(~held)[0], np.where(held)[0]
    rng = np.random.default_rng(seed)
    width = (E.N_INPUTS if "cards" in which else 0) + (views.feats.shape[1] if "feats" in which else 0)
    w1 = rng.normal(0, np.sqrt(2 / 60), (width, hidden))
    params = [w1, np.zeros(hidden), np.zeros(hidden), np.zeros(1)]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]

    def forward(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        x = views.inputs(rows, which)
        h = np.maximum(x @ params[0] + params[1], 0)
        return x, h, 1 / (1 + np.exp(-np.clip(h @ params[2] + params[3][0] + views.lin[rows], -30, 30)))

    def scores(rows: np.ndarray, p: np.ndarray | None = None) -> str:
        if p is None:
            p = np.concatenate([forward(rows[s:s + 4096])[2] for s in range(0, len(rows), 4096)])
        p, y = np.clip(p, 1e-6, 1 - 1e-6), views.result[rows]
        return f"log loss {-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)):.4f}, Brier {np.mean((p - y) ** 2):.4f}"

    print(f"linear value, held out ({len(test)} views): {scores(test, 1 / (1 + np.exp(-views.lin[test])))}")
    sequences: dict[int, list[int]] = {}
    for i in train:
        sequences.setdefault(int(views.game[i]) * 2 + int(views.viewer[i]), []).append(int(i))
    step = 0
    for epoch in range(epochs):
        y = views.result.copy()
        if target == "td":
            p = np.zeros(len(y))
            for s in range(0, len(train), 4096):
                p[train[s:s + 4096]] = forward(train[s:s + 4096])[2]
            for seq in sequences.values():
                g = views.result[seq[-1]]
                for t in range(len(seq) - 1, -1, -1):
                    y[seq[t]] = g
                    g = (1 - lam) * p[seq[t]] + lam * g
        order = rng.permutation(len(train))
        for s in range(0, len(train), 256):
            rows = train[order[s:s + 256]]
            x, h, p_rows = forward(rows)
            dz = (p_rows - y[rows]) / len(rows)
            dh = np.outer(dz, params[2]) * (h > 0)
            grads = [x.T @ dh, dh.sum(0), h.T @ dz, np.array([dz.sum()])]
            step += 1
            for param, grad, (m, v) in zip(params, grads, moments):
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                param -= 1e-3 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        print(f"{'+'.join(which)}, {target}, epoch {epoch + 1}: held out {scores(test)}; "
              f"training {scores(train[:20000])}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=Path, required=True, help="a run's folder (its games-G.jsonl)")
    ap.add_argument("--inputs", nargs="+", choices=("cards", "feats"), default=["cards"])
    ap.add_argument("--target", choices=("result", "td"), default="td")
    ap.add_argument("--lam", type=float, default=0.7)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    views = Views(args.games)
    fit(views, args.inputs, args.target, args.lam, args.hidden, args.epochs, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
