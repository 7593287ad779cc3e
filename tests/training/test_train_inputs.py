"""``amigos-train``'s inputs: every bad path or file (missing, a folder, a FIFO, /dev/zero, not JSON, not a
zip, wrong keys) and every count out of its range answers as ``amigos`` does: one line on stderr, exit 2,
promptly, and nothing half-written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest

from ai.network import ValueNet
from tests.ai.test_model_files import PACKAGED, answered, changed, npy
from training import cli
from training.selfplay import selfplay_game

DEV_ZERO = "/dev/zero"


def answer(capsys: pytest.CaptureFixture[str], where: Path, *args: str) -> tuple[int, str]:
    """``amigos-train ARGS``'s exit code and stderr (a FIFO under ``where`` is never read blocking: the
    guard only keeps a failing test from hanging)."""
    result = answered(lambda: cli.main(list(args)), list(where.rglob("*fifo*")), f"amigos-train {' '.join(args)}")
    assert "error" not in result, f"amigos-train {' '.join(args)}: {result['error']!r}"
    return cast(int, result["value"]), capsys.readouterr().err


def refused(capsys: pytest.CaptureFixture[str], where: Path, *args: str, says: str = "") -> str:
    """The one line ``amigos-train ARGS`` refuses with (exit 2), nothing under ``where`` changed."""
    before = _snapshot(where)
    code, err = answer(capsys, where, *args)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("amigos-train: "), (code, err[-2000:])
    assert says in lines[0], lines[0]
    assert _snapshot(where) == before
    return lines[0]


def _snapshot(where: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(where)): p.read_bytes() if p.is_file() else None for p in sorted(where.rglob("*"))}


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """A folder of bad inputs: ``dir/``, ``fifo``, ``bad.jsonl`` (not JSON), ``keys.jsonl`` (a record
    without its keys), ``deep.jsonl`` (nested 10,000 deep), ``bad.npz`` (not a zip) and ``bad.json``."""
    (tmp_path / "dir").mkdir()
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "bad.jsonl").write_text('{"seed": 1, "choices": [0, 1\n')
    (tmp_path / "keys.jsonl").write_text('{"seed": 1}\n')
    (tmp_path / "deep.jsonl").write_text("[" * 10_000 + "\n")
    (tmp_path / "bad.npz").write_bytes(PACKAGED.read_bytes()[:5000])
    (tmp_path / "bad.json").write_text('{"format": "amigos.value", "version": 1}')
    return tmp_path


#: Each bad input, the argument naming it, and what its line says.
BAD = [("dir", "a folder, not a"), ("fifo", "not a regular file"), (DEV_ZERO, "not a regular file"),
       ("bad.jsonl", "line 1: not JSON"), ("keys.jsonl", "line 1: a game record without its choices"),
       ("deep.jsonl", "nested more than 32 deep"), ("missing.jsonl", "no such file")]


def _path(files: Path, name: str) -> str:
    return name if name.startswith("/") else str(files / name)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A self-play file of two games of random play, as ``amigos-train selfplay`` writes one."""
    path = tmp_path_factory.mktemp("played") / "games.jsonl"
    lines = [json.dumps(selfplay_game(seed, "random") | {"k": k}) for k, seed in enumerate((1, 2))]
    path.write_text("\n".join(lines) + "\n")
    return path


# -- selfplay -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, says", [case for case in BAD if case[0] != "missing.jsonl"])
def test_selfplay_into_a_bad_file_is_one_line_and_leaves_it_as_it_was(capsys, files, name, says):
    refused(capsys, files, "selfplay", "--games", "1", "--agent", "random", "--jobs", "1", "--out",
            _path(files, name), says=says)


def test_selfplay_into_a_file_of_another_run_is_one_line(capsys, files, played):
    (files / "other.jsonl").write_bytes(played.read_bytes())
    refused(capsys, files, "selfplay", "--games", "1", "--agent", "greedy", "--jobs", "1", "--out",
            str(files / "other.jsonl"), says="holds games of another run (agent random)")


@pytest.mark.parametrize("option, value, says", [
    ("--games", "0", "Invalid value for '--games': Input should be greater than or equal to 1"),
    ("--games", "x", "Invalid value for '--games': Input should be a valid integer"),
    ("--jobs", "0", "Invalid value for '--jobs'"), ("--jobs", "100000000", "Invalid value for '--jobs'"),
    ("--seed", "1e9", "Invalid value for '--seed'"),
    ("--agent", "mcts:iters=nan", "agent parameter iters must be a finite number"),
    ("--bogus", "1", "No such option: --bogus")])
def test_selfplay_refuses_a_count_out_of_range_in_one_line(capsys, files, option, value, says):
    args = {"--games": "1", "--agent": "random", "--jobs": "1", "--out": str(files / "new.jsonl")} | {option: value}
    refused(capsys, files, "selfplay", *[x for pair in args.items() for x in pair], says=says)


# -- fit ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, says", BAD)
def test_fit_to_a_bad_file_is_one_line(capsys, files, name, says):
    refused(capsys, files, "fit", "--data", _path(files, name), "--out", str(files / "m.json"), says=says)


def test_fit_to_a_record_of_another_game_is_one_line(capsys, files, played):
    record = json.loads(played.read_text().splitlines()[0])
    record["choices"] = [999] + record["choices"][1:]
    (files / "other.jsonl").write_text(json.dumps(record) + "\n")
    refused(capsys, files, "fit", "--data", str(files / "other.jsonl"), "--out", str(files / "m.json"),
            says="decision 0 chooses action 999 of ")


@pytest.mark.parametrize("option, name, says", [
    ("--check", DEV_ZERO, "not a regular file"), ("--check", "fifo", "not a regular file"),
    ("--prior", "bad.json", "for other features"), ("--prior", "dir", "a folder, not a value model"),
    ("--out", "dir", "a folder, not a value model file")])
def test_fit_with_a_bad_model_or_output_is_refused_before_the_fit(capsys, files, played, option, name, says):
    refused(capsys, files, "fit", "--data", str(played), option, _path(files, name), says=says)


@pytest.mark.parametrize("args, says", [
    (["--games", "600,x"], "--games takes whole numbers"), (["--games", "0"], "--games takes whole numbers"),
    (["--iters", "0"], "Invalid value for '--iters'"), (["--l2", "nan"], "Invalid value for '--l2'"),
    (["--lambda", "2"], "Invalid value for '--lambda'"), (["--jobs", "-1"], "Invalid value for '--jobs'"),
    ([], "--pipeline needs --out")])
def test_fit_s_pipeline_refuses_a_count_out_of_range_in_one_line(capsys, files, args, says):
    out = [] if not args else ["--out", str(files / "m.json")]
    refused(capsys, files, "fit", "--pipeline", "--work", str(files / "work"), *out, *args, says=says)


# -- neural ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, says", [("dir", "a folder, not a value network"), ("fifo", "not a regular file"),
                                        (DEV_ZERO, "not a regular file"), ("bad.npz", "not a value network"),
                                        ("missing.npz", "no such file")])
def test_neural_from_a_bad_network_is_one_line_and_makes_no_folder(capsys, files, name, says):
    refused(capsys, files, "neural", "--work", str(files / "run"), "--start", _path(files, name), "--games", "20",
            "--generations", "1", "--jobs", "1", says=says)


def test_neural_in_a_folder_with_bad_files_is_one_line_before_any_game(capsys, files):
    (files / "file").write_text("x")
    refused(capsys, files, "neural", "--work", str(files / "file"), "--games", "20", says="not a folder (--work)")
    run = files / "run"
    run.mkdir()
    (run / "net-0.npz").write_bytes(PACKAGED.read_bytes()[:100])
    refused(capsys, files, "neural", "--work", str(run), "--games", "20", "--jobs", "1", says="not a value network")
    ValueNet.initial(8, 1).save(run / "net-1.npz")
    (run / "games-0.jsonl").write_text('{"seed": 1, "choices": [0], "result": [1.0, 0.0]}\n{"seed"\n')
    refused(capsys, files, "neural", "--work", str(run), "--games", "20", "--jobs", "1", "--generations", "2",
            says="games-0.jsonl, line 2: not JSON")
    (run / "games-0.jsonl").write_text('{"seed": 1, "choices": [0], "result": [1.0, 0.0], "expansions": ["x"]}\n')
    refused(capsys, files, "neural", "--work", str(run), "--games", "20", "--jobs", "1", "--generations", "2",
            says="unknown expansion 'x'")
    (run / "games-0.jsonl").write_text('{"seed": 1, "choices": [0]}\n')
    refused(capsys, files, "neural", "--work", str(run), "--games", "20", "--jobs", "1", "--generations", "2",
            says="not a game record of amigos-train neural (its result)")


def test_neural_s_compressed_or_partial_games_when_bad_are_one_line_before_any_game(capsys, files, monkeypatch):
    """A run's ``games-G.jsonl.gz`` cut short, damaged, unpacking past its bound or with searches that are
    not a search's, and a ``playing-G.jsonl`` with a whole line that is not JSON: refused in one line,
    nothing changed."""
    import gzip

    from training import records
    run = files / "run"
    run.mkdir()
    ValueNet.initial(8, 1).save(run / "net-0.npz")
    ValueNet.initial(8, 1).save(run / "net-1.npz")
    good = b'{"seed": 1, "choices": [0, 0], "result": [1.0, 0.0]}\n'
    args = ("neural", "--work", str(run), "--games", "20", "--jobs", "1", "--generations", "2")
    packed = gzip.compress(good * 50)
    for data, says in [(packed[:-9], "a damaged or cut gzip file"), (packed[:12] + b"x" * 40, "a damaged gzip file"),
                       (gzip.compress(good + b'{"seed": 1, "choices": [0], "result": [1, 0], "searches": [[1, []]]}\n'),
                        "line 2: a game record whose searches are not"),
                       (gzip.compress(good.replace(b"}", b', "searches": [[0, [[0, 0, 0.5]]]]}')),
                        "searches are not [decision")]:
        (run / "games-0.jsonl.gz").write_bytes(data)
        refused(capsys, files, *args, says=says)
    monkeypatch.setattr(records, "UNPACKED_BYTES", 1000)
    (run / "games-0.jsonl.gz").write_bytes(packed)
    refused(capsys, files, *args, says="unpacks to more than 1000 bytes")
    (run / "games-0.jsonl.gz").unlink()
    (run / "playing-1.jsonl").write_text('{"seed": 1, "ch\n')  # (a whole line: a cut last one is dropped)
    refused(capsys, files, *args, says="playing-1.jsonl, line 1: not JSON")


def test_neural_from_bad_seed_games_is_one_line_and_makes_no_folder(capsys, files):
    (files / "dir" / "games-0.jsonl").write_text('{"seed": -1, "choices": [], "result": [1, 0]}\n')
    refused(capsys, files, "neural", "--work", str(files / "run"), "--seed-games", str(files / "dir"), "--games",
            "20", says="games-0.jsonl, line 1: a game record without its seed")
    refused(capsys, files, "neural", "--work", str(files / "run"), "--seed-games", str(files / "fifo"), "--games",
            "20", says="fifo: not a folder")
    (files / "dir" / "games-0.jsonl").write_text(
        '{"seed": 1, "choices": [0], "result": [1, 0], "variant": "x\\u001b[2J"}\n')
    (files / "dir" / "games-x.jsonl").write_text("not a generation's file: skipped")
    line = refused(capsys, files, "neural", "--work", str(files / "run"), "--seed-games", str(files / "dir"),
                   "--games", "20", says="unknown variant 'x\\x1b[2J'")
    assert "\x1b" not in line


@pytest.mark.parametrize("option, value", [("--hidden", "-1"), ("--hidden", "0"), ("--hidden", str(10**8)),
                                           ("--hidden", "1e3"), ("--games", "5"), ("--epochs", "0"),
                                           ("--generations", "-1"), ("--lux", "inf"), ("--jobs", "0")])
def test_neural_refuses_a_count_out_of_range_in_one_line(capsys, files, option, value):
    refused(capsys, files, "neural", "--work", str(files / "run"), option, value, says=f"Invalid value for '{option}'")


# -- the command ----------------------------------------------------------------------------------------------

def test_the_command_line_answers_a_fifo_in_one_line_and_exit_2(files):
    done = subprocess.run([sys.executable, "-m", "training.cli", "fit", "--data", str(files / "fifo"), "--out",
                           str(files / "m.json")], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stderr.strip() == \
        f"amigos-train: {files / 'fifo'}: not a regular file (a device, pipe or socket), not a self-play file"


def test_a_value_network_from_a_changed_file_is_refused_by_fit_s_check(capsys, files, played):
    """A network is no linear value model: fit's ``--check`` says so in one line."""
    path = changed(files, w2=npy([0.0]))
    refused(capsys, files, "fit", "--data", str(played), "--check", str(path), says="not UTF-8")
