"""The console a command prints to."""

from __future__ import annotations

import os
import sys
from typing import Final

from rich.console import Console

#: Columns of output into a pipe or a file, where Rich would assume 80 and wrap a board's lines.
PIPED_WIDTH: Final = 160


def stdout_console() -> Console:
    """A console on standard output: the terminal's width in a terminal; into a pipe or a file,
    ``COLUMNS`` if set, else `PIPED_WIDTH`."""
    piped = not sys.stdout.isatty() and "COLUMNS" not in os.environ
    return Console(width=PIPED_WIDTH if piped else None)
