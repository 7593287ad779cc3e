"""Every command's help reads as written: no Python type for a placeholder, no word eaten as markup."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from amigos_cli.app import app

runner = CliRunner()
COMMANDS = ("play", "match", "resume", "list", "show", "replay", "review", "cards", "serve", "bridge", "tournament")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_s_help_names_no_python_type(command):
    result = runner.invoke(app, [command, "-h"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "list[" not in result.output and "Optional[" not in result.output


def test_the_tournament_help_names_the_extra_to_install_and_a_spec_placeholder():
    out = runner.invoke(app, ["tournament", "-h"], env={"COLUMNS": "200"}).output
    assert "pip install 'amigos[cluster]'" in out
    assert "--agent" in out and "SPEC" in out
