"""What the strength commands share: the ``--record`` file and the closing lines of a run.

Imported by ``strength.py`` and ``against_commit.py`` (a sibling module, found through the script's
directory on ``sys.path``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


class RecordFile:
    """A ``--record`` file opened for appending; calling it writes one pair record as a JSON line and
    flushes, so that a run stopped midway keeps every pair it finished.  Raises OSError if the file
    cannot be opened."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.sink = path.open("a", encoding="utf-8")

    def __call__(self, pair: dict) -> None:
        self.sink.write(json.dumps(pair) + "\n")
        self.sink.flush()

    def close(self) -> None:
        self.sink.close()


def open_record(path: Path | None) -> RecordFile | None:
    """The ``--record`` file of ``path`` (None without one); a file that cannot be written ends the
    command with a one-line error and exit code 2, before any game is played."""
    if path is None:
        return None
    try:
        return RecordFile(path)
    except OSError as e:
        print(f"error: cannot write {path}: {e.strerror}", file=sys.stderr)
        raise SystemExit(2) from None


def final_lines(result: dict) -> list[str]:
    """The two lines that close a run: the score with its 95% interval, and A's thinking time."""
    adjudicated = f"; {result['adjudicated']} adjudicated at the round limit" if result["adjudicated"] else ""
    score = (f"final: {result['a']} vs {result['b']}: {result['score']:g}/{result['games']} = {result['rate']:.1%} "
             f"(95% interval {result['low']:.1%}-{result['high']:.1%}) in {result['seconds']:.0f} s{adjudicated}")
    thought = (f"{result['a']} thought {result['a_seconds_per_choice']:.3f} s a decision on average "
               "(over decisions among two or more legal actions)")
    return [score, thought]
