"""The packaged card table (``amigos/data/base.json``) and a flat view of its components.

Standard library only. The only I/O is reading the JSON file packaged inside ``amigos``
through :mod:`importlib.resources`, once per process.

The file's format is described in ``shared/cards/README.md`` (a test checks that the packaged
copy is byte-for-byte the shared one).
"""

from __future__ import annotations

import functools
import json
import pathlib
from importlib import resources

#: The five essence names in canonical order, as used for cost keys.
ESSENCES = ("elan", "life", "calm", "death", "gold")
#: Cost key for the grey pentagon: n essences of any type or mix, Gold included.
ANY = "any"
#: Every key a cost dict may have.
COST_KEYS = ESSENCES + (ANY,)

#: Component kinds, in the order :func:`components` lists them.
KINDS = ("artifact", "mage", "magic_item", "monument", "place_of_power")


@functools.cache
def load_packaged(name: str) -> dict:
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


def load_base() -> dict:
    """The parsed packaged ``base.json`` (shared: do not mutate it)."""
    return load_packaged("base.json")


def raw_components() -> list[dict]:
    """Every component dict of ``base.json`` in entity order: artifacts, mages, magic items,
    monuments, then places of power, each side its own component (tile by tile, side A first);
    within a section, the file's order.  Shared: do not mutate them."""
    base = load_base()
    return (base["artifacts"] + base["mages"] + base["magic_items"] + base["monuments"]
            + [side for tile in base["places_of_power"] for side in tile["sides"]])


def _cost(raw_cost: dict | None) -> dict | None:
    """Copy a placement cost with its keys in canonical order (elan..gold, then any).

    ``None`` stays ``None`` (mages, magic items); ``{}`` means the cost is zero.
    """
    if raw_cost is None:
        return None
    unknown = set(raw_cost) - set(COST_KEYS)
    if unknown:
        raise ValueError(f"unknown cost keys {sorted(unknown)}")
    return {k: raw_cost[k] for k in COST_KEYS if raw_cost.get(k)}


def _flat(raw: dict) -> dict:
    return {
        "id": raw["id"],
        "name": raw["name"],
        "kind": raw["component_type"],
        "types": list(raw["types"]),
        "cost": _cost(raw["placement_cost"]),
        "points": raw["victory_points"]["fixed"],
        "text": raw["text"],
        "raw": raw,
    }


def components() -> list[dict]:
    """Every component of the base game as a new flat list of dicts.

    Keys: ``id``, ``name``, ``kind`` (one of :data:`KINDS`), ``types`` (list of str, e.g.
    ``["artifact", "dragon"]``), ``cost`` (dict essence -> count with keys from
    :data:`COST_KEYS`; ``{}`` for a zero cost; ``None`` for mages and magic items),
    ``points`` (fixed victory points), ``text`` (the card's one-sentence text) and ``raw``
    (the original component dict from ``base.json``, shared: do not mutate it).

    Order: artifacts, mages, magic items, monuments, then places of power, each Place of
    Power side being its own component (tile by tile, side A before side B); within a
    section, the file's order.
    """
    return [_flat(r) for r in raw_components()]
