"""Tournaments and strength runs on a Dask cluster (``--scheduler``, `matches.runner.DaskRunner`): a real
`distributed.LocalCluster` of two worker processes plays the games, the same games as local
processes; a worker killed in the middle of a game loses only that game, played again elsewhere,
and every game is written once; a scheduler out of reach or lost is a one-line error (exit code 2);
without Dask installed, ``--scheduler`` says what to install.  Cheap agents and a few games only.

The cluster tests skip when ``distributed`` is not installed (the ``cluster`` extra; the ``test``
extra installs it, so CI runs them).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from matches import report
from matches import runner as R
from matches import tournament as T
from matches.arena import strength
from matches.match import Match
from matches.record import load
from matches.sprt import SprtTest

pytestmark = pytest.mark.slow  # Dask clusters, schedulers and workers started as processes

needs_dask = pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                                reason="Dask distributed is not installed (pip install '.[cluster]')")

AGENTS = ["greedy", "mcts:iters=20"]
SEED = 7
GAMES = 4  # per pairing: 2 deals, each played with the seats swapped
START_TIMEOUT = 60  # seconds for a scheduler and its worker, started as commands, to be ready


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, behind a scheduler in this process."""
    import distributed
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as local:
        yield local


def _moves(match) -> list:
    """Every decision of a match without its thinking time: [actor, action, iterations?, value?]."""
    return [[d[0], d[1]] + list(d[3:]) for g in match.record["games"] for d in g["decisions"]]


def _games(out: Path) -> dict:
    """Job id -> (moves, result) of every match file in ``out``."""
    return {_id(m := load(p)): (_moves(m), m.record["result"]) for p in sorted(out.glob("*.amigos"))}


def _id(match: Match) -> str:
    """The scheduled game a tournament's match file holds."""
    return match.record["tournament"]["id"]


def _ids(out: Path) -> list[str]:
    return sorted(_id(load(p)) for p in out.glob("*.amigos"))


def _free_port() -> int:
    """A local TCP port nothing listens on (bound and let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- the same games as local processes ------------------------------------------------------------------

@needs_dask
def test_a_cluster_plays_the_same_games_as_local_processes(cluster, tmp_path):
    seen = []
    on_cluster = T.run(tmp_path / "cluster", T.TournamentSpec(AGENTS, GAMES, SEED),
                       on_result=lambda r, done, total: seen.append((r["id"], done, total)),
                       runner=R.DaskRunner(cluster.scheduler_address))
    local = T.run(tmp_path / "local", T.TournamentSpec(AGENTS, GAMES, SEED), jobs=2)
    ids = [job["id"] for job in T.schedule(AGENTS, GAMES, SEED)]
    assert sorted(r["id"] for r in on_cluster) == sorted(ids)  # every game once
    assert [d for _, d, _ in seen] == [1, 2, 3, 4] and {t for _, _, t in seen} == {4}
    by_id = {r["id"]: r for r in local}
    assert all(r == by_id[r["id"]] for r in on_cluster)
    assert _games(tmp_path / "cluster") == _games(tmp_path / "local")
    assert report.write_summary(tmp_path / "cluster") == report.write_summary(tmp_path / "local")


@needs_dask
def test_a_strength_run_on_a_cluster_scores_the_pairs_of_a_local_run(cluster):
    records: list[dict] = [[], []]  # type: ignore[list-item]
    for i, scheduler in enumerate([cluster.scheduler_address, None]):
        strength("greedy", "random", 6, seed=SEED, record=records[i].append, scheduler=scheduler)
    for r in records[0] + records[1]:
        for g in r["games"]:
            del g["a_thought"], g["b_thought"]
    assert records[0] == records[1]
    assert [r["pair"] for r in records[0]] == [0, 1, 2]  # recorded in pair order


@needs_dask
def test_sprt_on_a_cluster_reaches_the_verdict_of_a_serial_run(cluster, tmp_path):
    sprt = SprtTest(0.0, 150.0, 0.2, 0.2)  # (a verdict after 8 pairs)
    records = []
    for runner in (R.DaskRunner(cluster.scheduler_address), R.InProcessRunner()):
        out = tmp_path / type(runner).__name__
        T.run(out, T.TournamentSpec(["greedy", "random"], 400, 4, sprt=sprt), runner=runner)
        records.append(T.sprt_of(*T.collect(out)).record())
        assert len(list(out.glob("*.amigos"))) < 400  # stopped, the rest cancelled
    assert records[0] == records[1] and records[0]["result"] == "H1"


@needs_dask
def test_the_cli_plays_a_tournament_on_the_cluster(cluster, tmp_path):
    out = tmp_path / "T"
    command = [sys.executable, "-m", "amigos_cli", "tournament", "--agent", "random", "--agent", "greedy",
               "--games", "2", "--scheduler", cluster.scheduler_address, "--out", str(out)]
    proc = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    assert "Final standings" in proc.stdout and "--scheduler" in proc.stdout  # (in the resume command)
    assert _ids(out) == ["0-1-0-0", "0-1-0-1"]
    assert json.loads((out / "summary.json").read_text())["played"] == 2


# -- faults ---------------------------------------------------------------------------------------------------

@needs_dask
def test_a_worker_killed_mid_game_loses_only_that_game(cluster, tmp_path):
    """After the first result, the process of a worker in the middle of a game is killed (kill -9):
    its game is played again (by the other worker or the killed one's replacement) and every game of
    the tournament is written exactly once."""
    import distributed
    agents = ["greedy", "mcts:iters=20", "random"]
    ids = sorted(job["id"] for job in T.schedule(agents, 2, SEED))
    killed: list[int] = []
    killed_at: list[float] = []  # (the scheduler's transition log is stamped with the same clock)
    in_flight: list[str] = []  # the scheduler's keys of the games the killed worker had
    seen: list[str] = []
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as watcher:

        def kill_a_busy_worker(result: dict, done: int, total: int) -> None:
            seen.append(result["id"])
            if killed:
                return
            for _ in range(200):  # (the freed worker takes its next game within moments)
                busy = [w for w, keys in watcher.processing().items() if keys]
                if busy:
                    break
                time.sleep(0.01)
            in_flight.extend(watcher.processing()[busy[0]])
            pid = watcher.run(os.getpid, workers=busy[:1])[busy[0]]
            killed_at.append(time.time())
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

        results = T.run(tmp_path / "t", T.TournamentSpec(agents, 2, SEED), on_result=kill_a_busy_worker, runner=R.DaskRunner(cluster.scheduler_address))
    assert killed and in_flight
    with pytest.raises(ProcessLookupError):
        os.kill(killed[0], 0)
    for key in in_flight:  # each was started again after the kill, and finished once after it
        story = cluster.scheduler.story(key)
        before = [event.finish for event in story if event.timestamp < killed_at[0]]
        after = [event.finish for event in story if event.timestamp >= killed_at[0]]
        if "memory" in before:
            continue  # (it finished in the moment between the look at the worker and the kill)
        assert "processing" in after and after.count("memory") == 1, (before, after)
    assert sorted(seen) == ids and sorted(r["id"] for r in results) == ids  # each once
    assert _ids(tmp_path / "t") == ids
    assert all(load(p).is_over() for p in (tmp_path / "t").glob("*.amigos"))


def _start(*command: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "distributed.cli." + command[0], *command[1:]],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


@needs_dask
def test_a_lost_scheduler_is_an_error_and_the_finished_games_are_kept(tmp_path):
    """The scheduler (a `dask scheduler` command) killed after the first game: a `RunnerError`,
    the games finished by then on disk, and the tournament completes on --resume."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    scheduler = _start("dask_scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                       "--no-dashboard")
    worker = _start("dask_worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard")
    try:
        runner = R.DaskRunner(address, timeout=START_TIMEOUT)

        def kill_the_scheduler(result: dict, done: int, total: int) -> None:
            if scheduler.poll() is None:
                scheduler.kill()
                scheduler.wait()

        with pytest.raises(R.RunnerError, match="lost the Dask scheduler"):
            T.run(tmp_path / "t", T.TournamentSpec(AGENTS, GAMES, SEED), on_result=kill_the_scheduler, runner=runner)
    finally:
        for process in (scheduler, worker):
            process.kill()
            process.wait()
    kept = _ids(tmp_path / "t")
    assert 1 <= len(kept) < 4 and all(load(p).is_over() for p in (tmp_path / "t").glob("*.amigos"))
    rest = T.run(tmp_path / "t", T.TournamentSpec(AGENTS, GAMES, SEED), resume=True)
    assert len(rest) == 4 - len(kept)


# -- the command's one-line errors ------------------------------------------------------------------------

def _main(argv: list[str], monkeypatch, capsys) -> tuple[int, str, str]:
    """Run ``amigos ARGV`` in this process: (exit code, stdout, stderr)."""
    from amigos_cli import app as app_module
    monkeypatch.setattr(sys, "argv", ["amigos", *argv])
    with pytest.raises(SystemExit) as exit_info:
        app_module.main(argv)
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


@needs_dask
def test_an_unreachable_scheduler_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(R, "CONNECT_TIMEOUT", 0.5)
    out = tmp_path / "never"
    address = f"tcp://127.0.0.1:{_free_port()}"
    code, printed, err = _main(["tournament", "--agent", "random", "--agent", "greedy", "--games", "2",
                                "--scheduler", address, "--out", str(out)], monkeypatch, capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"amigos: cannot reach the Dask scheduler at {address}"), err
    assert printed == "" and not out.exists()


def test_without_dask_the_scheduler_option_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # (so `import distributed` fails)
    out = tmp_path / "never"
    code, printed, err = _main(["tournament", "--agent", "random", "--agent", "greedy", "--games", "2",
                                "--scheduler", "tcp://127.0.0.1:8786", "--out", str(out)], monkeypatch, capsys)
    assert code == 2
    assert err.strip() == "amigos: --scheduler needs Dask distributed, which is not installed: " \
                          "pip install '.[cluster]' in the amigos folder"
    assert printed == "" and not out.exists()


def test_jobs_and_a_scheduler_together_are_refused(tmp_path, monkeypatch, capsys):
    code, printed, err = _main(["tournament", "--agent", "random", "--agent", "greedy", "--jobs", "2",
                                "--scheduler", "tcp://127.0.0.1:8786", "--out", str(tmp_path / "never")],
                               monkeypatch, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--jobs or --scheduler" in err
    assert printed == "" and not (tmp_path / "never").exists()


def test_runners_in_process_and_in_local_processes_agree():
    """The interface every runner has: each job's result once, under its key; a job's error raised."""
    for runner in (R.InProcessRunner(), R.ProcessRunner(2)):
        with runner:
            for n in range(4):
                runner.submit(str(n), pow, n, 2)
            assert sorted(runner.as_completed()) == [("0", 0), ("1", 1), ("2", 4), ("3", 9)]
            runner.submit("bad", int, "x")
            with pytest.raises(ValueError):
                list(runner.as_completed())


def test_a_record_from_another_version_of_amigos_is_refused(tmp_path):
    """A worker with another amigos installed plays other games: its record is not written."""
    settings = T.manifest(T.TournamentSpec(["random", "greedy"], 2, SEED))
    job = settings["schedule"][0]
    record = T.play_job(job, settings)
    with pytest.raises(T.TournamentError, match="install the same version on every machine"):
        T.save_job(tmp_path, job, {**record, "rules_version": record["rules_version"] + 1}, settings)
    assert not list(tmp_path.iterdir())
    assert T.save_job(tmp_path, job, record, settings)["id"] == job["id"]
    assert load(tmp_path / T.game_file(job, settings)).is_over()


# -- a game's review on a cluster (``amigos review --scheduler``) ------------------------------------------

@pytest.fixture(scope="module")
def reviewed(tmp_path_factory) -> tuple[Path, dict]:
    """A short finished game, saved: (path, record)."""
    from ai.agents import make_agent
    from amigos.config import GameConfig
    from matches.match import play
    from matches.record import save
    path = tmp_path_factory.mktemp("review") / "g.amigos"
    match = Match.new(13, ["greedy", "random"], GameConfig(), fmt="game")
    play(match, [make_agent("greedy", seed=1), make_agent("random", seed=2)])
    save(match, path)
    return path, match.record


@needs_dask
def test_a_review_on_a_cluster_is_the_review_made_in_this_process(cluster, reviewed):
    from matches import review as RV
    _, record = reviewed
    seen: list[tuple[int, int]] = []
    here = RV.review(record, [0], 60, seed=2)
    there = RV.review(record, [0], 60, seed=2, progress=lambda done, total: seen.append((done, total)),
                      scheduler=cluster.scheduler_address)
    assert there.decisions == here.decisions and len(here.decisions) > 4
    assert seen[-1] == (len(here.decisions), len(here.decisions))


@needs_dask
def test_a_review_with_an_unreachable_scheduler_is_one_line_and_keeps_nothing(reviewed, monkeypatch, capsys):
    monkeypatch.setattr(R, "CONNECT_TIMEOUT", 0.5)
    path, _ = reviewed
    address = f"tcp://127.0.0.1:{_free_port()}"
    code, printed, err = _main(["review", str(path), "--iters", "60", "--scheduler", address], monkeypatch, capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"amigos: cannot reach the Dask scheduler at {address}"), err
    assert printed == "" and not path.with_name(path.name + ".review").exists()


def test_a_review_with_jobs_and_a_scheduler_is_refused(reviewed, monkeypatch, capsys):
    path, _ = reviewed
    code, printed, err = _main(["review", str(path), "--jobs", "2", "--scheduler", "tcp://127.0.0.1:8786"],
                               monkeypatch, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--jobs or --scheduler" in err
    assert printed == ""
