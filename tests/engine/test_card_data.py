"""The packaged card data of both sets and its flat component view (amigos.carddata); the engine's
table stays the base game's."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import amigos
from amigos import carddata
from tests.helpers import ROOT

SPEC = ROOT / "spec" / "cards"  # the repository's copy of the card data (spec/README.md)
PACKAGED = ROOT / "amigos" / "data"

FLAT_KEYS = {"id", "name", "set", "kind", "types", "cost", "points", "text", "raw"}
#: What the expansion adds (rules.md §2.3): each Place of Power tile is two components.
LUX_COUNTS = {"artifact": 12, "mage": 4, "monument": 4, "place_of_power": 4, "magic_item": 2, "scroll": 8}
SECTIONS = ("artifacts", "mages", "magic_items", "monuments", "places_of_power", "scrolls")
SET_FILES = {"base": "base.json", "lux": "lux_et_tenebrae.json"}


def shared_data(card_set: str) -> dict:
    """A set's data as the specification gives it (`SPEC`; the packaged copy is the same bytes: see
    the tests below)."""
    return json.loads((SPEC / SET_FILES[card_set]).read_text(encoding="utf-8"))


def file_components(data: dict) -> list[dict]:
    """Every component entry of a set's file, read directly (not through carddata), in the
    file's section order, each Place of Power side on its own."""
    out = []
    for section in SECTIONS:
        for entry in data.get(section, []):
            out += entry["sides"] if "sides" in entry else [entry]
    return out


def file_ids(data: dict) -> list[str]:
    return [c["id"] for c in file_components(data)]


@pytest.mark.parametrize("name", SET_FILES.values())
def test_the_packaged_card_data_is_the_specification_s(name):
    assert (PACKAGED / name).read_bytes() == (SPEC / name).read_bytes()


def test_load_lux_is_the_packaged_file_and_cached():
    lux = carddata.load_lux()
    assert lux == json.loads((PACKAGED / "lux_et_tenebrae.json").read_text(encoding="utf-8"))
    assert carddata.load_lux() is lux is carddata.load_set("lux")


def test_load_base_is_the_packaged_file_and_cached():
    base = carddata.load_base()
    assert base == json.loads((PACKAGED / "base.json").read_text(encoding="utf-8"))
    assert carddata.load_base() is base


def test_component_counts():
    counts = Counter(c["kind"] for c in carddata.components())
    assert counts == {"artifact": 40, "mage": 10, "monument": 10, "place_of_power": 10, "magic_item": 8}


def test_order_artifacts_mages_items_monuments_places():
    kinds = [c["kind"] for c in carddata.components()]
    firsts = list(dict.fromkeys(kinds))
    assert firsts == ["artifact", "mage", "magic_item", "monument", "place_of_power"]
    assert kinds == sorted(kinds, key=firsts.index), "kinds are not grouped"


def test_lux_component_counts_and_tiles():
    counts = Counter(c["kind"] for c in carddata.components(["lux"]))
    assert counts == LUX_COUNTS
    tiles = carddata.load_lux()["places_of_power"]
    assert len(tiles) == 2 and all(len(t["sides"]) == 2 for t in tiles)
    places = [c["id"] for c in carddata.components(["lux"]) if c["kind"] == "place_of_power"]
    assert places == [s["id"] for t in tiles for s in t["sides"]]


def test_every_component_has_its_set():
    both = carddata.components(carddata.SETS)
    base_ids, lux_ids = file_ids(carddata.load_base()), file_ids(carddata.load_lux())
    assert len(base_ids) == 78 and len(lux_ids) == 34 and not set(base_ids) & set(lux_ids)
    assert sorted(c["id"] for c in both if c["set"] == "base") == sorted(base_ids)
    assert sorted(c["id"] for c in both if c["set"] == "lux") == sorted(lux_ids)
    assert {c["set"] for c in both} == {"base", "lux"}
    assert all(c["set"] == "base" for c in carddata.components())
    assert all(c["set"] == "lux" for c in carddata.components(["lux"]))
    assert all(c["raw"]["expansion"] == "lux_et_tenebrae" for c in carddata.components(["lux"]))


def test_both_sets_are_listed_kind_by_kind_base_first():
    both = carddata.components(["lux", "base"])  # the order asked for does not matter
    assert [c["id"] for c in both] == [c["id"] for c in carddata.components(carddata.SETS)]
    keys = [(carddata.KINDS.index(c["kind"]), carddata.SETS.index(c["set"])) for c in both]
    assert keys == sorted(keys)
    assert carddata.KINDS[-1] == "scroll" and [c["kind"] for c in both][-8:] == ["scroll"] * 8
    # within a kind and set, the order of the set's own listing
    for s in carddata.SETS:
        alone = [c["id"] for c in carddata.components([s])]
        assert [c["id"] for c in both if c["set"] == s] == alone


def test_unknown_set_raises():
    with pytest.raises(ValueError, match="tenebrae"):
        carddata.components(["tenebrae"])
    with pytest.raises(ValueError):
        carddata.load_set("tenebrae")


def test_raw_components_are_the_base_game_by_default():
    """The engine compiles raw_components(): it stays the base game's, in base.json's order."""
    assert [r["id"] for r in carddata.raw_components()] == file_ids(carddata.load_base())
    assert [r["id"] for r in carddata.raw_components("lux")] == file_ids(carddata.load_lux())


def test_the_engine_table_holds_the_base_game_first_then_the_expansion():
    from amigos import cards as C
    base_ids, lux_ids = file_ids(carddata.load_base()), file_ids(carddata.load_lux())
    assert len(C.CARDS) == 78 + 34
    assert [c.id for c in C.CARDS[:78]] == base_ids  # a base card's index never moves
    assert [c.id for c in C.CARDS[78:]] == lux_ids
    assert {c.set for c in C.CARDS[:78]} == {"base"} and {c.set for c in C.CARDS[78:]} == {"lux"}
    assert C.BASE is carddata.load_base()
    assert {c.id for c in C.ARTIFACTS + C.MAGES + C.MAGIC_ITEMS + C.MONUMENTS} <= set(base_ids)


def test_a_game_deals_the_expansion_only_when_asked():
    lux_ids = set(file_ids(carddata.load_lux()))
    for variant in ("standard", "first_game", "draft"):
        for seed in range(5):
            dealt = {card.id for card in amigos.new_game(seed=seed, variant=variant).cards}
            assert not dealt & lux_ids, (variant, seed)
    seen: set[str] = set()
    for seed in range(30):
        seen |= {card.id for card in amigos.new_game(seed=seed, expansions=("lux",)).cards}
    assert seen & lux_ids


def test_ids_unique_and_keys():
    comps = carddata.components(carddata.SETS)
    ids = [c["id"] for c in comps]
    assert len(ids) == len(set(ids)) == 112
    for c in comps:
        assert set(c) == FLAT_KEYS, c["id"]
        assert isinstance(c["name"], str) and c["name"]
        assert isinstance(c["text"], str) and c["text"]
        assert isinstance(c["points"], int)
        assert c["kind"] in c["types"]
        assert c["raw"]["id"] == c["id"]


def test_costs():
    for c in carddata.components(carddata.SETS):
        if c["kind"] in ("mage", "magic_item", "scroll"):
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


def test_known_lux_cards():
    by_id = {c["id"]: c for c in carddata.components(["lux"])}
    assert by_id["chaos_imp"]["cost"] == {"elan": 1, "death": 1}
    assert by_id["chaos_imp"]["types"] == ["artifact", "demon"]
    assert by_id["vial_of_light"]["cost"] == {}
    assert by_id["crystal_keep"]["cost"] == {e: 4 for e in carddata.ESSENCES}
    assert by_id["crystal_keep"]["points"] == 5
    assert by_id["augury"]["kind"] == "scroll" and by_id["augury"]["cost"] is None
    assert by_id["inscription"]["kind"] == "magic_item"


def test_every_place_of_power_side_is_a_component():
    sides = [s["id"] for tile in carddata.load_base()["places_of_power"] for s in tile["sides"]]
    places = [c["id"] for c in carddata.components() if c["kind"] == "place_of_power"]
    assert places == sides and len(sides) == 10


def test_components_returns_a_new_list():
    a = carddata.components()
    a.clear()
    assert len(carddata.components()) == 78
