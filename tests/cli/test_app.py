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


def test_a_commands_help_wraps_its_paragraphs_at_the_terminals_width(capsys, monkeypatch):
    """Every paragraph of a command's docstring is one paragraph of its help, wrapped at the width of
    the terminal, not at the docstring's line breaks (Typer keeps those after the first paragraph)."""
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit) as exit_info:
        app_module.main(["replay", "--help"])
    assert exit_info.value.code == 0
    lines = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    assert any("(their hand, not the AI's), else from player 1's. --json follows the same rule" in line
               for line in lines)
    assert app_module.command_help(app_module.COMMANDS["replay"]).count("\n") == 2  # two paragraphs
