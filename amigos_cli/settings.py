"""A person's settings, remembered between games: a small JSON file in their config folder.

``$AMIGOS_CONFIG/settings.json`` if that is set, else ``$XDG_CONFIG_HOME/amigos/settings.json``, else
``~/.config/amigos/settings.json``.  A missing, unreadable or damaged file gives the defaults (a game is
never stopped by its settings); saving where nothing can be written is silently skipped.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

MAX_BYTES = 64 * 1024  # what a settings file may be (a bigger one is not ours)


@dataclass
class Settings:
    """``auto_collect``: at Collect, essences stored on a card are taken without asking where taking
    them costs nothing and leaving them earns nothing, left where they score points, and a collect of
    one kind or another gives the only kind still lacking, where there is one
    (`ai.collect.automatic_collect`)."""

    auto_collect: bool = False


def settings_path() -> Path:
    """Where the settings file is (see the module docstring)."""
    if os.environ.get("AMIGOS_CONFIG"):
        return Path(os.environ["AMIGOS_CONFIG"]) / "settings.json"
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "amigos" / "settings.json"


def load_settings() -> Settings:
    """The settings in the file, each field that is missing or of the wrong type at its default."""
    path = settings_path()
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return Settings()
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return Settings()
    out = Settings()
    if isinstance(data, dict):
        for field in fields(Settings):
            value = data.get(field.name)
            if isinstance(value, type(getattr(out, field.name))):
                setattr(out, field.name, value)
    return out


def save_settings(settings: Settings) -> bool:
    """Write ``settings`` (whole, atomically); False where the folder cannot be written."""
    path = settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(asdict(settings), indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError:
        return False
    return True
