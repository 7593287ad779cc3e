"""Today's agent against the agent of an earlier commit, on today's engine, in seat-swapped pairs.

    python benchmarks/against_commit.py --commit 14be741 --a mcts:time=0.25 --b mcts:time=0.25 --pairs 50

``--a`` is built by this checkout's `ai` package, ``--b`` by the `ai` package of ``--commit`` (taken
with ``git archive`` into a temporary directory and imported as ``ai_then``; it runs on this checkout's
`amigos`, so use it for commits whose `ai` needs nothing the engine has since dropped).  Prints a
line after every pair and the 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import amigos  # noqa: E402
from ai.arena import score_for, wilson  # noqa: E402
from amigos.adjudicate import adjudicate, over_limit  # noqa: E402
from amigos.rng import derive_seed  # noqa: E402

THEN = "then:"  # prefix of a spec built by the earlier commit's agents


def export(commit: str, into: Path) -> None:
    """Write ``commit``'s `ai` package to ``into/ai_then``."""
    blob = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "ai"], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        try:
            tar.extractall(into, filter="data")
        except TypeError:  # Python before 3.11.4: no extraction filters (the archive is our own)
            tar.extractall(into)
    (into / "ai").rename(into / "ai_then")


def make(spec: str, seed: int):
    if spec.startswith(THEN):
        from ai_then.agents import make_agent as make_then
        return make_then(spec[len(THEN):], seed=seed)
    from ai.agents import make_agent
    return make_agent(spec, seed=seed)


def play(seed: int, specs: list[str]) -> dict:
    state = amigos.new_game(seed, "standard")
    agents = [make(spec, derive_seed(seed, "agent", p)) for p, spec in enumerate(specs)]
    adjudicated = False
    while not state.is_terminal():
        if over_limit(state):
            adjudicated = True
            break
        state.apply(agents[state.current_player()].select(state))
    return {"winners": adjudicate(state) if adjudicated else state.winners(), "adjudicated": adjudicated}


def pair(args) -> tuple[float, int]:
    seed, a, b, path = args
    if path not in sys.path:
        sys.path.insert(0, path)
    first, second = play(seed, [a, b]), play(seed, [b, a])
    return score_for(first, 0) + score_for(second, 1), first["adjudicated"] + second["adjudicated"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commit", required=True)
    ap.add_argument("--a", required=True, help="spec for this checkout's agent")
    ap.add_argument("--b", required=True, help="spec for the commit's agent")
    ap.add_argument("--pairs", type=int, default=50)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            export(args.commit, Path(tmp))
        except subprocess.CalledProcessError as e:
            print(f"error: cannot export ai/ of {args.commit}: {e.stderr.decode().strip()}", file=sys.stderr)
            return 2
        jobs = [(derive_seed(args.seed, "pair", i), args.a, THEN + args.b, tmp) for i in range(args.pairs)]
        total, played, adjudicated, start = 0.0, 0, 0, time.perf_counter()
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for points, adj in pool.map(pair, jobs):
                total += points
                played += 2
                adjudicated += adj
                low, high = wilson(total, played)
                print(f"{args.a} vs {args.b} of {args.commit}: {total:g}/{played} = {total / played:.1%} "
                      f"(95% {low:.1%}-{high:.1%}), {adjudicated} adjudicated, "
                      f"{time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
