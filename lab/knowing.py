"""What knowing the rival's artifacts is worth: a search told which artifacts the rival holds against
the same search not told, at equal iterations, in seat-swapped pairs.

    python -m lab.knowing --spec mcts:iters=1000 --games 200 --jobs 2 --seed 61 --sprt 0,30 --record R

The told side (`Told`) searches a copy of each position in which the rival's artifacts in hand and deck
are among the cards its player knows to be the rival's (``known_decks``, as in games 2 and 3 of a match):
every world it deals holds the rival's real artifacts, in hand or deck at random; deck orders, the
monument deck and the rival's choices to come stay as unknown as ever.  A diagnostic that is never
landed: its gap is what a predictor of the rival's cards (issue 51) could win at most.  The deals,
agent seeds and records are `lab/strength.py`'s with the same ``--seed``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ai.agents import make_agent
from amigos.codes import DECK, HAND
from amigos.state import GameState
from lab.earlier import Adapted
from lab.run_report import add_sprt_options, final_lines, open_record, sprt_settings
from matches.arena import strength

PREFIX = "told:"  # a spec's prefix for the side told the rival's artifacts


class Told(Adapted):
    """An agent that decides as ``player`` would in a copy of the position where it knows the rival's
    artifacts (see the module docstring); its ``info`` and the rest are ``player``'s (`lab.earlier.Adapted`)."""

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> tuple:
        action: tuple = self.player.select(told(state, state.current_player()))
        return action


def told(state: GameState, player: int) -> GameState:
    """A copy of ``state`` where ``player`` knows which artifacts every rival holds in hand and deck."""
    copy = state.clone()
    held = {copy.cards[e].id for e in range(copy.n_art) if copy.owner[e] != player and copy.loc[e] in (HAND, DECK)}
    copy.known_decks = tuple(known | held if p == player else known for p, known in enumerate(copy.known_decks))
    return copy


def make(spec: str, seed: int | None = None) -> Any:
    """``make_agent``, a `Told` one for a spec starting with `PREFIX` (picklable by reference)."""
    if spec.startswith(PREFIX):
        return Told(make_agent(spec[len(PREFIX):], seed=seed))
    return make_agent(spec, seed=seed)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default="mcts:iters=1000", help="the search, on both sides")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=61)
    ap.add_argument("--first-pair", type=int, default=0)
    ap.add_argument("--record", type=Path)
    add_sprt_options(ap)
    args = ap.parse_args(argv)
    record = open_record(args.record)
    from lab.knowing import make as builder  # (by its module's name, not __main__'s: worker processes import it)
    try:
        result = strength(PREFIX + args.spec, args.spec, args.games, jobs=args.jobs, seed=args.seed,
                          out=lambda line: print(line, flush=True), first=args.first_pair, record=record,
                          make=builder, sprt=sprt_settings(args))
    finally:
        if record is not None:
            record.close()
    for line in final_lines(result):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
