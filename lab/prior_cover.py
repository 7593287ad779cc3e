"""How often the search's choice is among the K moves a model of choices rates likeliest: what a root
cut to the policy's K best would keep (the experiment `shortlist=K`: lab/DECISIONS.md).

    python -m lab.prior_cover --games lab/runs/neural-5 --policy lab/results/policy-n6.npz --k 2 4 6 8 12

The decisions are the held-out games' (one in `training.neural.HOLD_OUT`) deep searches, replayed
(`training.policy.decisions`): for each, the rank of the search's most visited move under the model,
and the share of the visits the model's top K hold.  Games the model was trained on (its own run's
other games) are not held out: name another run's folder.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from ai.policy import PolicyNet
from training.neural import HOLD_OUT
from training.policy import _batch, _forward, decisions, read_games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=Path, nargs="+", required=True)
    ap.add_argument("--policy", type=Path, required=True)
    ap.add_argument("--k", type=int, nargs="+", default=[2, 4, 6, 8, 12])
    ap.add_argument("--all", action="store_true", help="every game, not only the held-out ones")
    args = ap.parse_args()
    net = PolicyNet.load(args.policy)
    records = read_games(args.games)
    d = decisions(r for k, r in enumerate(records) if args.all or k % HOLD_OUT == 0)
    ranks: list[int] = []
    kept: dict[int, list[float]] = {k: [] for k in args.k}
    moves: list[int] = []
    for start in range(0, len(d), 512):
        x, feats, feat_move, move_ex, _, target = _batch(d, np.arange(start, min(len(d), start + 512)))
        _, p = _forward(net, x, feats, feat_move, move_ex)
        for e in range(len(x)):
            mine = move_ex == e
            pe, te = p[mine], target[mine]
            order = np.argsort(-pe, kind="stable")
            ranks.append(int(np.nonzero(order == int(np.argmax(te)))[0][0]) + 1)
            moves.append(len(pe))
            for k in args.k:
                kept[k].append(float(te[order[:k]].sum()))
    r = np.array(ranks)
    print(f"{len(r)} decisions, {np.mean(moves):.1f} moves on average (median {np.median(moves):.0f})")
    for k in args.k:
        print(f"K={k:>2}: the most visited move kept in {np.mean(r <= k):.1%}; "
              f"the visits kept {np.mean(kept[k]):.1%}; decisions with more than K moves "
              f"{np.mean(np.array(moves) > k):.1%}")


if __name__ == "__main__":
    main()
