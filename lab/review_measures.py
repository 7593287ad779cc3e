"""The game review's measures (issue 55): the same grades from two seeds, and the time a review takes
against the time its match took to play.

    python -m lab.review_measures --games 6 --agent mcts:iters=300 --iters 1500 --record lab/runs/review/agree.jsonl

Each game is a self-play best of three of ``--agent`` (seeded ``--seed`` + k), reviewed for both seats
with review seeds 0 and 1 at ``--iters``; a line of the record per match: its decisions, how many got the
same grade from both seeds, the blunders of each, the review's seconds and the match's thinking seconds
(from the file).  A record goes on from the matches it holds.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ai.agents import make_agent
from amigos.config import GameConfig
from lab.run_report import say_build
from matches import review as R
from matches.match import Match, play


def one(seed: int, agent: str, iters: int) -> dict[str, object]:
    """One self-play best of three reviewed twice: the record's line."""
    match = Match.new(seed, [agent, agent], GameConfig(), fmt="match")
    play(match, [make_agent(agent, seed=2 * seed), make_agent(agent, seed=2 * seed + 1)])
    record = match.record
    thought = sum(d[2] for g in record["games"] for d in g["decisions"]) / 1000.0
    start = time.perf_counter()
    first = R.review(record, [0, 1], iters, seed=0)
    seconds = time.perf_counter() - start
    second = R.review(record, [0, 1], iters, seed=1)
    pairs = list(zip(first.decisions, second.decisions))
    return {"seed": seed, "decisions": len(pairs), "alike": sum(a.grade == b.grade for a, b in pairs),
            "blunders": [[[a.game, a.index] for a in first.decisions if a.grade == R.BLUNDER],
                         [[b.game, b.index] for b in second.decisions if b.grade == R.BLUNDER]],
            "review_seconds": round(seconds, 1), "match_thinking_seconds": round(thought, 1)}


def main(argv: list[str] | None = None) -> int:
    say_build()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--agent", default="mcts:iters=300")
    ap.add_argument("--iters", type=int, default=R.DEFAULT_ITERS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--record", type=Path, required=True)
    args = ap.parse_args(argv)
    args.record.parent.mkdir(parents=True, exist_ok=True)
    done = [json.loads(line) for line in args.record.read_text().splitlines()] if args.record.exists() else []
    for k in range(len(done), args.games):
        line = one(args.seed + k, args.agent, args.iters)
        with args.record.open("a") as out:
            out.write(json.dumps(line) + "\n")
        done.append(line)
        print(json.dumps(line), flush=True)
    decisions = sum(int(d["decisions"]) for d in done)
    alike = sum(int(d["alike"]) for d in done)
    print(f"{alike} of {decisions} decisions graded alike by two seeds ({100 * alike / max(1, decisions):.1f}%); "
          f"review {sum(float(d['review_seconds']) for d in done):.0f} s against the matches' thinking "
          f"{sum(float(d['match_thinking_seconds']) for d in done):.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
