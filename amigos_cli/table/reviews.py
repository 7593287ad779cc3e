"""A finished table's review (`matches.review`), offered to every seat of a person: computed once for all
of them when the first asks, off the event loop, and kept beside the table's file (``FILE.review``, with
the file's own mode), so that ``amigos review FILE`` opens it at once too.

Each seat is sent its own decisions only (`review_view`): the review of a seat is searched from that
seat's information, and its words (the AI's preferred move) can name the seat's own hand.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, Final

from matches.review import BLUNDER, DEFAULT_ITERS, FAULTS, GRADES, MARKS, Review, accuracy, review_file, turning_point

from ..views.graded import graded_words
from .model import Table

#: Processes a table's review searches on (at most the machine's cores).
REVIEW_JOBS: Final = 2


class ReviewStopped(Exception):
    """The table stopped while its review was being computed (raised in the review's thread)."""


def review_view(result: Review, seat: int) -> dict[str, Any]:
    """What ``seat`` is sent of the table's review: for each game, its accuracy, each grade's count, the
    turning point and every decision of the seat's (its words, chance before and after, grade, mark)."""
    games = []
    for game in sorted({d.game for d in result.decisions}):
        mine = result.of(seat, game)
        if not mine:
            continue
        worst = turning_point(mine)
        games.append({
            "game": game, "accuracy": round(accuracy(mine)),
            "counts": {name: sum(d.grade == name for d in mine) for name in [*(g for g, _ in GRADES), BLUNDER]},
            "turning": worst.index if worst is not None else None,
            "decisions": [{"index": d.index, "played": d.played, "before": d.before, "after": d.after,
                           "grade": d.grade, "mark": MARKS.get(d.grade, ""), "fault": d.grade in FAULTS,
                           "words": graded_words(d)} for d in mine],
        })
    return {"type": "review", "seat": seat, "iters": result.iters, "games": games}


class TableReview:
    """The review of ``table``'s finished match for the seats of its people, searched with ``iters``
    iterations a decision on `REVIEW_JOBS` processes: `compute` (blocking: run it off the event loop)
    once; `stop` ends a computation under way at its next decision."""

    def __init__(self, table: Table, iters: int = DEFAULT_ITERS, jobs: int = REVIEW_JOBS) -> None:
        self.table = table
        self.iters = iters
        self.jobs = max(1, min(jobs, os.cpu_count() or 1))
        self.result: Review | None = None
        self.done = 0  # decisions searched so far, of `total`
        self.total = 0
        self.stopping = threading.Event()

    def seats(self) -> list[int]:
        """The seats reviewed: each one a person was given a link to (an agent's seat since, too)."""
        return [seat for seat, token in enumerate(self.table.tokens) if token is not None]

    def compute(self, progress: Callable[[int, int], None]) -> Review:
        """The review, kept beside the table's file (or the one kept there already, if it still holds);
        ``progress(done, total)`` as decisions are searched.  Raises `ReviewStopped` after `stop`."""
        def searched(done: int, total: int) -> None:
            if self.stopping.is_set():
                raise ReviewStopped()
            self.done, self.total = done, total
            progress(done, total)

        result, _ = review_file(self.table.path, self.table.match.record, self.seats(), self.iters,
                                progress=searched, jobs=self.jobs)
        self.result = result
        return result

    def stop(self) -> None:
        self.stopping.set()
