"""Games per minute of one tournament on a 2-worker Dask LocalCluster and in 2 local processes
(``--jobs 2``), measured in the same run; the target is the cluster at 90% of the local rate or more.

    python -m lab.cluster_speed
    python -m lab.cluster_speed --agent mcts:iters=200 --agent greedy --games 16 --repeat 2

Each round plays the tournament into a fresh folder twice, with the two runners in turn (the first
of each round alternates, so neither always meets a machine warmed or loaded by the other), and
checks that both played the same games.  The cluster's workers import amigos before the clock
starts, as a cluster kept running between tournaments has.  Needs the cluster extra.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

from matches import tournament as T
from matches.runner import DaskRunner, ProcessRunner, Runner, import_distributed

WORKERS = 2  # worker processes of the cluster, and local processes (--jobs)
TARGET = 0.9  # the cluster's rate as a share of the local one


def timed(out: Path, runner: Runner, agents: list[str], games: int, seed: int) -> tuple[float, list[dict]]:
    """Seconds to play the tournament into ``out`` with ``runner``, and its outcomes by job id."""
    start = time.perf_counter()
    results = T.run(out, T.TournamentSpec(agents, games, seed), runner=runner)
    return time.perf_counter() - start, sorted(results, key=lambda r: r["id"])


def main(argv: list[str] | None = None) -> int:
    from lab.run_report import say_build
    say_build()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", action="append", help="an agent spec (default mcts:iters=100 and greedy)")
    ap.add_argument("--games", type=int, default=12, help="games per pairing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1, help="rounds, each playing the tournament both ways")
    args = ap.parse_args(argv)
    agents = args.agent or ["mcts:iters=100", "greedy"]
    distributed = import_distributed()
    seconds = {"cluster": 0.0, "local": 0.0}
    played = 0
    with distributed.LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=logging.CRITICAL) as cluster, \
            tempfile.TemporaryDirectory() as tmp:
        with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
            client.run(__import__, "matches.tournament")  # (warm workers)
        for round_ in range(args.repeat):
            order = ["cluster", "local"] if round_ % 2 == 0 else ["local", "cluster"]
            outcomes = {}
            for name in order:
                runner = DaskRunner(cluster.scheduler_address) if name == "cluster" else ProcessRunner(WORKERS)
                took, outcomes[name] = timed(Path(tmp) / f"{name}-{round_}", runner, agents, args.games, args.seed)
                seconds[name] += took
                print(f"round {round_ + 1}, {name}: {len(outcomes[name])} games in {took:.1f} s", flush=True)
            if outcomes["cluster"] != outcomes["local"]:
                print("error: the cluster and the local processes played different games", file=sys.stderr)
                return 1
            played += len(outcomes["local"])
    rate = {name: 60 * played / s for name, s in seconds.items()}
    ratio = rate["cluster"] / rate["local"]
    print(f"{' vs '.join(agents)}, {played} games each way: cluster ({WORKERS} workers) {rate['cluster']:.1f} "
          f"games/min, --jobs {WORKERS} {rate['local']:.1f} games/min; cluster/local = {ratio:.0%} "
          f"(target {TARGET:.0%}: {'met' if ratio >= TARGET else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
