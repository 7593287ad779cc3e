"""Leaving the full screen leaves the shell clean: no piece of the last frame above "Saved to ..."
(amigos_cli/tui/terminal.py), even after the terminal was resized while the game ran."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual.drivers.linux_driver import LinuxDriver

from amigos_cli.tui.game import GameApp
from amigos_cli.tui.replay import ReplayApp
from amigos_cli.tui.terminal import CLEAR, ClearingLinuxDriver, LeavingApp


def test_the_apps_clear_the_alternate_screen_before_leaving_it(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    driver = ClearingLinuxDriver.__new__(ClearingLinuxDriver)
    monkeypatch.setattr(driver, "write", written.append, raising=False)
    monkeypatch.setattr(driver, "flush", lambda: None, raising=False)
    for name in ("_disable_bracketed_paste", "_enable_line_wrap", "_disable_in_band_window_resize",
                 "disable_input"):
        monkeypatch.setattr(driver, name, lambda: None, raising=False)
    driver.attrs_before = None
    driver.stop_application_mode()
    stream = "".join(written)
    assert CLEAR in stream and "\x1b[?1049l" in stream
    assert stream.index(CLEAR) < stream.index("\x1b[?1049l")  # cleared while still on the alternate screen
    assert issubclass(GameApp, LeavingApp) and issubclass(ReplayApp, LeavingApp)


def test_only_the_terminal_driver_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """The browser's driver (``amigos serve``) and the tests' are Textual's own."""
    monkeypatch.setattr("textual.app.App.get_driver_class", lambda self: LinuxDriver)
    assert LeavingApp().get_driver_class() is ClearingLinuxDriver
    monkeypatch.setattr("textual.app.App.get_driver_class", lambda self: object)
    assert LeavingApp().get_driver_class() is object


def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", "-L", "amigos-test", *args], capture_output=True, text=True, check=True).stdout


def _wait_for(text: str, session: str, seconds: float = 30.0) -> str:
    end = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < end:
        screen = _tmux("capture-pane", "-p", "-S", "-200", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared:\n{screen}")


def _wait_for_width(columns: int, session: str, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if max(len(line.rstrip()) for line in _tmux("capture-pane", "-p", "-t", session).splitlines()) > columns:
            return
        time.sleep(0.2)
    raise AssertionError(f"the app never drew wider than {columns} columns")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_q_after_a_resize_leaves_no_frame_in_the_shell(tmp_path: Path) -> None:
    session = "amigos-exit"
    amigos = Path(sys.executable).with_name("amigos")
    save = tmp_path / "g.amigos"
    # (COLUMNS and LINES, which pytest sets, would fix the app's size: it would never be resized)
    _tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", session, "env -u COLUMNS -u LINES bash --norc")
    try:
        _tmux("send-keys", "-t", session, f"{amigos} play --p2 random --seed 9 --save {save}", "Enter")
        _wait_for("Your choice", session)
        _tmux("resize-window", "-t", session, "-x", "120", "-y", "36")
        _wait_for_width(110, session)  # the app has redrawn at the new size
        _tmux("send-keys", "-t", session, "q")
        shell = _wait_for("Resume with", session)
        assert "Your choice" not in shell and "Your hand" not in shell, shell
        assert _tmux("display", "-p", "-t", session, "#{history_size}").strip() == "0"
    finally:
        subprocess.run(["tmux", "-L", "amigos-test", "kill-server"], capture_output=True)
