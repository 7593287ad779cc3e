"""Puzzles: positions from real games, each with the move a strong player makes, scored the way chess
engines are tested on WAC or STS.  The suite's files are in ``tests/data/puzzles/`` (the tests check
every one); the command that scores an agent on them is ``python -m lab.puzzles``.

A puzzle is one JSON file, named by its id::

    {"id": "...", "theme": "...", "source": "the game it comes from", "why": "the reasoning",
     "position": {... the arguments of amigos.position.build_position ...},
     "best": [{"__type__": "PlaceArtifact", "artifact_name": "Nightingale"}, ...],
     "mistakes": [{"__type__": "Pass"}, ...]}

The agent to move plays the position (it sees only what that player may see; the rival's hidden
cards are as they were in the game), and solves the puzzle when the protocol form of its move
(`amigos.action_json`) holds every key of one of the ``best`` patterns (so a pattern without a
payment accepts every payment).  ``mistakes`` (optional) are patterns of the same form for the moves
the ``why`` names as wrong: the game review's measure grades them (``python -m lab.review_measures
--puzzles``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import amigos
from ai.agents import make_agent
from amigos.config import Action
from amigos.position import build_position
from amigos.state import GameState

from .runner import stop_pool

#: The keys every puzzle has.
KEYS = ("id", "theme", "source", "why", "position", "best")


def load_puzzles(folder: Path) -> list[dict[str, Any]]:
    """Every puzzle of ``folder`` (its ``*.json`` files), by id; ValueError names a file without one of
    `KEYS` or whose id is not its name."""
    puzzles = []
    for path in sorted(folder.glob("*.json")):
        puzzle = json.loads(path.read_text(encoding="utf-8"))
        missing = [k for k in KEYS if k not in puzzle]
        if missing:
            raise ValueError(f"{path.name}: no {', '.join(missing)}")
        if puzzle["id"] != path.stem:
            raise ValueError(f"{path.name}: its id is {puzzle['id']!r}")
        puzzles.append(puzzle)
    return puzzles


def position_of(puzzle: dict[str, Any], seed: int = 0) -> GameState:
    """The puzzle's position, its chance generator seeded with ``seed``."""
    return build_position(**puzzle["position"], seed=seed)


def matches(pattern: dict[str, Any], step: dict[str, Any]) -> bool:
    """True when the action's protocol form ``step`` holds every key of ``pattern`` with its value."""
    return all(step.get(k) == v for k, v in pattern.items())


def is_best(puzzle: dict[str, Any], state: GameState, action: Action) -> bool:
    """Whether ``action`` in the puzzle's position ``state`` solves it (matches one of its ``best``)."""
    step = amigos.action_json(state, action)
    return any(matches(pattern, step) for pattern in puzzle["best"])


def solve(args: tuple[dict[str, Any], str, int, Callable[..., Any]]) -> dict[str, Any]:
    """Play one puzzle with one agent seed, ``(puzzle, spec, seed, make)``: {"id", "seed", "solved",
    "move", "seconds"}."""
    puzzle, spec, seed, make = args
    state = position_of(puzzle, seed)
    agent = make(spec, seed=seed)
    start = time.perf_counter()
    action = agent.select(state)
    seconds = time.perf_counter() - start
    close = getattr(agent, "close", None)
    if close:
        close()
    return {"id": puzzle["id"], "seed": seed, "solved": is_best(puzzle, state, action),
            "move": amigos.action_text(state, action), "seconds": round(seconds, 3)}


def score(puzzles: list[dict[str, Any]], spec: str, seeds: int = 1, jobs: int = 1,
          out: Callable[[str], None] | None = None, make: Callable[..., Any] = make_agent) -> dict[str, Any]:
    """Every puzzle played ``seeds`` times by ``spec`` (built by ``make(spec, seed=...)``, with agent
    seeds 0..seeds-1; in ``jobs`` processes), each result told to ``out`` as a line: {"solved", "total",
    "rate", "results"}, where "solved" counts each puzzle as the fraction of its seeds that solved it."""
    work = [(p, spec, seed, make) for p in puzzles for seed in range(seeds)]
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    results = []
    try:
        for r in (pool.map(solve, work) if pool else map(solve, work)):
            results.append(r)
            if out is not None:
                out(f"{'solved' if r['solved'] else 'FAILED':<7}{r['id']:<36} seed {r['seed']}: {r['move']}"
                    f"  ({r['seconds']:.1f} s)")
    finally:
        if pool is not None:
            stop_pool(pool)
    solved = sum(r["solved"] for r in results) / seeds
    return {"solved": solved, "total": len(puzzles), "rate": solved / len(puzzles) if puzzles else 0.0,
            "results": results}
