"""The packaged card table and its flat component view (amigos.carddata)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from amigos import carddata

ROOT = Path(__file__).resolve().parent.parent
SHARED_BASE = ROOT.parent / "shared" / "cards" / "base.json"
PACKAGED_BASE = ROOT / "amigos" / "data" / "base.json"

FLAT_KEYS = {"id", "name", "kind", "types", "cost", "points", "text", "raw"}


@pytest.mark.skipif(not SHARED_BASE.exists(), reason="../shared/cards/base.json not beside the repo")
def test_packaged_base_equals_shared():
    assert PACKAGED_BASE.read_bytes() == SHARED_BASE.read_bytes()


def test_load_base_is_the_packaged_file_and_cached():
    base = carddata.load_base()
    assert base == json.loads(PACKAGED_BASE.read_text(encoding="utf-8"))
    assert carddata.load_base() is base


def test_component_counts():
    counts = Counter(c["kind"] for c in carddata.components())
    assert counts == {"artifact": 40, "mage": 10, "monument": 10, "place_of_power": 10, "magic_item": 8}


def test_order_artifacts_mages_items_monuments_places():
    kinds = [c["kind"] for c in carddata.components()]
    firsts = list(dict.fromkeys(kinds))
    assert firsts == ["artifact", "mage", "magic_item", "monument", "place_of_power"]
    assert kinds == sorted(kinds, key=firsts.index), "kinds are not grouped"


def test_ids_unique_and_keys():
    comps = carddata.components()
    ids = [c["id"] for c in comps]
    assert len(ids) == len(set(ids)) == 78
    for c in comps:
        assert set(c) == FLAT_KEYS, c["id"]
        assert isinstance(c["name"], str) and c["name"]
        assert isinstance(c["text"], str) and c["text"]
        assert isinstance(c["points"], int)
        assert c["kind"] in c["types"]
        assert c["raw"]["id"] == c["id"]


def test_costs():
    for c in carddata.components():
        if c["kind"] in ("mage", "magic_item"):
            assert c["cost"] is None, c["id"]
            continue
        assert isinstance(c["cost"], dict), c["id"]
        assert set(c["cost"]) <= set(carddata.ESSENCES) | {"any"}, c["id"]
        assert all(isinstance(n, int) and n > 0 for n in c["cost"].values()), c["id"]
        assert sum(c["cost"].values()) == c["raw"]["placement_cost_total"], c["id"]


def test_known_cards():
    by_id = {c["id"]: c for c in carddata.components()}
    assert by_id["fire_dragon"]["cost"] == {"elan": 6}
    assert by_id["fire_dragon"]["types"] == ["artifact", "dragon"]
    assert by_id["wind_dragon"]["cost"] == {"calm": 4, "any": 4}
    assert by_id["magical_shard"]["cost"] == {}
    assert by_id["great_pyramid"]["points"] == 3
    assert by_id["coral_castle"]["kind"] == "place_of_power"


def test_every_place_of_power_side_is_a_component():
    sides = [s["id"] for tile in carddata.load_base()["places_of_power"] for s in tile["sides"]]
    places = [c["id"] for c in carddata.components() if c["kind"] == "place_of_power"]
    assert places == sides and len(sides) == 10


def test_components_returns_a_new_list():
    a = carddata.components()
    a.clear()
    assert len(carddata.components()) == 78
