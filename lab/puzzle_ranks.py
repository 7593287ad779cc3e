"""How the learned value alone ranks each puzzle's best move: the value for the mover of the position
after every legal action (no search), and the rank of the best move's among them (0: the top).

    python -m lab.puzzle_ranks
    python -m lab.puzzle_ranks --record lab/results/puzzles/ranks.json

A puzzle whose best move the value ranks first but the search misses is lost by the search; one whose
best move it ranks low is found by the search or not at all.  Compared with `puzzles.py`'s results
this tells which of the two a change should work on.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import amigos
from ai.evaluator import packaged_model
from ai.rewards import learned_rewards
from lab.puzzles import PUZZLES
from matches.puzzles import is_best, load_puzzles, position_of


def ranks(puzzle: dict) -> dict:
    """{"id", "rank", "moves", "best_value", "top_value", "top_move"} for ``puzzle`` (seed 0)."""
    state = position_of(puzzle, 0)
    p = state.current_player()
    rows = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        rows.append((learned_rewards(after, packaged_model())[p], is_best(puzzle, state, action), amigos.action_text(state, action)))
    rows.sort(key=lambda r: -r[0])
    rank = next(i for i, r in enumerate(rows) if r[1])
    return {"id": puzzle["id"], "rank": rank, "moves": len(rows), "best_value": round(rows[rank][0], 4),
            "top_value": round(rows[0][0], 4), "top_move": rows[0][2]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", type=Path, help="write the ranks here as JSON")
    args = ap.parse_args(argv)
    results = [ranks(p) for p in load_puzzles(PUZZLES)]
    for r in results:
        print(f"{r['id']:<42} rank {r['rank']:>3} of {r['moves']:>3}  best {r['best_value']:.3f}"
              f"  top {r['top_value']:.3f} {r['top_move'][:50]}")
    first = sum(r["rank"] == 0 for r in results)
    print(f"the learned value ranks the best move first in {first} of {len(results)} puzzles "
          f"= {first / len(results):.0%}")
    if args.record:
        args.record.write_text(json.dumps({"first": first, "total": len(results), "results": results},
                                          indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
