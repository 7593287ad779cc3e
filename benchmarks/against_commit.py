"""Today's agent against the agent of an earlier commit, on today's engine, in seat-swapped pairs.

    python benchmarks/against_commit.py --commit 14be741 --a mcts:time=0.25 --b mcts:time=0.25 --pairs 50

``--a`` is built by this checkout's `ai` package, ``--b`` by the `ai` package of ``--commit`` (taken
with ``git archive`` into a temporary directory and imported as ``ai_then``; it runs on this checkout's
`amigos`, so use it for commits whose `ai` needs nothing the engine has since dropped).  The deals and
agent seeds are those `strength.py` plays with the same ``--seed``; ``--first-pair`` and ``--record``
work as there (the records name B ``<commit>:<spec>``).  Prints a line after every pair and the 95%
Wilson interval.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # (an installed build, if any, first)

from ai.agents import make_agent  # noqa: E402
from ai.arena import strength  # noqa: E402
from run_report import add_sprt_options, final_lines, open_record, sprt_settings  # noqa: E402


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


class Then:
    """Builds an agent from a spec: by the earlier commit's `ai_then` (exported to ``path``) when the
    spec starts with ``prefix``, else by today's `ai`.  Picklable, so that worker processes can build
    agents too (each puts ``path`` on its own ``sys.path``)."""

    def __init__(self, path: str, prefix: str):
        self.path, self.prefix = path, prefix

    def __call__(self, spec: str, seed: int):
        if not spec.startswith(self.prefix):
            return make_agent(spec, seed=seed)
        if self.path not in sys.path:
            sys.path.insert(0, self.path)
        from ai_then.agents import make_agent as make_then
        return make_then(spec[len(self.prefix):], seed=seed)


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
        with tempfile.TemporaryDirectory() as tmp:
            try:
                export(args.commit, Path(tmp))
            except subprocess.CalledProcessError as e:
                print(f"error: cannot export ai/ of {args.commit}: {e.stderr.decode().strip()}", file=sys.stderr)
                return 2
            prefix = f"{args.commit}:"
            result = strength(args.a, prefix + args.b, 2 * args.pairs, jobs=args.jobs, seed=args.seed,
                              out=lambda line: print(line, flush=True), first=args.first_pair, record=record,
                              make=Then(tmp, prefix), sprt=sprt)
    finally:
        if record is not None:
            record.close()
    print("\n".join(final_lines(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
