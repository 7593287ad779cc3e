"""Match files and tournaments under hostile input and faults: special paths, a kill loop, two
sessions on one file, a foreign file in a tournament folder, a killed tournament parent.

Each command here runs with a time limit: a hostile path must be answered at once, never read forever.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from matches.record import load, parse

ENV = dict(os.environ, PYTHONHASHSEED="0", COLUMNS="100")


def amigos(*args: str, cwd: Path, timeout: float = 60, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "amigos_cli", *args], cwd=cwd, env=ENV, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL, **kw)


def start(*args: str, cwd: Path, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "amigos_cli", *args], cwd=cwd, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, **kw)


def one_line_refusal(result: subprocess.CompletedProcess, *fragments: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("amigos: "), result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# -- special paths -------------------------------------------------------------------------------------------

def test_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.amigos"
    os.mkfifo(fifo)
    for command in ("show", "replay", "resume"):
        one_line_refusal(amigos(command, str(fifo), cwd=tmp_path, timeout=5), "not a regular file")


def test_a_link_to_dev_zero_is_refused_at_once(tmp_path):
    link = tmp_path / "zero.amigos"
    link.symlink_to("/dev/zero")
    for command in ("show", "replay", "resume"):
        one_line_refusal(amigos(command, str(link), cwd=tmp_path, timeout=5), "not a regular file")


def test_a_folder_is_refused_at_once(tmp_path):
    folder = tmp_path / "dir.amigos"
    folder.mkdir()
    one_line_refusal(amigos("show", str(folder), cwd=tmp_path, timeout=5), "a folder")
    one_line_refusal(amigos("resume", str(folder), cwd=tmp_path, timeout=5), "a folder")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file: a file without permissions is not unreadable")
def test_an_unreadable_file_is_refused_at_once(tmp_path):
    locked = tmp_path / "locked.amigos"
    locked.write_bytes(b"x")
    locked.chmod(0)
    one_line_refusal(amigos("show", str(locked), cwd=tmp_path, timeout=5), "cannot read")


# -- a kill loop -----------------------------------------------------------------------------------------------

def decided(path: Path) -> int:
    """The decisions a match file holds so far (0 before its first save): read, not replayed."""
    return sum(len(g["decisions"]) for g in parse(path.read_bytes())["games"]) if path.exists() else 0


@pytest.mark.slow
def test_resume_killed_again_and_again_finishes_as_if_never_stopped(tmp_path):
    """``resume`` killed with SIGKILL at random moments: the file always loads, no temporary is left
    once a session has run to its end, and the match is the one played without interruption."""
    rng = random.Random(7)
    args = ("--p1", "random", "--p2", "mcts:iters=100", "--seed", "9")
    whole = amigos("match", *args, "--save", "whole.amigos", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    path = tmp_path / "k.amigos"
    proc = start("match", *args, "--save", "k.amigos", cwd=tmp_path)
    kills = 0
    for _ in range(12):
        # (each kill a few decisions into the session, and a moment after a save or during one: moments
        # counted in the match's progress, not in seconds, so that a machine's load cannot move them)
        target = decided(path) + rng.randint(2, 25)
        deadline = time.monotonic() + 120
        while proc.poll() is None and decided(path) < target and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 0.05))
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait()
        if path.exists() and load(path).is_over():  # (never a damaged file)
            break
        proc = start("resume", "k.amigos", "--plain", cwd=tmp_path)
    else:
        proc.wait(timeout=120)
    assert kills >= 3, "the sessions were killed while they played"
    final = amigos("resume", "k.amigos", cwd=tmp_path)
    assert final.returncode in (0, 2), final.stderr  # 2: the match had already ended
    done, whole_record = load(tmp_path / "k.amigos").record, load(tmp_path / "whole.amigos").record
    assert done["result"] == whole_record["result"]
    assert [[d[:2] for d in g["decisions"]] for g in done["games"]] == \
        [[d[:2] for d in g["decisions"]] for g in whole_record["games"]]
    assert not list(tmp_path.glob(".k.amigos.*.tmp")), "stale temporaries are cleaned"


# -- two sessions on one file ---------------------------------------------------------------------------------

def test_a_second_resume_of_a_file_in_use_is_refused(tmp_path):
    first = amigos("play", "--plain", "--p2", "random", "--seed", "5", "--save", "two.amigos", cwd=tmp_path,
                   input=None)
    assert (tmp_path / "two.amigos").exists(), first.stderr
    holder = subprocess.Popen([sys.executable, "-m", "amigos_cli", "resume", "--plain", "two.amigos"], cwd=tmp_path,
                              env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / ".two.amigos.lock").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        before = (tmp_path / "two.amigos").read_bytes()
        one_line_refusal(amigos("resume", "--plain", "two.amigos", cwd=tmp_path, timeout=10), "in use")
        assert (tmp_path / "two.amigos").read_bytes() == before
    finally:
        holder.communicate(b"q\n", timeout=30)
    assert holder.returncode == 0
    assert not (tmp_path / ".two.amigos.lock").exists()
    again = subprocess.run([sys.executable, "-m", "amigos_cli", "resume", "--plain", "two.amigos"], cwd=tmp_path,
                           env=ENV, input="q\n", capture_output=True, text=True, timeout=30)
    assert again.returncode == 0, again.stderr  # free again once the first session ended


# -- tournaments ------------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_foreign_file_in_a_tournament_is_not_counted_and_is_played_again(tmp_path):
    out = tmp_path / "t"  # (named relative to the working folder: a long path is folded, even mid-word)
    base = ("tournament", "--agent", "random", "--agent", "greedy", "--games", "2", "--seed", "3", "--out", "t")
    first = amigos(*base, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    other = amigos("match", "--p1", "random", "--p2", "greedy", "--seed", "77", "--save", "other.amigos",
                   cwd=tmp_path)
    assert other.returncode == 0, other.stderr
    game = "random-vs-greedy-deal000-a.amigos"  # the first scheduled game's file
    shutil.copy(tmp_path / "other.amigos", out / game)
    resumed = amigos(*base, "--resume", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    text = " ".join(resumed.stdout.split())
    assert f"{game}: not this tournament's game (seed differs from the schedule)" in text
    assert (out / f"{game}.rejected").exists()
    assert load(out / game).record["seed"] != load(tmp_path / "other.amigos").record["seed"]
    import json
    summary = json.loads((out / "summary.json").read_text())
    assert summary["played"] == 2


def test_killing_a_tournament_leaves_no_workers(tmp_path):
    out = tmp_path / "t"
    proc = start("tournament", "--agent", "mcts:iters=3000", "--agent", "mcts:iters=3000", "--games", "4",
                 "--jobs", "2", "--seed", "1", "--out", str(out), cwd=tmp_path)
    children: set[int] = set()
    deadline = time.monotonic() + 60
    while len(children) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        children = _children(proc.pid)
    assert len(children) >= 2, "the workers started"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while any(_alive(c) for c in children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_alive(c) for c in children), "workers outlived their tournament"


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_many_games_are_refused_before_their_decisions_are_inflated(tmp_path):
    """A small file holding many copies of a game: refused at once (each copy could inflate to
    megabytes), not after unpacking them all."""
    import msgpack

    from ai.agents import make_agent
    from matches.match import Match, play
    from matches.record import MatchFileError, pack, parse
    match = Match.new(2, ["random", "random"], fmt="game", names=["A", "B"])
    play(match, [make_agent("random", seed=1), make_agent("random", seed=2)])
    record = msgpack.unpackb(pack(match.record), raw=False)
    record["games"] = record["games"] * 20
    start = time.perf_counter()
    with pytest.raises(MatchFileError, match="more than 3 games"):
        parse(msgpack.packb(record, use_bin_type=True))
    assert time.perf_counter() - start < 5


def test_cleaning_temporaries_spares_another_files(tmp_path):
    from matches.lock import clean_stale
    mine = tmp_path / ".g.abcd_123.tmp"
    theirs = tmp_path / ".g.amigos.abcd_123.tmp"
    mine.write_bytes(b"x")
    theirs.write_bytes(b"y")
    assert clean_stale(tmp_path / "g") == [mine]
    assert theirs.exists() and not mine.exists()
