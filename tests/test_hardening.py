"""Hardening, round two: agent specs in match files, parallel search on either build, full disks, long
names, file modes, stated facts compared, and names printed safely.  Each case answers in one line with
exit 2 (or works), and loses nothing."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from matches.match import Match
from matches.record import pack, read_record, save

ENV = dict(os.environ, PYTHONHASHSEED="0", COLUMNS="100")


def amigos(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "amigos_cli", *args], cwd=cwd, env=ENV, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def one_line_refusal(result: subprocess.CompletedProcess, *fragments: str) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("amigos: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def unfinished(path: Path, decisions: int = 6, specs: tuple[str, str] = ("random", "random")) -> Match:
    """A match of ``decisions`` random decisions saved to ``path``."""
    match = Match.new(5, list(specs))
    rng = random.Random(1)
    for _ in range(decisions):
        match.to_act()
        match.decide(rng.choice(match.state.legal_actions()))
    save(match, path)
    return match


@pytest.mark.parametrize("spec, bound", [("mcts:time=nan", "finite"), ("mcts:iters=1e12", "10000000"),
                                         ("mcts:c=nan", "finite"), ("expectimax:depth=1e6", "to 5")])
def test_a_match_file_with_a_bad_agent_spec_is_refused_at_resume(tmp_path, spec, bound):
    unfinished(tmp_path / "ok.amigos")
    record = read_record(tmp_path / "ok.amigos")
    record["players"][1]["spec"] = spec
    (tmp_path / "bad.amigos").write_bytes(pack(record))
    before = (tmp_path / "bad.amigos").read_bytes()
    one_line_refusal(amigos("resume", "bad.amigos", cwd=tmp_path, timeout=10), bound)
    assert (tmp_path / "bad.amigos").read_bytes() == before
