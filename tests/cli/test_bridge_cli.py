"""``amigos bridge``: the stdin/stdout loop around the engine's ``amigos.bridge.Bridge``.

The engine's Bridge is replaced by a stub here, so this tests only the command's loop.
"""

from __future__ import annotations

import sys
import types

from typer.testing import CliRunner

from amigos_cli.app import app


class StubBridge:
    def __init__(self, search=None):
        self.search = search
        self.finished = False
        self.seen = []

    def handle_line(self, line):
        self.seen.append(line)
        text = line.strip()
        if text == "quiet":
            return None
        if text == "bye":
            self.finished = True
        return f"echo:{text}"


def test_bridge_replies_line_by_line_and_stops_when_finished(monkeypatch):
    monkeypatch.setitem(sys.modules, "amigos.bridge", types.SimpleNamespace(Bridge=StubBridge))
    result = CliRunner().invoke(app, ["bridge"], input="a\nquiet\nb\nbye\nafter\n")
    assert result.exit_code == 0, result.output
    assert result.stdout == "echo:a\necho:b\necho:bye\n"


def test_bridge_ends_at_end_of_input(monkeypatch):
    monkeypatch.setitem(sys.modules, "amigos.bridge", types.SimpleNamespace(Bridge=StubBridge))
    result = CliRunner().invoke(app, ["bridge"], input="a\nb")
    assert result.exit_code == 0, result.output
    assert result.stdout == "echo:a\necho:b\n"


def _real_bridge(lines: str) -> list[dict]:
    """The replies of a real ``amigos bridge`` process to ``lines``."""
    import json
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "amigos_cli", "bridge"], input=lines, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_deeply_nested_line_gets_an_error_reply_and_the_session_goes_on():
    deep = "[" * 100_000 + "]" * 100_000
    hidden = '["' + "]" * 5000 + '", ' + "[" * 5000 + "]" * 5000 + "]"  # brackets in a string hide depth
    replies = _real_bridge(f"{deep}\n{hidden}\n{{\"cmd\": \"get_state\"}}\n{{\"cmd\": \"quit\"}}\n")
    assert replies[0] == {"error": "Invalid JSON: nested more than 32 deep"}
    assert replies[1] == {"error": "Invalid JSON: nested more than 32 deep"}
    assert replies[2] == {"error": "get_state failed: No active session"}
    assert replies[3] == {"status": "ok"}


def test_a_line_longer_than_the_limit_is_dropped_with_an_error(monkeypatch):
    import io

    from amigos_cli.commands import bridge as B

    monkeypatch.setattr(B, "MAX_LINE", 10)
    lines = list(B.requests(io.StringIO("short\n" + "x" * 35 + "\n" + "0123456789\n" + "end")))
    assert lines == ["short\n", None, "0123456789\n", "end"]
