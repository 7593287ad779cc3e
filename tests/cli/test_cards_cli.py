"""``amigos cards``: the table, the JSON form, the filters and the one-line errors, over both card
sets (the base game and Lux et Tenebrae)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from amigos.errors import AmigosError
from amigos_cli.app import app, main
from amigos_cli.views.power_text import DESCRIBED_COSTS, EFFECT_TEXTS, TRIGGERS
from tests.engine.test_card_data import file_components, shared_data

runner = CliRunner()
JSON_KEYS = {"id", "name", "set", "kind", "types", "cost", "points", "text"}

SETS = ("base", "lux")


def shared_components(card_set: str) -> list[dict]:
    """Every component entry of a set's shared data file, Place of Power sides apart."""
    return file_components(shared_data(card_set))


def run(*args: str):
    return runner.invoke(app, ["cards", *args], env={"COLUMNS": "100"})


def words(out: str) -> str:
    """``out`` as one line of words: the table's and the panel's wrapping and borders undone."""
    return " ".join(out.replace("│", " ").split())


def test_table_lists_every_component_of_both_sets():
    result = run()
    assert result.exit_code == 0, result.output
    for name in ("Fire Dragon", "Athanor", "Alchemist", "Great Pyramid", "Coral Castle", "Divination",
                 "Chaos Imp", "Demonologist", "Inscription", "Dark Cathedral", "Crystal Keep", "Augury"):
        assert name in result.stdout
    assert "112 components: 78 of the base game, 34 of Lux et Tenebrae" in result.stdout
    # each expansion component is marked under its name (a line of its own in the Name column)
    assert len(re.findall(r"^ ?lux ", result.stdout, flags=re.MULTILINE)) == 34
    assert "lux: Lux et Tenebrae" in " ".join(result.stdout.split())


@pytest.mark.parametrize("card_set, title", [("base", "78 components"),
                                             ("lux", "34 components of Lux et Tenebrae")])
def test_one_set_table_needs_no_mark(card_set, title):
    result = run("--set", card_set)
    assert result.exit_code == 0, result.output
    assert title in result.stdout
    assert not re.findall(r"^ ?lux ", result.stdout, flags=re.MULTILINE)
    if card_set == "base":  # the base game's table is what it was before the expansion
        assert "Lux" not in result.stdout and "Chaos Imp" not in result.stdout


def test_json_lists_every_component_with_exact_keys():
    result = run("--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == 112
    assert all(set(r) == JSON_KEYS for r in rows)
    fire = next(r for r in rows if r["id"] == "fire_dragon")
    assert fire == {
        "id": "fire_dragon",
        "name": "Fire Dragon",
        "set": "base",
        "kind": "artifact",
        "types": ["artifact", "dragon"],
        "cost": {"elan": 6},
        "points": 1,
        "text": fire["text"],
    }


def test_json_set_field_is_the_set_of_each_component():
    rows = json.loads(run("--json").stdout)
    for card_set in SETS:
        ids = {c["id"] for c in shared_components(card_set)}
        assert {r["id"] for r in rows if r["set"] == card_set} == ids
    assert {r["set"] for r in rows} == {"base", "lux"}


def test_every_text_cost_and_points_match_the_shared_data():
    """The issue's target: every component's text, cost and points shown match the shared data."""
    rows = {r["id"]: r for r in json.loads(run("--json").stdout)}
    expected = [(s, c) for s in SETS for c in shared_components(s)]
    assert len(rows) == len(expected) == 112
    for card_set, c in expected:
        row = rows[c["id"]]
        cost = c["placement_cost"]
        assert row["set"] == card_set, c["id"]
        assert row["name"] == c["name"] and row["kind"] == c["component_type"], c["id"]
        assert row["text"] == c["text"], c["id"]
        assert row["cost"] == (None if cost is None else {k: n for k, n in cost.items() if n}), c["id"]
        assert row["points"] == c["victory_points"]["fixed"], c["id"]


@pytest.mark.parametrize("card_set, n", [("base", 78), ("lux", 34), ("LUX", 34), (" Base ", 78)])
def test_set_filter(card_set, n):
    result = run("--set", card_set, "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == n
    assert {r["set"] for r in rows} == {card_set.strip().lower()}


def test_set_and_kind_filters_combine():
    rows = json.loads(run("--set", "lux", "--kind", "artifact", "--json").stdout)
    assert len(rows) == 12 and {(r["set"], r["kind"]) for r in rows} == {("lux", "artifact")}


@pytest.mark.parametrize("kind, n", [("artifact", 52), ("mage", 14), ("monument", 14),
                                     ("place_of_power", 14), ("place-of-power", 14),
                                     ("magic_item", 10), ("magic-item", 10), ("Magic-Item", 10),
                                     ("scroll", 8)])
def test_kind_filter(kind, n):
    result = run("--kind", kind, "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == n
    assert {r["kind"] for r in rows} == {kind.lower().replace("-", "_")}


def test_name_filter_finds_words_starting_with_it_in_any_case():
    names = {r["name"] for r in json.loads(run("DRAGON", "--json").stdout)}
    assert {"Fire Dragon", "Bone Dragon", "Dragon Egg", "Dragon Bridle", "Dragon's Lair"} <= names
    assert all("dragon" in n.lower() for n in names)
    by_id = json.loads(run("sacrificial_pit", "--json").stdout)
    assert [r["id"] for r in by_id] == ["sacrificial_pit"]
    assert [r["name"] for r in json.loads(run("fire d", "--json").stdout)] == ["Fire Dragon", "Fire Demon"]


def test_a_misspelt_name_is_offered_not_a_name_that_merely_contains_it():
    """"sear" is in Research, but a player typing it meant Seer; "arch", close to no name, still
    finds Research inside a word."""
    result = run("sear")
    assert result.exit_code != 0 and "did you mean Seer?" in str(result.exception)
    assert [r["name"] for r in json.loads(run("arch", "--json").stdout)] == ["Research"]


def test_name_and_kind_filters_combine():
    rows = json.loads(run("dragon", "--kind", "place-of-power", "--json").stdout)
    assert [r["id"] for r in rows] == ["dragons_lair", "dragon_aerie"]  # base first, then lux


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


def test_a_lux_card_shows_its_set_powers_and_points():
    out = words(run("Chaos Imp").stdout)
    assert "set Lux et Tenebrae (lux)" in out
    assert "Turn the Chaos Imp and pay 1 Life: straighten another of your turned Demons." in out
    assert "Pay 1 Elan + 1 Death, without turning the Chaos Imp (repeatable): put 3 Death on the Chaos Imp." in out
    out = words(run("crystal keep").stdout)
    assert "points 5, +1 per 2 own artifacts in play (turned ones count, rounded down)" in out


@pytest.mark.parametrize("name, told", [
    ("Infernal Engine", "Turn the Infernal Engine and pay X essences of any kind (X may be 0): "
                        "put what was paid on the Infernal Engine."),
    ("Bard", "Turn the Bard and discard a Creature, Dragon or Demon from your hand: gain 2 Gold."),
    ("Augury", "Return the Augury scroll to the centre and pay 1 Calm: draw 1 card."),
    ("Shield", "React to a Life loss (return the Shield scroll to the centre): ignore that Life loss."),
    ("Projection", "pay X essences all of one kind (X may be 0): gain 1 Gold per 3 paid (rounded down)."),
    ("Illusion", "React to your own use of a power (turn the Illusion and pay 2 essences of any kind): "
                 "the Illusion counts as a Dragon for that power."),
    ("Vial of Light", "React to any artifact being destroyed (free, even while turned, repeatable): "
                      "gain 1 Elan, Life or Calm."),
    ("Temple of the Abyss", "Turn the Temple of the Abyss and pay 2 Life: straighten every turned Demon "
                            "of every player."),
])
def test_lux_powers_are_told_from_their_data(name, told):
    result = run(name, "--set", "lux")
    assert result.exit_code == 0, result.output
    assert told in words(result.stdout)


def test_the_expansion_needs_no_fallback_in_power_texts():
    """Every cost key, effect operation and React trigger of the expansion is told in words (a
    missing one would only be shown by its name)."""
    for c in shared_components("lux"):
        for power in c["powers"] + c["reactions"]:
            assert set(power["cost"]) <= DESCRIBED_COSTS, (c["id"], power["cost"])
            assert {e["op"] for e in power["effects"]} <= set(EFFECT_TEXTS), c["id"]
            if power["kind"] == "react":
                assert power["trigger"] in TRIGGERS, c["id"]


def test_base_card_details_show_no_set():
    """A base component's details (also the game's card panel) are as before the expansion."""
    out = words(run("fire dragon").stdout)
    assert out.startswith("1 component ") and "Lux" not in out and " set " not in out


def test_near_miss_names_a_lux_card():
    result = run("Chaos Imps")
    assert result.exit_code != 0 and "did you mean Chaos Imp?" in str(result.exception)
    result = run("chaos imp", "--set", "base")
    assert "in set base (did you mean Chaos Imp?)" in str(result.exception)


def test_unknown_kind_raises_an_expected_error():
    result = run("--kind", "dragon-invalid")
    assert isinstance(result.exception, AmigosError)


@pytest.mark.parametrize("args, words", [
    (["--kind", "dragon-invalid"], "unknown kind 'dragon-invalid'"),
    (["--kind", "artefact"], "unknown kind 'artefact' (did you mean artifact?); expected one of: artifact,"),
    (["no-such-card"], "no component named like 'no-such-card'"),
    (["fire dragon", "--kind", "mage"], "no component"),
    (["--set", "tenebrae"], "unknown set 'tenebrae'; expected one of: base, lux"),
    (["--set", ""], "unknown set ''"),
    (["fire dragon", "--set", "lux"], "no component named like 'fire dragon' in set lux"),
    (["--set", "base", "--kind", "scroll"], "no component at all of kind scroll in set base"),
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
