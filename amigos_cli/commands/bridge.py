"""``amigos bridge``: speak the conformance protocol, one JSON message per line on stdin/stdout."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import TextIO

MAX_LINE = 16 << 20  # characters in one request: a whole game's setup is a few kilobytes


def requests(stream: TextIO) -> Iterator[str | None]:
    """Each line of ``stream``; None for a line longer than `MAX_LINE`, whose rest is read and dropped."""
    while line := stream.readline(MAX_LINE + 1):
        if len(line) <= MAX_LINE or line.endswith("\n"):
            yield line
            continue
        while (rest := stream.readline(MAX_LINE)) and not rest.endswith("\n"):
            pass
        yield None


def bridge() -> None:
    """Answer protocol messages read line by line from stdin, until the session finishes."""
    from ai.expectimax import bridge_search
    from amigos.bridge import Bridge

    session = Bridge(search=bridge_search)
    for line in requests(sys.stdin):
        if line is None:
            reply: str | None = json.dumps({"error": f"Invalid JSON: a line longer than {MAX_LINE} characters"})
        else:
            reply = session.handle_line(line)
        if reply is not None:
            sys.stdout.write(reply + "\n")
            sys.stdout.flush()
            if session.finished:
                break
