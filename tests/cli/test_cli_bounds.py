"""Counts and addresses out of bounds on the command line: one line and exit 2, never a traceback nor a
hang (issue 49, "elsewhere")."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

AMIGOS = [sys.executable, "-m", "amigos_cli"]


@pytest.mark.parametrize("command", [["play"], ["host"], ["serve"], ["tournament", "--agent", "random", "--agent", "greedy"]])
def test_a_count_of_players_too_large_for_any_integer_is_one_line(tmp_path, command):
    done = subprocess.run(AMIGOS + command + ["--players", "99999999999999999999"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "2 to 4 players" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_scheduler_address_where_something_silent_listens_is_one_line(tmp_path):
    pytest.importorskip("distributed")
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        port = listener.getsockname()[1]
        done = subprocess.run(AMIGOS + ["tournament", "--agent", "random", "--agent", "greedy", "--games", "2",
                                        "--scheduler", f"tcp://127.0.0.1:{port}", "--out", str(tmp_path / "t")],
                              capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "no Dask scheduler" in done.stderr
