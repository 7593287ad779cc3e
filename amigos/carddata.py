"""The packaged card data (``amigos/data/base.json``, ``amigos/data/lux_et_tenebrae.json``) and a
flat view of their components.

Standard library only. The only I/O is reading the JSON files packaged inside ``amigos``
through :mod:`importlib.resources`, once per process and file.

The files' format is described in ``shared/cards/README.md``, the expansion's additions in its
file's ``schema_extensions`` (a test checks that each packaged copy is byte-for-byte the shared
one). The engine plays the base game only: it compiles :func:`raw_components` of the base set;
the expansion's components are listed (``amigos cards``) but not yet playable.
"""

from __future__ import annotations

import functools
import json
import pathlib
from collections.abc import Collection
from importlib import resources
from typing import Any

#: The five essence names in canonical order, as used for cost keys.
ESSENCES = ("elan", "life", "calm", "death", "gold")
#: Cost key for the grey pentagon: n essences of any type or mix, Gold included.
ANY = "any"
#: Every key a cost dict may have.
COST_KEYS = ESSENCES + (ANY,)

#: The card set codes: a component's ``set``. The base game, and the *Lux et Tenebrae* expansion.
BASE_SET = "base"
LUX_SET = "lux"
#: Every set, in the order :func:`components` lists them within a kind.
SETS = (BASE_SET, LUX_SET)
#: The packaged data file (in ``amigos/data/``) of each set.
SET_FILES = {BASE_SET: "base.json", LUX_SET: "lux_et_tenebrae.json"}

#: Component kinds, in the order :func:`components` lists them: the base game's five, then the
#: expansion's scrolls.
KINDS = ("artifact", "mage", "magic_item", "monument", "place_of_power", "scroll")
#: The kind whose file entries are double-sided tiles (``{"sides": [A, B]}``), each side a component.
TILED_KIND = "place_of_power"
#: The top-level list of a set's file that holds each kind. A set may lack one (base: no scrolls).
SECTIONS = {
    "artifact": "artifacts",
    "mage": "mages",
    "magic_item": "magic_items",
    "monument": "monuments",
    TILED_KIND: "places_of_power",
    "scroll": "scrolls",
}


@functools.cache
def load_packaged(name: str) -> dict[str, Any]:
    """The parsed packaged data file ``amigos/data/<name>`` (``base.json``, ``reference_cards.json``).

    Cached: every call returns the same dict, which callers must not mutate.
    """
    try:
        root = resources.files("amigos")
    except NotADirectoryError:
        # Python 3.11 cannot open resources of a *namespace* package whose path holds a
        # setuptools editable-install placeholder (amigos without __init__.py, installed with
        # pip -e). The packaged file is then the one beside this module.
        root = pathlib.Path(__file__).parent
    path = root / "data" / name  # one step at a time: 3.11 namespace paths need it
    with path.open("r", encoding="utf-8") as f:
        return json.load(f)


def load_set(card_set: str) -> dict[str, Any]:
    """The parsed packaged file of ``card_set`` (one of :data:`SETS`; shared: do not mutate it).

    Raises ValueError for an unknown set.
    """
    if card_set not in SET_FILES:
        raise ValueError(f"unknown card set {card_set!r}; expected one of {', '.join(SETS)}")
    return load_packaged(SET_FILES[card_set])


def load_base() -> dict[str, Any]:
    """The parsed packaged ``base.json`` (shared: do not mutate it)."""
    return load_set(BASE_SET)


def load_lux() -> dict[str, Any]:
    """The parsed packaged ``lux_et_tenebrae.json`` (shared: do not mutate it)."""
    return load_set(LUX_SET)


def raw_components(card_set: str = BASE_SET) -> list[dict[str, Any]]:
    """Every component dict of one set's file (the base game's by default: the engine's table)
    in entity order: artifacts, mages, magic items, monuments, places of power (each side its own
    component, tile by tile, side A first), then scrolls; within a section, the file's order.
    Shared: do not mutate them.  Raises ValueError for an unknown set."""
    data = load_set(card_set)
    out: list[dict[str, Any]] = []
    for kind in KINDS:
        entries = data.get(SECTIONS[kind], [])
        if kind == TILED_KIND:
            entries = [side for tile in entries for side in tile["sides"]]
        out += entries
    return out


def _cost(raw_cost: dict[str, Any] | None) -> dict[str, Any] | None:
    """Copy a placement cost with its keys in canonical order (elan..gold, then any).

    ``None`` stays ``None`` (mages, magic items, scrolls); ``{}`` means the cost is zero.
    """
    if raw_cost is None:
        return None
    unknown = set(raw_cost) - set(COST_KEYS)
    if unknown:
        raise ValueError(f"unknown cost keys {sorted(unknown)}")
    return {k: raw_cost[k] for k in COST_KEYS if raw_cost.get(k)}


def _flat(raw: dict[str, Any], card_set: str) -> dict[str, Any]:
    kind = raw["component_type"]
    if kind not in KINDS:
        raise ValueError(f"{raw['id']}: unknown component type {kind!r}")
    return {
        "id": raw["id"],
        "name": raw["name"],
        "set": card_set,
        "kind": kind,
        "types": list(raw["types"]),
        "cost": _cost(raw["placement_cost"]),
        "points": raw["victory_points"]["fixed"],
        "text": raw["text"],
        "raw": raw,
    }


def components(sets: Collection[str] = (BASE_SET,)) -> list[dict[str, Any]]:
    """Every component of the given sets (by default the base game alone, the game the engine
    plays) as a new flat list of dicts.

    Keys: ``id``, ``name``, ``set`` (one of :data:`SETS`), ``kind`` (one of :data:`KINDS`),
    ``types`` (list of str, e.g. ``["artifact", "dragon"]``), ``cost`` (dict essence -> count with
    keys from :data:`COST_KEYS`; ``{}`` for a zero cost; ``None`` for mages, magic items and
    scrolls), ``points`` (fixed victory points), ``text`` (the card's one-sentence text) and
    ``raw`` (the original component dict from the set's file, shared: do not mutate it).

    Order: kind by kind in :data:`KINDS` order (artifacts, mages, magic items, monuments, places
    of power, scrolls); within a kind, set by set in :data:`SETS` order (whatever the order of
    ``sets``), then as :func:`raw_components` lists them. Raises ValueError for an unknown set.
    """
    unknown = set(sets) - set(SETS)
    if unknown:
        raise ValueError(f"unknown card sets {sorted(unknown)}; expected some of {', '.join(SETS)}")
    flat = [_flat(raw, s) for s in SETS if s in sets for raw in raw_components(s)]
    # A stable sort: within a kind, the sets and each set's entity order stay as they are.
    flat.sort(key=lambda c: KINDS.index(c["kind"]))
    return flat
