"""Unit tests of the conformance harness itself (no engine needed)."""

from __future__ import annotations

import copy
import json
import sys
import textwrap

import pytest

from tests.conformance import harness
from tests.conformance.harness import (
    StepFormatError,
    SubprocessBridge,
    canonical_step,
    check_assertion,
    default_scenario_dir,
    load_scenarios,
    read_deviations,
    run_files,
    run_scenario,
    steps_equal,
)

CD = "CollectDecision"


def enum(name, value):
    return {"__enum__": name, "value": value}


# --------------------------------------------------------------------------
# canonical_step
# --------------------------------------------------------------------------

def test_use_power_defaults_and_empty_pools_omitted():
    step = {"__type__": "UsePower", "card_name": "Seer", "pay": {}, "gain": {"elan": 0},
            "target_name": None, "comment": "unknown key"}
    assert canonical_step(step) == {"__type__": "UsePower", "card_name": "Seer",
                                    "power_index": 0, "player_id": 0}


def test_use_power_full():
    step = {"__type__": "UsePower", "card_name": "Alchemist", "power_index": 1, "player_id": 1,
            "target_name": "Witch", "target_player_id": 0,
            "pay": {"gold": 2, "elan": 2, "calm": 0}, "gain": {"gold": 2, "bogus": 3}}
    out = canonical_step(step)
    assert out == {"__type__": "UsePower", "card_name": "Alchemist", "power_index": 1,
                   "player_id": 1, "target_name": "Witch", "target_player_id": 0,
                   "pay": {"elan": 2, "gold": 2}, "gain": {"gold": 2}}
    assert list(out["pay"]) == ["elan", "gold"]  # essence order


def test_empty_pay_kept_on_place_artifact_and_claim_and_gain():
    assert canonical_step({"__type__": "PlaceArtifact", "artifact_name": "Prism", "pay": {}}) == \
        {"__type__": "PlaceArtifact", "artifact_name": "Prism", "pay": {}, "player_id": 0}
    assert canonical_step({"__type__": "PlaceArtifact", "artifact_name": "Prism"})["pay"] == {}
    assert canonical_step({"__type__": "ClaimPlaceOfPower", "pop_name": "Coral Castle",
                           "pay": {"gold": 0}})["pay"] == {}
    assert canonical_step({"__type__": "DiscardForEssences", "card_name": "Hawk",
                           "gain": {}})["gain"] == {}
    assert canonical_step({"__type__": "Gain", "card_name": "Healer",
                           "gain": {"life": 1}, "player_id": 1}) == \
        {"__type__": "Gain", "card_name": "Healer", "gain": {"life": 1}, "player_id": 1}


def test_empty_pay_omitted_on_reacts_and_life_loss_choice():
    assert canonical_step({"__type__": "LifeLossChoice", "player_id": 1, "pay": {}}) == \
        {"__type__": "LifeLossChoice", "player_id": 1}
    assert canonical_step({"__type__": "LifeLossReact", "card_name": "Dancing Sword",
                           "pay": {"elan": 1}, "gain": {"death": 1}}) == \
        {"__type__": "LifeLossReact", "card_name": "Dancing Sword", "power_index": 0,
         "player_id": 0, "pay": {"elan": 1}, "gain": {"death": 1}}
    assert canonical_step({"__type__": "VictoryReact", "card_name": "Golden Statue",
                           "pay": {"gold": 3}, "gain": {"gold": 1}}) == \
        {"__type__": "VictoryReact", "card_name": "Golden Statue", "power_index": 0,
         "player_id": 0, "pay": {"gold": 3}}  # VictoryReact has no gain field


def test_expansion_steps():
    """Lux et Tenebrae: VictoryReact's optional target_name / count_as, and the Bank step."""
    assert canonical_step({"__type__": "VictoryReact", "card_name": "Illusion", "power_index": 1,
                           "pay": {"calm": 2}, "count_as": "dragon", "target_name": None}) == \
        {"__type__": "VictoryReact", "card_name": "Illusion", "power_index": 1, "player_id": 0,
         "pay": {"calm": 2}, "count_as": "dragon"}
    assert canonical_step({"__type__": "VictoryReact", "card_name": "Dark Cathedral",
                           "target_name": "Chaos Imp"}) == \
        {"__type__": "VictoryReact", "card_name": "Dark Cathedral", "power_index": 0, "player_id": 0,
         "target_name": "Chaos Imp"}
    assert canonical_step({"__type__": "Bank", "card_name": "Infernal Engine", "essence": "elan",
                           "player_id": 1}) == \
        {"__type__": "Bank", "card_name": "Infernal Engine", "essence": "elan", "count": 0, "player_id": 1}
    with pytest.raises(StepFormatError):
        canonical_step({"__type__": "Bank", "card_name": "Infernal Engine", "count": 2})


def test_enums_by_name_by_int_and_object():
    by_name = canonical_step({"__type__": "TakeStored", "card_name": "Vault",
                              "decision": {"__enum__": CD, "value": "TAKE_STORED"}})
    assert by_name == {"__type__": "TakeStored", "card_name": "Vault", "player_id": 0,
                       "decision": enum(CD, 3)}
    assert canonical_step({"__type__": "CollectCost", "card_name": "Cursed Forge",
                           "decision": "PAY_TURN"})["decision"] == enum(CD, 1)
    assert canonical_step({"__type__": "ScryDeckChoice",
                           "scry_target": {"__enum__": "DeckType", "value": 1}}) == \
        {"__type__": "ScryDeckChoice", "player_id": 0, "scry_target": enum("DeckType", 1)}
    assert canonical_step({"__type__": "ScryDeckChoice", "scry_target": "MONUMENT"}
                          )["scry_target"] == enum("DeckType", 1)
    assert canonical_step({"__type__": "AssertLocation", "card_name": "Hawk",
                           "location": {"__enum__": "CardLocation", "value": "DISCARD"}}) == \
        {"__type__": "AssertLocation", "card_name": "Hawk", "location": enum("CardLocation", 6)}
    assert canonical_step({"__type__": "AssertPhase", "phase": 4})["phase"] == \
        enum("GamePhase", 4)
    with pytest.raises(StepFormatError):
        canonical_step({"__type__": "TakeStored", "card_name": "Vault", "decision": "NOPE"})


def test_lists_and_flags():
    assert canonical_step({"__type__": "ScryChoice", "player_id": 0, "scry_order": []}) == \
        {"__type__": "ScryChoice", "player_id": 0}
    assert canonical_step({"__type__": "ScryChoice", "scry_order": [2, 0, 1]})["scry_order"] == \
        [2, 0, 1]
    assert canonical_step({"__type__": "ResolveDrawReveal", "player_id": 0,
                           "revealed_cards": [], "known_cards": ["Hawk"]}) == \
        {"__type__": "ResolveDrawReveal", "known_cards": ["Hawk"], "player_id": 0}
    assert canonical_step({"__type__": "ResolveScryReveal"}) == \
        {"__type__": "ResolveScryReveal", "revealed_cards": [], "player_id": 0}
    assert canonical_step({"__type__": "DiscardChoice"}) == \
        {"__type__": "DiscardChoice", "card_names": [], "player_id": 0}
    assert "use_alt" not in canonical_step({"__type__": "Gain", "card_name": "X",
                                            "gain": {"elan": 1}, "use_alt": False})
    assert canonical_step({"__type__": "Gain", "card_name": "X", "gain": {"elan": 1},
                           "use_alt": True})["use_alt"] is True
    assert canonical_step({"__type__": "ClaimTopMonument"}) == \
        {"__type__": "ClaimTopMonument", "player_id": 0}


def test_game_setup():
    setup = {"__type__": "ResolveGameSetup", "places_of_power": [], "monument_display": ["Temple"],
             "monument_deck": [], "mage_options": [["Seer"]], "first_player": 0,
             "starting_essences": [{"elan": 6, "gold": 2, "life": 0}, {}], "draft": False}
    assert canonical_step(setup) == {
        "__type__": "ResolveGameSetup", "places_of_power": [], "monument_display": ["Temple"],
        "monument_deck": [], "mage_options": [["Seer"]],
        "starting_essences": [{"elan": 6, "gold": 2}, {}]}
    setup2 = dict(setup, first_player=1, artifact_decks=[["Hawk"], []])
    del setup2["starting_essences"]
    out = canonical_step(setup2)
    assert out["first_player"] == 1 and out["artifact_decks"] == [["Hawk"], []]
    assert "starting_essences" not in out


def test_assertions_and_action_fails():
    assert canonical_step({"__type__": "AssertPool", "player_id": 0, "elan": 5, "gold": 0}) == \
        {"__type__": "AssertPool", "player_id": 0, "elan": 5}
    assert canonical_step({"__type__": "AssertTurned", "card_name": "Hawk", "turned": True}) == \
        {"__type__": "AssertTurned", "card_name": "Hawk", "player_id": 0}
    assert canonical_step({"__type__": "AssertTurned", "card_name": "Hawk",
                           "turned": False})["turned"] is False
    assert canonical_step({"__type__": "AssertOwner", "card_name": "Temple"})["player_id"] == 5
    fails = canonical_step({"__type__": "ActionFails", "msg": "why",
                            "action": {"__type__": "UsePower", "card_name": "Seer", "pay": {}}})
    assert fails == {"__type__": "ActionFails", "msg": "why",
                     "action": {"__type__": "UsePower", "card_name": "Seer",
                                "power_index": 0, "player_id": 0}}


def test_malformed_steps_raise():
    with pytest.raises(StepFormatError):
        canonical_step({"__type__": "Teleport"})
    with pytest.raises(StepFormatError):
        canonical_step({"__type__": "PlaceArtifact", "pay": {}})  # no artifact_name
    with pytest.raises(StepFormatError):
        canonical_step({"__type__": "ActionFails",
                        "action": {"__type__": "AssertPool", "player_id": 0}})


@pytest.mark.skipif(not default_scenario_dir().is_dir(), reason="no scenario folder")
def test_every_shared_scenario_canonicalises_idempotently():
    for name, scenario in load_scenarios(default_scenario_dir()):
        for raw in [scenario["setup"]] + scenario["steps"]:
            once = canonical_step(raw)
            assert canonical_step(once) == once, (name, raw)
            assert None not in once.values(), (name, raw)


# --------------------------------------------------------------------------
# steps_equal
# --------------------------------------------------------------------------

def test_steps_equal_discard_choice_order_insensitive():
    a = {"__type__": "DiscardChoice", "card_names": ["Vault", "Hawk"], "player_id": 0}
    b = {"__type__": "DiscardChoice", "card_names": ["Hawk", "Vault"], "player_id": 0}
    assert steps_equal(a, b)
    assert not steps_equal(a, dict(b, card_names=["Hawk"]))
    assert a["card_names"] == ["Vault", "Hawk"]  # inputs are not mutated


def test_steps_equal_is_exact_otherwise():
    s = {"__type__": "ScryChoice", "player_id": 0, "scry_order": [1, 0]}
    assert steps_equal(s, copy.deepcopy(s))
    assert not steps_equal(s, dict(s, scry_order=[0, 1]))
    u = {"__type__": "UsePower", "card_name": "Seer", "power_index": 0, "player_id": 0}
    assert not steps_equal(u, dict(u, pay={}))           # presence of optional keys matters
    assert not steps_equal(u, dict(u, player_id=False))  # bool is not an int
    assert not steps_equal(u, dict(u, power_index=0.0))  # float is not an int
    t = {"__type__": "TakeStored", "card_name": "Vault", "player_id": 0,
         "decision": enum(CD, 3)}
    assert not steps_equal(t, dict(t, decision=enum(CD, "TAKE_STORED")))


# --------------------------------------------------------------------------
# read_deviations / load_scenarios
# --------------------------------------------------------------------------

def test_read_deviations(tmp_path):
    path = tmp_path / "deviations.txt"
    path.write_text(textwrap.dedent("""\
        # header comment

        TestA.json  # printed rule differs
        TestB.json
          TestC.json   #  spaces  # and a hash
        """))
    assert read_deviations(path) == {
        "TestA.json": "printed rule differs",
        "TestB.json": "listed in deviations.txt",
        "TestC.json": "spaces  # and a hash",
    }
    assert read_deviations(tmp_path / "missing.txt") == {}


def test_repo_deviations_file_parses():
    from pathlib import Path
    path = Path(harness.__file__).with_name("deviations.txt")
    assert path.exists()
    assert isinstance(read_deviations(path), dict)


def test_load_scenarios_sorted(tmp_path):
    for name in ["b.json", "a.json", "c.txt"]:
        (tmp_path / name).write_text(json.dumps({"name": name}))
    assert [n for n, _ in load_scenarios(tmp_path)] == ["a.json", "b.json"]


# --------------------------------------------------------------------------
# run_scenario against a fake bridge
# --------------------------------------------------------------------------

SEER = {"__type__": "ChooseMage", "mage_name": "Seer", "player_id": 0}
WITCH = {"__type__": "ChooseMage", "mage_name": "Witch", "player_id": 0}
ALCHEMY = {"__type__": "ChooseMagicItem", "item_name": "Alchemy", "player_id": 0}
STATE = {
    "phase": "ACTIONS", "round": 1, "current_player": 0, "first_player": 0, "winner_ids": [],
    "players": [{"pool": [6, 0, 0, 0, 2], "vp": 1, "has_passed": False,
                 "has_first_player_token": True}],
    "entities": [
        {"name": "Seer", "kind": "MAGE", "location": "IN_PLAY", "owner": 0, "is_turned": True,
         "essences_on_card": None, "order_index": -1},
        {"name": "Seer", "kind": "MAGE", "location": "OUT_OF_GAME", "owner": 5,
         "is_turned": False, "essences_on_card": [1, 0, 0, 0, 0], "order_index": -1},
        {"name": "Vault", "kind": "ARTIFACT", "location": "IN_PLAY", "owner": 0,
         "is_turned": False, "essences_on_card": [0, 0, 0, 0, 2], "order_index": -1},
    ],
}


class FakeBridge:
    """Records requests; `legal` is the list legal_actions returns; advance
    accepts listed decision steps and every chance step."""

    def __init__(self, legal=None, state=None, advance_reply=None, raise_on=None):
        self.requests = []
        self.legal = legal if legal is not None else [SEER, WITCH]
        self.state = state if state is not None else STATE
        self.advance_reply = advance_reply
        self.raise_on = raise_on

    def handle(self, request):
        self.requests.append(request)
        cmd = request["cmd"]
        if cmd == self.raise_on:
            raise RuntimeError("engine bug")
        if cmd == "new_game_from_setup":
            return {"status": "ok"}
        if cmd == "legal_actions":
            return {"actions": self.legal}
        if cmd == "get_state":
            return {"state": self.state}
        if cmd == "advance":
            if self.advance_reply is not None:
                return self.advance_reply
            step = request["step"]
            if step["__type__"].startswith("Resolve") or \
                    any(steps_equal(step, a) for a in self.legal):
                return {"status": "ok"}
            return {"status": "error", "msg": "illegal"}
        return {"error": f"Unknown command: {cmd}"}

    def commands(self):
        return [r["cmd"] for r in self.requests]


def scenario(*steps, **extra):
    base = {"name": "T", "expansions": [0],
            "setup": {"__type__": "ResolveGameSetup", "places_of_power": [],
                      "monument_display": [], "monument_deck": [], "mage_options": [["Seer"]],
                      "starting_essences": [{"elan": 6, "gold": 2, "calm": 0}]},
            "steps": list(steps)}
    base.update(extra)
    return base


def test_passing_scenario_and_requests():
    bridge = FakeBridge()
    steps = [{"__type__": "ChooseMage", "mage_name": "Seer"},  # player_id omitted
             {"__type__": "ActionFails", "action": ALCHEMY},
             {"__type__": "ResolveDrawReveal", "player_id": 0, "revealed_cards": ["Hawk"],
              "known_cards": []},
             {"__type__": "AssertPool", "player_id": 0, "elan": 6, "gold": 2}]
    result = run_scenario(bridge, scenario(*steps), "T.json")
    assert result.passed, result.describe()
    assert result.steps_run == 4
    assert bridge.commands() == ["new_game_from_setup", "legal_actions", "advance",
                                 "advance", "advance", "get_state"]
    first = bridge.requests[0]
    assert first["player_id"] == 0 and first["num_players"] == 1  # default num_players 1
    assert first["setup"]["starting_essences"] == [{"elan": 6, "gold": 2}]
    assert bridge.requests[2]["step"] == SEER                       # canonical step sent
    assert bridge.requests[3]["step"] == ALCHEMY                    # inner step of ActionFails
    assert bridge.requests[4]["step"] == {"__type__": "ResolveDrawReveal",
                                          "revealed_cards": ["Hawk"], "player_id": 0}


def test_num_players_sent():
    bridge = FakeBridge()
    assert run_scenario(bridge, scenario(num_players=2)).passed
    assert bridge.requests[0]["num_players"] == 2


def test_membership_failure_stops_with_step_index():
    bridge = FakeBridge(legal=[SEER, WITCH, ALCHEMY])
    steps = [SEER, {"__type__": "ChooseMage", "mage_name": "Seer", "player_id": 1}, WITCH]
    result = run_scenario(bridge, scenario(*steps), "T.json")
    assert result.failed
    assert result.step_index == 1
    assert result.step == {"__type__": "ChooseMage", "mage_name": "Seer", "player_id": 1}
    assert "legal ChooseMage actions with mage_name='Seer'" in result.message
    assert json.dumps(SEER) in result.message
    assert "Alchemy" not in result.message
    # stopped: no advance for the failing step nor anything after it
    assert bridge.commands() == ["new_game_from_setup", "legal_actions", "advance",
                                 "legal_actions"]
    assert "failed at step 1" in result.describe()


def test_membership_failure_message_without_same_type():
    bridge = FakeBridge(legal=[ALCHEMY])
    result = run_scenario(bridge, scenario(SEER))
    assert result.failed and "no legal ChooseMage action" in result.message
    assert "ChooseMagicItem x1" in result.message


def test_action_fails_that_succeeds_fails():
    bridge = FakeBridge()
    result = run_scenario(bridge, scenario(SEER, {"__type__": "ActionFails", "action": WITCH},
                                           SEER))
    assert result.failed and result.step_index == 1
    assert "must fail" in result.message


def test_advance_error_after_membership_fails():
    bridge = FakeBridge(advance_reply={"status": "error", "msg": "no"})
    result = run_scenario(bridge, scenario(SEER))
    assert result.failed and result.step_index == 0


def test_chance_step_error_fails_without_membership_check():
    bridge = FakeBridge(advance_reply={"status": "error", "msg": "no"})
    result = run_scenario(bridge, scenario(
        {"__type__": "ResolveMonumentDraw", "monument_name": "Temple", "player_id": 0}))
    assert result.failed and result.step_index == 0
    assert "legal_actions" not in bridge.commands()


def test_assertion_mismatch_fails():
    bridge = FakeBridge()
    result = run_scenario(bridge, scenario(
        {"__type__": "AssertPool", "player_id": 0, "elan": 6, "gold": 2},
        {"__type__": "AssertPool", "player_id": 0, "elan": 5}))
    assert result.failed and result.step_index == 1
    assert "[5, 0, 0, 0, 0]" in result.message and "[6, 0, 0, 0, 2]" in result.message


def test_skipped():
    bridge = FakeBridge()
    assert run_scenario(bridge, scenario(expansions=[0, 1])).skipped
    assert run_scenario(bridge, scenario(expansions=[1])).skipped
    assert run_scenario(bridge, scenario(num_players=3)).skipped
    assert run_scenario(bridge, scenario(expansions=["lux"])).skipped  # the bridge plays no expansion
    assert bridge.requests == []


def test_expansion_scenario_runs_on_a_bridge_that_plays_it():
    bridge = FakeBridge()
    bridge.expansions = ("lux",)
    assert run_scenario(bridge, scenario(expansions=["lux"])).passed
    assert run_scenario(bridge, scenario(expansions=["lux", "other"])).skipped
    assert run_scenario(bridge, scenario()).passed


def test_bridge_exception_and_bad_replies_fail():
    assert run_scenario(FakeBridge(raise_on="legal_actions"), scenario(SEER)).failed
    result = run_scenario(FakeBridge(raise_on="new_game_from_setup"), scenario(SEER))
    assert result.failed and result.step_index is None and "engine bug" in result.message

    class NoStatus(FakeBridge):
        def handle(self, request):
            return {"error": "new_game_from_setup failed"} if request["cmd"] == \
                "new_game_from_setup" else super().handle(request)
    assert run_scenario(NoStatus(), scenario()).failed


def test_malformed_step_fails_before_playing():
    bridge = FakeBridge()
    result = run_scenario(bridge, scenario(SEER, {"__type__": "Teleport"}))
    assert result.failed and result.step_index == 1 and "malformed" in result.message
    assert bridge.requests == []


def _assert(step):
    return check_assertion(canonical_step(step), STATE)


@pytest.mark.parametrize("step, ok", [
    ({"__type__": "AssertPool", "player_id": 0, "elan": 6, "gold": 2}, True),
    ({"__type__": "AssertPool", "player_id": 1}, False),  # no such player
    ({"__type__": "AssertEssencesOnCard", "card_name": "Seer", "player_id": 0}, True),  # null
    ({"__type__": "AssertEssencesOnCard", "card_name": "Seer", "elan": 1}, False),  # 1st Seer
    ({"__type__": "AssertEssencesOnCard", "card_name": "Vault", "gold": 2}, True),
    ({"__type__": "AssertEssencesOnCard", "card_name": "Hawk"}, False),  # missing entity
    ({"__type__": "AssertTurned", "card_name": "Seer", "player_id": 0}, True),  # default true
    ({"__type__": "AssertTurned", "card_name": "Vault", "turned": False}, True),
    ({"__type__": "AssertTurned", "card_name": "Vault"}, False),
    ({"__type__": "AssertLocation", "card_name": "Seer",
      "location": enum("CardLocation", 5)}, True),
    ({"__type__": "AssertLocation", "card_name": "Seer",
      "location": enum("CardLocation", "OUT_OF_GAME")}, False),
    ({"__type__": "AssertOwner", "card_name": "Seer", "player_id": 0}, True),
    ({"__type__": "AssertOwner", "card_name": "Seer"}, False),  # default 5
    ({"__type__": "AssertCurrentPlayer", "player_id": 0}, True),
    ({"__type__": "AssertCurrentPlayer", "player_id": 1}, False),
    ({"__type__": "AssertPhase", "phase": enum("GamePhase", 4)}, True),
    ({"__type__": "AssertPhase", "phase": enum("GamePhase", "GAME_OVER")}, False),
    ({"__type__": "AssertVP", "player_id": 0, "vp": 1}, True),
    ({"__type__": "AssertVP", "player_id": 0, "vp": 2}, False),
    ({"__type__": "AssertWinners", "winner_ids": []}, True),
    ({"__type__": "AssertWinners", "winner_ids": [0]}, False),
])
def test_check_assertion(step, ok):
    message = _assert(step)
    assert (message is None) == ok, message


def test_assert_winners_sorted_and_owner_unowned():
    state = dict(STATE, winner_ids=[0, 1])
    assert check_assertion(canonical_step({"__type__": "AssertWinners",
                                           "winner_ids": [1, 0]}), state) is None
    state = dict(STATE, entities=[dict(STATE["entities"][1])])
    assert check_assertion(canonical_step({"__type__": "AssertOwner",
                                           "card_name": "Seer"}), state) is None
    bad_phase = dict(STATE, phase="LUNCH")
    assert "not a valid GamePhase" in check_assertion(
        canonical_step({"__type__": "AssertPhase", "phase": 4}), bad_phase)


# --------------------------------------------------------------------------
# Subprocess bot and main()
# --------------------------------------------------------------------------

FAKE_BOT = textwrap.dedent("""\
    import json, sys
    LEGAL = [{"__type__": "ChooseMage", "mage_name": "Seer", "player_id": 0}]
    STATE = {"phase": "ACTIONS", "current_player": 0, "winner_ids": [],
             "players": [{"pool": [1, 1, 1, 1, 1], "vp": 1}], "entities": []}
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError as exc:
            print(json.dumps({"error": "Invalid JSON: %s" % exc}), flush=True)
            continue
        cmd = req.get("cmd")
        if cmd == "new_game_from_setup":
            if req["setup"]["mage_options"] == [["Crash"]]:
                sys.stderr.write("fake bot crashing\\n")
                sys.exit(3)
            reply = {"status": "ok"}
        elif cmd == "legal_actions":
            reply = {"actions": LEGAL}
        elif cmd == "advance":
            reply = {"status": "ok"} if req["step"] in LEGAL else {"status": "error", "msg": "x"}
        elif cmd == "get_state":
            reply = {"state": STATE}
        elif cmd == "quit":
            print(json.dumps({"status": "ok"}), flush=True)
            break
        else:
            reply = {"error": "Unknown command: %s" % cmd}
        print(json.dumps(reply), flush=True)
""")


def _write_suite(directory):
    def write(name, mages, steps, **extra):
        data = scenario(*steps, **extra)
        data["setup"]["mage_options"] = mages
        (directory / name).write_text(json.dumps(data))
    write("a_pass.json", [["Seer"]], [SEER, {"__type__": "AssertPool", "player_id": 0,
                                             "elan": 1, "life": 1, "calm": 1, "death": 1,
                                             "gold": 1}])
    write("b_fail.json", [["Seer"]], [WITCH])
    write("c_crash.json", [["Crash"]], [SEER])
    write("d_after.json", [["Seer"]], [{"__type__": "ActionFails", "action": WITCH}])
    write("e_skip.json", [["Seer"]], [SEER], expansions=[1])


def test_subprocess_bridge_restarts_after_death(tmp_path):
    bot_path = tmp_path / "fake_bot.py"
    bot_path.write_text(FAKE_BOT)
    suite = tmp_path / "suite"
    suite.mkdir()
    _write_suite(suite)
    bot = SubprocessBridge([sys.executable, str(bot_path)], timeout=20)
    try:
        results = run_files(bot, harness.scenario_files(suite), skip={"b_fail.json": "known"})
        assert [r.status for r in results] == ["passed", "skipped", "failed", "passed",
                                               "skipped"]
        assert "fake bot crashing" in results[2].message
        assert bot.starts == 2
        assert bot.close() == {"status": "ok"}
    finally:
        bot.kill()


def test_main_with_bot(tmp_path, capsys):
    bot_path = tmp_path / "fake_bot.py"
    bot_path.write_text(FAKE_BOT)
    suite = tmp_path / "suite"
    suite.mkdir()
    _write_suite(suite)
    code = harness.main([str(suite), "--bot", f"{sys.executable} {bot_path}", "--verbose"])
    out = capsys.readouterr().out
    assert code == 1
    last = out.strip().splitlines()[-1]
    assert last.startswith("2 passed, 2 failed, 1 skipped in ") and last.endswith(" s")
    assert "FAIL b_fail.json: failed at step 0" in out
    assert "PASS a_pass.json" in out


def test_main_all_passing_exit_zero(tmp_path, capsys):
    bot_path = tmp_path / "fake_bot.py"
    bot_path.write_text(FAKE_BOT)
    suite = tmp_path / "suite"
    suite.mkdir()
    _write_suite(suite)
    for name in ("b_fail.json", "c_crash.json"):
        (suite / name).unlink()
    assert harness.main([str(suite), "--bot", f"{sys.executable} {bot_path}"]) == 0
    assert capsys.readouterr().out.strip().startswith("2 passed, 0 failed, 1 skipped")


def test_subprocess_timeout(tmp_path):
    bot_path = tmp_path / "silent_bot.py"
    bot_path.write_text("import sys, time\nfor line in sys.stdin:\n    time.sleep(60)\n")
    bot = SubprocessBridge([sys.executable, str(bot_path)], timeout=0.5)
    try:
        result = run_scenario(bot, scenario(SEER))
        assert result.failed and "no reply" in result.message
        assert not bot.alive()
    finally:
        bot.kill()
