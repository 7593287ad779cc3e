"""Fit the learned value (`ai.learned`) to self-play games and write the model file.

    amigos-train fit --data runs/gen0.jsonl --out ai/data/value.json
    amigos-train fit --data runs/gen0.jsonl --check ai/data/value.json   # score a model only
    amigos-train fit --pipeline --seed 1 --out ai/data/value.json         # the packaged model

``--pipeline`` is the whole recipe: self-play generations from a seed (`pipeline`), each fitted in
turn; its files go to ``--work`` and a stopped run goes on from them.  Every input is checked before the
work starts (the self-play files and their records, the ``--check`` and ``--prior`` models, where
``--out`` goes), and a model file is written whole or not at all.

Every position of every game (`training.selfplay.positions`) gives two examples, one from each player's
side: the difference of the players' features (and the same times the game's progress) labelled with
that player's result.  The fit is L2-regularised logistic regression by Newton's method (numpy: the
``train`` extra).  One game in ten is held out; the report gives the held-out log loss, Brier score
and accuracy of the new model beside today's hand-tuned leaf value (`ai.value`, squashed as the
search squashes it) and, with ``--check``, an existing model file.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ai.agents import spec_path
from ai.checkpoint import write_file
from ai.draft import plan_synergy
from ai.features import FEATURES, N_FEATURES, player_features
from ai.learned import ValueModel, progress
from ai.rewards import SCALE
from ai.value import heuristic_value
from amigos import cards as C
from amigos.codes import ACTIONS, COLLECT, IN_PLAY
from amigos.rng import derive_seed

from .play import play
from .records import chosen
from .selfplay import Record, outcome_for, positions
from .selfplay import dealt as dealt_state

HOLD_OUT = 10  # every tenth game is held out
PIPELINE_GAMES = "600,600,600"  # generation 0 (the hand-tuned agent), then two of the learned agents
HAND_TUNED = ",value=hand,rollout=30"  # generation 0: the hand-tuned leaf value after rollouts to the round's end
SEARCH = ",norm=0,halving=0"  # the packaged model's self-play search (before `ai.mcts.NORM` and `HALVING`)
LINEAR = ",value=linear"  # generations 1 on: the linear learned value being fitted (not the neural value)
PIPELINE_ITERS = 300
LAMBDA = 0.7  # TD(lambda) targets: better held-out predictions than the bare results (see README)
CARD_L2 = 0.05  # the card worths' regularisation: they are shrunk toward their static estimate


def examples(games: list[Record], with_heuristic: bool = False
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """(X, y, game index, heuristic probability or None) over both players' sides of every position."""
    xs, ys, gi, hs = [], [], [], []
    for i, game in enumerate(games):
        results = [outcome_for(game, 0), outcome_for(game, 1)]
        for state in positions(game):
            rows = player_features(state)
            g = progress(rows)
            for q in (0, 1):
                xs.append(encode(rows, q, g))
                ys.append(results[q])
                gi.append(i)
                if with_heuristic:
                    hs.append(1.0 / (1.0 + math.exp(-heuristic_value(state, q) / SCALE)))
    return (np.array(xs, dtype=float), np.array(ys, dtype=float), np.array(gi),
            np.array(hs, dtype=float) if with_heuristic else None)


def encode(rows: list[list[float]], q: int, g: float) -> list[float]:
    """The model's input for player ``q`` (of two) at progress ``g``: the difference of the players'
    features in the base and late weights' columns, or in the final weights' once ``g`` is 1."""
    d = [a - b for a, b in zip(rows[q], rows[1 - q])]
    zero = [0.0] * len(d)
    return zero + zero + d if g >= 1.0 else d + [g * x for x in d] + zero


def fit(x: np.ndarray, y: np.ndarray, l2: float, iterations: int = 30, prior: np.ndarray | None = None,
        offset: np.ndarray | None = None) -> np.ndarray:
    """Weights minimising the mean log loss of sigmoid(x @ w + offset) against ``y`` plus
    ``l2``/2 |w - prior|^2."""
    n, m = x.shape
    prior = np.zeros(m) if prior is None else prior
    offset = np.zeros(n) if offset is None else offset
    w = prior.copy()
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w + offset, -30, 30)))
        grad = x.T @ (p - y) / n + l2 * (w - prior)
        h = (x * (p * (1 - p))[:, None]).T @ x / n + l2 * np.eye(m)
        step = np.linalg.solve(h, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def dealt(game: Record) -> tuple[list[list[str]], list[float]]:
    """The artifacts each player held and the mage they chose once the game's setup was over, and how
    well each player's cards fitted together (`ai.draft.plan_synergy`)."""
    state = dealt_state(game)
    for k, index in enumerate(game["choices"]):
        if state.phase in (ACTIONS, COLLECT):
            break
        state.apply(chosen(state.legal_actions(), index, game, k))
    held: list[list[str]] = [[] for _ in range(state.n_players)]
    for e, card in enumerate(state.cards):
        p = state.owner[e]
        if p < state.n_players and (e < state.n_art or (card.kind == C.MAGE and state.loc[e] == IN_PLAY)):
            held[p].append(card.id)
    return held, [plan_synergy(state, p) for p in range(state.n_players)]


def fit_card_worths(games: list[Record], model: ValueModel, prior: ValueModel | None = None
                    ) -> tuple[dict[str, float], float]:
    """Each artifact's and mage's worth in log-odds of winning, and the worth of a unit of fit between
    a player's cards: a logistic regression of each game's result on the difference of what the two
    players held and of how well it fitted, the worths regularised toward ``prior``'s worths, or
    without one toward the static estimate (`ai.learned.ValueModel.card_worth` without learned
    worths)."""
    ids = [c.id for c in C.ARTIFACTS + C.MAGES]
    index = {cid: i for i, cid in enumerate(ids)}
    x, y = [], []
    for game in games:
        held, synergy = dealt(game)
        for q in (0, 1):
            row = np.zeros(len(ids) + 1)
            for cid in held[q]:
                row[index[cid]] += 1
            for cid in held[1 - q]:
                row[index[cid]] -= 1
            row[-1] = synergy[q] - synergy[1 - q]
            x.append(row)
            y.append(outcome_for(game, q))
    toward = prior if prior is not None else ValueModel(model.base, model.late, model.final)
    centre = np.array([toward.card_worth(C.BY_ID[cid]) for cid in ids] + [toward.synergy])
    w = fit(np.array(x), np.array(y), CARD_L2, prior=centre)
    # A fit that loses games is no reason to split cards that fit: then drafts go by worth alone.
    return {cid: float(v) for cid, v in zip(ids, w)}, max(0.0, float(w[-1]))


def scores(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Log loss, Brier score and accuracy (a shared result counts as half right) of probabilities ``p``."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    log_loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    brier = float(np.mean((p - y) ** 2))
    right = np.where(y == 0.5, 0.5, ((p > 0.5) == (y > 0.5)).astype(float))
    return {"log_loss": round(log_loss, 4), "brier": round(brier, 4), "accuracy": round(float(np.mean(right)), 4)}


def model_weights(model: ValueModel) -> np.ndarray:
    """A model's base, late and final weights as one vector, in the columns `encode` fills."""
    return np.array(model.base + model.late + model.final)


def model_probability(model: ValueModel, x: np.ndarray) -> np.ndarray:
    w = model_weights(model)
    return 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))


def lambda_returns(x: np.ndarray, y: np.ndarray, gi: np.ndarray, w: np.ndarray, lam: float) -> np.ndarray:
    """TD(lambda) targets: for each side of each game, walking back from the result,
    G_t = (1 - lam) * V(next position) + lam * G_(t+1), V by the weights ``w``.  The examples come as
    `examples` lists them: positions in order, the two sides of a position next to each other."""
    v = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
    g = y.copy()
    for side in (0, 1):
        last_game, ret = None, 0.0
        for i in range(len(y) - 2 + side, -1, -2):  # this side's examples, last first
            if gi[i] != last_game:
                last_game, ret = gi[i], y[i]
            else:
                ret = (1 - lam) * v[i + 2] + lam * ret
            g[i] = ret
    return g


def train_model(games: list[Record], l2: float, log: Callable[[str], None] = print, check: Path | None = None,
                lam: float = 1.0, prior: ValueModel | None = None, checked: ValueModel | None = None) -> ValueModel:
    """The value model fitted to ``games``: scored on one game in ten held out (against the hand-tuned
    leaf value, and ``check``'s model, ``checked`` if it is loaded already), then fitted again on every
    game; card worths too.  With
    ``prior`` the weights are pulled by ``l2`` toward that model's, not toward zero: the new games
    refine what earlier games taught instead of replacing it."""
    start = time.perf_counter()
    x, y, gi, heuristic = examples(games, with_heuristic=True)
    assert heuristic is not None  # (asked for)
    held = gi % HOLD_OUT == 0
    log(f"{len(games)} games, {len(y) // 2} positions ({time.perf_counter() - start:.0f} s to replay)")
    prior_w = None if prior is None else model_weights(prior)
    w = _fit_td(x, y, gi, ~held, l2, lam, prior=prior_w)
    trial = ValueModel(*_split(w))
    held_out = scores(model_probability(trial, x[held]), y[held])
    log(f"held out ({int(held.sum()) // 2} positions): learned {held_out}")
    log(f"                  hand-tuned leaf value {scores(heuristic[held], y[held])}")
    if checked is None and check is not None:
        checked = ValueModel.load(check)
    if checked is not None:
        log(f"                  {check}: {scores(model_probability(checked, x[held]), y[held])}")
    w = _fit_td(x, y, gi, np.ones(len(y), dtype=bool), l2, lam, prior=prior_w)
    model = ValueModel(*_split(w), info={"games": len(games), "positions": int(len(y) // 2),
                        "agents": sorted({g["spec"] for g in games}), "l2": l2, "lambda": lam,
                        "held_out": held_out}
                       | ({} if prior is None else {"prior": prior.info}))
    for name, b, late, final in zip(FEATURES, model.base, model.late, model.final):
        log(f"  {name:<18} {b:+.3f} {late:+.3f} {final:+.3f}")
    model.cards, model.synergy = fit_card_worths(games, model, prior)
    log(f"synergy: {model.synergy:+.3f} log-odds per unit of fit")
    ranked = sorted(model.cards.items(), key=lambda t: -t[1])
    log("card worths, best: " + ", ".join(f"{C.BY_ID[c].name} {v:+.2f}" for c, v in ranked[:8]))
    log("            worst: " + ", ".join(f"{C.BY_ID[c].name} {v:+.2f}" for c, v in ranked[-5:]))
    return model


def _split(w: np.ndarray) -> tuple[list[float], list[float], list[float]]:
    """The base, late and final weights of a fitted vector."""
    base, late, final = (list(map(float, w[k * N_FEATURES:(k + 1) * N_FEATURES])) for k in range(3))
    return base, late, final


def _fit_td(x: np.ndarray, y: np.ndarray, gi: np.ndarray, use: np.ndarray, l2: float, lam: float,
            rounds: int = 3, prior: np.ndarray | None = None) -> np.ndarray:
    """Fit to the results (``lam`` 1), or to TD(lambda) targets recomputed from the fit so far;
    regularised toward ``prior`` (`fit`)."""
    w = fit(x[use], y[use], l2, prior=prior)
    if lam < 1:
        for _ in range(rounds):
            target = lambda_returns(x, y, gi, w, lam)
            w = fit(x[use], target[use], l2, prior=prior)
    return w


def write_model(model: ValueModel, path: Path, log: Callable[[str], None] = print) -> None:
    """Write ``model`` to ``path`` (its folder made if need be) whole or not at all
    (`ai.checkpoint.write_file`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(model.to_json(), indent=1) + "\n"
    write_file(path, lambda f: f.write(text.encode("utf-8")), "value model file")
    log(f"wrote {path}")


def pipeline(work: Path, out: Path, seed: int, games: list[int], iters: int, jobs: int, l2: float,
             lam: float = 0.7, log: Callable[[str], None] = print) -> ValueModel:
    """The whole training from a seed: generation 0 is the hand-tuned agent (``value=hand``) playing
    itself; each later generation is the agent with the previous generation's model; the model is
    fitted to all generations' games.  Self-play files and models go to ``work`` (a stopped run goes
    on from what is there)."""
    everything: list[Record] = []
    model: ValueModel | None = None
    for generation, count in enumerate(games):
        # (each generation after the first plays with the model fitted to the games before it)
        last = work / f"model{generation - 1}.json"
        spec = f"mcts:iters={iters}{SEARCH}" + (HAND_TUNED if generation == 0 else f"{LINEAR},model={spec_path(last)}")
        log(f"generation {generation}: {count} games of {spec}")
        everything += play(work / f"gen{generation}.jsonl", count, spec, derive_seed(seed, "generation", generation),
                           jobs, log=log)
        model = train_model(everything, l2, log, lam=lam)
        model.info.update(seed=seed, generations=games, iters=iters)
        write_model(model, work / f"model{generation}.json", log)
    if model is None:
        raise ValueError("a pipeline needs at least one generation")
    write_model(model, out, log)
    return model
