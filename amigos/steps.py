"""Actions in the engine protocol's step form (conformance/PROTOCOL.md §2.1) and back.

Each kind of action has one layout (`LAYOUTS`): its step's keys in the protocol's order, each with the
action's field it holds (`amigos.actions.FIELDS`) and how the value is written and read.  Both directions use
the layout, so the wire form of an action is written down once.  Card names on the wire are the
reference engine's (``"Calm/Elan"``); our printed names are accepted when reading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from . import actions as A
from . import cards as C
from .codes import P_DRAW
from .errors import IllegalAction

if TYPE_CHECKING:
    from .config import Action
    from .state import GameState

ESSENCES = C.ESSENCES
ENUM_COLLECT = "CollectDecision"
ENUM_DECK = "DeckType"
# The names the protocol's enums may be given by, for the values of CollectDecision and DeckType.
ENUM_VALUES = {"PAY_COST": 0, "PAY_TURN": 1, "DECLINE_COST": 2, "TAKE_STORED": 3, "LEAVE_STORED": 4,
               "ARTIFACT": 0, "MONUMENT": 1}

# How a value is written and read (the codecs of `LAYOUTS`).  An OPT_ codec leaves its key out when
# the value is empty (-1, no essences, no cards) and reads a missing key as empty.
PLAYER = "player"            # the acting player (validated once, in `action_from_json`)
CARD = "card"                # an entity, by its card's name
OPT_CARD = "opt_card"
INDEX = "index"              # a power's index, 0 when missing
OPT_SEAT = "opt_seat"        # a target player, -1 when missing
COUNT = "count"              # a required integer
POOL = "pool"                # essences (a missing pool reads as none)
OPT_POOL = "opt_pool"
ESSENCE = "essence"          # one kind of essence, by name
COLLECT = "collect"          # a CollectDecision
DECK_TYPE = "deck_type"      # a DeckType
OPT_ORDER = "opt_order"      # a list of integers
CARDS = "cards"              # a list of cards, in order
CARD_SET = "card_set"        # a list of cards, in any order (read sorted)
OPT_CARDS = "opt_cards"
OPT_CARD_SET = "opt_card_set"
# The OPT_ codecs, with what a missing key reads as.
MISSING: dict[str, object] = {OPT_CARD: -1, OPT_SEAT: -1, OPT_POOL: C.ZERO, OPT_ORDER: (), OPT_CARDS: (),
                              OPT_CARD_SET: ()}

# (key, codec, the field of `amigos.actions.FIELDS` it holds)
Layout = tuple[tuple[str, str, str], ...]
_ME = ("player_id", PLAYER, "player")
LAYOUTS: dict[int, Layout] = {
    A.PLACE: (("artifact_name", CARD, "artifact"), ("pay", POOL, "pay"), _ME),
    A.POWER: (("card_name", CARD, "card"), ("power_index", INDEX, "power"), _ME, ("target_name", OPT_CARD, "target"),
              ("target_player_id", OPT_SEAT, "rival"), ("pay", OPT_POOL, "pay"), ("gain", OPT_POOL, "gain")),
    A.PASS: (("item_name", CARD, "item"), _ME),
    A.DECLINE: (("card_name", CARD, "card"), _ME),
    A.CLAIM_MONUMENT: (("monument_name", CARD, "monument"), _ME),
    A.CLAIM_TOP: (_ME,),
    A.CLAIM_POP: (("pop_name", CARD, "place"), ("pay", POOL, "pay"), _ME),
    A.DISCARD: (("card_name", CARD, "artifact"), ("gain", POOL, "gain"), _ME),
    A.LL_REACT: (("card_name", CARD, "card"), ("power_index", INDEX, "power"), _ME, ("target_name", OPT_CARD, "target"),
                 ("pay", OPT_POOL, "pay"), ("gain", OPT_POOL, "gain")),
    A.LL_CHOICE: (_ME, ("pay", OPT_POOL, "pay")),
    A.V_REACT: (("card_name", CARD, "card"), ("power_index", INDEX, "power"), _ME, ("pay", OPT_POOL, "pay")),
    A.BANK: (("card_name", CARD, "card"), ("essence", ESSENCE, "essence"), ("count", COUNT, "count"), _ME),
    A.TAKE: (("card_name", CARD, "card"), _ME, ("decision", COLLECT, "decision")),
    A.COLLECT_COST: (("card_name", CARD, "card"), _ME, ("decision", COLLECT, "decision")),
    A.GAIN: (("card_name", CARD, "card"), ("gain", POOL, "gain"), _ME),
    A.SCRY_DECK: (_ME, ("scry_target", DECK_TYPE, "deck")),
    A.SCRY_ORDER: (_ME, ("scry_order", OPT_ORDER, "order")),
    A.DISCARD_CHOICE: (("card_names", CARD_SET, "artifacts"), _ME),
    A.CHOOSE_MAGE: (("mage_name", CARD, "mage"), _ME),
    A.CHOOSE_ITEM: (("item_name", CARD, "item"), _ME),
    A.DRAFT_PICK: (("artifact_name", CARD, "artifact"), _ME),
    A.REDRAFT_PICK: (("artifact_name", CARD, "artifact"), _ME),
    A.CHOOSE_FIRST: (("first_player", COUNT, "first"), _ME),
    A.R_DRAW: (("known_cards", OPT_CARDS, "known"), ("revealed_cards", OPT_CARD_SET, "revealed"), _ME),
    A.R_SCRY: (("revealed_cards", CARDS, "revealed"), _ME),
    A.R_MON_DRAW: (("monument_name", CARD, "monument"), _ME),
    A.R_MON_REVEAL: (("monument_name", CARD, "monument"), _ME),
}
# The layouts with each field's place in the action tuple (`amigos.actions.field_at`).
_PLACED: dict[int, tuple[tuple[str, str, int], ...]] = {
    kind: tuple((key, codec, A.field_at(kind, field)) for key, codec, field in layout)
    for kind, layout in LAYOUTS.items()}


def pool_json(v: Sequence[int]) -> dict[str, int]:
    """A 5-tuple as a protocol pool: zero counts left out."""
    return {ESSENCES[k]: v[k] for k in range(5) if v[k]}


def pool_from_json(obj: object) -> tuple[int, ...]:
    """A protocol pool (or None, no essences) as a 5-tuple; raises ValueError when malformed."""
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


def _empty(codec: str, value: Any) -> bool:
    """Whether an OPT_ codec's ``value`` is left out of the step (-1, no essences, no cards)."""
    if codec not in MISSING:
        return False
    if codec in (OPT_CARD, OPT_SEAT):
        return value == -1
    return not any(value) if codec == OPT_POOL else not value


def _write(state: GameState, codec: str, value: Any) -> object:
    """``value`` (a field of an action) in its step form."""
    if codec in (CARD, OPT_CARD):
        return state.cards[value].ref_name
    if codec in (POOL, OPT_POOL):
        return pool_json(value)
    if codec == ESSENCE:
        return ESSENCES[value]
    if codec in (COLLECT, DECK_TYPE):
        return {"__enum__": ENUM_COLLECT if codec == COLLECT else ENUM_DECK, "value": value}
    if codec in (CARDS, CARD_SET, OPT_CARDS, OPT_CARD_SET):
        return [state.cards[e].ref_name for e in value]
    if codec == OPT_ORDER:
        return list(value)
    return value


def action_json(state: GameState, a: Action) -> dict[str, Any]:
    """The protocol's canonical step form of action ``a`` in ``state`` (§2.1)."""
    layout = _PLACED.get(A.kind(a))
    if layout is None:
        raise ValueError(f"unknown action {a!r}")
    d: dict[str, object] = {"__type__": A.TYPE_NAMES[A.kind(a)]}
    for key, codec, i in layout:
        if not _empty(codec, a[i]):
            d[key] = _write(state, codec, a[i])
    other = A.other(a)
    if other is not None:  # the expansion's: Dark Cathedral's target, an Illusion's type
        if state.cards[A.subject(a)].powers[A.power_index(a)].turn_other is not None:
            d["target_name"] = state.cards[other].ref_name
        else:
            d["count_as"] = C.TYPE_NAMES[other]
    return d


def action_from_json(state: GameState, step: dict[str, Any]) -> Action:
    """Decode a protocol step into an action of ``state``; raises `IllegalAction` when it names no
    card of this game or is malformed.  (Whether the action is legal is `apply`'s business.)"""
    try:
        return _decode(state, step)
    except IllegalAction:
        raise
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        raise IllegalAction(f"malformed step: {exc}") from None


def match_known_cards(state: GameState, action: Action) -> Action:
    """A draw reveal's ``known_cards`` is informational (§2.6): use the engine's own list."""
    if A.kind(action) == A.R_DRAW and state.stack and state.stack[-1][0] == P_DRAW:
        return (A.R_DRAW, A.player(action), state.stack[-1][2], A.revealed(action))
    return action


def _decode(state: GameState, d: object) -> Action:
    if not isinstance(d, dict):
        raise ValueError("a step must be an object")
    t = d.get("__type__")
    if t not in A.TYPE_CODES:
        raise ValueError(f"unknown step type {t!r}")
    kind = A.TYPE_CODES[t]
    p = _integer(d.get("player_id", 0), "player_id")
    if kind == A.GAIN and d.get("use_alt"):
        raise IllegalAction("no base-game card has an alternative gain")
    layout = _PLACED[kind]
    fields: list[object] = [kind, p] + [None] * (max(i for _, _, i in layout) - 1)
    for key, codec, i in layout:
        if codec != PLAYER:
            fields[i] = _read(state, codec, key, d)
    if kind == A.V_REACT:
        if d.get("target_name") is not None:
            fields.append(_card(state, d["target_name"]))
        elif d.get("count_as") is not None:
            fields.append(C.TYPE_NAMES.index(d["count_as"]))
    return tuple(fields)


def _read(state: GameState, codec: str, key: str, d: dict[str, Any]) -> object:
    """The value of ``key`` in step ``d``, read by ``codec``."""
    value = d.get(key)
    if value is None and codec in MISSING:
        return MISSING[codec]
    if codec in (POOL, OPT_POOL):
        return pool_from_json(value)
    if codec == INDEX:
        return int(d.get(key, 0))
    if codec == OPT_SEAT:
        return int(d[key])
    if codec in (CARD, OPT_CARD):
        if not isinstance(d[key], str):
            raise ValueError(f"{key} must be a string")
        return _card(state, d[key])
    if codec == COUNT:
        return _integer(d[key], key)
    if codec == ESSENCE:
        return ESSENCES.index(d[key])
    if codec in (COLLECT, DECK_TYPE):
        return _enum_value(d[key], key)
    if codec == OPT_ORDER:
        if not isinstance(value, list) or not all(isinstance(i, int) for i in value):
            raise ValueError(f"{key} must be a list of integers")
        return tuple(value)
    value = value or []  # the lists of cards
    if not isinstance(value, list):
        raise ValueError(f"{key} must be a list")
    cards = tuple(_card(state, name) for name in value)
    return tuple(sorted(cards)) if codec in (CARD_SET, OPT_CARD_SET) else cards


def _card(state: GameState, name: object) -> int:
    """The entity of the card named ``name`` in this game."""
    e = state.find(name) if isinstance(name, str) else -1
    if e < 0:
        raise IllegalAction(f"no card named {name!r} in this game")
    return e


def _integer(value: object, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{key} must be an integer")
    return value


def _enum_value(value: object, key: str) -> int:
    """A protocol enum's value, given as an ``{"__enum__", "value"}`` object, a number or a name."""
    if isinstance(value, dict):
        value = value.get("value")
    if isinstance(value, str):
        value = ENUM_VALUES[value]
    if not isinstance(value, int):
        raise ValueError(f"bad {key}")
    return value
