"""The engine protocol's JSON forms (conformance/PROTOCOL.md §2 and §5): actions as canonical steps
and back, the ``get_state`` dump, and games started from a ``ResolveGameSetup``.

Card names on the wire are the reference engine's (``"Calm/Elan"``); our printed names are accepted
when reading.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Sequence

from . import actions as A
from . import cards as C
from .carddata import LUX_SET, components
from .codes import LOCATION_NAMES, P_DRAW, PHASE_NAMES
from .errors import IllegalAction, SetupError
from .setup import build_state

if TYPE_CHECKING:
    from .state import GameState

ESSENCES = C.ESSENCES
ENUM_COLLECT = "CollectDecision"
ENUM_DECK = "DeckType"


def pool_json(v: Sequence[int]) -> dict[str, int]:
    """A 5-tuple as a protocol pool: zero counts left out."""
    return {ESSENCES[k]: v[k] for k in range(5) if v[k]}


def pool_from_json(obj: object) -> tuple[int, ...]:
    if obj is None:
        return C.ZERO
    if not isinstance(obj, dict):
        raise ValueError("a pool must be an object")
    for key, value in obj.items():
        if key not in C.ESSENCE_INDEX:
            raise ValueError(f"unknown essence {key!r}")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"bad essence count for {key!r}")
    return tuple(obj.get(k, 0) for k in ESSENCES)


def _enum(name: str, value: object) -> dict[str, object]:
    return {"__enum__": name, "value": value}


def action_json(state: GameState, a: tuple) -> dict:
    """The protocol's canonical step form of action ``a`` in ``state`` (§2.1)."""
    kind, p = a[0], a[1]
    name = _namer(state)
    t = A.TYPE_NAMES[kind]
    if kind == A.PLACE:
        return {"__type__": t, "artifact_name": name(a[2]), "pay": pool_json(a[3]), "player_id": p}
    if kind == A.POWER:
        d = {"__type__": t, "card_name": name(a[2]), "power_index": a[3], "player_id": p}
        if a[4] >= 0:
            d["target_name"] = name(a[4])
        if a[5] >= 0:
            d["target_player_id"] = a[5]
        if any(a[6]):
            d["pay"] = pool_json(a[6])
        if any(a[7]):
            d["gain"] = pool_json(a[7])
        return d
    if kind == A.PASS:
        return {"__type__": t, "item_name": name(a[2]), "player_id": p}
    if kind == A.DECLINE:
        return {"__type__": t, "card_name": name(a[2]), "player_id": p}
    if kind == A.CLAIM_MONUMENT:
        return {"__type__": t, "monument_name": name(a[2]), "player_id": p}
    if kind == A.CLAIM_TOP:
        return {"__type__": t, "player_id": p}
    if kind == A.CLAIM_POP:
        return {"__type__": t, "pop_name": name(a[2]), "pay": pool_json(a[3]), "player_id": p}
    if kind == A.DISCARD:
        return {"__type__": t, "card_name": name(a[2]), "gain": pool_json(a[3]), "player_id": p}
    if kind == A.LL_REACT:
        d = {"__type__": t, "card_name": name(a[2]), "power_index": a[3], "player_id": p}
        if a[4] >= 0:
            d["target_name"] = name(a[4])
        if any(a[5]):
            d["pay"] = pool_json(a[5])
        if any(a[6]):
            d["gain"] = pool_json(a[6])
        return d
    if kind == A.LL_CHOICE:
        d = {"__type__": t, "player_id": p}
        if any(a[2]):
            d["pay"] = pool_json(a[2])
        return d
    if kind == A.V_REACT:
        d = {"__type__": t, "card_name": name(a[2]), "power_index": a[3], "player_id": p}
        if any(a[4]):
            d["pay"] = pool_json(a[4])
        if len(a) > 5:  # the expansion's: the Demon Dark Cathedral turns, the type Illusion counts as
            if state.cards[a[2]].powers[a[3]].turn_other is not None:
                d["target_name"] = name(a[5])
            else:
                d["count_as"] = C.TYPE_NAMES[a[5]]
        return d
    if kind == A.BANK:
        return {"__type__": t, "card_name": name(a[2]), "essence": C.ESSENCES[a[3]], "count": a[4],
                "player_id": p}
    if kind in (A.TAKE, A.COLLECT_COST):
        return {"__type__": t, "card_name": name(a[2]), "player_id": p, "decision": _enum(ENUM_COLLECT, a[3])}
    if kind == A.GAIN:
        return {"__type__": t, "card_name": name(a[2]), "gain": pool_json(a[3]), "player_id": p}
    if kind == A.SCRY_DECK:
        return {"__type__": t, "player_id": p, "scry_target": _enum(ENUM_DECK, a[2])}
    if kind == A.SCRY_ORDER:
        d = {"__type__": t, "player_id": p}
        if a[2]:
            d["scry_order"] = list(a[2])
        return d
    if kind == A.DISCARD_CHOICE:
        return {"__type__": t, "card_names": [name(e) for e in a[2]], "player_id": p}
    if kind == A.CHOOSE_MAGE:
        return {"__type__": t, "mage_name": name(a[2]), "player_id": p}
    if kind == A.CHOOSE_ITEM:
        return {"__type__": t, "item_name": name(a[2]), "player_id": p}
    if kind in (A.DRAFT_PICK, A.REDRAFT_PICK):
        return {"__type__": t, "artifact_name": name(a[2]), "player_id": p}
    if kind == A.CHOOSE_FIRST:
        return {"__type__": t, "first_player": a[2], "player_id": p}
    if kind == A.R_DRAW:
        d = {"__type__": t}
        if a[2]:
            d["known_cards"] = [name(e) for e in a[2]]
        if a[3]:
            d["revealed_cards"] = [name(e) for e in a[3]]
        d["player_id"] = p
        return d
    if kind == A.R_SCRY:
        return {"__type__": t, "revealed_cards": [name(e) for e in a[2]], "player_id": p}
    if kind in (A.R_MON_DRAW, A.R_MON_REVEAL):
        return {"__type__": t, "monument_name": name(a[2]), "player_id": p}
    raise ValueError(f"unknown action {a!r}")


def _namer(state: GameState) -> Callable[[int], str]:
    cards = state.cards
    return lambda e: cards[e].ref_name


def action_from_json(state: GameState, step: dict) -> tuple:
    """Decode a protocol step into an action of ``state``; raises `IllegalAction` when it names no
    card of this game or is malformed.  (Whether the action is legal is `apply`'s business.)"""
    try:
        return _decode(state, step)
    except IllegalAction:
        raise
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        raise IllegalAction(f"malformed step: {exc}") from None


def _decode(state: GameState, d: object) -> tuple:
    if not isinstance(d, dict):
        raise ValueError("a step must be an object")
    t = d.get("__type__")
    if t not in A.TYPE_CODES:
        raise ValueError(f"unknown step type {t!r}")
    kind = A.TYPE_CODES[t]
    p = d.get("player_id", 0)
    if not isinstance(p, int) or isinstance(p, bool):
        raise ValueError("player_id must be an integer")

    def ent(key: str) -> int:
        name = d[key]
        if not isinstance(name, str):
            raise ValueError(f"{key} must be a string")
        e = state.find(name)
        if e < 0:
            raise IllegalAction(f"no card named {name!r} in this game")
        return e

    def opt_ent(key: str) -> int:
        return ent(key) if d.get(key) is not None else -1

    def enum(key: str) -> int:
        v = d[key]
        if isinstance(v, dict):
            v = v.get("value")
        if isinstance(v, str):
            names = {"PAY_COST": 0, "PAY_TURN": 1, "DECLINE_COST": 2, "TAKE_STORED": 3, "LEAVE_STORED": 4,
                     "ARTIFACT": 0, "MONUMENT": 1}
            v = names[v]
        if not isinstance(v, int):
            raise ValueError(f"bad {key}")
        return v

    def names(key: str) -> tuple[int, ...]:
        values = d.get(key) or []
        if not isinstance(values, list):
            raise ValueError(f"{key} must be a list")
        out: list[int] = []
        for name in values:
            e = state.find(name) if isinstance(name, str) else -1
            if e < 0:
                raise IllegalAction(f"no card named {name!r} in this game")
            out.append(e)
        return tuple(out)

    pay = lambda key="pay": pool_from_json(d.get(key))  # noqa: E731
    if kind == A.PLACE:
        return (kind, p, ent("artifact_name"), pay())
    if kind == A.POWER:
        tp = d.get("target_player_id")
        return (kind, p, ent("card_name"), int(d.get("power_index", 0)), opt_ent("target_name"),
                -1 if tp is None else int(tp), pay(), pay("gain"))
    if kind == A.PASS:
        return (kind, p, ent("item_name"))
    if kind == A.DECLINE:
        return (kind, p, ent("card_name"))
    if kind == A.CLAIM_MONUMENT:
        return (kind, p, ent("monument_name"))
    if kind == A.CLAIM_TOP:
        return (kind, p)
    if kind == A.CLAIM_POP:
        return (kind, p, ent("pop_name"), pay())
    if kind == A.DISCARD:
        return (kind, p, ent("card_name"), pay("gain"))
    if kind == A.LL_REACT:
        return (kind, p, ent("card_name"), int(d.get("power_index", 0)), opt_ent("target_name"), pay(),
                pay("gain"))
    if kind == A.LL_CHOICE:
        return (kind, p, pay())
    if kind == A.V_REACT:
        react = (kind, p, ent("card_name"), int(d.get("power_index", 0)), pay())
        if d.get("target_name") is not None:
            return react + (ent("target_name"),)
        if d.get("count_as") is not None:
            return react + (C.TYPE_NAMES.index(d["count_as"]),)
        return react
    if kind == A.BANK:
        count = d["count"]
        if not isinstance(count, int) or isinstance(count, bool):
            raise ValueError("count must be an integer")
        return (kind, p, ent("card_name"), C.ESSENCES.index(d["essence"]), count)
    if kind in (A.TAKE, A.COLLECT_COST):
        return (kind, p, ent("card_name"), enum("decision"))
    if kind == A.GAIN:
        if d.get("use_alt"):
            raise IllegalAction("no base-game card has an alternative gain")
        return (kind, p, ent("card_name"), pay("gain"))
    if kind == A.SCRY_DECK:
        return (kind, p, enum("scry_target"))
    if kind == A.SCRY_ORDER:
        order = d.get("scry_order") or []
        if not isinstance(order, list) or not all(isinstance(i, int) for i in order):
            raise ValueError("scry_order must be a list of integers")
        return (kind, p, tuple(order))
    if kind == A.DISCARD_CHOICE:
        return (kind, p, tuple(sorted(names("card_names"))))
    if kind == A.CHOOSE_MAGE:
        return (kind, p, ent("mage_name"))
    if kind == A.CHOOSE_ITEM:
        return (kind, p, ent("item_name"))
    if kind in (A.DRAFT_PICK, A.REDRAFT_PICK):
        return (kind, p, ent("artifact_name"))
    if kind == A.CHOOSE_FIRST:
        first = d["first_player"]
        if not isinstance(first, int) or isinstance(first, bool):
            raise ValueError("first_player must be an integer")
        return (kind, p, first)
    if kind == A.R_DRAW:
        return (kind, p, names("known_cards"), tuple(sorted(names("revealed_cards"))))
    if kind == A.R_SCRY:
        return (kind, p, names("revealed_cards"))
    return (kind, p, ent("monument_name"))


def match_known_cards(state: GameState, action: tuple) -> tuple:
    """A draw reveal's ``known_cards`` is informational (§2.6): use the engine's own list."""
    if action[0] == A.R_DRAW and state.stack and state.stack[-1][0] == P_DRAW:
        return (action[0], action[1], state.stack[-1][2], action[3])
    return action


def dump_state(state: GameState) -> dict:
    """The protocol's ``get_state`` form (§5)."""
    players = []
    for p in range(state.n_players):
        players.append({"pool": list(state.pool_of(p)), "vp": state.vp(p), "has_passed": bool(state.passed[p]),
                        "has_first_player_token": state.first_player == p})
    entities = []
    for e, card in enumerate(state.cards):
        on = state.essences_on(e)
        entities.append({
            "name": card.ref_name,
            "kind": C.KIND_NAMES[card.kind],
            "location": LOCATION_NAMES[state.loc[e]],
            "owner": state.owner[e],
            "is_turned": bool(state.turned[e]),
            "essences_on_card": list(on) if any(on) else None,
            "order_index": state.order[e],
        })
    return {
        "phase": PHASE_NAMES[state.phase],
        "round": state.round,
        "current_player": state.current_player(),
        "first_player": state.first_player,
        "winner_ids": list(state.won),
        "players": players,
        "entities": entities,
    }


@lru_cache(maxsize=1)
def _expansion_names() -> frozenset[str]:
    """The names of the expansion's components (the reference protocol knows none of them)."""
    return frozenset(c["name"] for c in components((LUX_SET,)))


def state_from_setup(setup: object, num_players: int = 2, ruleset: str = "reference",
                     auto_chance: bool = False, expansions: Sequence[str] = ()) -> GameState:
    """A game from a ``ResolveGameSetup`` step (§2.7); raises `SetupError` for a bad setup.  The
    protocol is the base game's: a card of an expansion is refused unless ``expansions`` names it
    (our own rule scenarios of the expansion use the same format)."""
    if not isinstance(setup, dict):
        raise SetupError("setup must be an object")

    def cards_of(names: object, what: str) -> list[C.Card]:
        if not isinstance(names, list):
            raise SetupError(f"{what} must be a list")
        out: list[C.Card] = []
        for name in names:
            if isinstance(name, str) and name in _expansion_names() and LUX_SET not in expansions:
                raise SetupError(f"{name!r} in {what} is a Lux et Tenebrae card: the engine protocol "
                                 f"plays the base game only")
            if not isinstance(name, str) or name not in C.BY_NAME:
                raise SetupError(f"unknown card {name!r} in {what}")
            out.append(C.BY_NAME[name])
        return out

    try:
        pops = cards_of(setup.get("places_of_power", []), "places_of_power")
        display = cards_of(setup.get("monument_display", []), "monument_display")
        deck = cards_of(setup.get("monument_deck", []), "monument_deck")
        mages = [cards_of(m, "mage_options") for m in setup.get("mage_options", [])]
        decks = [cards_of(d, "artifact_decks") for d in setup.get("artifact_decks", [])]
        essences = setup.get("starting_essences")
        pools: list[tuple[int, ...]] | None = None
        if essences is not None:
            pools = [pool_from_json(x) for x in essences][:num_players]
        first = setup.get("first_player", 0)
    except ValueError as exc:
        raise SetupError(str(exc)) from None
    return build_state(num_players, decks, mages, display, deck, pops, first_player=first,
                       starting_essences=pools, ruleset=ruleset, auto_chance=auto_chance, expansions=expansions)

