"""Runners: where independent jobs (games, pairs of games) are played, behind one interface, so that
tournaments, strength runs and self-play read the same whether they run in this process, in local
processes or on a Dask cluster.

A job is a function and its arguments under a key.  ``submit(key, fn, *args)`` queues it and
``as_completed()`` yields ``(key, result)`` as each job ends (in the order they end), until none is
pending; a job's exception is raised there.  `stop` (also on leaving a ``with`` block) cancels the
jobs not started and gives up those in flight, so a caller that has what it needs (an SPRT verdict)
or is interrupted simply leaves the block.  The function and its arguments must be picklable by
reference (a module-level function of an installed package), and its result plain data: a worker
on another machine shares no file and no memory with the caller, which does everything else (files,
progress, standings) with the results.

`open_runner(jobs, scheduler)` picks the runner: with ``scheduler`` (``tcp://HOST:8786``) the Dask
cluster behind it (`DaskRunner`; needs the ``cluster`` extra, imported only then), else ``jobs``
local processes (`ProcessRunner`), or this process alone for one job at a time (`InProcessRunner`).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import urllib.parse
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import ModuleType, TracebackType
from typing import Any

from ai.mcts import worker_context
from amigos.errors import AmigosError

#: Seconds allowed to reach a scheduler, or to close the connection to it, before giving up.
CONNECT_TIMEOUT = 3.0

#: Seconds a scheduler's address has to answer a first connection (`probe_scheduler`).
PROBE_TIMEOUT = 2.0
#: Seconds between tries of a scheduler's address that refuses connections (it may be starting).
PROBE_RETRY = 0.5

#: What to install for ``--scheduler``: the optional extra of pyproject.toml, as the README installs
#: amigos (from its folder; no package index has it).
INSTALL = "pip install '.[cluster]' in the amigos folder"

#: A logging level above every message Dask logs (see `DaskRunner`).
SILENT = logging.CRITICAL + 1

#: How often a worker process looks for its parent (`die_with_parent`), in seconds.
PARENT_POLL = 0.5


class RunnerError(AmigosError):
    """The runner cannot go on: no Dask installed, a scheduler that cannot be reached or was lost,
    or a job that kept killing the workers that ran it.  The message is one line."""


class Runner(ABC):
    """Runs submitted jobs and hands back their results as they finish (see the module's text)."""

    @abstractmethod
    def submit(self, key: str, fn: Callable[..., Any], *args: Any) -> None:
        """Queue ``fn(*args)`` under ``key`` (unique among the jobs pending)."""

    @abstractmethod
    def as_completed(self) -> Iterator[tuple[str, Any]]:
        """Yield ``(key, result)`` of every job submitted, each once, as it ends, until none is
        pending; a job that raised raises here (`RunnerError` if the runner itself failed)."""

    @abstractmethod
    def stop(self) -> None:
        """Cancel the jobs not started and give up those in flight without waiting for them;
        release what the runner holds.  Calling it again does nothing."""

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


class InProcessRunner(Runner):
    """Each job played in this process when `as_completed` reaches it, in the order submitted (so a
    caller that stops early plays nothing more)."""

    def __init__(self) -> None:
        self.queue: list[tuple[str, Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, key: str, fn: Callable[..., Any], *args: Any) -> None:
        self.queue.append((key, fn, args))

    def as_completed(self) -> Iterator[tuple[str, Any]]:
        while self.queue:
            key, fn, args = self.queue.pop(0)
            yield key, fn(*args)

    def stop(self) -> None:
        self.queue.clear()


class ProcessRunner(Runner):
    """Jobs played in ``jobs`` local worker processes, which exit if this process is killed."""

    def __init__(self, jobs: int) -> None:
        self.pool = ProcessPoolExecutor(max_workers=jobs, initializer=die_with_parent, mp_context=worker_context())
        self.pending: dict[Future[Any], str] = {}

    def submit(self, key: str, fn: Callable[..., Any], *args: Any) -> None:
        self.pending[self.pool.submit(fn, *args)] = key

    def as_completed(self) -> Iterator[tuple[str, Any]]:
        while self.pending:
            finished, _ = wait(list(self.pending), return_when=FIRST_COMPLETED)
            for future in finished:
                key = self.pending.pop(future)
                yield key, future.result()

    def stop(self) -> None:
        self.pending.clear()
        stop_pool(self.pool)


class DaskRunner(Runner):
    """Jobs played as tasks on the workers of the Dask scheduler at ``address``.

    A worker lost in the middle of a job loses only that job: the scheduler runs it again on another
    worker, and `as_completed` yields it once.  A scheduler that cannot be reached within
    `CONNECT_TIMEOUT`, or that goes away, is a `RunnerError`.  Tasks already running when the runner
    stops are let finish on their workers (a thread cannot be interrupted) and their results dropped.
    """

    def __init__(self, address: str, timeout: float | None = None) -> None:
        distributed = import_distributed()
        self.distributed = distributed
        self.address = address
        wait_for = CONNECT_TIMEOUT if timeout is None else timeout
        # Dask logs its connection troubles with tracebacks, some as CRITICAL; the runner reports
        # them itself, in one line.
        for name in ["distributed", *logging.root.manager.loggerDict]:  # (Dask's config sets some one by one)
            if name.split(".")[0] == "distributed":
                logging.getLogger(name).setLevel(SILENT)
        probe_scheduler(address, wait_for)
        try:
            self.client = distributed.Client(address, timeout=wait_for, set_as_default=False)
        except (ValueError, TypeError) as exc:
            raise RunnerError(f"bad scheduler address {address!r} ({_reason(exc)}); "
                              "expected e.g. tcp://HOST:8786") from None
        except OSError:  # (TimeoutError is an OSError)
            raise RunnerError(f"cannot reach the Dask scheduler at {address} within {wait_for:g} s; "
                              "is `dask scheduler` running there?") from None
        # Keys are unique on the scheduler, which other clients may share: this run's own prefix.
        self.prefix = f"amigos-{uuid.uuid4().hex[:12]}-"
        self.pending: dict[Any, str] = {}  # future -> the caller's key
        self.waiting: Any = None  # the distributed.as_completed over `pending`, while iterating
        self.closed = False

    def submit(self, key: str, fn: Callable[..., Any], *args: Any) -> None:
        # pure=False: the same job submitted again (a resumed run) is played again, not shared.
        future = self.client.submit(fn, *args, key=self.prefix + key, pure=False)
        self.pending[future] = key
        if self.waiting is not None:
            self.waiting.add(future)

    def as_completed(self) -> Iterator[tuple[str, Any]]:
        self.waiting = self.distributed.as_completed(list(self.pending), loop=self.client.loop)
        try:
            while self.pending:
                future = self._next()
                key = self.pending.pop(future)
                if future.status == "finished":
                    yield key, future.result()
                else:
                    self._raise_for(future, key)
        finally:
            self.waiting = None

    def _next(self) -> Any:
        """The next future to end (a lost scheduler ends every future at once, as cancelled)."""
        try:
            return next(self.waiting)
        except StopIteration:  # (only if futures were dropped under us: the client closed)
            raise self._lost() from None

    def _raise_for(self, future: Any, key: str) -> None:
        """Raise what a future that did not finish stands for: the job's own exception, a job that
        killed its workers, or a lost scheduler (its futures are cancelled)."""
        if future.status == "cancelled" or self.client.status not in ("running", "connecting"):
            raise self._lost()
        exc = future.exception()
        if isinstance(exc, self.distributed.KilledWorker):
            raise RunnerError(f"job {key} ended every worker that ran it; see the workers' logs") from None
        future.result()  # raises the job's own exception, with its traceback
        raise RunnerError(f"job {key} ended as {future.status}")  # (no other status ends a job)

    def _lost(self) -> RunnerError:
        return RunnerError(f"lost the Dask scheduler at {self.address}; finished results are kept")

    def stop(self) -> None:
        if self.closed:
            return
        self.closed = True
        futures = list(self.pending)
        self.pending.clear()
        try:
            if futures and self.client.status == "running":
                self.client.cancel(futures)
            self.client.close(timeout=CONNECT_TIMEOUT)
        except (OSError, RuntimeError):  # a scheduler already gone (TimeoutError is an OSError)
            pass


def open_runner(jobs: int = 1, scheduler: str | None = None) -> Runner:
    """The runner for ``--scheduler`` (a `DaskRunner`, connected) or ``--jobs`` (local)."""
    if scheduler is not None:
        return DaskRunner(scheduler)
    return ProcessRunner(jobs) if jobs > 1 else InProcessRunner()


def import_distributed() -> ModuleType:
    """The ``distributed`` package, imported now (only ``--scheduler`` needs it); a `RunnerError`
    saying what to install when it is missing."""
    try:
        import distributed
    except ImportError:
        raise RunnerError(f"--scheduler needs Dask distributed, which is not installed: {INSTALL}") from None
    return distributed


def probe_scheduler(address: str, wait_for: float) -> None:
    """Refuse a ``tcp://`` address where no Dask scheduler listens: nothing there for ``wait_for``
    seconds (a scheduler may be starting), or something that says nothing within `PROBE_TIMEOUT` of a
    connection (a scheduler sends its handshake at once; Dask's client would wait a minute for a silent
    one).  Other addresses pass (Dask names what is wrong with them)."""
    parts = urllib.parse.urlsplit(address)
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        return
    if parts.scheme != "tcp" or host is None or port is None:
        return
    deadline = time.monotonic() + wait_for
    while True:
        try:
            link = socket.create_connection((host, port), timeout=PROBE_TIMEOUT)
            break
        except ConnectionRefusedError:
            if time.monotonic() + PROBE_RETRY > deadline:
                raise RunnerError(f"cannot reach the Dask scheduler at {address} within {wait_for:g} s "
                                  "(connection refused); is `dask scheduler` running there?") from None
            time.sleep(PROBE_RETRY)
        except OSError as exc:  # (TimeoutError is an OSError)
            raise RunnerError(f"cannot reach the Dask scheduler at {address} ({exc.strerror or _reason(exc)}); "
                              "is `dask scheduler` running there?") from None
    with link:
        try:
            link.settimeout(PROBE_TIMEOUT)
            said = link.recv(1)
        except OSError:
            said = b""
    if not said:
        raise RunnerError(f"no Dask scheduler at {address}: what listens there said nothing within "
                          f"{PROBE_TIMEOUT:g} s")


def _reason(exc: BaseException) -> str:
    """The first line of an exception's message, or its kind when it has none."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel the work not started and end the work in flight (for a run stopped early: by a verdict,
    Ctrl-C or an error), without waiting for it."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # shutdown forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()


def die_with_parent() -> None:
    """In a worker process: exit as soon as the run that started it is gone (a run killed with kill -9
    leaves no workers playing on).  The worker watches the process that started it: the run itself, or
    (`ai.mcts.worker_context`) a fork server, which ends with the run."""
    first = os.getppid()

    def watch() -> None:
        while True:
            if os.getppid() != first:  # (reparented: whoever started it has ended)
                os._exit(1)
            time.sleep(PARENT_POLL)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()
