"""The proof behind the puzzle ``discard-egg-for-calm-1``, run to the end: every first move of the AI
in the play-test position (``tests/data/p202.amigos``, game 1 after 63 decisions, round 5) searched
to the end of the round, the rival playing its recorded moves, every chance outcome (minutes).

    python -m lab.egg_proof [--moves "Bone Dragon" | --skip "Bone Dragon"] [--out winning.json]

The search (`Proof`, its bound on our points and its cuts) is ``tests/ai/test_egg_proof.py``'s, which
checks it on a winning line.  Prints each first move with whether it wins, and the count.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from amigos import action_json
from amigos.position import build_position
from tests.ai.test_egg_proof import Proof, load


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", default="", help="only the first moves whose protocol form holds this text")
    parser.add_argument("--skip", default=None, help="leave out the first moves whose protocol form holds this text")
    parser.add_argument("--out", type=Path, help="write [[first move, wins], ...] here as JSON")
    args = parser.parse_args(argv)
    position, script = load()
    root = build_position(**position, seed=0).clone_offering_chance()
    proof = Proof(root, script)
    start = time.perf_counter()
    results: list[tuple[dict[str, Any], bool]] = []
    for action in root.legal_actions():
        step = action_json(root, action)
        if args.moves not in json.dumps(step) or (args.skip is not None and args.skip in json.dumps(step)):
            continue
        child = root.clone()
        child.apply(action)
        won = proof.wins(child, 0)
        results.append((step, won))
        print("WIN " if won else "loss", json.dumps(step), f"({proof.nodes} positions, "
              f"{time.perf_counter() - start:.0f} s)", flush=True)
    print(f"{sum(w for _, w in results)} of {len(results)} first moves win")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
