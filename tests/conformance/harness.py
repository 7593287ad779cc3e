"""Conformance harness: plays scenario files through an engine bridge.

This mirrors the reference correctness harness described in
``spec/PROTOCOL.md`` (sections 2.1, 2.8, 4.7, 5 and 6.2):

* every step read from a scenario file is re-encoded into canonical form
  (:func:`canonical_step`) before it is sent or compared;
* decision steps must be members of ``legal_actions`` (:func:`steps_equal`)
  and are then applied with ``advance``;
* chance steps are applied with ``advance`` without a membership check;
* ``ActionFails`` steps must be rejected (``status == "error"``);
* the nine assertions are evaluated here against ``get_state``.

The module has no pytest dependency.  It can be run directly::

    python -m tests.conformance.harness DIR [--bot "command line"] [--verbose]

Without ``--bot`` it uses an in-process ``amigos.bridge.Bridge``.  A "bridge"
is any object with a ``handle(request: dict) -> dict`` method; requests and
replies are round-tripped through JSON so that the in-process path sees exactly
what would travel over the wire.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import queue
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

REPO_ROOT = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------
# Enumerations (PROTOCOL.md §2.3)
# --------------------------------------------------------------------------

ENUMS: dict[str, list[str]] = {
    "GamePhase": [
        "SETUP_GAME", "SETUP_CHOOSE_MAGES", "SETUP_CHOOSE_ITEMS", "COLLECT",
        "ACTIONS", "VICTORY_CHECK", "GAME_OVER",
    ],
    "CardLocation": [
        "OUT_OF_GAME", "AVAILABLE", "MONUMENT_DECK", "DECK", "HAND", "IN_PLAY",
        "DISCARD", "BEING_CHOSEN",
    ],
    "CollectDecision": [
        "PAY_COST", "PAY_TURN", "DECLINE_COST", "TAKE_STORED", "LEAVE_STORED",
    ],
    "DeckType": ["ARTIFACT", "MONUMENT"],
}

ESSENCES = ("elan", "life", "calm", "death", "gold")


class StepFormatError(ValueError):
    """A scenario step cannot be decoded (unknown type, missing field...)."""


# --------------------------------------------------------------------------
# Step catalogue (PROTOCOL.md §2.4, §2.7, §2.8)
# --------------------------------------------------------------------------

# Field kinds.
STR = "str"              # required scalar (usually a card name); error if missing
PID = "pid"              # int, always present, default 0
IDX = "idx"              # power_index: int, always present, default 0
REF = "ref"              # optional reference: omitted when absent / None
POOL = "pool"            # pool, always present (possibly {})
POOL_OPT = "pool_opt"    # pool, omitted when empty
BOOL_OPT = "bool_opt"    # bool, omitted when false
LIST = "list"            # list, always present (possibly [])
LIST_OPT = "list_opt"    # list, omitted when empty
INT_OPT0 = "int_opt0"    # int, omitted when 0 (assertion essence counts)
TURNED = "turned"        # AssertTurned.turned: bool, omitted when true
OWNER = "owner"          # AssertOwner.player_id: int, always present, default 5
INT0 = "int0"            # int, always present, default 0
STEP = "step"            # nested step (ActionFails.action)
STR_OPT = "str_opt"      # optional string (ActionFails.msg), omitted when empty
SETUP_LIST = "setup_list"  # ResolveGameSetup list field, always present
FIRST = "first_player"   # int, omitted when 0
POOLS_OPT = "pools_opt"  # list of pools, kept when present
LIST_KEEP = "list_keep"  # list, kept when present (artifact_decks)


def _enum(name: str) -> tuple[str, str]:
    return ("enum", name)


_ESS_OPT = [(e, INT_OPT0) for e in ESSENCES]

DECISION_STEPS: dict[str, list[tuple[str, Any]]] = {
    "UsePower": [("card_name", STR), ("power_index", IDX), ("player_id", PID),
                 ("target_name", REF), ("target_player_id", REF),
                 ("pay", POOL_OPT), ("gain", POOL_OPT)],
    "PlaceArtifact": [("artifact_name", STR), ("pay", POOL), ("player_id", PID)],
    "Pass": [("item_name", STR), ("player_id", PID)],
    "Decline": [("card_name", STR), ("player_id", PID)],
    "ClaimMonument": [("monument_name", STR), ("player_id", PID)],
    "ClaimTopMonument": [("player_id", PID)],
    "ClaimPlaceOfPower": [("pop_name", STR), ("pay", POOL), ("player_id", PID)],
    "DiscardForEssences": [("card_name", STR), ("gain", POOL), ("player_id", PID)],
    "LifeLossReact": [("card_name", STR), ("power_index", IDX), ("player_id", PID),
                      ("target_name", REF), ("pay", POOL_OPT), ("gain", POOL_OPT)],
    "VictoryReact": [("card_name", STR), ("power_index", IDX), ("player_id", PID),
                     ("target_name", REF), ("pay", POOL_OPT),
                     # Lux et Tenebrae: the type Illusion counts as ("creature" | "demon" | "dragon")
                     ("count_as", REF)],
    "LifeLossChoice": [("player_id", PID), ("pay", POOL_OPT)],
    "TakeStored": [("card_name", STR), ("player_id", PID),
                   ("decision", _enum("CollectDecision"))],
    "CollectCost": [("card_name", STR), ("player_id", PID),
                    ("decision", _enum("CollectDecision"))],
    "Gain": [("card_name", STR), ("gain", POOL), ("player_id", PID),
             ("use_alt", BOOL_OPT)],
    "ScryDeckChoice": [("player_id", PID), ("scry_target", _enum("DeckType"))],
    "ScryChoice": [("player_id", PID), ("scry_order", LIST_OPT)],
    "DiscardChoice": [("card_names", LIST), ("player_id", PID)],
    "ChooseMage": [("mage_name", STR), ("player_id", PID)],
    "ChooseMagicItem": [("item_name", STR), ("player_id", PID)],
    # Lux et Tenebrae: how many pool essences of one kind go onto Infernal Engine (its first power)
    "Bank": [("card_name", STR), ("essence", STR), ("count", INT0), ("player_id", PID)],
}

CHANCE_STEPS: dict[str, list[tuple[str, Any]]] = {
    "ResolveDrawReveal": [("known_cards", LIST_OPT), ("revealed_cards", LIST_OPT),
                          ("player_id", PID)],
    "ResolveScryReveal": [("revealed_cards", LIST), ("player_id", PID)],
    "ResolveMonumentDraw": [("monument_name", STR), ("player_id", PID)],
    "ResolveMonumentReveal": [("monument_name", STR), ("player_id", PID)],
}

ASSERTION_STEPS: dict[str, list[tuple[str, Any]]] = {
    "AssertPool": [("player_id", PID)] + _ESS_OPT,
    "AssertEssencesOnCard": [("card_name", STR)] + _ESS_OPT + [("player_id", PID)],
    "AssertTurned": [("card_name", STR), ("turned", TURNED), ("player_id", PID)],
    "AssertLocation": [("card_name", STR), ("location", _enum("CardLocation"))],
    "AssertOwner": [("card_name", STR), ("player_id", OWNER)],
    "AssertCurrentPlayer": [("player_id", PID)],
    "AssertPhase": [("phase", _enum("GamePhase"))],
    "AssertVP": [("player_id", PID), ("vp", INT0)],
    "AssertWinners": [("winner_ids", LIST)],
}

OTHER_STEPS: dict[str, list[tuple[str, Any]]] = {
    "ResolveGameSetup": [("places_of_power", SETUP_LIST), ("monument_display", SETUP_LIST),
                         ("monument_deck", SETUP_LIST), ("mage_options", SETUP_LIST),
                         ("first_player", FIRST), ("artifact_decks", LIST_KEEP),
                         ("starting_essences", POOLS_OPT)],
    "ActionFails": [("action", STEP), ("msg", STR_OPT)],
}

STEP_FIELDS: dict[str, list[tuple[str, Any]]] = {
    **DECISION_STEPS, **CHANCE_STEPS, **ASSERTION_STEPS, **OTHER_STEPS,
}

# Keys that identify "the card" a step is about (used in failure messages).
CARD_KEYS = ("card_name", "artifact_name", "pop_name", "monument_name",
             "item_name", "mage_name")


# --------------------------------------------------------------------------
# Canonical form (PROTOCOL.md §2.1)
# --------------------------------------------------------------------------

def canonical_pool(pool: Any) -> dict[str, int]:
    """Canonical essence pool: keys among elan..gold in essence order, zero
    counts dropped, unknown keys ignored.  ``None`` reads as the empty pool;
    a five-element list ``[elan, life, calm, death, gold]`` is accepted too."""
    if pool is None:
        return {}
    if isinstance(pool, (list, tuple)):
        if len(pool) != len(ESSENCES):
            raise StepFormatError(f"pool array must have 5 entries: {pool!r}")
        pool = dict(zip(ESSENCES, pool))
    if not isinstance(pool, dict):
        raise StepFormatError(f"pool must be an object: {pool!r}")
    out: dict[str, int] = {}
    for key in ESSENCES:
        value = pool.get(key, 0)
        if value is None:
            continue
        value = _as_int(value, f"pool count {key!r}")
        if value != 0:
            out[key] = value
    return out


def canonical_enum(value: Any, enum_name: str) -> dict[str, Any]:
    """``{"__enum__": enum_name, "value": int}``; accepts the object form with
    an int or a name as value, a bare int, a bare name, or None (-> 0)."""
    if isinstance(value, dict):
        value = value.get("value")
    if value is None:
        value = 0
    if isinstance(value, str):
        names = ENUMS[enum_name]
        if value not in names:
            raise StepFormatError(f"unknown {enum_name} name {value!r}")
        value = names.index(value)
    value = _as_int(value, enum_name)
    return {"__enum__": enum_name, "value": value}


def _as_int(value: Any, what: str) -> int:
    if isinstance(value, bool):
        raise StepFormatError(f"{what} must be an integer, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise StepFormatError(f"{what} must be an integer, got {value!r}")


def _as_list(value: Any, what: str) -> list:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise StepFormatError(f"{what} must be a list, got {value!r}")
    return [list(v) if isinstance(v, tuple) else v for v in value]


def canonical_step(step: dict) -> dict:
    """Re-encode a scenario step into the canonical form of PROTOCOL.md §2.1.

    Knows every step type of §2.4, ``ResolveGameSetup`` (§2.7), the nine
    assertions and ``ActionFails`` (§2.8).  Unknown keys are dropped.  Raises
    :class:`StepFormatError` for an unknown ``__type__`` or a missing required
    field (the reference decoder fails on those as well).
    """
    if not isinstance(step, dict):
        raise StepFormatError(f"step must be an object, got {step!r}")
    stype = step.get("__type__")
    if stype not in STEP_FIELDS:
        raise StepFormatError(f"unknown step type {stype!r}")
    out: dict[str, Any] = {"__type__": stype}
    for name, kind in STEP_FIELDS[stype]:
        present = name in step and step[name] is not None
        value = step.get(name)
        what = f"{stype}.{name}"
        if isinstance(kind, tuple):  # enum
            out[name] = canonical_enum(value, kind[1])
        elif kind == STR:
            if not present:
                raise StepFormatError(f"{what} is required")
            out[name] = value
        elif kind in (PID, IDX, INT0):
            out[name] = _as_int(value, what) if present else 0
        elif kind == OWNER:
            out[name] = _as_int(value, what) if present else 5
        elif kind == REF:
            if present:
                out[name] = value
        elif kind == POOL:
            out[name] = canonical_pool(value)
        elif kind == POOL_OPT:
            pool = canonical_pool(value)
            if pool:
                out[name] = pool
        elif kind == BOOL_OPT:
            if present and value:
                out[name] = True
        elif kind == TURNED:
            if present and not value:
                out[name] = False
        elif kind == LIST:
            out[name] = _as_list(value, what)
        elif kind == LIST_OPT:
            lst = _as_list(value, what)
            if lst:
                out[name] = lst
        elif kind == INT_OPT0:
            n = _as_int(value, what) if present else 0
            if n:
                out[name] = n
        elif kind == STR_OPT:
            if present and value != "":
                out[name] = value
        elif kind == STEP:
            if not present:
                raise StepFormatError(f"{what} is required")
            inner = canonical_step(value)
            if inner["__type__"] not in DECISION_STEPS and inner["__type__"] not in CHANCE_STEPS:
                raise StepFormatError(
                    f"ActionFails must wrap a decision or chance step, got {inner['__type__']!r}")
            out[name] = inner
        elif kind == SETUP_LIST:
            if not present:
                raise StepFormatError(f"{what} is required")
            out[name] = _as_list(value, what)
        elif kind == FIRST:
            n = _as_int(value, what) if present else 0
            if n:
                out[name] = n
        elif kind == LIST_KEEP:
            if present:
                out[name] = _as_list(value, what)
        elif kind == POOLS_OPT:
            if present:
                out[name] = [canonical_pool(p) for p in _as_list(value, what)]
        else:  # pragma: no cover - catalogue error
            raise AssertionError(f"unknown field kind {kind!r}")
    return out


# --------------------------------------------------------------------------
# Comparison (PROTOCOL.md §4.7)
# --------------------------------------------------------------------------

def json_equal(a: Any, b: Any) -> bool:
    """Equality of parsed JSON values, stricter than Python's ``==``: booleans
    are not numbers and integers are not floats (``true != 1``, ``1 != 1.0``)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict):
        return (isinstance(b, dict) and a.keys() == b.keys()
                and all(json_equal(a[k], b[k]) for k in a))
    if isinstance(a, (list, tuple)):
        return (isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(json_equal(x, y) for x, y in zip(a, b)))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return type(a) is type(b) and a == b
    return type(a) is type(b) and a == b


def _sort_key(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _compare_form(step: Any) -> Any:
    if (isinstance(step, dict) and step.get("__type__") == "DiscardChoice"
            and isinstance(step.get("card_names"), list)):
        step = dict(step)
        step["card_names"] = sorted(step["card_names"], key=_sort_key)
    return step


def steps_equal(a: dict, b: dict) -> bool:
    """Exact equality of two (canonical) steps, except that ``DiscardChoice``
    compares ``card_names`` sorted.  No other normalisation: bots must emit
    canonical steps."""
    return json_equal(_compare_form(a), _compare_form(b))


# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"


@dataclass
class Result:
    name: str
    status: str
    step_index: int | None = None   # 0-based index into scenario["steps"]
    step: dict | None = None        # the (canonical, if possible) failing step
    message: str = ""
    steps_run: int = 0
    duration: float = 0.0

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    @property
    def failed(self) -> bool:
        return self.status == FAILED

    @property
    def skipped(self) -> bool:
        return self.status == SKIPPED

    def describe(self) -> str:
        if self.status != FAILED:
            return f"{self.name}: {self.status}" + (f" ({self.message})" if self.message else "")
        where = "setup" if self.step_index is None else f"step {self.step_index}"
        text = f"{self.name}: failed at {where}"
        if self.step is not None:
            text += f"\n  step: {_dumps(self.step)}"
        if self.message:
            text += "\n  " + self.message.replace("\n", "\n  ")
        return text


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "))


# --------------------------------------------------------------------------
# Running a scenario (PROTOCOL.md §6.2)
# --------------------------------------------------------------------------

class BridgeError(RuntimeError):
    """The bridge could not produce a reply (crash, died, timeout, bad JSON)."""


def _call(bridge: Any, request: dict) -> dict:
    """Send one request, JSON round-tripping both ways (wire fidelity)."""
    wire_request = json.loads(json.dumps(request))
    try:
        reply = bridge.handle(wire_request)
    except BridgeError:
        raise
    except Exception as exc:  # in-process bridge crashed
        raise BridgeError(f"bridge raised {type(exc).__name__}: {exc}") from exc
    try:
        reply = json.loads(json.dumps(reply))
    except (TypeError, ValueError) as exc:
        raise BridgeError(f"reply to {request.get('cmd')!r} is not JSON-serialisable: {exc}") from None
    if not isinstance(reply, dict):
        raise BridgeError(f"reply to {request.get('cmd')!r} is not a JSON object: {_dumps(reply)}")
    return reply


def _card_of(step: dict) -> tuple[str, Any] | None:
    for key in CARD_KEYS:
        if key in step:
            return key, step[key]
    return None


def _membership_message(step: dict, actions: list) -> str:
    stype = step.get("__type__")
    same_type = [a for a in actions if isinstance(a, dict) and a.get("__type__") == stype]
    card = _card_of(step)
    lines = [f"step not among the {len(actions)} legal actions"]
    shown: list = []
    if card is not None:
        key, value = card
        shown = [a for a in same_type if a.get(key) == value]
        if shown:
            lines.append(f"legal {stype} actions with {key}={value!r} ({len(shown)}):")
    if not shown and same_type:
        shown = same_type
        lines.append(f"legal {stype} actions ({len(shown)}):")
    if shown:
        for action in shown[:15]:
            lines.append("  " + _dumps(action))
        if len(shown) > 15:
            lines.append(f"  ... and {len(shown) - 15} more")
    else:
        counts = collections.Counter(
            a.get("__type__") if isinstance(a, dict) else repr(a) for a in actions)
        summary = ", ".join(f"{t} x{n}" for t, n in counts.items()) or "none"
        lines.append(f"no legal {stype} action; offered: {summary}")
    return "\n".join(lines)


def _find_entity(state: dict, name: str) -> dict | None:
    for entity in state.get("entities") or []:
        if isinstance(entity, dict) and entity.get("name") == name:
            return entity
    return None


def _player(state: dict, pid: Any) -> dict | None:
    players = state.get("players") or []
    if isinstance(pid, int) and not isinstance(pid, bool) and 0 <= pid < len(players):
        player = players[pid]
        return player if isinstance(player, dict) else None
    return None


def check_assertion(step: dict, state: dict) -> str | None:
    """Evaluate a canonical assertion against a ``get_state`` state object.
    Returns None when it holds, else a failure message (PROTOCOL.md §2.8)."""
    stype = step["__type__"]
    if stype == "AssertPool":
        pid = step["player_id"]
        expected = [step.get(e, 0) for e in ESSENCES]
        player = _player(state, pid)
        if player is None:
            return f"AssertPool: no player {pid} in state"
        actual = player.get("pool")
        if not json_equal(actual, expected):
            return f"AssertPool player {pid}: expected pool {expected}, got {actual}"
        return None
    if stype == "AssertCurrentPlayer":
        actual = state.get("current_player")
        if not json_equal(actual, step["player_id"]):
            return f"AssertCurrentPlayer: expected {step['player_id']}, got {actual!r}"
        return None
    if stype == "AssertPhase":
        value = step["phase"]["value"]
        names = ENUMS["GamePhase"]
        actual = state.get("phase")
        if actual not in names:
            return f"AssertPhase: state phase {actual!r} is not a valid GamePhase name"
        if not 0 <= value < len(names):
            return f"AssertPhase: invalid GamePhase value {value}"
        if actual != names[value]:
            return f"AssertPhase: expected {names[value]}, got {actual}"
        return None
    if stype == "AssertVP":
        pid = step["player_id"]
        player = _player(state, pid)
        if player is None:
            return f"AssertVP: no player {pid} in state"
        actual = player.get("vp")
        if not json_equal(actual, step["vp"]):
            return f"AssertVP player {pid}: expected {step['vp']} VP, got {actual!r}"
        return None
    if stype == "AssertWinners":
        expected = step["winner_ids"]
        actual = state.get("winner_ids")
        if not isinstance(actual, list):
            return f"AssertWinners: state winner_ids is not a list: {actual!r}"
        if not json_equal(sorted(actual, key=_sort_key), sorted(expected, key=_sort_key)):
            return f"AssertWinners: expected {sorted(expected, key=_sort_key)}, got {actual}"
        return None

    # Card-based assertions: the FIRST entity whose name matches.
    name = step["card_name"]
    entity = _find_entity(state, name)
    if entity is None:
        return f"{stype}: no entity named {name!r} in state"
    if stype == "AssertEssencesOnCard":
        expected = [step.get(e, 0) for e in ESSENCES]
        actual = entity.get("essences_on_card")
        if actual is None:
            actual = [0] * 5
        if not json_equal(actual, expected):
            return (f"AssertEssencesOnCard {name!r}: expected {expected}, "
                    f"got {entity.get('essences_on_card')}")
        return None
    if stype == "AssertTurned":
        expected = step.get("turned", True)
        actual = entity.get("is_turned")
        if not json_equal(actual, expected):
            return f"AssertTurned {name!r}: expected is_turned={expected}, got {actual!r}"
        return None
    if stype == "AssertLocation":
        value = step["location"]["value"]
        names = ENUMS["CardLocation"]
        if not 0 <= value < len(names):
            return f"AssertLocation: invalid CardLocation value {value}"
        actual = entity.get("location")
        if actual != names[value]:
            return f"AssertLocation {name!r}: expected {names[value]}, got {actual!r}"
        return None
    if stype == "AssertOwner":
        expected = step.get("player_id", 5)
        actual = entity.get("owner")
        if not json_equal(actual, expected):
            return f"AssertOwner {name!r}: expected owner {expected}, got {actual!r}"
        return None
    raise AssertionError(f"not an assertion: {stype}")  # pragma: no cover


def _should_skip(scenario: dict, bridge: Any = None) -> str | None:
    """Why ``scenario`` cannot run on ``bridge`` (None when it can).  The reference's scenarios say
    ``"expansions": [0]`` (the base game); our own expansion scenarios name their expansions
    (``["lux"]``) and run only on a bridge that plays them (its ``expansions`` attribute)."""
    expansions = scenario.get("expansions", [0])
    base = isinstance(expansions, list) and expansions == [0] and all(type(x) is int for x in expansions)
    played = getattr(bridge, "expansions", ())
    named = (isinstance(expansions, list) and bool(expansions)
             and all(isinstance(x, str) and x in played for x in expansions))
    if not (base or named):
        return f"expansions {expansions!r} is not [0]" + (f" nor among {list(played)!r}" if played else "")
    num_players = scenario.get("num_players", 1)
    if type(num_players) is not int or num_players not in (1, 2):
        return f"num_players {num_players!r} is not 1 or 2"
    return None


def run_scenario(bridge: Any, scenario: dict, name: str | None = None) -> Result:
    """Play one scenario through ``bridge`` (PROTOCOL.md §6.2); stop at the
    first failure.  Never raises for engine misbehaviour."""
    name = name or str(scenario.get("name", "<scenario>"))
    start = time.perf_counter()
    result = _run_scenario(bridge, scenario, name)
    result.duration = time.perf_counter() - start
    return result


def _run_scenario(bridge: Any, scenario: dict, name: str) -> Result:
    if not isinstance(scenario, dict):
        return Result(name, FAILED, message="scenario is not a JSON object")
    reason = _should_skip(scenario, bridge)
    if reason:
        return Result(name, SKIPPED, message=reason)
    num_players = scenario.get("num_players", 1)

    # Decode everything first: a malformed file is a scenario error.
    try:
        setup = dict(scenario.get("setup") or {})
        setup.setdefault("__type__", "ResolveGameSetup")
        if setup["__type__"] != "ResolveGameSetup":
            raise StepFormatError(f"setup has __type__ {setup['__type__']!r}")
        setup = canonical_step(setup)
    except StepFormatError as exc:
        return Result(name, FAILED, message=f"malformed setup: {exc}")
    raw_steps = scenario.get("steps") or []
    steps: list[dict] = []
    for index, raw in enumerate(raw_steps):
        try:
            steps.append(canonical_step(raw))
        except StepFormatError as exc:
            return Result(name, FAILED, index, raw if isinstance(raw, dict) else None,
                          f"malformed step: {exc}")
        if steps[-1]["__type__"] == "ResolveGameSetup":
            return Result(name, FAILED, index, steps[-1],
                          "malformed step: ResolveGameSetup is not allowed among the steps")

    try:
        reply = _call(bridge, {"cmd": "new_game_from_setup", "setup": setup,
                               "player_id": 0, "num_players": num_players})
    except BridgeError as exc:
        return Result(name, FAILED, message=f"new_game_from_setup: {exc}")
    if reply.get("status") != "ok":
        return Result(name, FAILED, message=f"new_game_from_setup replied {_dumps(reply)}")

    for index, step in enumerate(steps):
        try:
            failure = _run_step(bridge, step)
        except BridgeError as exc:
            failure = str(exc)
        if failure is not None:
            return Result(name, FAILED, index, step, failure, steps_run=index)
    return Result(name, PASSED, steps_run=len(steps))


def _run_step(bridge: Any, step: dict) -> str | None:
    stype = step["__type__"]
    if stype == "ActionFails":
        inner = step["action"]
        reply = _call(bridge, {"cmd": "advance", "step": inner})
        if reply.get("status") != "error":
            return f"advance of a step that must fail replied {_dumps(reply)}"
        return None
    if stype in ASSERTION_STEPS:
        reply = _call(bridge, {"cmd": "get_state"})
        state = reply.get("state")
        if "state" not in reply:
            return f"get_state replied {_dumps(reply)}"
        if not isinstance(state, dict):
            return f"get_state: state is not an object: {_dumps(state)}"
        return check_assertion(step, state)
    if stype in CHANCE_STEPS:
        reply = _call(bridge, {"cmd": "advance", "step": step})
        if reply.get("status") != "ok":
            return f"advance (chance step) replied {_dumps(reply)}"
        return None
    # Decision step: membership, then advance.
    reply = _call(bridge, {"cmd": "legal_actions"})
    if "actions" not in reply:
        return f"legal_actions replied {_dumps(reply)}"
    actions = reply["actions"]
    if not isinstance(actions, list):
        return f"legal_actions: actions is not a list: {_dumps(actions)}"
    if not any(steps_equal(step, action) for action in actions):
        return _membership_message(step, actions)
    reply = _call(bridge, {"cmd": "advance", "step": step})
    if reply.get("status") != "ok":
        return f"advance replied {_dumps(reply)} (the step was listed by legal_actions)"
    return None


# --------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------

def default_scenario_dir() -> Path:
    """$AMIGOS_SCENARIOS, else the repository's copy, <repo root>/spec/scenarios."""
    env = os.environ.get("AMIGOS_SCENARIOS")
    if env:
        return Path(env)
    return REPO_ROOT / "spec" / "scenarios"


def scenario_files(directory: str | os.PathLike) -> list[Path]:
    """The ``*.json`` files of ``directory``, sorted by file name."""
    return sorted((p for p in Path(directory).iterdir()
                   if p.is_file() and p.suffix == ".json"), key=lambda p: p.name)


def load_scenarios(directory: str | os.PathLike) -> list[tuple[str, dict]]:
    """``[(file name, parsed scenario), ...]`` sorted by file name."""
    return [(p.name, json.loads(p.read_text(encoding="utf-8"))) for p in scenario_files(directory)]


def read_deviations(path: str | os.PathLike) -> dict[str, str]:
    """Read a deviation / skip list: one scenario file name per line,
    ``#`` starts a comment that gives the reason; blank lines are ignored."""
    out: dict[str, str] = {}
    path = Path(path)
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        entry, _, comment = line.partition("#")
        entry = entry.strip()
        if not entry:
            continue
        out[entry] = comment.strip() or "listed in " + path.name
    return out


# --------------------------------------------------------------------------
# Subprocess bot (JSON lines over stdio)
# --------------------------------------------------------------------------

class SubprocessBridge:
    """Talks to a bot process over JSON lines (PROTOCOL.md §1.1).  ``handle``
    raises :class:`BridgeError` if the process dies, times out or writes a
    non-JSON reply; :meth:`ensure_running` restarts a dead process."""

    def __init__(self, command: str | list[str], timeout: float | None = 60.0,
                 cwd: str | os.PathLike | None = None, env: dict | None = None):
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        self.cwd = cwd
        self.env = env
        self.proc: subprocess.Popen | None = None
        self._lines: queue.Queue | None = None
        self._stderr: collections.deque = collections.deque(maxlen=200)
        self._stderr_pump: threading.Thread | None = None
        self.starts = 0

    # -- process management -------------------------------------------------
    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1,
            cwd=self.cwd, env=self.env)
        self.starts += 1
        self._lines = queue.Queue()
        self._stderr = collections.deque(maxlen=200)
        threading.Thread(target=self._pump_stdout, args=(self.proc, self._lines),
                         daemon=True).start()
        self._stderr_pump = threading.Thread(target=self._pump_stderr, args=(self.proc, self._stderr),
                                             daemon=True)
        self._stderr_pump.start()

    @staticmethod
    def _pump_stdout(proc: subprocess.Popen, lines: queue.Queue) -> None:
        try:
            for line in proc.stdout:
                lines.put(line)
        except (OSError, ValueError):
            pass
        lines.put(None)

    @staticmethod
    def _pump_stderr(proc: subprocess.Popen, sink: collections.deque) -> None:
        try:
            for line in proc.stderr:
                sink.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def ensure_running(self) -> None:
        if not self.alive():
            if self.proc is not None:
                self._reap()
            self.start()

    def stderr_tail(self, n: int = 20) -> str:
        return "\n".join(list(self._stderr)[-n:])

    def _reap(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        for stream in (proc.stdin,):
            try:
                stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        self._reap()

    # -- line level -----------------------------------------------------------
    def send_line(self, line: str) -> None:
        if not self.alive():
            raise BridgeError(self._death_message("bot process is not running"))
        try:
            self.proc.stdin.write(line if line.endswith("\n") else line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as exc:
            raise BridgeError(self._death_message(f"cannot write to bot: {exc}")) from None

    def read_line(self, timeout: float | None = None) -> str:
        timeout = self.timeout if timeout is None else timeout
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            raise BridgeError(f"no reply from bot within {timeout} s (process killed)") from None
        if line is None:
            self._lines.put(None)  # stay at EOF
            raise BridgeError(self._death_message("bot process closed its output"))
        return line.rstrip("\n")

    def _death_message(self, text: str) -> str:
        if self.proc is not None:
            try:
                self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                pass
            code = self.proc.poll()
            if code is not None:
                text += f" (exit code {code})"
                # The process is gone: let the pump read the rest of its stderr before the tail is taken.
                if self._stderr_pump is not None:
                    self._stderr_pump.join(timeout=1)
        tail = self.stderr_tail()
        if tail:
            text += "\nstderr tail:\n" + tail
        return text

    # -- protocol ----------------------------------------------------------------
    def handle(self, request: dict) -> dict:
        if self.proc is None:
            self.start()
        self.send_line(json.dumps(request))
        line = self.read_line()
        try:
            reply = json.loads(line)
        except ValueError:
            raise BridgeError(f"bot wrote a non-JSON reply line: {line[:300]!r}") from None
        if not isinstance(reply, dict):
            raise BridgeError(f"bot reply is not a JSON object: {line[:300]!r}")
        return reply

    def close(self) -> dict | None:
        """Send ``quit``, close stdin, wait up to 5 s, then kill.  Returns the
        quit reply (None if there was none)."""
        reply = None
        if self.alive():
            try:
                self.send_line(json.dumps({"cmd": "quit"}))
                line = self.read_line(timeout=5)
                reply = json.loads(line)
            except (BridgeError, ValueError):
                reply = None
        self._reap()
        return reply

    def __enter__(self) -> "SubprocessBridge":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# --------------------------------------------------------------------------
# Running a directory
# --------------------------------------------------------------------------

def run_files(bridge: Any, files: Iterable[Path], skip: dict[str, str] | None = None,
              report=None) -> list[Result]:
    """Run scenario files in order through one bridge; ``skip`` maps file
    names to reasons; ``report(result)`` is called after each file."""
    skip = skip or {}
    results: list[Result] = []
    for path in files:
        path = Path(path)
        if path.name in skip:
            result = Result(path.name, SKIPPED, message=f"skip list: {skip[path.name]}")
        else:
            try:
                scenario = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                result = Result(path.name, FAILED, message=f"cannot read scenario: {exc}")
            else:
                if hasattr(bridge, "ensure_running"):
                    bridge.ensure_running()
                result = run_scenario(bridge, scenario, path.name)
        results.append(result)
        if report is not None:
            report(result)
    return results


def summary_line(results: list[Result], seconds: float) -> str:
    counts = collections.Counter(r.status for r in results)
    return (f"{counts[PASSED]} passed, {counts[FAILED]} failed, "
            f"{counts[SKIPPED]} skipped in {seconds:.1f} s")


def make_inprocess_bridge() -> Any:
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    from amigos.bridge import Bridge  # imported lazily: the engine may be absent
    return Bridge()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.conformance.harness",
        description="Run Res Arcana conformance scenarios through an engine bridge.")
    parser.add_argument("directory", nargs="?", default=None,
                        help="scenario folder (default: $AMIGOS_SCENARIOS or "
                             "<repo>/spec/scenarios)")
    parser.add_argument("--bot", help="bot command line (split on white space); "
                                      "default: in-process amigos.bridge.Bridge")
    parser.add_argument("--skip-list", help="file of scenario names to skip (deviations format)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds to wait for one bot reply (--bot only)")
    parser.add_argument("--verbose", "-v", action="store_true", help="one line per file")
    args = parser.parse_args(argv)

    directory = Path(args.directory) if args.directory else default_scenario_dir()
    if not directory.is_dir():
        print(f"scenario folder not found: {directory}", file=sys.stderr)
        return 2
    skip = read_deviations(args.skip_list) if args.skip_list else {}

    def report(result: Result) -> None:
        if result.failed:
            print("FAIL " + result.describe(), flush=True)
        elif args.verbose:
            extra = f" ({result.message})" if result.message else ""
            print(f"{result.status.upper()[:4]} {result.name}{extra}", flush=True)

    start = time.perf_counter()
    if args.bot:
        bridge = SubprocessBridge(args.bot, timeout=args.timeout)
        try:
            results = run_files(bridge, scenario_files(directory), skip, report)
        finally:
            bridge.close()
    else:
        try:
            bridge = make_inprocess_bridge()
        except ImportError as exc:
            print(f"cannot create the in-process bridge: {exc} (use --bot?)", file=sys.stderr)
            return 2
        results = run_files(bridge, scenario_files(directory), skip, report)
    print(summary_line(results, time.perf_counter() - start))
    return 1 if any(r.failed for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
