"""How well the neural value and the linear learned value predict the winner, on the same positions.

    python -m lab.value_check --games lab/runs/neural-5 --net ai/data/value_net.npz

The positions are those of the games `amigos-train neural` held out of training (one in
`training.neural.HOLD_OUT` of each generation's ``games-G.jsonl``), replayed: every decision among two
or more actions, seen by each player.  Both values judge a world dealt for that player
(`amigos.determinize`), as the search uses them: the network reads what that player sees (and, over
the linear value, that value's log-odds there); the linear value (`ai.learned`, the packaged model
unless ``--model``) the world's features.  Prints the log loss and Brier score of each against
the game's result, overall and by round.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import amigos
from ai.evaluator import packaged_model
from ai.learned import ValueModel
from ai.network import ValueNet
from amigos.config import GameConfig
from amigos.determinize import determinize
from training.neural import HOLD_OUT, game_files
from training.records import neural_game, read_records


def held_out_records(paths: list[Path]) -> list[dict]:
    """The held-out games of ``paths``: of a file itself, of a folder's game files by generation
    (`training.neural.game_files`)."""
    out = []
    for f in (p for path in paths for p in (game_files(path) if path.is_dir() else [path])):
        games = read_records(f, "game file", neural_game)  # (plain or gzip-compressed JSON lines)
        out += [game for k, game in enumerate(games) if k % HOLD_OUT == 0]
    return out


def predictions(records: list[dict], net: ValueNet, model: ValueModel) -> list[tuple[int, float, float, float]]:
    """(round, result, network's chance, linear value's chance) for every position and viewer."""
    rows = []
    for game in records:
        state = amigos.deal(game["seed"], GameConfig.parse(game.get("variant", "standard"),
                                                           expansions=game.get("expansions") or ()))
        for k, index in enumerate(game["choices"]):
            legal = state.legal_actions()
            if len(legal) > 1 and state.round >= 1:
                for viewer in range(state.n_players):
                    world = determinize(state, viewer, k * 2 + viewer)
                    rows.append((state.round, game["result"][viewer], net.probability(world, viewer),
                                 model.win_probability(world, viewer)))
            state.apply(legal[index])
    return rows


def scores(rows: list[tuple[int, float, float, float]], column: int) -> tuple[float, float]:
    eps = 1e-6
    loss = brier = 0.0
    for row in rows:
        y, p = row[1], min(1 - eps, max(eps, row[column]))
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
        brier += (p - y) ** 2
    return loss / len(rows), brier / len(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=Path, nargs="+", required=True, help="neural runs' folders or game files")
    ap.add_argument("--net", type=Path, required=True)
    ap.add_argument("--model", type=Path, help="a linear value file (default: the packaged one)")
    args = ap.parse_args()
    model = ValueModel.load(args.model) if args.model else packaged_model()
    net = ValueNet.load(args.net, model)
    records = held_out_records(args.games)
    rows = predictions(records, net, model)
    print(f"{len(records)} held-out games, {len(rows)} positions (each seen by both players)")
    print("rounds      positions   network: log loss  Brier    linear: log loss  Brier")
    buckets = [("all", rows)] + [(f"{lo}-{hi}" if hi > lo else f"{lo}+", [r for r in rows if lo <= r[0] <= hi])
                                 for lo, hi in ((1, 2), (3, 4), (5, 6), (7, 99))]
    for name, part in buckets:
        if part:
            (nl, nb), (ll, lb) = scores(part, 2), scores(part, 3)
            print(f"{name:<10}  {len(part):>9}   {nl:>16.4f}  {nb:.4f}   {ll:>15.4f}  {lb:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
