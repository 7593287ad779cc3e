"""Bad input on the command line is one line, ``amigos: <message>`` on stderr, with exit code 2 and never a
traceback: errors found by the parser (an unknown command or option, a malformed or missing value) and
seeds a match file cannot hold.  Text a user supplies (a path, a stored player name, an answer typed at
the prompt) is printed as it is, never read as rich markup.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from amigos_cli.app import app
from matches.match import Match
from matches.record import load, save
from tests.cli.test_match_cli import amigos_cmd, assert_one_line_error, run_main

# -- parser errors ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv,fragments", [
    (["play", "--bogus"], ["No such option: --bogus", "(see amigos play --help)"]),
    (["--bogus"], ["No such option: --bogus", "(see amigos --help)"]),
    (["frobnicate"], ["No such command 'frobnicate'", "(see amigos --help)"]),
    (["match", "--seed", "abc", "--p1", "random", "--p2", "random"],
     ["Invalid value for '--seed'", "(see amigos match --help)"]),
    (["replay", "m.amigos", "--game", "abc"], ["Invalid value for '--game'", "(see amigos replay --help)"]),
    (["cards", "--kind"], ["Option '--kind' requires an argument", "(see amigos cards --help)"]),
    (["play", "--p1"], ["Option '--p1' requires an argument", "(see amigos play --help)"]),
    (["show"], ["Missing argument", "(see amigos show --help)"]),
    (["tournament", "--agent", "random", "--agent", "random", "--games", "many"],
     ["Invalid value for '--games'", "(see amigos tournament --help)"]),
])
def test_usage_errors_are_one_line(argv, fragments, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(argv, capsys)
    assert_one_line_error(code, err, *fragments)
    assert out == ""
    assert os.listdir(tmp_path) == [], "nothing is written"


def test_usage_error_from_the_installed_command(tmp_path):
    result = amigos_cmd("play", "--bogus", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "amigos: No such option: --bogus (see amigos play --help)\n"
    assert result.stdout == ""


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["tournament", "--help"], ["cards", "--help"]])
def test_help_is_typers_own(argv, capsys):
    code, out, err = run_main(argv, capsys)
    assert code == 0 and err == ""
    assert "Usage: amigos" in out
    assert out == CliRunner().invoke(app, argv).output  # Typer's standalone run prints the same help


def test_no_command_prints_the_help(capsys):
    code, out, err = run_main([], capsys)
    assert code == 2 and err == ""
    assert "Usage: amigos" in out and "tournament" in out


# -- seeds --------------------------------------------------------------------------------------------------------

TOO_BIG, TOO_SMALL = 1 << 64, -(1 << 63) - 1


@pytest.mark.parametrize("seed", [TOO_BIG, 10 ** 30, TOO_SMALL])
@pytest.mark.parametrize("command", ["play", "match"])
def test_a_seed_a_file_cannot_hold_is_one_line(command, seed, tmp_path, capsys):
    code, out, err = run_main([command, "--p1", "random", "--p2", "random", "--seed", str(seed),
                               "--save", str(tmp_path / "x.amigos")], capsys)
    assert_one_line_error(code, err, f"--seed {seed} is out of range", "64-bit")
    assert os.listdir(tmp_path) == [], "nothing is written"


def test_a_tournament_takes_the_same_seeds(tmp_path, capsys):
    code, out, err = run_main(["tournament", "--agent", "random", "--agent", "random", "--games", "1",
                               "--seed", str(TOO_BIG), "--out", str(tmp_path / "t")], capsys)
    assert_one_line_error(code, err, "out of range")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("seed", [(1 << 64) - 1, -(1 << 63)])
def test_the_extreme_seeds_play_and_load(seed, tmp_path, capsys):
    path = tmp_path / "x.amigos"
    code, out, err = run_main(["play", "--p1", "random", "--p2", "random", "--seed", str(seed),
                               "--save", str(path)], capsys)
    assert code == 0, err
    match = load(path)
    assert match.record["seed"] == seed and match.is_over()


# -- markup in user text -------------------------------------------------------------------------------------

ODD_NAMES = ["[/]", "[bold]Bo[/bold]"]


def _flat(text: str) -> str:
    return " ".join(text.split())


# The paths below are relative (in tmp_path, the working folder): the console folds a line longer than
# its width even inside a word, so a long path (tmp_path under pytest-xdist, say) would not read whole.

def test_play_and_show_with_markup_in_the_path(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    folder = Path("we[")
    folder.mkdir()
    path = folder / "]ird.amigos"  # the path reads we[/]ird.amigos
    code, out, err = run_main(["play", "--p1", "random", "--p2", "random", "--seed", "2", "--save", str(path)],
                              capsys)
    assert code == 0, err
    assert f"saving to {path}" in _flat(out)
    code, out, err = run_main(["show", str(path)], capsys)
    assert code == 0, err
    assert str(path) in _flat(out)


def test_show_and_resume_with_markup_in_the_player_names(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    folder = Path("x[")
    folder.mkdir()
    path = folder / "]names.amigos"
    save(Match.new(4, ["random", "random"], fmt="game", names=ODD_NAMES), path)
    code, out, err = run_main(["show", str(path)], capsys)
    assert code == 0, err
    assert f"{ODD_NAMES[0]} vs {ODD_NAMES[1]}" in out
    assert f"amigos resume {path}" in _flat(out)

    code, out, err = run_main(["resume", str(path)], capsys)
    assert code == 0, err
    assert f"Resuming {path}" in _flat(out)
    assert load(path).is_over()
    code, out, err = run_main(["show", str(path)], capsys)
    assert code == 0, err
    winners = load(path).record["games"][0]["result"]["winners"]
    line = "Shared victory." if len(winners) > 1 else f"{ODD_NAMES[winners[0]]} wins the game."
    assert line in out


def test_tournament_with_markup_in_the_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    out_dir = Path("t[/]x")
    code, out, err = run_main(["tournament", "--agent", "random", "--agent", "random", "--games", "1",
                               "--seed", "3", "--out", str(out_dir)], capsys)
    assert code == 0, err
    assert f"Results in {out_dir}/" in _flat(out)
    assert (out_dir / "summary.json").exists()
    shutil.rmtree(out_dir)


# -- help ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv,flags", [(["--help"], ["--help"]), (["show", "--help"], ["--json", "--help"]),
                                        (["replay", "--help"], ["--json"]),
                                        (["tournament", "--help"], ["--gauntlet", "--resume", "--card-stats"])])
def test_help_shows_on_off_options_as_plain_flags(argv, flags, capsys):
    """No ``<bool>`` after a flag: ``--json true`` is refused, so the help must not suggest a value."""
    code, out, err = run_main(argv, capsys)
    assert code == 0, err
    assert "<bool>" not in out
    for flag in flags:
        assert re.search(re.escape(flag) + r"\s", out), flag


@pytest.mark.parametrize("command", ["show", "replay", "resume"])
def test_help_names_the_file_argument(command, capsys):
    code, out, err = run_main([command, "--help"], capsys)
    assert code == 0 and "FILE" in out and "{file}" not in out
