"""The threads the full screen's workers run in: daemon threads that the screen's closing does not wait for.

Textual runs a thread worker (``@work(thread=True)``) in the event loop's default executor, and
``asyncio.run`` joins that executor's threads before it returns: a match whose AI is searching, or
which waits for an answer that will not come, would keep the program from ending after ``q``.  With
`DaemonThreads` as the loop's default executor each task runs in a daemon thread of its own, which the
program's end does not wait for; the workers' own bookkeeping (their state, their cancelling) is
Textual's as ever.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class DaemonThreads(ThreadPoolExecutor):
    """An executor that starts a daemon thread for each task, and whose shutdown waits for none.

    (asyncio takes a `ThreadPoolExecutor` alone as a loop's default executor, hence the base class;
    its pool is never used.)"""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` in a new daemon thread; its future (not started if cancelled first)."""
        future: Future[T] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:  # (as concurrent.futures does: the future carries it)
                future.set_exception(exc)
            else:
                future.set_result(result)

        threading.Thread(target=run, daemon=True, name="screen-worker").start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to stop or wait for: the threads are daemons, which end with the program."""
