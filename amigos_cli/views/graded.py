"""A reviewed decision in words (`matches.review.Graded`), as `amigos review` lists it and the replay's
banner and the web board tell it; a seat's win-chance graph as a line of bars."""

from __future__ import annotations

from collections.abc import Sequence

from matches.review import Graded

from .safe import printable

#: The steps of the win-chance graph, lowest first.
BARS = "▁▂▃▄▅▆▇█"


def graded_words(d: Graded) -> str:
    """"54% -> 41%  mistake; better: Use Hawk (54%) - gave up 2 points": the chance to win before and
    after the decision, its grade, the move the AI preferred and the reason, where there are any."""
    better = f"; better: {printable(d.preferred, 200)} ({100 * d.before:.0f}%)" if d.preferred else ""
    why = f" - {d.reason}" if d.reason else ""
    return f"{100 * d.before:.0f}% -> {100 * d.after:.0f}%  {d.grade}{better}{why}"


def graph(decisions: Sequence[Graded]) -> str:
    """The seat's chance to win before each of its decisions as a line of bars (▁ 0% to █ 100%)."""
    return "".join(BARS[min(len(BARS) - 1, int(d.before * len(BARS)))] for d in decisions)
