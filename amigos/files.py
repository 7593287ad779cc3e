"""The one way files are read and written: match files, tournament folders, model and training files
alike (standard library only, so that every layer may use it).

Reading (`read_regular`, `read_json`): regular files only (a device, FIFO, socket or folder is refused
without a blocking read), at most a given number of bytes counted as they are read, JSON within
`amigos.jsontext`'s bounds.  Writing (`write_atomic`): a temporary file beside the target, fsynced, then
renamed over it, so a crash or a full disk leaves the previous file whole; a symlink at the target is
replaced, never followed; an existing file keeps its mode, unless the file is private (`PRIVATE`:
owner only, after every save).  Every `OSError` becomes a `FileProblem` whose one-line message names
the file and the reason.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from amigos import jsontext
from amigos.errors import AmigosError

PRIVATE = 0o600  # the mode of a file that holds secrets (a table's seat tokens)


class FileProblem(AmigosError):
    """A file that cannot be read or written; the message says which and why in one line."""


def reason(exc: BaseException) -> str:
    """An OSError in a player's words: "the disk is full", "the name is too long", ...; another
    exception's first line."""
    import errno

    if not isinstance(exc, OSError):
        lines = str(exc).strip().splitlines()
        return lines[0][:80] if lines else type(exc).__name__

    words = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
             errno.ENAMETOOLONG: "the name is too long", errno.EACCES: "permission denied",
             errno.EPERM: "permission denied", errno.EROFS: "the disk is read-only",
             errno.ENOENT: "no such file or folder", errno.EISDIR: "a folder, not a file",
             errno.ENOTDIR: "a part of the path is not a folder"}
    return words.get(exc.errno or 0, exc.strerror or type(exc).__name__)


def read_regular(path: str | os.PathLike[str], limit: int, what: str = "file",
                 error: type[AmigosError] = FileProblem) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them; anything else raises
    ``error`` ("PATH: not a regular file ...", "PATH: too large for a WHAT ...")."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: a folder, not a {what}") from None
    except (OSError, ValueError) as exc:  # (ValueError: a name holding a NUL)
        raise error(f"{path}: cannot read it ({reason(exc)})") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{path}: a folder, not a {what}")
        if not stat.S_ISREG(mode):
            raise error(f"{path}: not a regular file (a device, pipe or socket), not a {what}")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise error(f"{path}: too large for a {what} (over {limit} bytes)")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise error(f"{path}: cannot read it ({reason(exc)})") from None
    finally:
        os.close(fd)


def read_json(path: str | os.PathLike[str], limit: int, what: str = "file",
              error: type[AmigosError] = FileProblem) -> Any:
    """The JSON value of the regular file at ``path`` (at most ``limit`` bytes, `amigos.jsontext.MAX_DEPTH` deep)."""
    data = read_regular(path, limit, what, error)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{path}: not a {what} (not UTF-8 text)") from None
    try:
        return jsontext.loads(text)
    except ValueError as exc:
        raise error(f"{path}: not a {what} (not JSON: {str(exc)[:80]})") from None


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def check_writable(path: str | os.PathLike[str], what: str = "file",
                   error: type[AmigosError] = FileProblem) -> int | None:
    """Raise ``error`` (one line) unless a ``what`` could be written at ``path``, in a folder that exists:
    nothing there, a regular file, or a symlink, FIFO or socket (replaced, never written through).  A
    folder or a device is never replaced (as root, a save to /dev/null would replace the device).
    Returns the mode of what is there (``lstat``), or None."""
    path = Path(path)
    try:
        mode: int | None = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except (OSError, ValueError) as exc:
        raise error(f"{path}: cannot save there ({reason(exc)})") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise error(f"{path}: a folder, not a {what}")
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)):
        raise error(f"{path}: a device, not a {what}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise error(f"{path}: cannot save there (no folder {folder})")
    return mode


def write_atomic(path: str | os.PathLike[str], data: bytes, error: type[AmigosError] = FileProblem,
                 mode: int | None = None, what: str = "file") -> None:
    """Write ``data`` to ``path`` atomically (see the module's docstring; `check_writable` first);
    raises ``error`` with a line that names the file and the reason, the previous file left as it
    was.  ``mode`` (`PRIVATE`, say): the file's mode whatever it was before; None keeps an existing
    file's, else follows the umask."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    there = check_writable(path, what, error)
    if mode is None:
        mode = stat.S_IMODE(there) if there is not None and stat.S_ISREG(there) else _new_file_mode()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:100]}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise error(f"{path}: cannot save there ({reason(exc)})") from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)  # (a symlink at ``path`` is replaced by the file, its target untouched)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise error(f"{path}: cannot save ({reason(exc)})") from None
        raise
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass
