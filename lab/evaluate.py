"""The AI's strength evaluation as one resumable command: the default agent against the agent before
the learned value (commit `PREVIOUS`) at 1 s and at 0.1 s a choice, how strength grows with think
time, and the 1 s agent against greedy and expectimax:depth=2.

    python -m lab.evaluate --out lab/results/eval-learned --jobs 2
    python -m lab.evaluate --out lab/results/eval-learned --only previous-1s,greedy
    python -m lab.evaluate --out lab/results/eval-learned --summary
    python -m lab.evaluate --out lab/results/eval-learned --scheduler tcp://HOST:8786

Budgets are iteration counts, so that a run is reproducible and not skewed by the machine's load:
``--iters-per-second`` is what the default agent searches in a second of a real game on this machine
and ``--previous-iters-per-second`` what the previous agent does (both measured by
``calibrate.py``).  Each matchup appends its pair records (`matches.arena.pair_record`) to
``OUT/<name>.jsonl``.  Run it again and a matchup goes on from the first pair it has not played, so
the evaluation can be stopped at any time (the pair in progress is played again) and spread over
sessions.  Ends with the table of every matchup that has records.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from lab.against_commit import Then
from lab.run_report import open_record
from matches.arena import strength, tally
from matches.runner import RunnerError

SEED = 11
PREVIOUS = "1088fd9"  # the default agent before the learned value (its own evaluation: 2,800 iterations/s)


def matchups(ips: int, previous_ips: int) -> dict[str, tuple[str, str, int]]:
    """Name -> (agent A, agent B, games) for agents thinking ``ips`` (today's) and ``previous_ips``
    (`PREVIOUS`'s) iterations a second."""
    def mcts(seconds: float) -> str:
        return f"mcts:iters={max(1, round(ips * seconds))}"

    def previous(seconds: float) -> str:
        return f"{PREVIOUS}:mcts:iters={max(1, round(previous_ips * seconds))}"

    return {
        "previous-1s": (mcts(1), previous(1), 200),
        "previous-0.1s": (mcts(0.1), previous(0.1), 60),
        "time-2-vs-0.25": (mcts(2), mcts(0.25), 100),
        "time-0.5-vs-0.25": (mcts(0.5), mcts(0.25), 100),
        "time-1-vs-0.5": (mcts(1), mcts(0.5), 100),
        "time-2-vs-1": (mcts(2), mcts(1), 100),
        "greedy": (mcts(1), "greedy", 100),
        "expectimax": (mcts(1), "expectimax:depth=2", 100),
    }


class Mismatch(Exception):
    pass


def recorded(path: Path, a: str, b: str) -> list[dict]:
    """The pair records already in ``path``; they must be of this matchup (same agents and seed)."""
    if not path.exists():
        return []
    records = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            r = json.loads(line)
            same = (r["a"], r["b"], r["seed"], r["variant"]) == (a, b, SEED, "standard")
        except (json.JSONDecodeError, KeyError, TypeError):
            raise Mismatch(f"{path}:{n}: not a pair record") from None
        if not same:
            raise Mismatch(f"{path}:{n}: a record of {r['a']} vs {r['b']} (seed {r['seed']}), "
                           f"not of {a} vs {b} (seed {SEED}); use another --out")
        records.append(r)
    return records


def next_pair(records: list[dict]) -> int:
    """The first pair not yet played (pairs are played in order, so this is where to go on)."""
    done = {r["pair"] for r in records}
    n = 0
    while n in done:
        n += 1
    return n


def summary_line(name: str, a: str, b: str, games: int, records: list[dict]) -> str:
    t = tally(records)
    per_choice = t["a_seconds_per_choice"]
    return (f"{name:<10} {a} vs {b}: {t['score']:g}/{t['games']} = {t['rate']:.1%} "
            f"(95% {t['low']:.1%}-{t['high']:.1%})"
            + (f", {per_choice:.2f} s a choice" if per_choice is not None else "")
            + (f", {t['adjudicated']} adjudicated" if t["adjudicated"] else "")
            + ("" if t["games"] >= games else f"  [{t['games']} of {games} games]"))


def main(argv: list[str] | None = None) -> int:
    from lab.run_report import say_build
    say_build()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="directory of the matchups' record files")
    ap.add_argument("--iters-per-second", type=int, required=True,
                    help="iterations that make today's 1 s agent (calibrate.py)")
    ap.add_argument("--previous-iters-per-second", type=int, default=2800,
                    help=f"iterations that make {PREVIOUS}'s 1 s agent (calibrate.py --commit {PREVIOUS})")
    ap.add_argument("--only", help="comma-separated matchups to play (default: all)")
    ap.add_argument("--games", type=int, help="games for each matchup played (default: its own)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--scheduler", help="play on the Dask cluster of this scheduler (tcp://HOST:8786), not --jobs")
    ap.add_argument("--summary", action="store_true", help="play nothing, only print the table")
    args = ap.parse_args(argv)
    table = matchups(args.iters_per_second, args.previous_iters_per_second)
    chosen = list(table) if not args.only else args.only.split(",")
    unknown = [name for name in chosen if name not in table]
    if unknown:
        print(f"error: no matchup {unknown[0]!r}; the matchups are {', '.join(table)}", file=sys.stderr)
        return 2
    try:
        make = Then(PREVIOUS, f"{PREVIOUS}:")
    except subprocess.CalledProcessError as e:
        print(f"error: cannot export ai/ of {PREVIOUS}: {e.stderr.decode().strip()}", file=sys.stderr)
        return 2
    try:
        for name in [] if args.summary else chosen:
            a, b, games = table[name]
            games = args.games or games
            path = args.out / f"{name}.jsonl"
            first = next_pair(recorded(path, a, b))
            if 2 * first >= games:
                continue
            print(f"{name}: {a} vs {b}, pairs {first}-{games // 2 - 1}", flush=True)
            record = open_record(path)
            try:
                strength(a, b, games - 2 * first, jobs=args.jobs, seed=SEED, first=first, record=record,
                         out=lambda line: print(f"  {line}", flush=True), make=make, scheduler=args.scheduler)
            finally:
                record.close()
        for name, (a, b, games) in table.items():
            records = recorded(args.out / f"{name}.jsonl", a, b)
            if records:
                print(summary_line(name, a, b, args.games or games, records))
    except (Mismatch, RunnerError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
