"""The engine protocol stays the base game (the reference protocol knows no expansion): a setup naming
a *Lux et Tenebrae* component is refused, saying so, and an unknown name is still an unknown card."""

from __future__ import annotations

import pytest

from amigos import SetupError, state_from_setup
from amigos.bridge import Bridge


def _setup(artifacts: list[str]) -> dict:
    return {"__type__": "ResolveGameSetup", "places_of_power": [], "monument_display": [], "monument_deck": [],
            "mage_options": [["Seer"], ["Druid"]], "artifact_decks": [artifacts, ["Fire Dragon"]]}


def test_a_setup_with_an_expansion_card_is_refused_by_name():
    with pytest.raises(SetupError, match=r"'Chaos Imp' in artifact_decks is a Lux et Tenebrae card"):
        state_from_setup(_setup(["Chaos Imp"]))


def test_the_bridge_answers_an_expansion_setup_with_that_error():
    reply = Bridge().handle({"cmd": "new_game_from_setup", "setup": _setup(["Elvish Bow", "Chaos Imp"]),
                             "player_id": 0, "num_players": 2})
    assert "Lux et Tenebrae" in str(reply.get("error", reply))
    assert reply.get("status") != "ok"


def test_an_unknown_name_is_still_an_unknown_card():
    with pytest.raises(SetupError, match=r"unknown card 'Chaos Impp'"):
        state_from_setup(_setup(["Chaos Impp"]))


def test_a_base_setup_still_builds():
    state = state_from_setup(_setup(["Elvish Bow"]))
    assert [c.name for c in state.cards[:1]] == ["Elvish Bow"]
