"""Today's agent in one seat of a table of three or more, an earlier commit's agent in the others, every
seat in turn: does it win more than its share?

    python -m lab.seat_against_commit --commit 5dc9dbd --a mcts:iters=300 --b mcts:iters=300 --players 3 --deals 40

Each deal is played once with today's agent (``--a``) in each seat, the earlier commit's (``--b``, its
`ai` package taken with ``git archive``: `lab.earlier`; without ``--commit``, today's) in all the others, so that every seat's luck is
shared out alike.  Today's agent scores 1 for a win, 1/k for a win shared by k, 0 otherwise; its share is
printed after every deal with the 95% Wilson interval, beside the fair share 1/players.  ``--record``
appends each deal's games as a JSON line, and a run given the same record goes on with the deals it
lacks.  ``--lux`` deals with *Lux et Tenebrae* (five players need it anyway).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ai.agents import make_agent
from amigos.config import GameConfig, needed_expansions
from amigos.rng import derive_seed
from lab.against_commit import Then
from matches.arena import seat_deal, seat_points, wilson
from matches.runner import open_runner


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commit", help="the earlier commit whose agent --b is (default: today's, as --a)")
    ap.add_argument("--a", required=True, help="today's agent")
    ap.add_argument("--b", required=True, help="the commit's agent, in every other seat")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=71)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--record", type=Path)
    ap.add_argument("--lux", action="store_true", help="play with Lux et Tenebrae (five players always do)")
    args = ap.parse_args(argv)
    prefix = f"{args.commit}:" if args.commit else ""
    make = Then(args.commit, prefix) if args.commit else make_agent
    expansions = ("lux",) if args.lux else needed_expansions(args.players)
    config = GameConfig(expansions=expansions, players=args.players)
    done: dict[int, list[dict[str, Any]]] = {}
    if args.record is not None and args.record.exists():
        for line in args.record.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            done[entry["deal"]] = entry["games"]
    sink = args.record.open("a", encoding="utf-8") if args.record is not None else None
    try:
        with open_runner(args.jobs) as runner:
            for d in range(args.deals):
                if d not in done:
                    runner.submit(str(d), seat_deal, derive_seed(args.seed, "deal", d), config, args.a,
                                  prefix + args.b, make)
            for key, games in runner.as_completed():
                done[int(key)] = games
                if sink is not None:
                    sink.write(json.dumps({"deal": int(key), "games": games}) + "\n")
                    sink.flush()
                points, played = sum(seat_points(g) for g in done.values()), args.players * len(done)
                low, high = wilson(points, played)
                print(f"{args.a} in one seat of {args.players} against {prefix}{args.b}: {points:g}/{played} = "
                      f"{points / played:.1%} (95% {low:.1%}-{high:.1%}; fair share {1 / args.players:.1%}), "
                      f"{len(done)} deals", flush=True)
    finally:
        if sink is not None:
            sink.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
