"""Where match files are kept unless a command is told otherwise: a folder of their own, never the
current one (a checkout would fill up with them).

The folder is ``$AMIGOS_MATCHES`` if that is set, else ``matches`` in the platform's user data folder
(`platformdirs`: ``~/.local/share/amigos/matches`` on Linux, or under ``$XDG_DATA_HOME``;
``~/Library/Application Support/amigos/matches`` on macOS; ``%LOCALAPPDATA%\\amigos\\matches`` on
Windows).  It is made when a match is first saved there (`make_folder`).  Paths are absolute, so that
whatever prints one tells the person where the file is.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import platformdirs

from amigos.errors import AmigosError
from amigos.files import reason

from .match import Match
from .record import load

#: The environment variable that names the folder of match files (`matches_folder`).
MATCHES_ENV: Final = "AMIGOS_MATCHES"
SUFFIX: Final = ".amigos"  # a match file's name ends with it


class FolderError(AmigosError):
    """The folder of match files cannot be made; the message says which and why in one line."""


def matches_folder() -> Path:
    """The folder of match files (see the module docstring), absolute; it may not exist yet."""
    named = os.environ.get(MATCHES_ENV)
    if named:
        return Path(os.path.abspath(Path(named).expanduser()))
    return Path(os.path.abspath(platformdirs.user_data_path("amigos", appauthor=False) / "matches"))


def default_path(seed: int) -> Path:
    """Where a new match of ``seed`` is saved when no file is named: ``amigos-SEED.amigos`` in
    `matches_folder` (``amigos-minus5.amigos`` for seed -5, not a double dash)."""
    return matches_folder() / (f"amigos-{seed}{SUFFIX}" if seed >= 0 else f"amigos-minus{-seed}{SUFFIX}")


def make_folder(folder: Path) -> None:
    """Make ``folder`` (and its parents) if it is missing; `FolderError` in one line if that cannot be
    done, naming the environment variable that chooses another."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FolderError(f"{folder}: cannot keep match files there ({reason(exc)}); choose another folder "
                          f"with {MATCHES_ENV}=FOLDER or a file with --save") from None


def find(path: Path) -> Path:
    """The match file ``path`` names: ``path`` itself if anything is there; else, for a relative path,
    the file of that name in `matches_folder` if there is one (``amigos resume amigos-5.amigos`` from
    any folder), the name with `SUFFIX` too (``amigos resume amigos-5``); else ``path`` as given (for
    its loader to say what is wrong)."""
    if os.path.lexists(path):
        return path
    named = [path] + ([path.with_name(path.name + SUFFIX)] if path.name and not path.name.endswith(SUFFIX) else [])
    places = named if path.is_absolute() else named + [matches_folder() / p for p in named]
    return next((p for p in places if os.path.lexists(p)), path)


@dataclass(frozen=True)
class Kept:
    """A match file of a folder (`kept`): its path, when it was last saved (seconds since the epoch),
    and the match it holds, or why it cannot be read (one line, without the path)."""
    path: Path
    modified: float
    match: Match | None
    problem: str | None = None


def kept(folder: Path) -> list[Kept]:
    """Every match file (``*.amigos``, not hidden, not a folder) of ``folder``, newest first, each
    loaded (`matches.record.load`: checked and replayed, never modified); a file that cannot be used
    is kept with its `Kept.problem`.  An `OSError` if ``folder`` cannot be listed."""
    out = []
    with os.scandir(folder) as entries:
        found = [Path(e.path) for e in entries if e.name.endswith(SUFFIX) and not e.name.startswith(".")
                 and not e.is_dir(follow_symlinks=False)]
    for path in found:
        try:
            modified = path.lstat().st_mtime
        except OSError:
            modified = 0.0  # (gone since it was listed: its loading says so)
        try:
            out.append(Kept(path, modified, load(path)))
        except AmigosError as exc:
            message = " ".join(str(exc).split())
            out.append(Kept(path, modified, None, message.removeprefix(f"{path}: ")))
    return sorted(out, key=lambda k: (-k.modified, k.path.name))
