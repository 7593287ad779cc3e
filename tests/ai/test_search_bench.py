"""The reference search bench, in part (the whole bench is `benchmarks/bench_search.py`)."""
import json

import pytest

from ai.expectimax import Expectimax, bridge_search
from amigos.bridge import Bridge
from tests.helpers import ROOT

KEY = ROOT / "spec" / "bench_answer_key.json"


@pytest.fixture(scope="module")
def key():
    if not KEY.exists():
        pytest.skip(f"no bench answer key at {KEY}")
    return json.loads(KEY.read_text())


@pytest.mark.parametrize("game", [0, 5])
def test_first_searches_of_a_bench_game_are_optimal(key, game):
    bridge = Bridge(search=bridge_search)
    entries = key["games"][game]["actions"]
    assert bridge.handle({"cmd": "new_game_from_setup", "setup": entries[0]["step"], "player_id": 0,
                          "num_players": 2}) == {"status": "ok"}
    searched = 0
    for entry in entries[1:]:
        if "search" in entry and searched < 12:
            reply = bridge.handle({"cmd": "search", "depth": 3, "maximizing_pid": entry["search"]["maximizing_pid"]})
            assert reply["step"] in entry["search"]["optimal_steps"]
            assert isinstance(reply["nodes"], int) and reply["nodes"] > 0 and reply["depth"] == 3
            searched += 1
        assert bridge.handle({"cmd": "advance", "step": entry["step"]})["status"] == "ok"
    assert searched == 12


def test_search_node_count_matches_the_protocol_example():
    bridge = Bridge(search=bridge_search)
    setup = {"__type__": "ResolveGameSetup", "places_of_power": ["Coral Castle"],
             "monument_display": ["Temple", "Obelisk"], "monument_deck": ["Library"],
             "mage_options": [["Seer", "Witch"], ["Healer"]],
             "artifact_decks": [["Hawk", "Prism", "Vault", "Elvish Bow"], ["Guard Dog", "Crypt", "Treant"]]}
    bridge.handle({"cmd": "new_game_from_setup", "setup": setup, "player_id": 0, "num_players": 2})
    for mage, p in (("Seer", 0), ("Healer", 1)):
        bridge.handle({"cmd": "advance", "step": {"__type__": "ChooseMage", "mage_name": mage, "player_id": p}})
    reply = bridge.handle({"cmd": "search", "depth": 2, "maximizing_pid": 1})
    assert reply == {"step": {"__type__": "ChooseMagicItem", "item_name": "Alchemy", "player_id": 1},
                     "nodes": 72, "depth": 2}


def test_search_errors_are_reported():
    bridge = Bridge(search=bridge_search)
    assert "error" in bridge.handle({"cmd": "search"})
    plain = Bridge()
    plain.handle({"cmd": "new_game_from_setup", "setup": {"__type__": "ResolveGameSetup", "places_of_power": [],
                  "monument_display": [], "monument_deck": [], "mage_options": [["Seer"]]}, "player_id": 0,
                  "num_players": 1})
    assert "error" in plain.handle({"cmd": "search", "depth": 2})
    bridge.handle({"cmd": "new_game_from_setup", "setup": {"__type__": "ResolveGameSetup", "places_of_power": [],
                   "monument_display": [], "monument_deck": [], "mage_options": [["Seer"]]}, "player_id": 0,
                   "num_players": 1})
    assert "error" in bridge.handle({"cmd": "search", "depth": 0})


def test_expectimax_takes_a_winning_claim():
    from amigos import actions as A
    from amigos.position import build_position
    s = build_position([
        {"mage": "seer", "item": "research", "monuments": ["great_pyramid", "colossus", "oracle"],
         "pool": {"gold": 4}},
        {"mage": "healer", "item": "protection", "passed": True},
    ], monuments_face_up=["temple"], places_of_power=["coral_castle"])
    s.auto_chance = False
    # Claiming the Temple makes 10 points; passing next ends the round and wins.  Passing now does not.
    move, value, nodes, depth = Expectimax(2).search(s, 0)
    assert A.kind(move) == A.CLAIM_MONUMENT and value == 10000.0
