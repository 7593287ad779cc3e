"""``amigos_cli.app.main``: expected failures are one line with exit code 2; Ctrl-C exits 130."""

from __future__ import annotations

import pytest

from amigos.errors import IllegalAction
from amigos_cli import app as app_module
from amigos_cli.commands import cards as cards_command


def test_keyboard_interrupt_exits_130_quietly(monkeypatch, capsys):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cards_command, "components", interrupted)
    with pytest.raises(SystemExit) as exit_info:
        app_module.main(["cards"])
    assert exit_info.value.code == 130
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err


def test_any_amigos_error_is_one_line(monkeypatch, capsys):
    def illegal(*args):
        raise IllegalAction("not now:\nthe card is turned")

    monkeypatch.setattr(cards_command, "components", illegal)
    with pytest.raises(SystemExit) as exit_info:
        app_module.main(["cards"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == "amigos: not now: the card is turned\n"


def test_help_exits_0(capsys):
    with pytest.raises(SystemExit) as exit_info:
        app_module.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "cards" in out and "bridge" in out
