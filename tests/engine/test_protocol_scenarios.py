"""Scenarios written from PROTOCOL.md where the reference's public scenarios are thin.

The 293 public scenarios never use some powers successfully (Divination, Fiery Whip, Witch, Crypt's
first power, Library, ...), never take stored essences off a monument or Sunken Reef, never break a
victory tie, and never ask for Divination's discard; the reference's hidden scenarios do.  Each file
in ``tests/scenarios/protocol`` is in the protocol's scenario format, its description quotes the
PROTOCOL.md sentence it relies on, and it may hold ``ExpectLegalActions`` steps (ours, not the
protocol's): the whole canonical list of legal steps, in order, that PROTOCOL.md predicts there.
They are played through ``Bridge(ruleset="reference")``, first as the harness plays a scenario
(the lists left out), then step by step with every list compared exactly.
"""

from __future__ import annotations

import json

import pytest

from amigos.bridge import Bridge
from tests.conformance.harness import ASSERTION_STEPS, canonical_step, run_scenario, steps_equal
from tests.helpers import TESTS

FOLDER = TESTS / "scenarios" / "protocol"
EXPECT = "ExpectLegalActions"
FILES = sorted(FOLDER.glob("*.json"))


@pytest.fixture(scope="module")
def bridge():
    return Bridge(ruleset="reference")


def call(bridge, request: dict) -> dict:
    return bridge.handle(json.loads(json.dumps(request)))


def test_the_folder_has_its_scenarios():
    assert len(FILES) >= 70


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_protocol_scenario(bridge, path):
    scenario = json.loads(path.read_text(encoding="utf-8"))
    public = dict(scenario, steps=[s for s in scenario["steps"] if s["__type__"] != EXPECT])
    result = run_scenario(bridge, public, path.name)
    assert result.passed and not result.skipped, f"{result.describe()}\n  scenario: {scenario['description']}"

    call(bridge, {"cmd": "new_game_from_setup", "setup": canonical_step(scenario["setup"]), "player_id": 0,
                  "num_players": scenario["num_players"]})
    for i, step in enumerate(scenario["steps"]):
        kind = step["__type__"]
        if kind == EXPECT:
            got = call(bridge, {"cmd": "legal_actions"})["actions"]
            want = [canonical_step(a) for a in step["actions"]]
            missing = [a for a in want if not any(steps_equal(a, g) for g in got)]
            extra = [g for g in got if not any(steps_equal(a, g) for a in want)]
            assert not missing and not extra, f"step {i}: missing {missing}, extra {extra}"
            assert all(steps_equal(a, g) for a, g in zip(want, got)), f"step {i}: the order differs: {got}"
        elif kind == "ActionFails":
            call(bridge, {"cmd": "advance", "step": canonical_step(step)["action"]})
        elif kind not in ASSERTION_STEPS:
            reply = call(bridge, {"cmd": "advance", "step": canonical_step(step)})
            assert reply.get("status") == "ok", f"step {i}: {reply}"
