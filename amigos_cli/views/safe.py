"""Text from a file made safe for the terminal: control characters (escape sequences that clear the
screen or move the cursor, C1 controls, bidirectional overrides) shown escaped, never sent raw."""

from __future__ import annotations

import unicodedata
from typing import Any

#: The longest name shown; a longer one is cut with an ellipsis (a file may hold any text).
MAX_SHOWN = 80


def printable(text: object, limit: int | None = MAX_SHOWN) -> str:
    """``text`` with every control or format character written as ``\\x1b`` / ``\\u202e``, and cut
    to ``limit`` characters (None: not cut)."""
    out = []
    for ch in str(text):
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    shown = "".join(out)
    return shown if limit is None or len(shown) <= limit else shown[:limit - 1] + "…"


def player_names(record: dict[str, Any]) -> list[str]:
    """The players' names of a match record, safe to show."""
    return [printable(p["name"]) for p in record["players"]]


def short_names(names: list[str]) -> list[str]:
    """The players' names without their agent specs ("AI (mcts:time=1.0)" -> "AI"), where that keeps
    them apart: for lines that repeat them (the board's, a replay's list of moves)."""
    short = [n.split(" (")[0] for n in names]
    return short if len(set(short)) == len(short) else list(names)
