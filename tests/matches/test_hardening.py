"""Hardening, round two: agent specs in match files, parallel search on either build, full disks, long
names, file modes, stated facts compared, and names printed safely.  Each case answers in one line with
exit 2 (or works), and loses nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from matches.match import Match
from matches.record import pack, read_record, save
from tests.helpers import partly_played

ENV = dict(os.environ, PYTHONHASHSEED="0", COLUMNS="100")


def amigos(*args: str, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
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
    return partly_played(path, decisions, 5, specs)

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


# -- full disks, long names, modes and links -----------------------------------------------------------------

@pytest.fixture
def small_disk(tmp_path):
    """A 64 KB tmpfs under ``tmp_path``, filled up to its last two free blocks (needs root and a kernel that
    lets this process mount one: skipped elsewhere)."""
    where = tmp_path / "small"
    where.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                              capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"cannot mount a tmpfs here ({exc})")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or 'mount failed'})")
    try:
        block = os.statvfs(where).f_frsize
        fillers = []
        try:
            while True:
                filler = where / f"filler-{len(fillers)}"
                fillers.append(filler)
                with open(filler, "wb") as f:
                    f.write(b"x" * block)
        except OSError:
            pass
        fillers.pop().unlink(missing_ok=True)
        for _ in range(2):  # two blocks free: the session's lock and a first save, no room for a second
            fillers.pop().unlink()
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=10)


def test_a_full_disk_during_autosave_is_one_line_naming_the_last_saved_decision(small_disk):
    result = amigos("play", "--p1", "random", "--p2", "random", "--seed", "3", "--plain",
                    "--save", "x.amigos", cwd=small_disk, timeout=60)
    line = one_line_refusal(result, "x.amigos: cannot save (the disk is full)", "up to game 1, decision")
    assert "Traceback" not in result.stderr
    saved = read_record(small_disk / "x.amigos")  # the last save that fitted, whole
    assert f"decision {len(saved['games'][-1]['decisions'])}" in line
    assert not [p for p in os.listdir(small_disk) if p.endswith(".tmp")]


def test_a_name_too_long_is_one_line_in_show_resume_and_play(tmp_path):
    name = "a" * 300 + ".amigos"
    for args in (["show", name], ["resume", name], ["replay", name],
                 ["play", "--p1", "random", "--p2", "random", "--plain", "--save", name]):
        one_line_refusal(amigos(*args, cwd=tmp_path, timeout=20), "the name is too long")
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_autosave_keeps_the_file_s_mode(tmp_path):
    path = tmp_path / "m.amigos"
    match = unfinished(path)
    path.chmod(0o600)
    match.to_act()
    match.decide(match.state.legal_actions()[0])
    save(match, path)
    assert path.stat().st_mode & 0o777 == 0o600
    result = amigos("resume", "m.amigos", "--plain", cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_new_match_file_follows_the_umask(tmp_path):
    old = os.umask(0o077)
    try:
        unfinished(tmp_path / "m.amigos")
    finally:
        os.umask(old)
    assert (tmp_path / "m.amigos").stat().st_mode & 0o777 == 0o600


def test_saving_over_a_symlink_replaces_the_link_and_leaves_its_target(tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("precious")
    link = tmp_path / "m.amigos"
    link.symlink_to(target)
    unfinished(link)
    assert target.read_text() == "precious"
    assert not link.is_symlink() and read_record(link)["seed"] == 5


@pytest.mark.slow
def test_a_finished_match_whose_file_says_unfinished_is_refused(tmp_path):
    result = amigos("play", "--p1", "random", "--p2", "random", "--seed", "2", "--plain", "--save", "f.amigos",
                    cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stderr
    record = read_record(tmp_path / "f.amigos")
    for result_field in (record["result"], None):
        (tmp_path / "lie.amigos").write_bytes(pack({**record, "status": "unfinished", "result": result_field}))
        for command in ("show", "resume", "replay"):
            one_line_refusal(amigos(command, "lie.amigos", cwd=tmp_path, timeout=20),
                             "the file says unfinished but its games end the match")


def test_replay_prints_a_file_name_s_control_codes_escaped(tmp_path):
    name = "evil\x1b[2J\x07.amigos"
    unfinished(tmp_path / name, decisions=8)
    result = amigos("replay", name, "--to", "3", "--plain", cwd=tmp_path, timeout=20)
    assert result.returncode == 0, result.stderr
    assert "\x1b[2J" not in result.stdout and "\x07" not in result.stdout
    assert "evil\\x1b[2J\\x07.amigos" in result.stdout
