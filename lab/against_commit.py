"""Today's agent against the agent of an earlier commit, on today's engine, in seat-swapped pairs.

    python -m lab.against_commit --commit 14be741 --a mcts:time=0.25 --b mcts:time=0.25 --pairs 50

``--a`` is built by this checkout's `ai` package, ``--b`` by the `ai` package of ``--commit`` (taken
with ``git archive`` and imported as ``ai_then``: `lab.earlier`; it runs on this checkout's `amigos`,
so use it for commits whose `ai` needs nothing the engine has since dropped).  The deals and
agent seeds are those `strength.py` plays with the same ``--seed``; ``--first-pair`` and ``--record``
work as there (the records name B ``<commit>:<spec>``).  Prints a line after every pair and the 95%
Wilson interval.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from lab.earlier import EarlierAgents
from lab.run_report import add_sprt_options, final_lines, open_record, sprt_settings
from matches.arena import strength

ROOT = Path(__file__).resolve().parents[1]


def archive(commit: str) -> bytes:
    """``commit``'s `ai` package as a tar archive (``git archive``), which `Then` carries to every
    process that builds agents."""
    return subprocess.run(["git", "-C", str(ROOT), "archive", commit, "ai"], check=True,
                          capture_output=True).stdout


def Then(commit: str, prefix: str) -> EarlierAgents:
    """The agent builder of a run against ``commit``: specs starting with ``prefix`` by its `ai`
    (`lab.earlier`), the others by today's; raises CalledProcessError if git cannot archive it."""
    return EarlierAgents(archive(commit), prefix)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commit", required=True)
    ap.add_argument("--a", required=True, help="spec for this checkout's agent")
    ap.add_argument("--b", required=True, help="spec for the commit's agent")
    ap.add_argument("--pairs", type=int, default=50)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--first-pair", type=int, default=0, help="play the deals from this pair on")
    ap.add_argument("--record", type=Path, help="append each pair's result to this file as a JSON line")
    add_sprt_options(ap)
    args = ap.parse_args(argv)
    sprt = sprt_settings(args)
    record = open_record(args.record)
    try:
        prefix = f"{args.commit}:"
        try:
            make = Then(args.commit, prefix)
        except subprocess.CalledProcessError as e:
            print(f"error: cannot export ai/ of {args.commit}: {e.stderr.decode().strip()}", file=sys.stderr)
            return 2
        result = strength(args.a, prefix + args.b, 2 * args.pairs, jobs=args.jobs, seed=args.seed,
                          out=lambda line: print(line, flush=True), first=args.first_pair, record=record,
                          make=make, sprt=sprt)
    finally:
        if record is not None:
            record.close()
    print("\n".join(final_lines(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
