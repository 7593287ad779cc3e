"""``amigos cards``: the table, the JSON form, the filters and the one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from amigos.errors import AmigosError
from amigos_cli.app import app, main

runner = CliRunner()
JSON_KEYS = {"id", "name", "kind", "types", "cost", "points", "text"}


def run(*args: str):
    return runner.invoke(app, ["cards", *args], env={"COLUMNS": "100"})


def test_table_lists_every_component():
    result = run()
    assert result.exit_code == 0, result.output
    for name in ("Fire Dragon", "Athanor", "Alchemist", "Great Pyramid", "Coral Castle", "Divination"):
        assert name in result.stdout
    assert "78 components" in result.stdout


def test_json_lists_every_component_with_exact_keys():
    result = run("--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == 78
    assert all(set(r) == JSON_KEYS for r in rows)
    fire = next(r for r in rows if r["id"] == "fire_dragon")
    assert fire == {
        "id": "fire_dragon",
        "name": "Fire Dragon",
        "kind": "artifact",
        "types": ["artifact", "dragon"],
        "cost": {"elan": 6},
        "points": 1,
        "text": fire["text"],
    }


@pytest.mark.parametrize("kind, n", [("artifact", 40), ("mage", 10), ("monument", 10),
                                     ("place_of_power", 10), ("place-of-power", 10),
                                     ("magic_item", 8), ("magic-item", 8), ("Magic-Item", 8)])
def test_kind_filter(kind, n):
    result = run("--kind", kind, "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == n
    assert {r["kind"] for r in rows} == {kind.lower().replace("-", "_")}


def test_name_filter_is_a_case_insensitive_substring_of_name_or_id():
    names = {r["name"] for r in json.loads(run("DRAGON", "--json").stdout)}
    assert {"Fire Dragon", "Bone Dragon", "Dragon Egg", "Dragon Bridle", "Dragon's Lair"} <= names
    assert all("dragon" in n.lower() for n in names)
    by_id = json.loads(run("sacrificial_pit", "--json").stdout)
    assert [r["id"] for r in by_id] == ["sacrificial_pit"]


def test_name_and_kind_filters_combine():
    rows = json.loads(run("dragon", "--kind", "place-of-power", "--json").stdout)
    assert [r["id"] for r in rows] == ["dragons_lair"]


def test_one_match_shows_details():
    result = run("fire dragon")
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())  # undo the table's wrapping
    assert "every rival loses 2 Life" in out
    assert "Powers" in out and "Rulings" in out


def test_exact_name_among_several_matches_shows_details():
    # "alchemist" matches the Alchemist (a mage) and the Alchemist's Tower: the exact one is shown.
    result = run("alchemist")
    assert result.exit_code == 0
    assert "2 components" in result.stdout
    out = " ".join(result.stdout.split())
    assert "Powers" in out and "types mage" in out


def test_several_matches_show_no_details():
    result = run("dragon")
    assert result.exit_code == 0
    assert "Rulings" not in result.stdout


def test_rulings_are_shown():
    result = run("Tree of Life")
    out = " ".join(result.stdout.split())
    assert "Rivals who have already passed still receive these essences." in out


def test_unknown_kind_raises_an_expected_error():
    result = run("--kind", "dragon-invalid")
    assert isinstance(result.exception, AmigosError)


@pytest.mark.parametrize("args, words", [
    (["--kind", "dragon-invalid"], "unknown kind 'dragon-invalid'"),
    (["no-such-card"], "no component named like 'no-such-card'"),
    (["fire dragon", "--kind", "mage"], "no component"),
])
def test_errors_are_one_line_with_exit_code_2(capsys, args, words):
    with pytest.raises(SystemExit) as exit_info:
        main(["cards", *args])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("amigos: ") and words in captured.err


def test_real_command_error_has_no_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "amigos_cli", "cards", "--kind", "dragon-invalid"],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("amigos: unknown kind"), proc.stderr
