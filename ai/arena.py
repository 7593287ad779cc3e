"""Playing agents against each other, and measuring how often one beats another.

Games are played in pairs on the same deal with the seats swapped, so that neither agent profits from
a lucky deal or from the first-player draw.  `strength` runs pairs in parallel processes and reports
the win rate with a 95% Wilson interval (a shared victory counts half).  The command that runs it is
``benchmarks/strength.py``.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ProcessPoolExecutor

import amigos
from amigos.adjudicate import adjudicate, over_limit
from amigos.rng import derive_seed

from .agents import make_agent

MAX_DECISIONS = 20000


def play_game(seed: int, variant: str, specs: list[str], agent_seed: int | None = None) -> dict:
    """One game: ``specs[p]`` plays seat ``p``.  Returns winners, points and decision counts; a game
    past the round limit is adjudicated as a match would (`amigos.adjudicate`)."""
    state = amigos.new_game(seed, variant)
    base = seed if agent_seed is None else agent_seed
    agents = [make_agent(spec, seed=derive_seed(base, "agent", p)) for p, spec in enumerate(specs)]
    decisions = 0
    thought = [0.0] * len(specs)
    chose = [0] * len(specs)  # decisions each seat made among two or more legal actions
    adjudicated = False
    while not state.is_terminal():
        if over_limit(state):
            adjudicated = True
            break
        p = state.current_player()
        if len(state.legal_actions()) > 1:
            chose[p] += 1
        start = time.perf_counter()
        action = agents[p].select(state)
        thought[p] += time.perf_counter() - start
        state.apply(action)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"game {seed} did not end")
    for agent in agents:
        close = getattr(agent, "close", None)
        if close:
            close()
    return {"winners": adjudicate(state) if adjudicated else state.winners(), "vp": state.victory_points(),
            "decisions": decisions, "rounds": state.round, "thought": thought, "chose": chose,
            "adjudicated": adjudicated}


def score_for(result: dict, seat: int) -> float:
    """1 for a win, 0.5 for a shared win, 0 for a loss."""
    won = result["winners"]
    if seat not in won:
        return 0.0
    return 1.0 if len(won) == 1 else 0.5


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _pair(args):
    seed, variant, a, b = args
    first = play_game(seed, variant, [a, b])
    second = play_game(seed, variant, [b, a])
    return seed, score_for(first, 0) + score_for(second, 1), first, second


def strength(a: str, b: str, games: int, variant: str = "standard", jobs: int = 1, seed: int = 0,
             out=None, first: int = 0) -> dict:
    """Play ``games`` games (``games // 2`` pairs, the deals of pairs ``first``, ``first + 1``, ... of
    ``seed``) of ``a`` against ``b``; returns the tally.  ``out(line)`` hears a progress line after
    every pair.  Splitting a run by ``first`` plays exactly the deals of the whole run."""
    pairs = max(1, games // 2)
    jobs_list = [(derive_seed(seed, "pair", i), variant, a, b) for i in range(first, first + pairs)]
    total = 0.0
    played = adjudicated = 0
    a_thought, a_chose = 0.0, 0  # agent a's thinking time and real choices, over both seats
    start = time.perf_counter()
    if jobs > 1:
        pool = ProcessPoolExecutor(max_workers=jobs)
        results = pool.map(_pair, jobs_list)
    else:
        pool = None
        results = map(_pair, jobs_list)
    try:
        for _, points, g1, g2 in results:
            total += points
            played += 2
            adjudicated += g1["adjudicated"] + g2["adjudicated"]
            a_thought += g1["thought"][0] + g2["thought"][1]
            a_chose += g1["chose"][0] + g2["chose"][1]
            _progress(out, a, b, total, played, start)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    low, high = wilson(total, played)
    return {"a": a, "b": b, "games": played, "score": total, "rate": total / played, "low": low, "high": high,
            "adjudicated": adjudicated, "seconds": time.perf_counter() - start,
            "a_seconds_per_choice": a_thought / max(1, a_chose)}


def _progress(out, a, b, total, played, start):
    if out is None:
        return
    low, high = wilson(total, played)
    out(f"{a} vs {b}: {total:g}/{played} = {total / played:.1%} (95% {low:.1%}-{high:.1%}), "
        f"{time.perf_counter() - start:.0f} s")
