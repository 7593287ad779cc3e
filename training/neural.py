"""Learning the neural value (`ai.network`) from self-play, by TD(lambda), in generations.

    amigos-train neural --work runs/net --generations 60 --games 500 --jobs 2 --seed 1

Generation g plays ``games`` games with network g (network 0: small random weights, or a copy of
``--start``), each decision one move deep on the network from a world the mover could be in
(`amigos.determinize`: it never sees the deck's next card), the best move taken but for an ``epsilon``
share of random ones (exploration).  With ``--play SPEC`` (an MCTS agent with an iteration budget,
``mcts:iters=300``) each decision is that search's instead, valuing its leaves by network g
(``value=net``), and with ``--bootstrap`` generation 0's games are the spec's with the linear learned
value (``value=linear``): expert iteration, the network learning from games
played better than one move deep on it.  With ``--residual`` a new run's network learns corrections
to the linear learned value (`ai.network`, ``base``): network 0 is that value, and every view keeps
its log-odds in a world dealt for the viewer.
Every decision among two or more moves gives two training positions, each player's view
(`ai.encoding.encode`), and each player's sequence of views is labelled with TD(lambda) returns
computed with the network being trained (TD-Gammon's targets, in the forward view): the game's result
for the last view, ``(1 - lambda) V(next) + lambda G(next)`` before it.  With ``--searched-target
S`` a searched decision's target is ``(1 - S) return + S q``, q the search's own chance of winning
there (its chosen move's mean reward, which a searched game's record keeps): a target that depends on
the position rather than on one game's result, which a network can memorise deal by deal.  With
``--fast-iters N`` (capped playouts, as KataGo's) only a ``--deep-share`` of the decisions is searched
with the spec's iterations, and only those keep the search's value (the searched target's) and the
root's visits of each move (a policy's target); the others are searched with N iterations, so more
games are played for the same time (every decision's views still learn from the game's returns).
Network g + 1 is network g trained by Adam on the cross-entropy on the newest ``--window`` positions
of every generation's games (and of ``--seed-games``, earlier runs' folders): the data accumulates.
With ``--measure GAMES`` each new network plays the one before before it is kept.  A share of the
games (``--lux``) is played with *Lux et Tenebrae*, and a share (``--draft-share``) is dealt by the
draft (rules.md 2.2: each player drafts their eight artifacts), so that the network learns the draft's
positions too and a search can value its picks: one network for all.  ``--players N`` (3 to 5) trains a
network for that count from games of that count (network 0 a network for any count, ``--start``; five
play with the expansion); the search uses it in games of that count (`ai.evaluator`).  Such a run's
records keep no search value (the records' value is player 0's chance, a two-player notion), so its
targets are the returns alone; ``--measure`` seats the new network in one seat and the one before in the
others, every seat in turn (`matches.arena.seated`).

Each generation's network is saved as ``net-G.npz`` in ``--work`` with its games (``games-G.jsonl.gz``:
seeds, choices, the searches' values and visits, compressed; they replay to the positions) and a line of
``progress.jsonl`` (games, positions, held-out log loss and Brier score of the game's result, rounds,
seconds, the measure).  A generation's games are added to ``playing-G.jsonl`` as they end, so a stopped
run goes on with the games it had not finished, and from the last saved generation, as it would have
unbroken.  Game k of generation g is dealt by ``derive_seed(seed, "neural", g, k)``, so a run is reproducible whatever ``--jobs``.  What a run reads
(``--start``, ``--seed-games``, a folder's networks and games) is checked before anything is written
(`ai.checkpoint`, `training.records`), and each file is written whole or not at all.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import amigos
from ai import encoding as E
from ai.agents import make_agent, parse_spec, spec_path, spec_text
from ai.checkpoint import NET_BYTES, read_json, read_regular, write_file
from ai.evaluator import NET, packaged_model
from ai.features import player_features
from ai.learned import progress
from ai.network import ValueNet, feature_inputs
from ai.rewards import chance_of_reward
from amigos.config import Action, GameConfig, needed_expansions
from amigos.determinize import determinize
from amigos.rng import derive_seed
from matches.arena import seated, strength
from matches.runner import open_runner

from .play import Progress
from .records import FILE_BYTES, RecordError, chosen, neural_game, read_records, write_records
from .views import Views

WINDOW = 1_000_000  # positions (views) a network is trained on at most: the newest games' of every generation
BATCH = 256         # views a step of Adam
RUN_FILE_BYTES = 1 << 20  # a run's `GAMES_FROM` file at most
GAMES_FROM = "games-from.json"  # a run's file naming the folders of --seed-games, from its own (they join the window)
HOLD_OUT = 20       # one game in 20 is held out of training, to measure the prediction
MOVES_CAP = 48      # moves valued at a decision at most (a random sample of the rest is skipped)

Game = dict[str, Any]  # {"views": [...] as played, `Views` once kept, "result", "rounds", "seed", "choices", ...}


# -- self-play --------------------------------------------------------------------------------------------

_NETS: dict[str, ValueNet] = {}  # per process: the network of each file, loaded once


def _net(path: str) -> ValueNet:
    if path not in _NETS:
        _NETS.clear()
        _NETS[path] = ValueNet.load(Path(path), packaged_model())
    return _NETS[path]


def choose(state: amigos.GameState, net: ValueNet, rng: random.Random, epsilon: float) -> Action:
    """The mover's move one deep on ``net`` in a world dealt for it, or (``epsilon`` of the time) a
    random one."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if rng.random() < epsilon:
        return legal[rng.randrange(len(legal))]
    mover = state.current_player()
    world = determinize(state, mover, rng.getrandbits(64))
    moves = legal if len(legal) <= MOVES_CAP else rng.sample(legal, MOVES_CAP)
    best, best_v = moves[0], -1.0
    for action in moves:
        after = world.clone()
        after.apply(action)
        v = _value_after(after, mover, net)
        if v > best_v:
            best, best_v = action, v
    return best


def _value_after(state: amigos.GameState, mover: int, net: ValueNet) -> float:
    if state.is_terminal():
        won = state.winners()
        return (1.0 / len(won)) if mover in won else 0.0
    return net.probability(state, mover)


def play_game(seed: int, net_path: str, config: GameConfig, epsilon: float, spec: str | None = None,
              deep: float = 1.0, fast: int | None = None) -> Game:
    """One self-play game of the network in ``net_path`` (one move deep on it, or, with ``spec``, that
    agent's search with the network as its value): every decision's views (one a player) and the result.  With
    ``fast`` (capped playouts, as KataGo's), a ``deep`` share of the searched decisions is searched
    with the spec's iterations and kept as a target (its value and the root's visits, "searches"), the
    others with ``fast`` iterations to play on quickly (no value kept)."""
    rng = random.Random(derive_seed(seed, "explore"))
    state = amigos.deal(seed, config)
    agents: list[Any] = []
    quick: list[Any] = []
    if spec is None:
        net = _net(net_path)
    else:
        if parse_spec(spec)[1].get("value", NET) == NET:  # (the search's value is the network trained)
            spec = f"{spec},net={spec_path(Path(net_path))}"
        agents = [make_agent(spec, seed=derive_seed(seed, "search", p)) for p in range(state.n_players)]
        if fast is not None:
            kind, params = parse_spec(spec)
            quick = [make_agent(spec_text(kind, dict(params, iters=fast)), seed=derive_seed(seed, "fast", p))
                     for p in range(state.n_players)]
    views: list[list[Any]] = []
    choices: list[int] = []  # each decision's index among the legal actions: the game replays from them
    values: list[float | None] = []  # each decision's searched chance that player 0 wins (None: not searched)
    searches: list[list[Any]] = []  # each deep search's root: [decision, [[move, visits, mover's chance], ...]]
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) > 1:
            views += _views(state, derive_seed(seed, "view", len(choices)), len(choices))
        value = None
        if not agents:
            action = choose(state, net, rng, epsilon)
        elif len(legal) > 1 and rng.random() < epsilon:
            action = legal[rng.randrange(len(legal))]
        elif quick and len(legal) > 1 and rng.random() >= deep:
            action = quick[state.current_player()].select(state)
        else:
            mover = agents[state.current_player()]
            action = mover.select(state)
            value = _searched_chance(mover.info, state.current_player()) if state.n_players == 2 else None
            if value is not None and mover.info.get("root"):
                searches.append([len(choices), _root(mover.info["root"], legal)])
        values.append(value)
        choices.append(legal.index(action))
        state.apply(action)
    for agent in agents + quick:
        agent.close()
    won = state.winners()
    game = {"views": views, "result": [1.0 / len(won) if p in won else 0.0 for p in range(state.n_players)],
            "rounds": state.round, "seed": seed, "expansions": list(config.expansions), "choices": choices}
    if config.variant != "standard":
        game["variant"] = config.variant
    if agents:
        game["values"] = values
        game["searches"] = searches
    return game


def _root(root: list[tuple[Action, int, float]], legal: list[Action]) -> list[list[Any]]:
    """A search's root moves (`ai.mcts.MCTSAgent.info`'s "root") as a record keeps them: [index among
    ``legal``, visits, the mover's chance of winning by it], most visited first."""
    moves = [[legal.index(action), int(n), round(chance_of_reward(float(w)), 4)] for action, n, w in root]
    return sorted(moves, key=lambda m: (-m[1], m[0]))


def _searched_chance(info: dict[str, Any], mover: int) -> float | None:
    """The chance that player 0 wins by the mover's search (its chosen move's mean reward), or None
    where the move was not searched."""
    if not info.get("iterations") or info.get("value") is None:
        return None
    chance = chance_of_reward(float(info["value"]))
    return round(chance if mover == 0 else 1.0 - chance, 4)


# -- training ---------------------------------------------------------------------------------------------

class Adam:
    """Adam's moments for a list of arrays, updated in place."""

    def __init__(self, shapes: list[tuple[int, ...]], rate: float) -> None:
        self.m = [np.zeros(s) for s in shapes]
        self.v = [np.zeros(s) for s in shapes]
        self.t = 0
        self.rate = rate

    def step(self, params: list[np.ndarray], grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= self.rate * (m / (1 - b1 ** self.t)) / (np.sqrt(v / (1 - b2 ** self.t)) + 1e-8)


CHUNK = 4096  # views valued at once outside training (the dense rows of a chunk: 25 MB)


def forward(net: ValueNet, views: Views, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(inputs, hidden activations, win probabilities) of ``views``' ``rows`` (all by default; with the
    linear value's log-odds of each for a network with ``base``)."""
    rows = np.arange(len(views)) if rows is None else rows
    x = views.batch(rows, net.features)
    h = np.maximum(x @ net.w1 + net.b1, 0.0)
    z = h @ net.w2 + net.b2
    if net.base:
        z += views.linear[rows]
    return x, h, 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def probabilities(net: ValueNet, views: Views) -> np.ndarray:
    """The network's win probability of every view, `CHUNK` views at a time."""
    out = np.empty(len(views))
    for start in range(0, len(views), CHUNK):
        out[start:start + CHUNK] = forward(net, views, np.arange(start, min(len(views), start + CHUNK)))[2]
    return out


def targets(net: ValueNet | Callable[[Views], np.ndarray], games: Sequence[Game], lam: float,
            searched: float = 0.0) -> tuple[Views, np.ndarray]:
    """Every view of ``games`` (their `Views`, one after another) and its target: its TD(lambda) return
    under ``net`` (see the module docstring; or under any value, a function of the views giving each
    one's chance), blended with a ``searched`` share of the search's own chance at that decision where
    the game's record has one (`_searched_chance`)."""
    views = Views.joined([game["views"] for game in games])
    p = probabilities(net, views) if isinstance(net, ValueNet) else net(views)
    y = np.empty(len(views))
    offset = 0
    for game in games:
        part: Views = game["views"]
        values = game.get("values") or ()
        blend = searched if len(game["result"]) == 2 else 0.0  # (records keep player 0's chance: two players)
        for viewer in range(len(game["result"])):
            g = game["result"][viewer]
            for r in offset + part.viewers_rows(viewer)[::-1]:
                y[r] = g
                g = (1 - lam) * float(p[r]) + lam * g
                d = int(views.decision[r])
                q = values[d] if blend and 0 <= d < len(values) else None
                if q is not None:
                    y[r] = (1 - blend) * y[r] + blend * (q if viewer == 0 else 1.0 - q)
        offset += len(part)
    return views, y


def train(net: ValueNet, games: Sequence[Game], lam: float, epochs: int, rate: float, batch: int,
          rng: np.random.Generator, searched: float = 0.0) -> float:
    """Train ``net`` in place on ``games`` (its leaf's matrix made again: `ValueNet.refresh`); returns the
    last epoch's mean cross-entropy."""
    adam = Adam([net.w1.shape, net.b1.shape, net.w2.shape, (1,)], rate)
    loss = 0.0
    for _ in range(epochs):
        views, y = targets(net, games, lam, searched)
        order = rng.permutation(len(views))
        total = 0.0
        for start in range(0, len(order), batch):
            rows = order[start:start + batch]
            x, h, p = forward(net, views, rows)
            t = y[rows]
            total += float(-np.sum(t * np.log(p + 1e-9) + (1 - t) * np.log(1 - p + 1e-9)))
            dz = (p - t) / len(rows)  # d(mean cross-entropy)/dz
            dh = np.outer(dz, net.w2) * (h > 0)
            b2 = np.array([net.b2])
            params = [net.w1, net.b1, net.w2, b2]
            adam.step(params, [x.T @ dh, dh.sum(0), h.T @ dz, np.array([dz.sum()])])
            net.b2 = float(b2[0])
        loss = total / max(1, len(order))
    net.refresh()
    return loss


def held_out(net: ValueNet | Callable[[Views], np.ndarray], games: Sequence[Game]) -> dict[str, float]:
    """Log loss and Brier score of the network's prediction of each game's result (or any value's, a
    function of the views as `targets` takes), over every view."""
    views = Views.joined([game["views"] for game in games])
    if not len(views):
        return {}
    y = np.concatenate([np.array(game["result"])[game["views"].viewer] for game in games])
    p = np.clip(probabilities(net, views) if isinstance(net, ValueNet) else net(views), 1e-6, 1 - 1e-6)
    return {"log_loss": round(float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), 4),
            "brier": round(float(np.mean((p - y) ** 2)), 4), "views": len(views)}


def window(games: Sequence[Game], size: int) -> list[Game]:
    """The newest of ``games`` (oldest first) whose views number at most ``size`` together (the newest
    game at least), oldest first."""
    kept: list[Game] = []
    total = 0
    for game in reversed(games):
        total += len(game["views"])
        if kept and total > size:
            break
        kept.append(game)
    return kept[::-1]


# -- the generations --------------------------------------------------------------------------------------

_NET_NAME = re.compile(r"net-([0-9]+)\.npz")
GAMES_NAME = re.compile(r"games-([0-9]+)\.jsonl(\.gz)?")  # (.jsonl: a run's games before they were compressed)


def last_generation(work: Path) -> int:
    """The highest generation whose network is saved in ``work`` (-1 for none, or no folder yet)."""
    done = [int(m.group(1)) for p in work.glob("net-*.npz") if (m := _NET_NAME.fullmatch(p.name))]
    return max(done, default=-1)


@dataclass(frozen=True)
class Recipe:
    """How a run plays and trains each generation (`run`'s settings; the module docstring says what each
    does)."""

    games: int
    seed: int
    jobs: int
    lux: float = 0.25
    epsilon: float = 0.1
    lam: float = 0.7
    epochs: int = 2
    rate: float = 1e-3
    scheduler: str | None = None
    play: str | None = None
    bootstrap: bool = False
    searched: float = 0.0
    size: int = WINDOW
    deep: float = 1.0
    fast: int | None = None
    measure: int = 0
    measure_iters: int = 300
    draft: float = 0.0
    players: int = 2


def run(work: Path, generations: int, games: int, seed: int, jobs: int, hidden: int = 64, lux: float = 0.25,
        epsilon: float = 0.1, lam: float = 0.7, epochs: int = 2, rate: float = 1e-3, scheduler: str | None = None,
        log: Callable[[str], object] = print, play: str | None = None, bootstrap: bool = False,
        start: Path | None = None, residual: bool = False, searched: float = 0.0, features: bool = False,
        seed_games: Sequence[Path] = (), size: int = WINDOW, deep: float = 1.0, fast: int | None = None,
        progress: Progress = lambda label, done, total: None, measure: int = 0, measure_iters: int = 300,
        draft: float = 0.0, players: int = 2) -> None:
    """Play and train generations up to ``generations`` (see the module docstring), going on from the
    last one saved in ``work``; each network is trained on the newest ``size`` positions of every
    generation's training games (and of ``seed_games``); ``deep`` and ``fast``: `play_game`'s;
    ``progress("network G's games", played, games)`` as each game ends; with ``measure``, each new
    network plays that many games against the one before (`_against_previous`).  A new run's network 0
    is a copy of ``start``, or a new network of ``hidden`` units (``residual``, ``features``: see the
    module docstring) trained on ``seed_games``.  What it reads is checked before ``work`` is made or
    written to."""
    recipe = Recipe(games, seed, jobs, lux, epsilon, lam, epochs, rate, scheduler, play, bootstrap, searched, size,
                    deep, fast, measure, measure_iters, draft, players)
    if work.exists() and not work.is_dir():
        raise RecordError(f"{work}: not a folder (--work)")
    g = last_generation(work)
    if g < 0:
        seeded = _new_run(work, recipe, start, hidden, residual, features, seed_games, log)
        pool = window([game for part in seeded for game in _training_part(part)], size)
        g = 0
    else:  # (the earlier generations' games, replayed: a resumed run trains as an unbroken one)
        pool = _earlier(work, g, size)
    while g < generations:
        pool = _generation(work, g, recipe, pool, log, progress)
        g += 1


def _new_run(work: Path, recipe: Recipe, start: Path | None, hidden: int, residual: bool, features: bool,
             seed_games: Sequence[Path], log: Callable[[str], object]) -> list[list[Game]]:
    """Make ``work``'s network 0 and its `GAMES_FROM` file (written first: network 0 marks a run begun);
    the games of ``seed_games``, each file's, replayed (checked before the folder is made)."""
    seeded = _seed_games(seed_games, recipe.players) if seed_games else []
    copy = None
    started = None
    if start is not None:
        started = ValueNet.load(start, packaged_model())  # (refused in one line if not a network for today's inputs)
        copy = read_regular(start, NET_BYTES, "value network")  # (network 0 is that file, byte for byte)
    work.mkdir(parents=True, exist_ok=True)
    # (each folder relative to the run's: a run kept in a checkout goes on wherever it is cloned)
    text = json.dumps([os.path.relpath(Path(f).resolve(), work.resolve()) for f in seed_games]) + "\n"
    write_file(work / GAMES_FROM, lambda f: f.write(text.encode("utf-8")), "run file", RecordError)
    if started is not None and started.players != recipe.players:  # (another count's network: where it starts)
        started.info.update(players=recipe.players, started_from=f"a network for {started.players} players")
        started.save(work / "net-0.npz")
        return seeded
    if copy is not None:
        write_file(work / "net-0.npz", lambda f: f.write(copy), "network file")
        return seeded
    net = ValueNet.initial(hidden, recipe.seed, base=residual, features=features, linear=packaged_model())
    net.info.update(generations=0, games=0, players=recipe.players)
    if seeded:
        _pretrain(work, net, seeded, recipe, log)
        net.info.update(pretrained_from=[str(Path(f).resolve()) for f in seed_games])
    net.save(work / "net-0.npz")
    return seeded


def _generation(work: Path, g: int, recipe: Recipe, pool: list[Game], log: Callable[[str], object],
                progress: Progress) -> list[Game]:
    """Play generation ``g`` with network g, train network g + 1 on the window (``pool`` and the new
    games), measure it if the recipe says so, keep it with its line of ``progress.jsonl``; the new pool."""
    path = work / f"net-{g}.npz"
    net = ValueNet.load(path, packaged_model())  # (before its games are played: a bad file is refused first)
    if net.players != recipe.players:
        raise RecordError(f"{path}: a network for {net.players} players, not {recipe.players} (--players)")
    began = time.perf_counter()
    spec = recipe.play
    if spec is not None:
        spec = f"{spec},value={'linear' if recipe.bootstrap and g == 0 else 'net'}"
    played = _play(path, g, recipe, log, spec, progress)
    seconds = time.perf_counter() - began
    _compact(played)
    held = [game for k, game in enumerate(played) if k % HOLD_OUT == 0]
    pool = window(pool + _training_part(played), recipe.size)
    before = held_out(net, held)
    loss = train(net, pool, recipe.lam, recipe.epochs, recipe.rate, BATCH,
                 np.random.default_rng(derive_seed(recipe.seed, "train", g)), recipe.searched)
    after = held_out(net, held)
    earlier = net.info.get("games", 0)  # (a --start network's record may say anything)
    net.info.update(generations=g + 1, games=(earlier if type(earlier) is int else 0) + recipe.games,
                    hidden=net.hidden, lam=recipe.lam, epsilon=recipe.epsilon, seed=recipe.seed, held_out=after,
                    played_by=spec or "one move deep", searched_target=recipe.searched, window=recipe.size,
                    deep=recipe.deep, fast=recipe.fast)
    # (measured before it is kept: a run stopped while measuring trains it again from the kept games)
    net.save(work / f"candidate-{g + 1}.npz")
    measured = _against_previous(work, g + 1, recipe, log) if recipe.measure else None
    (work / f"candidate-{g + 1}.npz").replace(work / f"net-{g + 1}.npz")
    rounds = [game["rounds"] for game in played]
    line = {"generation": g + 1, "games": recipe.games, "total_games": net.info["games"],
            "positions": sum(len(game["views"]) for game in played), "trained_on": sum(len(x["views"]) for x in pool),
            "train_loss": round(loss, 4), "held_out_before": before, "held_out_after": after,
            "rounds_mean": round(sum(rounds) / len(rounds), 2), "play_seconds": round(seconds, 1),
            "train_seconds": round(time.perf_counter() - began - seconds, 1)}
    if measured is not None:
        line["against_previous"] = measured
    with open(work / "progress.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
    log(f"generation {g + 1}: {net.info['games']} games in all, trained on {line['trained_on']} positions, held "
        f"out {after}, rounds {line['rounds_mean']}, {line['play_seconds']} s playing, {line['train_seconds']} s "
        f"training")
    return pool


def _against_previous(work: Path, g: int, recipe: Recipe, log: Callable[[str], object]) -> dict[str, Any]:
    """Network ``g`` (``candidate-G.npz``) against network g - 1 in the recipe's ``measure`` games
    (two players: seat-swapped pairs on the same deals; more: ``measure // players`` deals, network g in
    each seat in turn, `matches.arena.seated`), each searching ``measure_iters`` iterations a move with
    its network: its score, share, 95% interval and fair share."""
    iters = recipe.measure_iters
    spec = f"mcts:iters={iters},value=net,net="
    new, old = (spec_path(work / name) for name in (f"candidate-{g}.npz", f"net-{g - 1}.npz"))
    seed = derive_seed(recipe.seed, "measure", g)
    if recipe.players == 2:
        result = strength(spec + new, spec + old, recipe.measure, jobs=recipe.jobs, seed=seed,
                          scheduler=recipe.scheduler)
    else:  # (the new network in one seat, the one before in the others, every seat in turn)
        config = GameConfig(expansions=needed_expansions(recipe.players), players=recipe.players)
        result = seated(spec + new, spec + old, max(1, recipe.measure // recipe.players), config,
                        jobs=recipe.jobs, seed=seed, scheduler=recipe.scheduler)
    out = {"games": result["games"], "points": result["score"], "share": round(result["rate"], 4),
           "interval": [round(result["low"], 4), round(result["high"], 4)], "iters": iters,
           "fair": round(1.0 / recipe.players, 4)}
    log(f"network {g} against network {g - 1}: {out['points']}/{out['games']} = {result['rate']:.1%} "
        f"(95% {result['low']:.1%}-{result['high']:.1%}; fair share {1.0 / recipe.players:.1%}), "
        f"{iters} iterations a move")
    return out


def _earlier(work: Path, g: int, size: int) -> list[Game]:
    """The training games of generations before ``g`` in ``work``, then of the runs network 0 learned from
    (``pretrained_from`` in its record), newest first until ``size`` positions are read, replayed to their
    views; `window` of them, oldest first."""
    newest: list[Game] = []
    total = 0

    def read(paths: list[Path]) -> None:
        nonlocal newest, total
        for path in paths:
            if total > size:
                return
            part = _compact(read_game_file(path, training_only=True))
            total += sum(len(game["views"]) for game in part)
            newest = part + newest

    read([path for k in range(g - 1, -1, -1) if (path := game_file(work, k)) is not None])
    if total <= size:  # (the window reaches back to the games of --seed-games)
        for folder in reversed(seed_folders(work)):
            if not folder.is_dir():
                raise RecordError(f"{folder}: the run started from its games (--seed-games), and it is no folder now")
            read(game_files(folder)[::-1])
    return window(newest, size)


def seed_folders(work: Path) -> list[Path]:
    """The folders whose games a run started from (``--seed-games``, kept in its `GAMES_FROM` file; in a
    run from before that file, those network 0 was trained on if it was new then: a copy of a trained
    network carries its own run's record)."""
    if (work / GAMES_FROM).exists():
        folders = read_json(work / GAMES_FROM, RUN_FILE_BYTES, "run file", RecordError)
        if not isinstance(folders, list) or not all(isinstance(f, str) for f in folders):
            raise RecordError(f"{work / GAMES_FROM}: not a list of folders")
        return [Path(os.path.normpath(work.resolve() / f)) for f in folders]
    info = ValueNet.load(work / "net-0.npz", packaged_model()).info
    first = info.get("pretrained_from") if info.get("generations") == 0 else None
    return [Path(f) for f in first or () if isinstance(f, str)]


def _seed_games(folders: Sequence[Path], players: int = 2) -> list[list[Game]]:
    """The games other runs kept (each game file's of their folders, ``games-G.jsonl[.gz]``), each checked
    and replayed to its views; `training.records.RecordError` for a folder that is none, no games, or
    games of another player count than ``players``."""
    for folder in folders:
        if not Path(folder).is_dir():
            raise RecordError(f"{folder}: not a folder of amigos-train neural (--seed-games)")
    files = []
    for folder in folders:
        for path in game_files(Path(folder)):
            files.append(_compact(read_game_file(path, players=players)))
    if not any(files):
        raise RecordError(f"no games to start from in {', '.join(map(str, folders))}")
    return files


def _compact(games: list[Game]) -> list[Game]:
    """``games`` with their views as `Views` (a tenth of the memory of the lists a replay gives)."""
    for game in games:
        game["views"] = Views.of(game["views"])
    return games


def game_files(folder: Path) -> list[Path]:
    """A run's game files by generation, one each (`game_file`: ``games-G.jsonl.gz``, or ``.jsonl`` as
    older runs kept them)."""
    found = {int(m.group(1)) for p in folder.glob("games-*") if (m := GAMES_NAME.fullmatch(p.name))}
    return [path for g in sorted(found) if (path := game_file(folder, g)) is not None]


def game_file(work: Path, g: int) -> Path | None:
    """Generation ``g``'s game file in ``work`` (None if it has none)."""
    for name in (f"games-{g}.jsonl.gz", f"games-{g}.jsonl"):
        if (work / name).is_file():
            return work / name
    return None


def _pretrain(work: Path, net: ValueNet, files: list[list[Game]], recipe: Recipe, log: Callable[[str], object]) -> None:
    """Network 0 trained on the games of ``files`` (`_seed_games`), as a generation is trained (each file's
    held-out games kept out, as its run kept them); a line of ``progress.jsonl`` says on what and how well."""
    games = [game for part in files for game in part]
    held = [game for part in files for k, game in enumerate(part) if k % HOLD_OUT == 0]
    before = held_out(net, held)
    loss = train(net, [game for part in files for game in _training_part(part)], recipe.lam, recipe.epochs,
                 recipe.rate, BATCH, np.random.default_rng(derive_seed(recipe.seed, "pretrain")), recipe.searched)
    after = held_out(net, held)
    net.info.update(pretrained_on=len(games))
    line = {"generation": 0, "pretrained_on": len(games), "train_loss": round(loss, 4),
            "held_out_before": before, "held_out_after": after}
    with open(work / "progress.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
    log(f"network 0 trained on {len(games)} recorded games: held out {before} -> {after}")


def _training_part(games: list[Game]) -> list[Game]:
    """The games of a generation it trains on: all but the held-out ones (one in `HOLD_OUT`)."""
    return [game for k, game in enumerate(games) if k % HOLD_OUT]


def write_games(work: Path, g: int, games: list[Game]) -> None:
    """Keep generation ``g``'s games in ``work`` as ``games-G.jsonl.gz``, a line each without their views
    (`read_games` replays them), gzip-compressed, whole or not at all."""
    write_records(work / f"games-{g}.jsonl.gz", ({k: v for k, v in game.items() if k != "views"} for game in games),
                  "game record file")


def read_games(work: Path, g: int) -> list[Game]:
    """Generation ``g``'s games as `write_games` kept them, each replayed from its seed and choices to
    its views (lists, as `play_game` gives them); `RecordError` if ``work`` has none."""
    path = game_file(work, g)
    if path is None:
        raise RecordError(f"{work}: no games of generation {g}")
    return read_game_file(path)


def read_game_file(path: Path, training_only: bool = False, players: int | None = None) -> list[Game]:
    """The games of a ``games-G.jsonl[.gz]`` file, each checked (`training.records.neural_game`) and
    replayed from its seed and choices to its views; with ``training_only``, only those a generation
    trains on (`_training_part`: the held-out ones are not replayed); with ``players``, `RecordError`
    (before any is replayed) if a game has another count."""
    games = read_records(path, "game record file", neural_game)
    other = next((len(g["result"]) for g in games if players is not None and len(g["result"]) != players), None)
    if other is not None:
        raise RecordError(f"{path}: games of {other} players, not {players} (--players)")
    if training_only:
        games = _training_part(games)
    for game in games:
        game["views"] = views_of(game)
    return games


def dealt_as(seed: int, recipe: Recipe) -> GameConfig:
    """How the game of ``seed`` is dealt in a run of ``recipe``: with *Lux et Tenebrae* in a ``lux``
    share of the seeds, by the draft in a ``draft`` share (independent draws from the seed)."""
    expansions = ("lux",) if random.Random(seed).random() < recipe.lux else needed_expansions(recipe.players)
    drafted = random.Random(derive_seed(seed, "draft")).random() < recipe.draft
    return GameConfig("draft" if drafted else "standard", expansions=expansions, players=recipe.players)


def config_of(game: Game) -> GameConfig:
    """The setup of a game record (its variant, expansions and players: one result each)."""
    return GameConfig.parse(game.get("variant", "standard"), expansions=game.get("expansions") or (),
                            players=len(game["result"]))


def views_of(game: Game) -> list[list[Any]]:
    """The views of a game record's decisions, by replaying its choices from its deal."""
    state = amigos.deal(game["seed"], config_of(game))
    views: list[list[Any]] = []
    for k, index in enumerate(game["choices"]):
        legal = state.legal_actions()
        if len(legal) > 1:
            views += _views(state, derive_seed(game["seed"], "view", k), k)
        state.apply(chosen(legal, index, game, k))
    return views


def _views(state: amigos.GameState, seed: int, decision: int) -> list[list[Any]]:
    """Every player's view of ``state`` as a game record keeps them: [inputs, values, viewer, the
    linear value's log-odds for the viewer in a world dealt for them from ``seed``, the index of the
    ``decision`` among the game's choices, the viewer's feature inputs in that world]."""
    out = []
    model = packaged_model()
    for viewer in range(state.n_players):
        rival = E.rival_of(state, viewer)
        index, value = E.encode_inputs(state, viewer, rival)
        rows = player_features(determinize(state, viewer, seed + viewer))
        linear = round(model.margin(rows, viewer, progress(rows)), 4)  # (its `win_log_odds`)
        out.append([index, [round(v, 4) for v in value], viewer, linear, decision,
                    [round(x, 4) for x in feature_inputs(rows, viewer, rival)]])
    return out


def _play(path: Path, g: int, recipe: Recipe, log: Callable[[str], object], spec: str | None,
          progress: Progress = lambda label, done, total: None) -> list[Game]:
    """Generation ``g``'s games, played by network ``path``: those its games file keeps (a run stopped
    after keeping them), else each added to ``playing-G.jsonl`` as it ends, so that a stopped generation
    goes on with the games it had not finished (replayed to their views); the games file is then kept
    and that file removed."""
    work, seeds = path.parent, [derive_seed(recipe.seed, "neural", g, k) for k in range(recipe.games)]
    kept = game_file(work, g)
    if kept is not None:
        done = read_game_file(kept)
        if [game["seed"] for game in done] != seeds:
            raise RecordError(f"{kept}: games of another run or generation; move it away to play it again")
        return done
    partial = work / f"playing-{g}.jsonl"
    out = _partial(partial, seeds)
    with open_runner(recipe.jobs, recipe.scheduler) as runner, partial.open("a", encoding="utf-8") as sink:
        for k, seed in enumerate(seeds):
            if k not in out:
                runner.submit(str(k), play_game, seed, str(path), dealt_as(seed, recipe), recipe.epsilon,
                              spec, recipe.deep, recipe.fast)
        for key, game in runner.as_completed():
            record = {name: value for name, value in game.items() if name != "views"}
            sink.write(json.dumps(dict(record, k=int(key)), separators=(",", ":")) + "\n")
            sink.flush()
            out[int(key)] = game
            progress(f"network {g}'s games", len(out), recipe.games)
            if len(out) % 100 == 0:
                log(f"generation {g}: {len(out)}/{recipe.games} games played")
    played = [out[k] for k in range(recipe.games)]
    write_games(work, g, played)
    partial.unlink()  # (kept whole in the games file now)
    return played


def _partial(partial: Path, seeds: list[int]) -> dict[int, Game]:
    """The games a stopped generation had finished (``playing-G.jsonl``, `_play`), by number, replayed to
    their views; a last line cut short (a stop while it was written) is dropped from the file."""
    if not partial.exists():
        return {}
    data = read_regular(partial, FILE_BYTES, "file of a generation's games", RecordError)
    if data and not data.endswith(b"\n"):
        with partial.open("r+b") as f:
            f.truncate(data.rfind(b"\n") + 1)
    out: dict[int, Game] = {}
    for game in read_records(partial, "file of a generation's games", neural_game):
        k = game.pop("k", None)
        if type(k) is not int or not 0 <= k < len(seeds) or game["seed"] != seeds[k]:
            raise RecordError(f"{partial}: games of another run or generation; move it away to play it again")
        game["views"] = views_of(game)
        out[k] = game
    return out
