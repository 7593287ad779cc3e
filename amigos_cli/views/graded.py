"""A reviewed decision in words (`matches.review.Graded`), as `amigos review` lists it and the replay's
banner tells it."""

from __future__ import annotations

from matches.review import Graded

from .safe import printable


def graded_words(d: Graded) -> str:
    """"54% -> 41%  mistake; better: Use Hawk (54%) - gave up 2 points": the chance to win before and
    after the decision, its grade, the move the AI preferred and the reason, where there are any."""
    better = f"; better: {printable(d.preferred, 200)} ({100 * d.before:.0f}%)" if d.preferred else ""
    why = f" - {d.reason}" if d.reason else ""
    return f"{100 * d.before:.0f}% -> {100 * d.after:.0f}%  {d.grade}{better}{why}"
