"""The puzzle suite: the fraction of its puzzles (``tests/data/puzzles/``) an agent solves.

    python -m lab.puzzles --agent mcts:time=1 --jobs 2
    python -m lab.puzzles --agent mcts:time=1 --only ring-of-midas-order-1 --seeds 3
    python -m lab.puzzles --agent mcts:time=1 --commit 1088fd9    # the agent of an earlier commit

A puzzle is a position from a real game with the move a strong player makes (its format:
`matches.puzzles`).  The agent to move plays the position and solves the puzzle when its move matches
one of the puzzle's ``best`` patterns.  With ``--seeds K`` every puzzle is played K times with
different agent seeds and counts the fraction solved.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from ai.agents import SpecError, make_agent, parse_spec
from lab.run_report import say_build
from matches.puzzles import load_puzzles, score

#: The suite's puzzles (the tests check every one: tests/ai/test_puzzles.py).
PUZZLES = Path(__file__).resolve().parents[1] / "tests" / "data" / "puzzles"


def main(argv: list[str] | None = None) -> int:
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
        puzzles = load_puzzles(PUZZLES)
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
        from lab.against_commit import Then
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
