"""``amigos bridge``: speak the conformance protocol, one JSON message per line on stdin/stdout."""

from __future__ import annotations

import sys


def bridge() -> None:
    """Answer protocol messages read line by line from stdin, until the session finishes."""
    from ai.expectimax import bridge_search
    from amigos.bridge import Bridge

    session = Bridge(search=bridge_search)
    for line in iter(sys.stdin.readline, ""):
        reply = session.handle_line(line)
        if reply is not None:
            sys.stdout.write(reply + "\n")
            sys.stdout.flush()
            if session.finished:
                break
