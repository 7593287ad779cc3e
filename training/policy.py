"""Learning the model of a player's choices (`ai.policy`) from the decisions of self-play games.

    amigos-train policy --games lab/results/neural-2 --out policy.npz --epochs 4 --seed 1

The games are the records `amigos-train neural` keeps (``games-G.jsonl`` in its folders; the
searched generations' are the ones worth imitating) or a file of them, each read and checked by
`training.records` before any is replayed (``--out`` is checked first, and written whole or not at
all).  Each replays from its deal and choices to every decision where the mover had two or more moves
(`ai.policy.moves_of`); the example is the mover's view, their moves' inputs and its target: where the
record keeps the decision's search (``searches``: the root's visits of each move), the share of the
visits each move had (the search's judgement, AlphaZero's policy target); a record that keeps searches
gives no other example (its other moves were searched briefly or at random); an older record gives the
move made at every decision.  The
model is fitted by Adam on the cross-entropy of the target; one game in `HOLD_OUT` is kept out to
measure it (log loss against the uniform guess's, and how often its likeliest move is the target's).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import amigos
from ai import encoding as E
from ai import policy as P
from ai.checkpoint import check_writable
from amigos.actions import macro_key
from amigos.config import GameConfig

from . import records as R
from .neural import HOLD_OUT, Adam
from .neural import game_files as run_files

Record = dict[str, Any]  # a game as `training.neural.write_games` keeps it: seed, expansions, choices, ...


@dataclass
class Decisions:
    """Examples in compressed rows: example k's view is ``view_idx/view_val[view_ptr[k]:view_ptr[k+1]]``,
    its moves are ``move_ptr[k]:move_ptr[k+1]`` (move m's inputs ``feat[feat_ptr[m]:feat_ptr[m+1]]``,
    its share of the target ``target[m]``: the example's sum to 1) and ``chosen[k]`` is the index among
    them of the move made."""

    view_ptr: np.ndarray
    view_idx: np.ndarray
    view_val: np.ndarray
    move_ptr: np.ndarray
    feat_ptr: np.ndarray
    feat: np.ndarray
    chosen: np.ndarray
    target: np.ndarray

    def __len__(self) -> int:
        return len(self.chosen)


def game_files(paths: Iterable[Path]) -> list[Path]:
    """The game record files of ``paths``: a file itself, a folder's ``games-G.jsonl[.gz]`` by generation
    (`training.neural.game_files`)."""
    return [p for path in paths for p in (run_files(path) if path.is_dir() else [path])]


def read_games(paths: Iterable[Path]) -> list[Record]:
    """The game records of ``paths`` (`game_files`), each checked (`training.records.game`)."""
    return [record for f in game_files(paths) for record in R.read_records(f, "game record file", R.game)]


def decisions(games: Iterable[Record]) -> Decisions:
    """Every decision among two or more moves of ``games``, replayed (see the module docstring)."""
    view_ptr, view_idx, view_val = [0], [], []
    move_ptr, feat_ptr, feat, chosen, target = [0], [0], [], [], []
    for record in games:
        config = GameConfig.parse(record.get("variant", "standard"), expansions=record.get("expansions") or (),
                                  players=len(record.get("result") or record.get("vp") or (0, 0)))
        state = amigos.deal(record["seed"], config)
        searches = dict(record.get("searches") or ())
        deep_only = "searches" in record  # (a record of capped playouts: the fast or random moves teach nothing)
        for k, index in enumerate(record["choices"]):
            legal = state.legal_actions()
            action = R.chosen(legal, index, record, k)
            moves = list(dict.fromkeys(macro_key(a) for a in legal))
            if len(moves) > 1 and (k in searches or not deep_only):
                target += _target(moves, legal, moves.index(macro_key(action)), searches.get(k), record, k)
                pairs = E.encode(state, state.current_player())
                view_idx += [i for i, _ in pairs]
                view_val += [v for _, v in pairs]
                view_ptr.append(len(view_idx))
                for move in moves:
                    feat += P.move_inputs(state, move)
                    feat_ptr.append(len(feat))
                move_ptr.append(len(feat_ptr) - 1)
                chosen.append(moves.index(macro_key(action)))
            state.apply(action)
    return Decisions(np.array(view_ptr), np.array(view_idx, dtype=np.intp), np.array(view_val),
                     np.array(move_ptr), np.array(feat_ptr), np.array(feat, dtype=np.intp), np.array(chosen),
                     np.array(target))


def _target(moves: list[Any], legal: list[Any], made: int, root: list[list[Any]] | None, record: Record,
            k: int) -> list[float]:
    """Each of ``moves``' share of a decision's target: the root's visits (``root``: [legal index, visits,
    chance] per move searched) where the record keeps them, else 1 for the move ``made``."""
    share = [0.0] * len(moves)
    if not root:
        share[made] = 1.0
        return share
    for index, visits, _ in root:
        share[moves.index(macro_key(R.chosen(legal, index, record, k)))] += visits
    total = sum(share)
    return [v / total for v in share]


def _batch(d: Decisions, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                   np.ndarray]:
    """(dense views, each feature's input and move, each move's example, each example's chosen move,
    each move's share of its example's target), moves and features numbered within the batch."""
    x = np.zeros((len(rows), E.N_INPUTS))
    move_ex, feats, feat_move, chosen, target = [], [], [], [], []
    m = 0
    for b, k in enumerate(rows):
        lo, hi = d.view_ptr[k], d.view_ptr[k + 1]
        x[b, d.view_idx[lo:hi]] = d.view_val[lo:hi]
        first, last = d.move_ptr[k], d.move_ptr[k + 1]
        chosen.append(m + d.chosen[k])
        target.append(d.target[first:last])
        for move in range(first, last):
            f = d.feat[d.feat_ptr[move]:d.feat_ptr[move + 1]]
            feats.append(f)
            feat_move.append(np.full(len(f), m))
            move_ex.append(b)
            m += 1
    return x, np.concatenate(feats), np.concatenate(feat_move), np.array(move_ex), np.array(chosen), \
        np.concatenate(target)


def _forward(net: P.PolicyNet, x: np.ndarray, feats: np.ndarray, feat_move: np.ndarray,
             move_ex: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(hidden activations, each move's probability among its example's moves)."""
    h = np.maximum(x @ net.w1 + net.b1, 0.0)
    s = net.u[feats] + np.einsum("fh,fh->f", net.v[feats], h[move_ex[feat_move]])
    z = np.bincount(feat_move, s, len(move_ex))
    top = np.full(len(x), -np.inf)
    np.maximum.at(top, move_ex, z)
    e = np.exp(z - top[move_ex])
    return h, e / np.bincount(move_ex, e, len(x))[move_ex]


def train(net: P.PolicyNet, d: Decisions, epochs: int, rate: float, batch: int, rng: np.random.Generator,
          log: Callable[[int, float], object] = lambda epoch, loss: None) -> float:
    """Fit ``net`` in place to ``d`` by Adam; ``log(epoch, mean loss)`` after each epoch; the last loss."""
    adam = Adam([net.w1.shape, net.b1.shape, net.u.shape, net.v.shape], rate)
    loss = 0.0
    for epoch in range(epochs):
        total = 0.0
        order = rng.permutation(len(d))
        for start in range(0, len(order), batch):
            x, feats, feat_move, move_ex, _, target = _batch(d, order[start:start + batch])
            h, p = _forward(net, x, feats, feat_move, move_ex)
            total -= float((target * np.log(p + 1e-12)).sum())
            dz = (p - target) / len(x)  # (the cross-entropy's gradient at the scores)
            ds = dz[feat_move]
            du = np.bincount(feats, ds, P.N_MOVE_INPUTS)
            dv = np.zeros_like(net.v)
            np.add.at(dv, feats, ds[:, None] * h[move_ex[feat_move]])
            dh = np.zeros_like(h)
            np.add.at(dh, move_ex[feat_move], ds[:, None] * net.v[feats])
            dh *= h > 0
            adam.step([net.w1, net.b1, net.u, net.v], [x.T @ dh, dh.sum(0), du, dv])
        loss = total / max(1, len(d))
        log(epoch + 1, loss)
    return loss


def evaluate(net: P.PolicyNet, d: Decisions) -> dict[str, float]:
    """The model's log loss on ``d``'s targets beside the uniform guess's, and the share of decisions
    whose likeliest move is the target's (the most visited, or the move made)."""
    if not len(d):
        return {}
    loss = hits = 0.0
    for start in range(0, len(d), 512):
        x, feats, feat_move, move_ex, _, target = _batch(d, np.arange(start, min(len(d), start + 512)))
        _, p = _forward(net, x, feats, feat_move, move_ex)
        loss -= float((target * np.log(p + 1e-12)).sum())
        best, top = np.full(len(x), -1.0), np.full(len(x), -1.0)
        np.maximum.at(best, move_ex, p)
        np.maximum.at(top, move_ex, target)
        hits += float(np.bincount(move_ex, (p >= best[move_ex]) & (target >= top[move_ex]), len(x)).clip(0, 1).sum())
    uniform = float(np.log(np.diff(d.move_ptr)).sum())
    return {"log_loss": round(loss / len(d), 4), "uniform_log_loss": round(uniform / len(d), 4),
            "top1": round(hits / len(d), 4), "decisions": len(d)}


def fit(paths: list[Path], out: Path, hidden: int = 64, epochs: int = 4, rate: float = 1e-3, seed: int = 1,
        log: Callable[[str], object] = print) -> dict[str, float]:
    """Train a model on the games of ``paths`` and save it to ``out``; its held-out figures."""
    check_writable(out, "model file", R.RecordError)
    records = read_games(paths)
    if len(records) < HOLD_OUT:
        raise R.RecordError(f"{len(records)} games in {', '.join(map(str, paths))}: a model needs {HOLD_OUT} or more")
    began = time.perf_counter()
    training = decisions(r for k, r in enumerate(records) if k % HOLD_OUT)
    held = decisions(r for k, r in enumerate(records) if k % HOLD_OUT == 0)
    log(f"{len(records)} games: {len(training)} decisions to learn, {len(held)} held out "
        f"({time.perf_counter() - began:.0f} s replaying)")
    net = P.PolicyNet.initial(hidden, seed)
    rng = np.random.default_rng(seed)
    train(net, training, epochs, rate, 256, rng,
          lambda epoch, loss: log(f"epoch {epoch}: training loss {loss:.4f}, held out {evaluate(net, held)}"))
    figures = evaluate(net, held)
    net.info.update(games=len(records), epochs=epochs, seed=seed, held_out=figures,
                    sources=[str(p) for p in paths])
    net.save(out)
    return figures
