"""``amigos match / play / resume / replay / show`` end to end: typer's CliRunner in-process, `main()` for the
error path (one line ``amigos: ...`` on stderr, exit 2) and real subprocesses for exit codes, SIGKILL,
scripted stdin for a person at the prompt.

Matches here save after every decision with an fsync; the files go to a RAM folder (/dev/shm) when there is
one so that the whole module stays fast.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amigos
from amigos_cli import app as app_module
from amigos_cli.app import app
from matches.match import Match
from matches.record import load, pack, parse
from tests.helpers import ROOT, partly_played

ENV = dict(os.environ, COLUMNS="200", NO_COLOR="1", PYTHONPATH=str(ROOT))


def _fast_folder(prefix: str) -> Path:
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))


@pytest.fixture
def folder():
    path = _fast_folder("amigos-cli-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def shared_folder():
    path = _fast_folder("amigos-cli-shared-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def amigos_cmd(*args: str, cwd: Path, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "amigos_cli", *args], cwd=cwd, env=ENV, input=stdin,
                          capture_output=True, text=True, timeout=timeout)


def run_main(argv: list[str], capsys) -> tuple[int, str, str]:
    """`amigos_cli.app.main` in-process: (exit code, stdout, stderr)."""
    code = 0
    try:
        app_module.main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2, err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("amigos: ") and "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err


def snapshot(path: Path):
    s = path.stat()
    return path.read_bytes(), s.st_mtime_ns, sorted(os.listdir(path.parent))


@pytest.fixture(scope="module")
def match_run(shared_folder):
    """``amigos match --p1 random --p2 greedy --seed 3 --save m.amigos`` in a subprocess."""
    result = amigos_cmd("match", "--p1", "random", "--p2", "greedy", "--seed", "3", "--save", "m.amigos",
                        cwd=shared_folder)
    return result, shared_folder / "m.amigos"


# -- match, play, show ---------------------------------------------------------------------------


def test_a_single_game_names_no_match_score_and_says_its_result_once(tmp_path):
    """A single game is a game, not a match: its end says no match score, and its result is one line
    (issue 54, point 5; piped, it was printed twice)."""
    result = amigos_cmd("play", "--p1", "random", "--p2", "random", "--seed", "3", "--save", "g.amigos", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    after = result.stdout.split("saving to")[1]
    assert "match" not in after
    said = [line for line in after.splitlines() if " wins  (" in line or line.startswith("Shared victory")]
    assert len(said) == 1, said


def test_match_runs_unattended_and_prints_the_results(match_run):
    result, path = match_run
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "Best-of-three match, seed 3, standard: Player 1 (random) vs Player 2 (greedy); saving to m.amigos" in out
    m = load(path)
    assert m.is_over() and m.record["best_of"] == 3
    names = [p["name"] for p in m.record["players"]]
    score = [0, 0]
    for game in m.record["games"]:
        winners = game["result"]["winners"]
        if len(winners) == 1:
            score[winners[0]] += 1
            line = f"{names[winners[0]]} wins game {game['index']}"
        else:
            line = f"Shared victory game {game['index']}"
        assert line in out
        assert f"match score {score[0]}-{score[1]}" in out
    final = m.record["result"]
    assert not final["shared"]
    assert f"{names[final['winner']]} wins the match {max(final['score'])}-{min(final['score'])}." in out
    assert out.rstrip().endswith("wins the match 2-1.") or out.rstrip().endswith("wins the match 2-0.")
    assert os.listdir(path.parent).count("m.amigos") == 1
    assert not [f for f in os.listdir(path.parent) if f.endswith(".tmp")], "no temporary files left"


def test_the_cli_match_is_the_library_match(match_run):
    """Same seed and agents: the CLI plays the same decisions as `play` with agents seeded per seat."""
    from ai.agents import make_agent
    from amigos.rng import derive_seed
    from matches.match import play
    _, path = match_run
    m = Match.new(3, ["random", "greedy"])
    play(m, [make_agent(s, seed=derive_seed(3, "seat", i)) for i, s in enumerate(["random", "greedy"])])
    cli = load(path).record
    assert [[d[:2] for d in g["decisions"]] for g in cli["games"]] == \
        [[d[:2] for d in g["decisions"]] for g in m.record["games"]]
    assert cli["result"] == m.record["result"]


def test_play_runs_a_single_game(folder):
    result = amigos_cmd("play", "--p1", "random", "--p2", "greedy", "--seed", "3", "--save", "g.amigos", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert "Single game, seed 3, standard: Player 1 (random) vs Player 2 (greedy)" in result.stdout
    m = load(folder / "g.amigos")
    assert m.is_over() and m.record["best_of"] == 1 and len(m.record["games"]) == 1
    assert "Game 1, round" in result.stdout and "Game 2" not in result.stdout
    winners = m.record["games"][0]["result"]["winners"]
    names = [p["name"] for p in m.record["players"]]
    assert f"{names[winners[0]]} wins  (" in result.stdout


def test_cli_runner_match_in_process(folder, monkeypatch):
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(app, ["match", "--p1", "greedy", "--p2", "random", "--seed", "1",
                                      "--save", "c.amigos"])
    assert result.exit_code == 0, result.output
    assert "wins the match" in result.output
    assert load(folder / "c.amigos").is_over()


def test_default_save_path_is_named_after_the_seed(folder, monkeypatch):
    monkeypatch.chdir(folder)
    kept = folder / "kept" / "matches"
    monkeypatch.setenv("AMIGOS_MATCHES", str(kept))
    result = CliRunner().invoke(app, ["play", "--p1", "random", "--p2", "random", "--seed", "11"])
    assert result.exit_code == 0, result.output
    assert os.listdir(kept) == ["amigos-11.amigos"] and os.listdir(folder) == ["kept"]


def test_show(match_run, capsys):
    _, path = match_run
    before = snapshot(path)
    result = CliRunner().invoke(app, ["show", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Player 1 (random) vs Player 2 (greedy)" in out and "best of 3" in out and "seed 3" in out
    assert "finished" in out and "wins the match" in out
    assert snapshot(path) == before


def test_show_json(match_run):
    _, path = match_run
    result = CliRunner().invoke(app, ["show", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    record = load(path).record
    assert data["players"] == record["players"]
    assert data["status"] == "finished" and data["best_of"] == 3 and data["seed"] == 3
    assert data["result"] == record["result"]
    assert [g["game"] for g in data["games"]] == list(range(1, len(record["games"]) + 1))
    assert [g["winners"] for g in data["games"]] == [g["result"]["winners"] for g in record["games"]]
    assert [g["decisions"] for g in data["games"]] == [len(g["decisions"]) for g in record["games"]]
    assert len(data["redraft"]) == 15


# -- replay ----------------------------------------------------------------------------------------


def _position_after(record: dict, game: int, n: int):
    r = copy.deepcopy(record)
    r["games"] = r["games"][:game]
    r["games"][-1]["decisions"] = r["games"][-1]["decisions"][:n]
    r["games"][-1]["result"] = None
    r["games"][-1].pop("final_digest", None)
    r["status"], r["result"] = "unfinished", None
    return Match.from_record(r).state


def test_replay_board(match_run):
    _, path = match_run
    result = CliRunner().invoke(app, ["replay", str(path), "--game", "1", "--to", "10"])
    assert result.exit_code == 0, result.output
    assert "m.amigos: game 1 after 10 decisions" in result.output
    from amigos_cli.views.log import step_line
    from matches.session import history
    record = load(path).record
    tenth = [st for st in history(record) if st.game == 1][9]
    names = [p["name"] for p in record["players"]]
    said = " ".join(f"Decision 10: {step_line(tenth, None, names)}".split())
    assert said in " ".join(result.output.split())  # the move that led to the position, as the log told it


def test_replay_list_numbers_each_decision_as_replay_to_counts_them(match_run):
    """``replay --list``: a game's decisions with their numbers, decision N the one ``--to N`` ends on."""
    _, path = match_run
    listed = CliRunner().invoke(app, ["replay", str(path), "--game", "2", "--list"])
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    record = load(path).record
    count = len(record["games"][1]["decisions"])
    assert lines[0] == f"Game 2: {count} decisions" and len([x for x in lines if x[:5].strip().endswith(".")]) == count
    seventh = next(x for x in lines if x.startswith("   7. ")).split(". ", 1)[1]
    shown = CliRunner().invoke(app, ["replay", str(path), "--game", "2", "--to", "7"])
    assert " ".join(f"Decision 7: {seventh}".split()) in " ".join(shown.output.split())


def test_replay_into_a_pipe_keeps_each_line_of_the_board_whole(match_run, monkeypatch):
    """Printed into a pipe, where Rich would assume 80 columns, the board's lines are not wrapped."""
    from amigos import cards as C
    from amigos.codes import AVAILABLE
    _, path = match_run
    monkeypatch.delenv("COLUMNS", raising=False)
    result = CliRunner().invoke(app, ["replay", str(path), "--game", "1", "--to", "0"])
    assert result.exit_code == 0, result.output
    state = _position_after(load(path).record, 1, 0)
    places = [c.name for e, c in enumerate(state.cards) if state.loc[e] == AVAILABLE and c.kind == C.PLACE_OF_POWER]
    line = next(x for x in result.output.splitlines() if x.startswith("Places of power: "))
    assert len(line.rstrip()) > 80 and all(name in line for name in places), line


def test_replay_of_a_finished_game_names_its_winner(match_run):
    _, path = match_run
    record = load(path).record
    game = record["games"][0]
    names = [p["name"] for p in record["players"]]
    end = CliRunner().invoke(app, ["replay", str(path), "--game", "1", "--plain"])
    assert end.exit_code == 0, end.output
    flat = " ".join(end.output.split())
    winners = game["result"]["winners"]
    said = "Shared victory" if len(winners) > 1 else f"{names[winners[0]]} wins"
    assert said in flat and f"round {game['result'].get('rounds', '')}".strip() in flat
    middle = CliRunner().invoke(app, ["replay", str(path), "--game", "1", "--to", "10", "--plain"])
    assert " wins " not in middle.output and "Shared victory" not in middle.output


def test_replay_json_is_the_protocol_state(match_run):
    _, path = match_run
    result = CliRunner().invoke(app, ["replay", str(path), "--game", "1", "--to", "10", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"phase", "players", "entities"} <= set(data)
    assert len(data["players"]) == 2 and data["entities"]
    expected = amigos.dump_state(_position_after(load(path).record, 1, 10))
    assert data == json.loads(json.dumps(expected))


def test_replay_defaults_to_the_end_and_shows_setup_positions(match_run):
    _, path = match_run
    record = load(path).record
    end = json.loads(CliRunner().invoke(app, ["replay", str(path), "--json"]).output)
    assert end["phase"] == "GAME_OVER" and end["winner_ids"] == record["games"][-1]["result"]["winners"]
    start2 = json.loads(CliRunner().invoke(app, ["replay", str(path), "--game", "2", "--to", "0", "--json"]).output)
    assert start2["phase"] == "SETUP_CHOOSE_FIRST"


@pytest.mark.parametrize("args,fragment", [
    (["--game", "9"], "no game 9"),
    (["--game", "0"], "no game 0"),
    (["--game", "1", "--to", "100000"], "--to must be from 0"),
    (["--game", "1", "--to", "-1"], "--to must be from 0"),
])
def test_replay_out_of_range(match_run, capsys, args, fragment):
    _, path = match_run
    code, out, err = run_main(["replay", str(path), *args], capsys)
    assert_one_line_error(code, err, fragment)


# -- errors: one line, exit 2, nothing touched -------------------------------------------------------


def test_resume_of_a_finished_match_is_refused(match_run, capsys):
    _, path = match_run
    before = snapshot(path)
    code, out, err = run_main(["resume", str(path)], capsys)
    assert_one_line_error(code, err, "finished")
    assert snapshot(path) == before


def _bad_files(good: bytes) -> dict[str, bytes]:
    record = parse(good)
    digest = copy.deepcopy(record)
    digest["games"][0]["final_digest"] = "f" * 32
    newer = dict(record, version=99)
    illegal = copy.deepcopy(record)
    illegal["games"][0]["decisions"][0][1]["mage_name"] = "No Such Mage"
    return {"not-msgpack": b"\xc1 definitely not a match", "empty": b"", "truncated": good[: len(good) // 2],
            "digest": pack(digest), "newer": pack(newer), "undecodable": pack(illegal)}


BAD_FRAGMENTS = {"not-msgpack": "not an Amigos match file", "empty": "empty", "truncated": "truncated",
                 "digest": "digest mismatch", "newer": "newer", "undecodable": "game 1, decision 0"}


@pytest.mark.parametrize("command", ["show", "replay", "resume"])
@pytest.mark.parametrize("case", sorted(BAD_FRAGMENTS))
def test_bad_files_in_process(command, case, match_run, folder, capsys):
    _, good = match_run
    path = folder / f"{case}.amigos"
    path.write_bytes(_bad_files(good.read_bytes())[case])
    before = snapshot(path)
    code, out, err = run_main([command, str(path)], capsys)
    assert_one_line_error(code, err, BAD_FRAGMENTS[case], str(path))
    assert snapshot(path) == before


@pytest.mark.parametrize("command", ["show", "replay", "resume"])
def test_bad_file_subprocess(command, match_run, folder):
    _, good = match_run
    path = folder / "cut.amigos"
    path.write_bytes(good.read_bytes()[:-7])
    before = snapshot(path)
    result = amigos_cmd(command, "cut.amigos", cwd=folder)
    assert_one_line_error(result.returncode, result.stderr, "truncated")
    assert result.stdout == ""
    assert snapshot(path) == before


@pytest.mark.parametrize("command", ["show", "replay", "resume"])
def test_missing_file(command, folder, capsys):
    code, out, err = run_main([command, str(folder / "nope.amigos")], capsys)
    assert_one_line_error(code, err, "no such file")
    assert os.listdir(folder) == []


@pytest.mark.parametrize("args,fragment", [
    (["--p1", "wizard", "--p2", "random"], "unknown agent 'wizard'"),
    (["--p1", "random", "--p2", "mcts:iters=abc"], "must be a number"),
    (["--p1", "random", "--p2", "greedy:depth=2"], "no parameter depth"),
    (["--p1", "random", "--p2", "random", "--variant", "chaos"], "unknown variant 'chaos'"),
])
@pytest.mark.parametrize("command", ["match", "play"])
def test_bad_options_are_one_line(command, args, fragment, folder, capsys):
    code, out, err = run_main([command, *args, "--seed", "1", "--save", str(folder / "x.amigos")], capsys)
    assert_one_line_error(code, err, fragment)
    assert os.listdir(folder) == [], "nothing is written"


def test_bad_spec_subprocess(folder):
    result = amigos_cmd("match", "--p1", "wizard", "--p2", "random", "--seed", "1", "--save", "x.amigos", cwd=folder)
    assert_one_line_error(result.returncode, result.stderr, "unknown agent")
    assert os.listdir(folder) == []


def test_variant_with_a_dash_is_accepted(folder, capsys):
    code, out, err = run_main(["play", "--p1", "random", "--p2", "random", "--seed", "2", "--variant", "first-game",
                               "--save", str(folder / "fg.amigos")], capsys)
    assert code == 0, err
    assert load(folder / "fg.amigos").record["variant"] == "first_game"


def test_save_to_an_existing_file_is_refused(match_run, folder):
    _, good = match_run
    path = folder / "taken.amigos"
    shutil.copy(good, path)
    before = snapshot(path)
    result = amigos_cmd("match", "--p1", "random", "--p2", "random", "--seed", "4", "--save", "taken.amigos",
                        cwd=folder)
    assert_one_line_error(result.returncode, result.stderr, "exists already", "amigos resume taken.amigos")
    assert snapshot(path) == before


def test_save_into_a_missing_folder_is_one_line(folder, capsys):
    code, out, err = run_main(["play", "--p1", "random", "--p2", "random", "--seed", "1",
                               "--save", str(folder / "nodir" / "x.amigos")], capsys)
    assert_one_line_error(code, err)


# -- killed and resumed ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def killed(shared_folder, tmp_path_factory):
    """``amigos match --p1 random --p2 random --seed 5`` killed with SIGKILL mid-match, ~0.3 s after its
    file appears (sooner on a machine so fast that 40 decisions are saved before then), then resumed;
    plus an uninterrupted run of the same match for comparison.

    The killed run saves to an ordinary disk folder, where the fsync after every decision makes the match
    take seconds; the resume runs on a copy in the fast folder.  The kill cannot come too late: every few
    milliseconds the process is stopped (SIGSTOP) and its file read, and it is killed while stopped once
    the file holds decisions of an unfinished match, so a fast machine kills early instead of skipping."""
    disk = tmp_path_factory.mktemp("kill")
    path = disk / "k.amigos"
    proc = subprocess.Popen([sys.executable, "-m", "amigos_cli", "match", "--p1", "random", "--p2", "random",
                             "--seed", "5", "--save", "k.amigos"], cwd=disk, env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not path.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        assert path.exists(), "the match's file appeared"
        appeared = time.monotonic()
        while proc.poll() is None and time.monotonic() < deadline:
            proc.send_signal(signal.SIGSTOP)
            seen = load(path)  # (written whole and renamed into place: a stopped writer leaves it loadable)
            made = sum(len(g["decisions"]) for g in seen.record["games"])
            if made and not seen.is_over() and (made >= 40 or time.monotonic() - appeared >= 0.3):
                break
            proc.send_signal(signal.SIGCONT)
            time.sleep(0.005)
        assert proc.poll() is None, "the match ended before it could be killed mid-match"
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    after_kill = load(path)
    # a kill -9 leaves the lock file (unlocked: the next session takes it) and perhaps a temporary
    temporaries = [f for f in os.listdir(disk) if f not in ("k.amigos", ".k.amigos.lock")]
    folder = shared_folder / "kill"
    folder.mkdir()
    shutil.copy(path, folder / "k.amigos")
    resumed = amigos_cmd("resume", "k.amigos", cwd=folder)
    full = amigos_cmd("match", "--p1", "random", "--p2", "random", "--seed", "5", "--save", "full.amigos",
                      cwd=folder)
    assert full.returncode == 0, full.stderr
    return {"path": folder / "k.amigos", "after_kill": after_kill, "temporaries": temporaries,
            "resumed": resumed, "full": load(folder / "full.amigos"), "folder": folder}


def test_kill_leaves_a_loadable_unfinished_file(killed):
    m = killed["after_kill"]
    assert not m.is_over(), "killed mid-match"
    assert sum(len(g["decisions"]) for g in m.record["games"]) > 0
    # at most one stray temporary from a write cut by the kill; never a damaged match file
    assert all(f.startswith(".k.amigos.") and f.endswith(".tmp") for f in killed["temporaries"])
    assert len(killed["temporaries"]) <= 1


def test_resume_after_kill_finishes_the_match(killed, capsys):
    resumed = killed["resumed"]
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming k.amigos" in resumed.stdout and "wins the match" in resumed.stdout
    code, out, err = run_main(["show", str(killed["path"]), "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["status"] == "finished" and data["result"] is not None
    m = load(killed["path"])
    # the decisions made before the kill are kept as they were
    before = killed["after_kill"].record["games"]
    for g_before, g_now in zip(before, m.record["games"]):
        assert g_now["decisions"][:len(g_before["decisions"])] == g_before["decisions"]


def test_resume_after_kill_gives_the_uninterrupted_record(killed):
    resumed, full = load(killed["path"]).record, killed["full"].record
    assert [[d[:2] for d in g["decisions"]] for g in resumed["games"]] == \
        [[d[:2] for d in g["decisions"]] for g in full["games"]]
    assert resumed["result"] == full["result"]


# -- a person at the prompt ------------------------------------------------------------------------


def test_human_game_with_scripted_input(folder):
    stdin = "x\n999\n" + "1\n" * 3000
    result = amigos_cmd("play", "--p1", "human", "--p2", "random", "--seed", "7", "--save", "h.amigos",
                        cwd=folder, stdin=stdin)
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    # the bad answers are explained and the question is asked again
    assert "'x' is not a choice: type a number from 1 to" in out
    assert "'999' is not a choice: type a number from 1 to" in out
    assert out.count("Your choice: ") > 3
    m = load(folder / "h.amigos")
    assert m.is_over() and len(m.record["games"]) == 1, "the game was played to its end"
    assert m.record["players"][0] == {"name": "You", "spec": "human"}
    assert any(d[0] == 0 for d in m.record["games"][0]["decisions"])
    assert "Resume with" not in out


def test_human_quits_with_q_and_the_file_resumes(folder):
    stdin = "1\n1\n1\nq\n"
    result = amigos_cmd("play", "--p1", "human", "--p2", "random", "--seed", "7", "--save", "q.amigos",
                        cwd=folder, stdin=stdin)
    assert result.returncode == 0, result.stderr[-2000:]
    assert re.search(r"Saved to q\.amigos\. Resume with: (\S*/)?amigos resume q\.amigos", result.stdout)
    m = load(folder / "q.amigos")
    assert not m.is_over()
    mine = [d for d in m.record["games"][0]["decisions"] if d[0] == 0]
    assert len(mine) == 3, "the three answers before q are kept"
    resumed = amigos_cmd("resume", "q.amigos", cwd=folder, stdin="1\n" * 3000)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert "Resuming q.amigos" in resumed.stdout
    done = load(folder / "q.amigos")
    assert done.is_over()
    assert done.record["games"][0]["decisions"][:len(m.record["games"][0]["decisions"])] == \
        m.record["games"][0]["decisions"]


def test_end_of_input_saves_and_exits_cleanly(folder):
    result = amigos_cmd("play", "--p1", "human", "--p2", "random", "--seed", "7", "--save", "e.amigos",
                        cwd=folder, stdin="1\n")
    assert result.returncode == 0, result.stderr[-2000:]
    assert re.search(r"Resume with: (\S*/)?amigos resume e\.amigos", result.stdout)
    assert not load(folder / "e.amigos").is_over()


# -- the usability audit's findings (/tmp/ux/REPORT.md): each test failed before its fix -----------------------


def _strings(data) -> set:
    """Every string anywhere in a JSON value."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_strings(v) for v in data.values()), set(data))
    if isinstance(data, list):
        return set().union(set(), *(_strings(v) for v in data))
    return set()


def _person_against_ai(path: Path, decisions: int) -> Match:
    """A person (player 1) against ``greedy`` (player 2), who chooses its mage first (the audit's seed); the
    first ``decisions`` decisions made at random."""
    return partly_played(path, decisions, 3859974119, ["human", "greedy"], "game", ["You", "Player 2 (greedy)"])

def test_replay_json_of_a_persons_match_hides_the_ai_s_secret_mage(folder):
    path = folder / "p.amigos"
    match = _person_against_ai(path, 1)
    (actor, step), = [d[:2] for d in match.record["games"][0]["decisions"]]
    assert actor == 1 and step["__type__"] == "ChooseMage"
    state = match.state
    hidden = [c for e, c in enumerate(state.cards) if state.owner[e] == 1 and c.kind == amigos.cards.MAGE]
    assert any(c.name == step["mage_name"] for c in hidden)
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data == json.loads(json.dumps(state.observation(0)))  # what the person may see
    strings = _strings(data)
    for c in hidden:
        assert c.id not in strings and c.name not in strings
    assert "Choose" not in result.output


def test_replay_json_of_a_persons_match_hides_the_ai_s_hand_and_deck(folder):
    from amigos_cli.commands.replay import position
    path = folder / "p.amigos"
    _person_against_ai(path, 40)
    tested = 0
    for to in (None, 12, 30):
        state = position(load(path), 1, to)[0]
        # (a card the person saw go from the AI's discard pile into its deck is known, not secret)
        secret = [c for e, c in enumerate(state.cards[:state.n_art])
                  if state.owner[e] == 1 and state.loc[e] in (amigos.codes.HAND, amigos.codes.DECK)
                  and c.id not in state.known_decks[0]]
        mine = [c for e, c in enumerate(state.cards[:state.n_art])
                if state.owner[e] == 0 and state.loc[e] == amigos.codes.HAND]
        assert mine or to is not None
        if not secret:  # every hidden card of the AI known by now: nothing to hide here
            continue
        tested += 1
        args = [] if to is None else ["--game", "1", "--to", str(to)]
        data = json.loads(CliRunner().invoke(app, ["replay", str(path), "--json", *args]).output)
        assert data["player"] == 0
        strings = _strings(data)
        for c in secret:
            assert c.id not in strings and c.name not in strings
        assert all(c.id in strings for c in mine), "your own hand is there"
        # the text view shows the same side
        text = CliRunner().invoke(app, ["replay", str(path), *args], env={"COLUMNS": "200"}).output
        assert "Your hand:" in text and all(c.name not in text for c in secret)
    assert tested >= 2


def test_replay_of_ai_games_names_whose_hand_it_shows(match_run):
    _, path = match_run
    result = CliRunner().invoke(app, ["replay", str(path), "--game", "1", "--to", "10"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Your hand" not in result.output and "Player 1 (random)'s hand:" in result.output


def test_show_says_you_win(folder, capsys):
    from ai.agents import make_agent
    from matches.match import play
    from matches.record import save
    for seed in range(1, 40):
        match = Match.new(seed, ["human", "random"], fmt="game", names=["You", "AI (random)"])
        play(match, [make_agent("greedy", seed=seed), make_agent("random", seed=seed)])
        if match.record["result"]["winner"] == 0:
            break
    assert match.record["result"]["winner"] == 0
    save(match, folder / "w.amigos")
    code, out, err = run_main(["show", str(folder / "w.amigos")], capsys)
    assert code == 0, err
    assert "You win the game." in out and "You wins" not in out


def test_ctrl_c_at_the_prompt_saves_prints_the_resume_command_and_exits_130(folder):
    """As ``tournament`` does, and unlike ``q``, which is no interruption (exit 0)."""
    path = folder / "i.amigos"
    proc = subprocess.Popen([sys.executable, "-m", "amigos_cli", "play", "--p1", "human", "--p2", "random",
                             "--seed", "7", "--save", "i.amigos"], cwd=folder, env=ENV, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            # as at a terminal: a runner started in the background ignores Ctrl-C, and
                            # its children would inherit that
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    chars: list[str] = []  # (the prompt ends without a newline: read it as it comes)
    reader = threading.Thread(target=lambda: chars.extend(iter(lambda: proc.stdout.read(1), "")), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60  # (a loaded machine is slow to start)
        while "Your choice" not in "".join(chars[-200:]) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)  # at the first prompt, waiting for input
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        reader.join(timeout=10)
        out, err = "".join(chars), proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert re.search(r"Saved to i\.amigos\. Resume with: (\S*/)?amigos resume i\.amigos", out)
    assert "Traceback" not in err
    assert not load(path).is_over()


def test_an_agent_refused_when_built_is_refused_before_anything_is_printed(folder, capsys, monkeypatch):
    """Any `SpecError` an agent raises when built (not only `parse_spec`'s) comes before the header."""
    import ai.agents
    from ai.agents import SpecError

    def refuse(**params):
        raise SpecError("expectimax refuses these settings")

    monkeypatch.setattr(ai.agents, "ExpectimaxAgent", refuse)
    code, out, err = run_main(["play", "--p1", "random", "--p2", "expectimax:depth=2", "--seed", "1",
                               "--save", str(folder / "x.amigos")], capsys)
    assert_one_line_error(code, err, "refuses these settings")
    assert out == ""
    assert os.listdir(folder) == []


@pytest.mark.parametrize("spec", ["expectimax:depth=0", "mcts:iters=0", "mcts:iters=-5", "mcts:time=-1",
                                  "mcts:iters=50,workers=0"])
def test_nonsense_agent_values_are_refused_before_anything_is_printed(spec, folder, capsys):
    code, out, err = run_main(["play", "--p1", "random", "--p2", spec, "--seed", "1",
                               "--save", str(folder / "x.amigos")], capsys)
    assert_one_line_error(code, err, "agent parameter")
    assert out == ""
    assert os.listdir(folder) == []


def test_replay_reaches_every_game_and_decision_of_real_matches(tmp_path):
    """``replay --game K --to N`` for every game of finished and unfinished matches, at a sample of N
    (the first, the last, and some between): the position is the one the match passed through."""
    from ai.agents import make_agent
    from amigos_cli.commands.replay import position
    from matches.match import Match as M
    from matches.match import play as play_match
    finished = M.new(21, ["random", "greedy"], fmt="match", names=["A", "B"])
    play_match(finished, [make_agent("random", seed=1), make_agent("greedy", seed=2)])
    assert finished.is_over() and len(finished.record["games"]) >= 2
    cut = copy.deepcopy(finished.record)
    cut["games"] = cut["games"][:2]
    cut["games"][1]["decisions"] = cut["games"][1]["decisions"][:30]
    cut["games"][1]["result"] = None
    cut["games"][1].pop("final_digest")
    cut["status"], cut["result"] = "unfinished", None
    for record in (finished.record, cut):
        match = M.from_record(copy.deepcopy(record))
        for k, game in enumerate(record["games"], 1):
            n = len(game["decisions"])
            for to in sorted({0, 1, n // 3, n // 2, n - 1, n}):
                state, got_k, got_n = position(match, k, to, "f.amigos")
                assert (got_k, got_n) == (k, to)
                expect = _replayed(record, k, to)
                assert state.digest() == expect.digest(), (k, to)
            if game.get("final_digest"):
                state, _, _ = position(match, k, None, "f.amigos")
                assert state.digest() == game["final_digest"]


def _replayed(record, k, to):
    """The position of game ``k`` after ``to`` of its decisions, replayed step by step."""
    import amigos
    from matches.match import Match as M
    from matches.match import config_of
    match = M.new(record["seed"], [p["spec"] for p in record["players"]], config_of(record),
                  fmt="match" if record["best_of"] > 1 else "game")
    for gi, game in enumerate(record["games"][:k], 1):
        for di, (_actor, step, *_rest) in enumerate(game["decisions"]):
            if gi == k and di == to:
                match.to_act()
                return match.state
            match.to_act()
            match.decide(amigos.action_from_json(match.state, step), stamp=False)
    match.to_act()
    return match.previous_state if match.game_number > k else match.state


@pytest.mark.slow
def test_control_codes_from_a_file_never_reach_the_terminal(tmp_path):
    """A player name with escape sequences (clear the screen, a C1 CSI, a bidi override) is shown
    escaped by show, show --json and replay, and so is a file name in an error."""
    from ai.agents import make_agent
    from matches.match import Match as M
    from matches.match import play as play_match
    from matches.record import save
    hostile = "Eve\x1b[2J\x9b31m\u202e"
    match = M.new(4, ["random", "random"], fmt="game", names=[hostile, "Bob"])
    play_match(match, [make_agent("random", seed=1), make_agent("random", seed=2)])
    path = tmp_path / "evil.amigos"
    save(match, path)
    for args in (["show", str(path)], ["show", str(path), "--json"], ["replay", str(path)],
                 ["replay", str(path), "--json"]):
        result = amigos_cmd(*args, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        out = result.stdout
        assert "\x1b" not in out and "\x9b" not in out and "\u202e" not in out, args
        assert "Eve" in out or "--json" in args and "replay" in args
    bad = tmp_path / "x\x1b[2Jy.amigos"
    bad.write_bytes(b"\xc1 not msgpack")
    result = amigos_cmd("show", str(bad), cwd=tmp_path)
    assert result.returncode == 2 and "\x1b" not in result.stderr and "\\x1b" in result.stderr


def test_an_agent_spec_from_a_file_starts_no_more_workers_than_cores():
    import os as _os

    from ai.agents import parse_spec
    from matches.session import bounded_spec
    cores = _os.cpu_count() or 1
    assert parse_spec(bounded_spec("mcts:time=1,workers=256"))[1]["workers"] == cores
    assert bounded_spec("mcts:iters=50") == "mcts:iters=50"
    assert bounded_spec("greedy") == "greedy"


def test_an_ai_playing_a_person_searches_on_two_cores_unless_its_spec_says_otherwise(tmp_path):
    """The person thinks, the AI waits: with no ``workers`` in its spec a timed search against a person
    uses two processes (the cores a person leaves idle); against AIs alone, with an iteration budget
    (reproducible) or with ``workers`` written, the spec is as written.  The record keeps the spec."""
    import os as _os

    from ai.agents import make_agent, parse_spec
    from matches.session import PERSON_CORES, Session, bounded_spec
    cores = _os.cpu_count() or 1
    person = parse_spec(bounded_spec("mcts:time=1.0", against_a_person=True))[1]
    assert person["workers"] == min(PERSON_CORES, cores) and person["ponder"] == 1
    assert parse_spec(bounded_spec("mcts:time=1.0,workers=1", against_a_person=True))[1] == \
        {"time": 1.0, "workers": 1, "ponder": 1}  # (its workers as written: it thinks on in the person's time)
    for spec in ("mcts:time=1.0", "mcts:iters=500", "mcts:time=1.0,workers=1,ponder=0", "greedy"):
        assert bounded_spec(spec, against_a_person=spec != "mcts:time=1.0") == spec
    match = Match.new(3, ["human", "mcts:time=0.5"], fmt="game")
    session = Session(match, tmp_path / "m.amigos", seat_for=lambda seat: make_agent("random"))
    assert session.controllers[1].workers == min(PERSON_CORES, cores)
    assert match.record["players"][1]["spec"] == "mcts:time=0.5"
    alone = Session(Match.new(3, ["mcts:time=0.5", "greedy"], fmt="game"), tmp_path / "n.amigos",
                    seat_for=lambda seat: make_agent("random"))
    assert alone.controllers[0].workers == 1
