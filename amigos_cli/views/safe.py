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


def short_names(record: dict[str, Any]) -> list[str]:
    """`player_names` without the agent spec a name ends with ("Player 2 (mcts:time=1.0)" -> "Player 2"),
    for lines that repeat them; the full names where the short ones would be the same."""
    names = player_names(record)
    short = [name.removesuffix(f" ({printable(p['spec'])})") or name for name, p in zip(names, record["players"])]
    return short if len(set(short)) == len(short) else names
