"""The game review's measures (issue 55): the same grades from two seeds, the time a review takes
against the time its match took to play, and the grades of the moves the puzzles name as mistakes.

    python -m lab.review_measures --games 6 --agent mcts:iters=300 --iters 1500 --record lab/runs/review/agree.jsonl
    python -m lab.review_measures --puzzles --seeds 3 --iters 1500 --record lab/runs/review/puzzles.jsonl

Each game is a self-play best of three of ``--agent`` (seeded ``--seed`` + k), reviewed for both seats
with review seeds 0 and 1 at ``--iters``; a line of the record per match: its decisions, how many got the
same grade from both seeds, the blunders of each, the review's seconds and the match's thinking seconds
(from the file).  A record goes on from the matches it holds.

``--puzzles``: each puzzle's position (``tests/data/puzzles``, seeds 0 to ``--seeds`` - 1) judged as the
review judges a decision (`matches.review.judge`), and each of its ``mistakes`` graded by the chance the
best of the moves it names loses against the preferred move; a line a puzzle and seed ("way": the
mistake is another way of a solving move, a discard for the wrong essence say).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import amigos
from ai.agents import make_agent
from amigos import actions as A
from amigos.config import GameConfig
from amigos.rng import derive_seed
from lab.puzzles import PUZZLES
from lab.run_report import say_build
from matches import review as R
from matches.match import Match, play
from matches.puzzles import load_puzzles, matches, position_of


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
            # (each decision's chance before and after by each seed; [] where both played the preferred move)
            "chances": [[a.before, a.after, b.before, b.after] if a.preferred or b.preferred else [] for a, b in pairs],
            "review_seconds": round(seconds, 1), "match_thinking_seconds": round(thought, 1)}


def puzzle(puzzle: dict[str, Any], seed: int, iters: int) -> dict[str, Any]:
    """One puzzle's mistakes graded from its position dealt with ``seed``: the record's line."""
    state = position_of(puzzle, seed)
    forms = [(a, amigos.action_json(state, a)) for a in state.legal_actions()]
    solving = {A.macro_key(a) for a, form in forms if any(matches(b, form) for b in puzzle["best"])}
    named = [[a for a, form in forms if matches(pattern, form)] for pattern in puzzle["mistakes"]]
    moves = list(dict.fromkeys(a for actions in named for a in actions))
    preferred, before, found = R.judge(state, state.current_player(), moves, iters,
                                      derive_seed(seed, "puzzle", puzzle["id"]))
    chance = dict(zip(moves, found))
    graded = []
    for pattern, actions in zip(puzzle["mistakes"], named):
        after = max(chance[a] for a in actions)  # (the best of the moves it names)
        grade = R.grade(max(0.0, before - after))
        graded.append({"pattern": pattern, "before": round(before, 4), "after": round(after, 4), "grade": grade,
                       "caught": grade in R.FAULTS, "way": any(A.macro_key(a) in solving for a in actions)})
    return {"id": puzzle["id"], "seed": seed, "preferred_solves": A.macro_key(preferred) in solving, "mistakes": graded}


def puzzles(seeds: int, iters: int, record: Path) -> None:
    done = [json.loads(line) for line in record.read_text().splitlines()] if record.exists() else []
    have = {(d["id"], d["seed"]) for d in done}
    for p in load_puzzles(PUZZLES):
        for seed in range(seeds):
            if not p["mistakes"] or (p["id"], seed) in have:
                continue
            line = puzzle(p, seed, iters)
            with record.open("a") as out:
                out.write(json.dumps(line) + "\n")
            done.append(line)
            print(json.dumps(line), flush=True)
    told = [m for d in done for m in d["mistakes"]]
    caught = sum(m["caught"] for m in told)
    ways = [m for m in told if m.get("way")]
    print(f"{caught} of {len(told)} known mistakes graded a mistake or a blunder ({100 * caught / max(1, len(told)):.1f}%; "
          f"of the {len(ways)} that are another way of a solving move, {sum(m['caught'] for m in ways)}); the "
          f"preferred move solves {sum(d['preferred_solves'] for d in done)} of {len(done)} positions")


def main(argv: list[str] | None = None) -> int:
    say_build()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--agent", default="mcts:iters=300")
    ap.add_argument("--iters", type=int, default=R.DEFAULT_ITERS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--record", type=Path, required=True)
    ap.add_argument("--puzzles", action="store_true", help="grade the puzzles' known mistakes instead")
    ap.add_argument("--seeds", type=int, default=3, help="with --puzzles: the deals of each position")
    args = ap.parse_args(argv)
    args.record.parent.mkdir(parents=True, exist_ok=True)
    if args.puzzles:
        puzzles(args.seeds, args.iters, args.record)
        return 0
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
