"""JSON text from outside (a file, a protocol line) parsed within bounds: at most `MAX_DEPTH` levels of
nesting (deeper text would exhaust the parser's recursion) and no ``NaN`` or ``Infinity`` constants,
which no value we read may hold.  Standard library only: the bridge in `amigos` uses it too."""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

MAX_DEPTH = 32
_BRACKETS = re.compile(r"[\[\]{}]")


def depth(text: str) -> int:
    """How deep the brackets of JSON ``text`` nest, counting those inside strings too: a quick guard,
    not a parser (`loads` still catches the parser's recursion limit)."""
    steps = (1 if char in "[{" else -1 for char in _BRACKETS.findall(text))
    return max(accumulate(steps), default=0)


def loads(text: str) -> Any:
    """The value of JSON ``text``; `ValueError` with a short reason if it is not JSON (the parser's
    own `json.JSONDecodeError`), nests deeper than `MAX_DEPTH` or holds a non-finite constant."""
    if depth(text) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # (closing brackets inside a string can hide depth from `depth`)
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a file may hold")
