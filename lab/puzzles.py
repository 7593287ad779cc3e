"""The puzzle suite: positions from real games, each with the move a strong player makes, scored the way
chess engines are tested on WAC or STS.

    python lab/puzzles.py --agent mcts:time=1 --jobs 2
    python lab/puzzles.py --agent mcts:time=1 --only ring-of-midas-order-1 --seeds 3
    python lab/puzzles.py --agent mcts:time=1 --commit 1088fd9    # the agent of an earlier commit

A puzzle is one JSON file in ``lab/puzzles/``::

    {"id": "...", "theme": "...", "source": "the game it comes from", "why": "the reasoning",
     "position": {... the arguments of amigos.position.build_position ...},
     "best": [{"__type__": "PlaceArtifact", "artifact_name": "Nightingale"}, ...]}

The agent to move plays the position (it sees only what that player may see; the rival's hidden
cards are as they were in the game), and solves the puzzle when the protocol form of its move
(`amigos.action_json`) holds every key of one of the ``best`` patterns (so a pattern without a
payment accepts every payment).  With ``--seeds K`` every puzzle is played K times with different
agent seeds and counts the fraction solved.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.append(str(Path(__file__).resolve().parents[1]))  # (an installed build, if any, first)
sys.path.insert(0, str(Path(__file__).resolve().parent))

import amigos  # noqa: E402
from ai.agents import SpecError, make_agent, parse_spec  # noqa: E402
from amigos.position import build_position  # noqa: E402
from matches.runner import stop_pool  # noqa: E402

if TYPE_CHECKING:
    from amigos.state import GameState

PUZZLES = Path(__file__).resolve().parent / "puzzles"
KEYS = ("id", "theme", "source", "why", "position", "best")


def load_puzzles(folder: Path = PUZZLES) -> list[dict]:
    """Every puzzle of ``folder``, by id."""
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


def position_of(puzzle: dict, seed: int = 0) -> GameState:
    """The puzzle's position, its chance generator seeded with ``seed``."""
    return build_position(**puzzle["position"], seed=seed)


def matches(pattern: dict, step: dict) -> bool:
    """True when the action's protocol form ``step`` holds every key of ``pattern`` with its value."""
    return all(step.get(k) == v for k, v in pattern.items())


def is_best(puzzle: dict, state: GameState, action: tuple) -> bool:
    step = amigos.action_json(state, action)
    return any(matches(pattern, step) for pattern in puzzle["best"])


def solve(args: tuple) -> dict:
    """Play one puzzle with one agent seed: {"id", "seed", "solved", "move", "seconds"}."""
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


def score(puzzles: list[dict], spec: str, seeds: int = 1, jobs: int = 1, out: Callable[[str], None] | None = None,
          make: Callable[..., Any] = make_agent) -> dict:
    """Every puzzle played ``seeds`` times by ``spec`` (built by ``make(spec, seed=...)``): {"solved",
    "total", "rate", "results"}, where "solved" counts each puzzle as the fraction of its seeds that
    solved it."""
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


def main(argv: list[str] | None = None) -> int:
    from run_report import say_build
    say_build()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", required=True, help="the agent spec to score, e.g. mcts:time=1")
    ap.add_argument("--seeds", type=int, default=1, help="plays of each puzzle, with agent seeds 0..K-1")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", help="comma-separated puzzle ids")
    ap.add_argument("--record", type=Path, help="write the results here as JSON")
    ap.add_argument("--commit", help="score the agent of this commit's ai/ (on today's engine)")
    args = ap.parse_args(argv)
    try:
        parse_spec(args.agent)
        puzzles = load_puzzles()
    except (SpecError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.only:
        wanted = args.only.split(",")
        unknown = sorted(set(wanted) - {p["id"] for p in puzzles})
        if unknown:
            print(f"error: no puzzle {unknown[0]!r}", file=sys.stderr)
            return 2
        puzzles = [p for p in puzzles if p["id"] in wanted]
    spec, make = args.agent, make_agent
    if args.commit:
        from against_commit import Then
        try:
            make = Then(args.commit, f"{args.commit}:")
        except subprocess.CalledProcessError as e:
            print(f"error: cannot export ai/ of {args.commit}: {e.stderr.decode().strip()}", file=sys.stderr)
            return 2
        spec = f"{args.commit}:{args.agent}"
    result = score(puzzles, spec, args.seeds, args.jobs, out=lambda line: print(line, flush=True), make=make)
    print(f"{spec}: solved {result['solved']:g} of {result['total']} puzzles = {result['rate']:.0%}")
    if args.record:
        args.record.write_text(json.dumps({"agent": spec, "seeds": args.seeds, **result}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
