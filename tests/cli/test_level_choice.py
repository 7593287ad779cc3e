"""The AI's level asked on the full screen when a game starts without ``--p2`` (`amigos_cli.tui.levels`)."""

from __future__ import annotations

import asyncio

import pytest
import typer

from ai.agents import LEVELS
from amigos_cli.commands import match as command
from amigos_cli.errors import CliUsageError
from amigos_cli.tui.levels import DEFAULT_LEVEL, LevelChoice


def _answer(*keys: str) -> str | None:
    async def run() -> str | None:
        app = LevelChoice()
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause()
            await pilot.press(*keys)
            await pilot.pause()
        return app.return_value
    return asyncio.run(run())


def test_enter_takes_the_default_a_number_its_level_and_q_nothing():
    assert _answer("enter") == f"level:{DEFAULT_LEVEL}" and DEFAULT_LEVEL == max(LEVELS)
    assert _answer("1") == "level:1"
    assert _answer("up", "up", "enter") == f"level:{DEFAULT_LEVEL - 2}"
    assert _answer("q") is None


def test_a_game_without_p2_plays_the_level_chosen_and_every_unnamed_seat_plays_it(tmp_path, monkeypatch):
    saved = []
    monkeypatch.setattr(command, "full_screen", lambda plain: not plain)
    monkeypatch.setattr(command, "run_session", lambda match, path, *rest: saved.append(match))
    monkeypatch.setattr(command, "ask_level", lambda: "level:2")
    command.run_new("game", ["human", None, None], 5, "standard", tmp_path / "g.amigos", players=3)
    (match,) = saved
    assert [p["spec"] for p in match.record["players"]] == ["human", "level:2", "level:2"]
    asked = []
    monkeypatch.setattr(command, "ask_level", lambda: asked.append(1) or "level:2")
    command.run_new("game", ["human", "greedy"], 5, "standard", tmp_path / "h.amigos")  # (--p2 given)
    command.run_new("game", ["human", None], 5, "standard", tmp_path / "i.amigos", plain=True)  # (line prompt)
    assert asked == [] and [p["spec"] for p in saved[-1].record["players"]] == ["human", "mcts:time=1.0"]


def test_leaving_the_question_starts_no_game(tmp_path, monkeypatch):
    monkeypatch.setattr(command, "full_screen", lambda plain: not plain)
    monkeypatch.setattr(command, "ask_level", lambda: None)
    with pytest.raises(typer.Exit) as stop:
        command.run_new("game", ["human", None], 5, "standard", tmp_path / "g.amigos")
    assert stop.value.exit_code == 0 and not (tmp_path / "g.amigos").exists()
    (tmp_path / "x.amigos").write_bytes(b"")
    monkeypatch.setattr(command, "ask_level", lambda: pytest.fail("asked before what is refused is refused"))
    with pytest.raises(CliUsageError, match="exists already"):
        command.run_new("game", ["human", None], 5, "standard", tmp_path / "x.amigos")


def test_the_line_prompt_and_hot_seat_ask_the_level_too(tmp_path, monkeypatch):
    """At a terminal's line prompt (--plain) the level is asked as a question, a mistyped answer asked
    again; a hot-seat game with a seat left to the AI asks it too; piped input is never asked."""
    saved = []
    monkeypatch.setattr(command, "full_screen", lambda plain: False)
    monkeypatch.setattr(command, "run_session", lambda match, path, *rest: saved.append(match))
    monkeypatch.setattr(command, "interactive", lambda: True)
    answers = iter(["7", "x", "3"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    command.run_new("game", ["human", None], 5, "standard", tmp_path / "g.amigos", plain=True)
    assert [p["spec"] for p in saved[-1].record["players"]] == ["human", "level:3"]
    answers = iter([""])
    command.run_new("game", ["human", "human", None], 5, "standard", tmp_path / "h.amigos", players=3, plain=True)
    assert [p["spec"] for p in saved[-1].record["players"]] == ["human", "human", f"level:{DEFAULT_LEVEL}"]
    answers = iter(["q"])
    with pytest.raises(typer.Exit):
        command.run_new("game", ["human", None], 5, "standard", tmp_path / "i.amigos", plain=True)
    assert not (tmp_path / "i.amigos").exists()
    monkeypatch.setattr(command, "interactive", lambda: False)
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail("piped input was asked"))
    command.run_new("game", ["human", None], 5, "standard", tmp_path / "j.amigos", plain=True)
    assert [p["spec"] for p in saved[-1].record["players"]] == ["human", "mcts:time=1.0"]
