"""Exclusive locks on match files and tournament folders, so that two programs never write one file:
a session holds its match file's lock while it plays, a tournament its folder's.

The lock is an advisory ``flock`` on a small sidecar file (``.NAME.lock``; the match file itself is
replaced at every save, so a lock on it would not last), removed when the lock is let go.  The lock
file records the holder's process id for the message; the operating system releases the lock when the
holder exits, even on kill -9 (the file then stays, unlocked, until the next holder removes it).
"""

from __future__ import annotations

import fcntl
import os
import re
from pathlib import Path

import amigos


class InUse(amigos.AmigosError):
    """Another program holds the lock."""


class Lock:
    """The lock of ``path`` (a match file or a folder); `acquire` raises `InUse` when it is held."""

    def __init__(self, path: Path):
        path = Path(path)
        self.path = path
        self.file = path / ".tournament.lock" if path.is_dir() else path.with_name(f".{path.name}.lock")
        self.fd: int | None = None

    def acquire(self) -> "Lock":
        while True:
            try:
                fd = os.open(self.file, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
            except OSError as exc:
                raise amigos.AmigosError(f"{self.path}: cannot use that place ({exc.strerror})") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
                os.close(fd)
                raise InUse(f"{self.path} is in use by another amigos (process {holder}); "
                            "wait for it to end or stop it") from None
            try:  # the holder before us may have removed the file as it let go: lock the new one
                same = os.stat(self.file).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self.fd = fd
        return self

    def release(self) -> None:
        """Let go, removing the lock file first (a program waiting on it then sees it gone and
        locks a new one; see `acquire`)."""
        if self.fd is not None:
            try:
                os.unlink(self.file)
            except OSError:
                pass
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> "Lock":
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def clean_stale(path: Path) -> list[Path]:
    """Remove the temporary files an interrupted save of ``path`` left beside it (``.NAME.*.tmp``);
    only call it while holding ``path``'s lock, so that no save is in progress.  The files removed."""
    path = Path(path)
    removed = []
    shape = re.compile(re.escape(f".{path.name}.") + r"[a-z0-9_]{8}\.tmp")  # as `record.save`'s mkstemp names them
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        if not shape.fullmatch(tmp.name):
            continue
        try:
            tmp.unlink()
            removed.append(tmp)
        except OSError:
            pass
    return removed

