"""The compiled build against the pure source, side by side in one run.

    python -m benchmarks.builds [--compiled-venv .venv-compiled] [--rounds 3] [--record DIR]

Measures, in the pure venv (this interpreter, whose ``amigos`` is the checkout) and in a venv holding
a compiled ``pip install .`` (made when missing), taking turns round by round so that the machine's
load falls on both alike: uniform-random play (decisions per CPU second), one ``clone()`` and one
``legal_actions()`` + ``apply_unchecked()`` step of a mid-game state (CPU microseconds), MCTS
iterations per CPU second in one process and per wall second with two root-parallel workers, and the
reference search bench's game 1 through the bridge (all 30 searches optimal, seconds).  Prints each
build's best round and the compiled/pure ratios; ``--record`` writes them as JSON.

``--measure`` is the child's mode: measure the build this interpreter imports and print JSON.  The
children run from the repository root as ``python -m benchmarks.builds --measure``: the pure one as it is
(the checkout first on its path), the compiled one with ``-P`` and the repository in its venv's
``amigos-lab.pth`` (after its installed packages: `lab/README.md`), which `compiled_venv` writes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import timeit
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KEY = ROOT / "spec" / "bench_answer_key.json"


def measure(with_bench: bool) -> dict[str, Any]:
    """This interpreter's build, measured."""
    import amigos
    from ai.agents import make_agent
    from benchmarks.bench_positions import mid_game, random_game

    out: dict[str, Any] = {"compiled": amigos.COMPILED, "from": str(Path(amigos.__file__ or "").parent)}
    random_game(0)  # (the card steps' caches fill in a first game)
    start, decisions = time.process_time(), 0
    for seed in range(1, 101):
        decisions += random_game(seed)
    out["random_play_per_s"] = decisions / (time.process_time() - start)

    mid = mid_game()
    n = 20000
    out["clone_us"] = min(timeit.repeat(mid.clone, number=n, repeat=5, timer=time.process_time)) / n * 1e6
    clones = [mid.clone() for _ in range(5000)]

    def step() -> None:
        s = clones.pop()
        s.apply_unchecked(s.legal_actions()[0])
    out["step_us"] = timeit.timeit(step, number=5000, timer=time.process_time) / 5000 * 1e6

    make_agent("mcts:iters=300,seed=1").select(mid)
    one = make_agent("mcts:iters=3000,seed=1")
    start = time.process_time()
    one.select(mid)  # (it may stop early once no other move can catch the best: count what it did)
    out["mcts_per_s"] = one.info["iterations"] / (time.process_time() - start)
    two = make_agent("mcts:iters=6000,workers=2,seed=1")
    two.select(mid)  # (the workers start)
    start = time.perf_counter()
    two.select(mid)
    out["mcts_2_workers_per_s"] = two.info["iterations"] / (time.perf_counter() - start)
    two.close()

    if with_bench:
        from benchmarks.bench_search import InProcess, run
        key = json.loads(KEY.read_text())
        bench = run(key, InProcess(), 1, out=lambda line: None)
        out["bench_game1_s"] = bench["seconds"]
        out["bench_game1_optimal"] = f"{bench['correct']}/{bench['searches']}"
    return out


def compiled_venv(path: Path) -> Path:
    """The compiled venv's python (made when missing), with the checkout as it is now installed into it
    (``pip install .``, again on every run: a venv compiled from older source would measure that) and
    the repository in its ``amigos-lab.pth``, so that ``python -P -m benchmarks.builds`` finds the lab."""
    python = path / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(ROOT)],
                   check=True)
    site = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"], check=True,
                          capture_output=True, text=True).stdout.strip()
    (Path(site) / "amigos-lab.pth").write_text(f"{ROOT}\n")
    return python


def source() -> str:
    """The commit measured, and whether the checkout differed from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True).stdout.strip()
    return git("rev-parse", "--short", "HEAD") + (" with local changes" if git("status", "--porcelain",
                                                                               "--untracked-files=no") else "")


def child(python: Path, with_bench: bool, installed: bool) -> dict[str, Any]:
    """One measurement in a fresh interpreter run from the repository root: of the checkout, or with
    ``installed`` of the build installed in ``python``'s venv (``-P``: the checkout is not first)."""
    command = [str(python), *(["-P"] if installed else []), "-m", "benchmarks.builds", "--measure",
               *([] if with_bench else ["--no-bench"])]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return json.loads(done.stdout)


BEST = {"random_play_per_s": max, "clone_us": min, "step_us": min, "mcts_per_s": max,
        "mcts_2_workers_per_s": max, "bench_game1_s": min}
LABELS = {"random_play_per_s": "random play, decisions/CPU s", "clone_us": "clone(), CPU us",
          "step_us": "legal_actions() + apply, CPU us", "mcts_per_s": "MCTS iterations/CPU s, 1 process",
          "mcts_2_workers_per_s": "MCTS iterations/s, 2 workers", "bench_game1_s": "search bench game 1, s"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compiled-venv", type=Path, default=ROOT / ".venv-compiled")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--record", type=Path, default=None, help="write the results as DIR/builds-<time>.json")
    ap.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--no-bench", action="store_true", help="skip the search bench (no ../shared)")
    args = ap.parse_args(argv)
    with_bench = not args.no_bench and KEY.exists()
    if args.measure:
        print(json.dumps(measure(with_bench)))
        return 0
    builds = {"pure": Path(sys.executable), "compiled": compiled_venv(args.compiled_venv)}
    rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in builds}
    for r in range(args.rounds):
        for name, python in builds.items():
            rounds[name].append(child(python, with_bench, installed=name == "compiled"))
            print(f"round {r + 1} {name}: {json.dumps(rounds[name][-1])}", file=sys.stderr)
    if rounds["pure"][0]["compiled"] or not rounds["compiled"][0]["compiled"]:
        print("error: the two venvs are not a pure and a compiled build", file=sys.stderr)
        return 2
    best = {name: {k: pick(m[k] for m in rounds[name]) for k, pick in BEST.items() if k in rounds[name][0]}
            for name in builds}
    print(f"{'':36} {'pure':>10} {'compiled':>10} {'ratio':>7}")
    for k, label in LABELS.items():
        if k in best["pure"]:
            p, c = best["pure"][k], best["compiled"][k]
            ratio = c / p if BEST[k] is max else p / c
            print(f"{label:36} {p:10,.2f} {c:10,.2f} {ratio:6.2f}x")
    if with_bench:
        print(f"search bench game 1 optimal: pure {rounds['pure'][0]['bench_game1_optimal']}, "
              f"compiled {rounds['compiled'][0]['bench_game1_optimal']}")
    if args.record:
        args.record.mkdir(parents=True, exist_ok=True)
        path = args.record / time.strftime("builds-%Y%m%d-%H%M%S.json")
        path.write_text(json.dumps({"source": source(), "rounds": rounds, "best": best}, indent=1) + "\n")
        print(f"recorded in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
