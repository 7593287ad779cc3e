"""``amigos cards [NAME] [--kind KIND] [--set SET] [--json]``: list and look up the components of
the base game and of the *Lux et Tenebrae* expansion."""

from __future__ import annotations

import difflib
import json
from typing import Annotated, Any, Optional

import typer

from amigos.carddata import KINDS, SETS, components
from amigos_cli.errors import CliUsageError
from amigos_cli.views.cards import card_details, cards_table, nearest_name
from amigos_cli.views.console import stdout_console

#: The keys of each object printed by ``--json``, in order.
JSON_KEYS = ("id", "name", "set", "kind", "types", "cost", "points", "text")


def parse_kind(kind: str) -> str:
    """``place-of-power`` / ``Place_Of_Power`` -> ``place_of_power``; unknown kinds raise, naming the
    nearest kind (``artefact``: did you mean artifact?)."""
    norm = kind.strip().lower().replace("-", "_").replace(" ", "_")
    if norm not in KINDS:
        close = difflib.get_close_matches(norm, KINDS, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise CliUsageError(f"unknown kind {kind!r}{hint}; expected one of: {', '.join(KINDS)}")
    return norm


def parse_set(card_set: str) -> str:
    """``base`` / ``LUX`` -> the set's code; unknown sets raise."""
    norm = card_set.strip().lower()
    if norm not in SETS:
        raise CliUsageError(f"unknown set {card_set!r}; expected one of: {', '.join(SETS)}")
    return norm


def select(all_components: list[dict[str, Any]], name: str | None, kind: str | None,
           card_set: str | None = None) -> list[dict[str, Any]]:
    """The components of ``kind`` and ``card_set`` (None: any) named like ``name`` (any case): those
    with a word of their name (or id) starting with it ("dragon", "fire d"); else, unless it is a
    near miss of a name ("sear" for Seer: none, so that the caller offers it), those whose name or id
    contains it ("arch" for Research)."""
    chosen = all_components
    if kind is not None:
        chosen = [c for c in chosen if c["kind"] == kind]
    if card_set is not None:
        chosen = [c for c in chosen if c["set"] == card_set]
    if name is None:
        return chosen
    needle = name.strip().lower()
    starting = [c for c in chosen if _starts_a_word(needle, c)]
    if starting:
        return starting
    names = [c["name"].lower() for c in chosen]
    if difflib.get_close_matches(needle, names, n=1, cutoff=NEAR_MISS):
        return []
    return [c for c in chosen if needle in c["name"].lower() or needle in c["id"]]


NEAR_MISS = 0.7  # difflib's ratio from which a name typed is taken for a misspelt one


def _starts_a_word(needle: str, component: dict[str, Any]) -> bool:
    text = component["name"].lower()
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch in " -'’"]
    return any(text.startswith(needle, i) for i in starts) or component["id"].startswith(needle.replace(" ", "_"))


def single(chosen: list[dict[str, Any]], name: str | None) -> dict[str, Any] | None:
    """The one component to show in full: the only match, or the only exact name/id match."""
    if name is None:
        return None
    if len(chosen) == 1:
        return chosen[0]
    needle = name.strip().lower()
    exact = [c for c in chosen if c["name"].lower() == needle or c["id"] == needle]
    return exact[0] if len(exact) == 1 else None


def cards(
    name: Annotated[
        Optional[str],
        typer.Argument(help="Show only components named like this: a word of the name starting with it, any case "
                                 "(else the name containing it).", metavar="NAME"),
    ] = None,
    kind: Annotated[
        Optional[str],
        typer.Option(
            "--kind",
            metavar="KIND",
            help="Show only this kind: " + ", ".join(KINDS) + " (dashes accepted).",
        ),
    ] = None,
    card_set: Annotated[
        Optional[str],
        typer.Option(
            "--set",
            metavar="SET",
            help="Show only this set: base (the base game) or lux (Lux et Tenebrae); default both.",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print a JSON list of {" + ", ".join(JSON_KEYS) + "}."),
    ] = False,
) -> None:
    """List the components of the base game and of Lux et Tenebrae; one match also shows its
    powers and rulings."""
    wanted_kind = parse_kind(kind) if kind is not None else None
    wanted_set = parse_set(card_set) if card_set is not None else None
    # Positional: tests replace `components` with a function of positional arguments.
    every = components(SETS)
    chosen = select(every, name, wanted_kind, wanted_set)
    if not chosen:
        what = f"named like {name!r}" if name is not None else "at all"
        if wanted_kind is not None:
            what += f" of kind {wanted_kind}"
        if wanted_set is not None:
            what += f" in set {wanted_set}"
        # The near miss is looked for in every set: a name of the other set is worth naming.
        raise CliUsageError(f"no component {what}{nearest_name(name, every)}")

    if as_json:
        rows = [{k: c[k] for k in JSON_KEYS} for c in chosen]
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return

    console = stdout_console()
    console.print(cards_table(chosen))
    one = single(chosen, name)
    if one is not None:
        console.print(card_details(one))
