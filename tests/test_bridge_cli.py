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
