"""The folder of match files (issue 54, point 10): a new match is saved there by default, never in the current
folder; ``amigos list`` lists what is kept there, and ``amigos resume NAME`` finds a file there by its name.

Every test has a folder of match files of its own (``AMIGOS_MATCHES``, set by tests/conftest.py); these name
one in ``tmp_path`` to look into it."""

from __future__ import annotations

import os
import random
import re
import shlex
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from amigos_cli.app import app
from matches.folder import MATCHES_ENV, default_path, find, matches_folder
from matches.match import Match
from matches.record import load, save
from tests.cli.test_match_cli import assert_one_line_error as one_line_error
from tests.cli.test_match_cli import run_main
from tests.helpers import partly_played


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder of match files (not made yet), and a current folder of the test's own (``tmp_path / "here"``)."""
    folder = tmp_path / "data" / "matches"
    monkeypatch.setenv(MATCHES_ENV, str(folder))
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("COLUMNS", "250")  # (a table's rows unwrapped)
    return folder


def finished(path: Path, seed: int, fmt: str = "game") -> Match:
    """A match of two random players played to its end, saved to ``path``."""
    match = Match.new(seed, ["random", "random"], fmt=fmt, names=["Ann", "Bob"])
    rng = random.Random(seed)
    while not match.is_over():
        match.to_act()
        if match.is_over():
            break
        match.decide(rng.choice(match.state.legal_actions()))
    save(match, path)
    return match


def test_the_default_path_is_in_the_folder_the_variable_names_and_is_absolute(kept, monkeypatch):
    assert matches_folder() == kept and default_path(7) == kept / "amigos-7.amigos"
    assert default_path(-5) == kept / "amigos-minus5.amigos"
    monkeypatch.setenv(MATCHES_ENV, "relative/games")
    assert default_path(1) == Path.cwd() / "relative" / "games" / "amigos-1.amigos"
    monkeypatch.delenv(MATCHES_ENV)
    data = Path.cwd() / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))  # (platformdirs' user data folder, on Linux)
    if os.name == "posix" and not (Path.home() / "Library").is_dir():
        assert default_path(1) == data / "amigos" / "matches" / "amigos-1.amigos"
    assert default_path(1).is_absolute() and default_path(1).parent.name == "matches"


def test_play_saves_into_the_folder_of_match_files_made_on_first_save_and_not_here(kept, capsys):
    result = CliRunner().invoke(app, ["play", "--p1", "random", "--p2", "random", "--seed", "-5"])
    assert result.exit_code == 0, result.output
    path = kept / "amigos-minus5.amigos"
    assert load(path).is_over()
    assert f"saving to {path}" in result.output  # the full path: the person can find the file
    assert os.listdir(kept) == ["amigos-minus5.amigos"] and os.listdir(Path.cwd()) == []
    code, _, err = run_main(["play", "--p1", "random", "--p2", "random", "--seed", "-5"], capsys)
    one_line_error(code, err, f"{path} exists already")


def test_save_still_names_the_file(kept):
    result = CliRunner().invoke(app, ["play", "--p1", "random", "--p2", "random", "--seed", "2", "--save", "x.amigos"])
    assert result.exit_code == 0, result.output
    assert os.listdir(Path.cwd()) == ["x.amigos"] and not kept.exists()


def test_a_folder_that_cannot_be_made_is_one_line(kept, tmp_path, monkeypatch, capsys):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv(MATCHES_ENV, str(tmp_path / "file" / "matches"))
    code, out, err = run_main(["play", "--p1", "random", "--p2", "random", "--seed", "2"], capsys)
    one_line_error(code, err, "cannot keep match files there", MATCHES_ENV)


def test_list_shows_games_in_progress_finished_and_unreadable_newest_first(kept, capsys):
    kept.mkdir(parents=True)
    playing = kept / "amigos-1.amigos"
    partly_played(playing, 60, seed=1, fmt="game", names=["Ann", "Bob"])
    a_match = kept / "amigos-2.amigos"
    partly_played(a_match, 2, seed=2, fmt="match", names=["Ann", "Bob"])
    won = finished(kept / "amigos-3.amigos", 3)
    bad = kept / "bad.amigos"
    bad.write_bytes(b"\x85garbage")
    (kept / "notes.txt").write_text("not listed")
    (kept / ".amigos-1.amigos.lock").write_text("")
    for age, path in enumerate([bad, won_path := kept / "amigos-3.amigos", playing, a_match]):
        os.utime(path, (1_700_000_000 - 3600 * age, 1_700_000_000 - 3600 * age))
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in kept.iterdir()}

    code, out, err = run_main(["list"], capsys)
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0] == f"4 match files in {kept}, newest first:"
    rows = {name: next(line for line in lines if f" {name} " in line)
            for name in ("bad.amigos", "amigos-1.amigos", "amigos-2.amigos", "amigos-3.amigos")}
    order = [lines.index(rows[name]) for name in ("bad.amigos", "amigos-3.amigos", "amigos-1.amigos", "amigos-2.amigos")]
    assert order == sorted(order)
    assert "unreadable: not a match file" in rows["bad.amigos"] and "Traceback" not in out
    round_now = load(playing).state.round
    assert re.search(rf"Ann vs Bob +│ game +│ round {round_now} ", rows["amigos-1.amigos"])
    assert "best of three" in rows["amigos-2.amigos"] and "game 1, before round 1, score 0-0" in rows["amigos-2.amigos"]
    result = won.record["games"][0]["result"]
    winner = ["Ann", "Bob"][result["winners"][0]] if len(result["winners"]) == 1 else None
    points = "-".join(map(str, sorted(result["vp"], reverse=True)))
    assert (f"{winner} wins {points}" if winner else "shared by") in rows["amigos-3.amigos"]
    assert "notes.txt" not in out and ".lock" not in out
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(1_700_000_000))
    assert stamp in rows["bad.amigos"]
    commands = lines[lines.index("Resume with:") + 1:]
    assert [c.split()[-1] for c in commands] == [str(playing), str(a_match)]  # the unfinished ones, full paths
    assert all(c.split()[0].endswith("amigos") and c.split()[1] == "resume" for c in commands)
    assert str(won_path) not in "\n".join(commands)
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in kept.iterdir()} == before  # nothing touched


def test_list_of_another_folder_and_of_empty_ones(kept, tmp_path, capsys):
    code, out, _ = run_main(["list"], capsys)
    assert code == 0 and out == f"No match files in {kept}: none has been saved there yet.\n"
    other = tmp_path / "other"
    other.mkdir()
    code, out, _ = run_main(["list", "--dir", str(other)], capsys)
    assert code == 0 and out == f"No match files in {other}.\n"
    finished(other / "done.amigos", 4, fmt="game")
    code, out, _ = run_main(["list", "--dir", "../other"], capsys)  # (relative to the current folder)
    assert code == 0 and f"1 match file in {other}, newest first:" in out and "done.amigos" in out
    assert "Resume with" not in out


@pytest.mark.parametrize("where, reason", [("missing", "no such folder"), ("a-file", "not a folder")])
def test_a_bad_dir_is_one_line_and_exit_code_2(kept, tmp_path, capsys, where, reason):
    (tmp_path / "a-file").write_text("x")
    code, out, err = run_main(["list", "--dir", str(tmp_path / where)], capsys)
    one_line_error(code, err, f"--dir {tmp_path / where}: {reason}")
    assert out == ""


def test_resume_finds_a_bare_name_in_the_folder_of_match_files(kept, capsys):
    kept.mkdir(parents=True)
    path = kept / "amigos-8.amigos"
    partly_played(path, 30, seed=8, fmt="game")
    assert find(Path("amigos-8.amigos")) == path and find(Path("elsewhere.amigos")) == Path("elsewhere.amigos")
    assert find(Path("amigos-8")) == path  # (the name without its suffix)
    for command, words in ((["show", "amigos-8"], "amigos-8"), (["replay", "amigos-8", "--list"], "30 decisions")):
        code, out, err = run_main(command, capsys)  # (every command finds it)
        assert code == 0 and words in out, err
    code, out, err = run_main(["resume", "amigos-8.amigos", "--plain"], capsys)  # (random players: it plays on)
    assert code == 0, err
    assert out.startswith(f"Resuming {path}: game 1") and load(path).is_over()
    code, _, err = run_main(["resume", "amigos-8.amigos"], capsys)
    one_line_error(code, err, f"{path}: this match is finished")
    code, _, err = run_main(["resume", "nowhere.amigos"], capsys)
    one_line_error(code, err, "nowhere.amigos: no such file, here or in the folder of match files", str(kept))


def test_a_file_here_comes_before_one_of_the_same_name_in_the_folder(kept, capsys):
    kept.mkdir(parents=True)
    finished(kept / "same.amigos", 5)
    partly_played(Path("same.amigos"), 10, seed=9, fmt="game")
    code, out, err = run_main(["resume", "same.amigos", "--plain"], capsys)
    assert code == 0, err
    assert out.startswith("Resuming same.amigos: game 1") and load(Path("same.amigos")).is_over()


def test_the_resume_command_is_quoted_for_a_folder_with_a_space(kept, tmp_path, monkeypatch, capsys):
    from amigos_cli.session import resume_hint
    path = tmp_path / "Application Support" / "amigos-1.amigos"
    hint = resume_hint(path)
    assert shlex.split(hint)[-2:] == ["resume", str(path)]
    spaced = tmp_path / "Application Support"
    spaced.mkdir()
    partly_played(spaced / "amigos-1.amigos", 4, seed=1, fmt="game")
    code, out, _ = run_main(["list", "--dir", str(spaced)], capsys)
    assert code == 0 and shlex.split(out.splitlines()[-1])[-1] == str(spaced / "amigos-1.amigos")


def test_list_s_help_names_the_variable_and_the_option():
    out = CliRunner().invoke(app, ["list", "-h"], env={"COLUMNS": "200"}).output
    assert "AMIGOS_MATCHES" in out and "--dir" in out
    out = CliRunner().invoke(app, ["resume", "-h"], env={"COLUMNS": "200"}).output
    assert "folder of match files" in out
