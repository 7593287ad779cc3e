"""Rich views of card data: functions from components (``amigos.carddata``) to renderables.

Nothing here prints; the command decides where a renderable goes.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from amigos.carddata import BASE_SET, COST_KEYS, LUX_SET, load_set

from .board import any_part
from .power_text import power_summary

#: How each cost key is shown: (letter, rich style). Death is black on a light background so it
#: stays visible on dark terminals; the grey pentagon ("any") is grey.
ESSENCE_STYLE: dict[str, tuple[str, str]] = {
    "elan": ("E", "bold red"),
    "life": ("L", "bold green"),
    "calm": ("C", "bold blue"),
    "death": ("D", "bold black on grey70"),
    "gold": ("G", "bold yellow"),
    "any": ("any", "grey62"),  # (written "+3 any": `amigos_cli.views.board.any_part`)
}

COST_LEGEND = "Cost: E elan, L life, C calm, D death, G gold, any: essences of any kind; 0 free; - none"

#: Each card set's title, as a player knows it.
SET_TITLES = {BASE_SET: "the base game", LUX_SET: "Lux et Tenebrae"}
#: The style of the set mark under the name of a component that is not from the base game.
SET_MARK_STYLE = "bold magenta"


def cost_text(cost: dict[str, Any] | None) -> Text:
    """A compact coloured cost, e.g. ``2E 1G``; ``0`` for a zero cost, ``-`` for none."""
    if cost is None:
        return Text("-", style="dim")
    if not cost:
        return Text("0")
    out = Text()
    for key in COST_KEYS:
        n = cost.get(key, 0)
        if n:
            letter, style = ESSENCE_STYLE[key]
            if out:
                out.append(" ")
            out.append(any_part(n, bool(out)) if key == "any" else f"{n}{letter}", style=style)
    return out


def kind_label(kind: str) -> str:
    """``place_of_power`` -> ``place of power``."""
    return kind.replace("_", " ")


def extra_types(component: dict[str, Any]) -> str:
    """The component's types other than its kind, e.g. ``dragon, creature``; '' if none."""
    return ", ".join(t for t in component["types"] if t != component["kind"])


def kind_cell(component: dict[str, Any], show_kind: bool) -> Text:
    """The kind (when shown) with any further types below it, e.g. ``artifact`` / ``dragon``."""
    lines = [kind_label(component["kind"])] if show_kind else []
    extra = extra_types(component)
    out = Text("\n".join(lines))
    if extra:
        if lines:
            out.append("\n")
        out.append(extra, style="italic")
    return out


#: Below this many columns the table wraps names, kinds and costs to leave room for the text.
NARROW = 110


def cards_table(components: list[dict[str, Any]]) -> RenderableType:
    """One row per component: name, kind and types, cost, fixed points, text.

    The kind is left out when every row has the same kind (and the column too when no row has a
    type besides its kind), so that a filtered table leaves more room for the text. The layout
    adapts to the width it is rendered at (see :data:`NARROW`).
    """
    return _WidthAware(lambda width: _cards_table(components, narrow=width < NARROW))


class _WidthAware:
    """A renderable built only once the available width is known."""

    def __init__(self, build: Callable[[int], RenderableType]) -> None:
        self.build = build

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.build(options.max_width)


def table_title(components: list[dict[str, Any]]) -> str:
    """``78 components``; with expansion components, which sets they come from:
    ``112 components: 78 of the base game, 34 of Lux et Tenebrae``, ``8 components of Lux et
    Tenebrae``."""
    title = f"{len(components)} component{'s' if len(components) != 1 else ''}"
    counts = {s: n for s in SET_TITLES if (n := sum(c["set"] == s for c in components))}
    if set(counts) == {BASE_SET}:
        return title  # the base game alone: as before the expansion
    if len(counts) == 1:
        return f"{title} of {SET_TITLES[next(iter(counts))]}"
    return title + ": " + ", ".join(f"{n} of {SET_TITLES[s]}" for s, n in counts.items())


def name_cell(component: dict[str, Any], show_set: bool) -> Text:
    """The name, and below it the set's code when ``show_set`` and the component is not from
    the base game (the usual case needs no mark)."""
    out = Text(component["name"])
    if show_set and component["set"] != BASE_SET:
        out.append("\n" + component["set"], style=SET_MARK_STYLE)
    return out


def _cards_table(components: list[dict[str, Any]], narrow: bool) -> Table:
    show_kind = len({c["kind"] for c in components}) > 1
    show_kind_column = show_kind or any(extra_types(c) for c in components)
    show_set = len({c["set"] for c in components}) > 1
    caption = COST_LEGEND
    if show_set:
        caption += "; " + ", ".join(f"{s}: {SET_TITLES[s]}" for s in SET_TITLES if s != BASE_SET)
    table = Table(
        title=table_title(components),
        caption=caption,
        box=box.SIMPLE_HEAD,
        show_lines=True,
        pad_edge=False,
    )
    table.add_column("Name", style="bold", max_width=14 if narrow else None)
    if show_kind_column:
        table.add_column("Kind" if show_kind else "Types", max_width=9 if narrow else None)
    table.add_column("Cost", max_width=5 if narrow else None)
    table.add_column("Pts", justify="right")
    table.add_column("Text")
    for c in components:
        row: list[RenderableType] = [name_cell(c, show_set)]
        if show_kind_column:
            row.append(kind_cell(c, show_kind))
        row += [cost_text(c["cost"]), str(c["points"]), for_players(c["text"])]
        table.add_row(*row)
    return table


def _points_text(component: dict[str, Any]) -> Text:
    vp = component["raw"].get("victory_points") or {}
    out = Text(str(component["points"]))
    for essence, pts in (vp.get("per_essence_on_this") or {}).items():
        out.append(f", +{pts} per {essence} on it")
    for typ, pts in (vp.get("per_own_artifact_type") or {}).items():
        out.append(f", +{pts} per own {typ}")
    per_artifacts = vp.get("per_own_artifacts_in_play")  # the expansion's Crystal Keep
    if per_artifacts:
        out.append(f", +{per_artifacts['points']} per {per_artifacts['per']} own artifacts in play")
        which = "turned ones count" if per_artifacts.get("counts_turned") else "straightened ones only"
        rounding = f", rounded {per_artifacts['rounding']}" if per_artifacts.get("rounding") else ""
        out.append(f" ({which}{rounding})")
    return out


#: Other engines and sources as the card data names them: "the engine", "B and D engines", "G says",
#: "D unit test", "R's wording", "a Python port of A".
_SOURCE = r"[A-Z](?:(?:, | and )[A-Z])*"
_CITED = (rf"\bengines?\b|\b{_SOURCE} (?:says|agree|describes|fires|builds|sends|accept|unit test)\b"
          r"|\b[A-Z]'s wording|\bPython port")

#: The card data's asides about other engines, as a player reads them: the self-straightening powers
#: (Chalice of Fire, Witch, Reanimate) may straighten the component turned to pay for them, which our
#: rules allow (`amigos.legal`); any other aside citing an engine or a source ("the engine lets you
#: decline the placement", "(G says 'any artifact')", "; D sends it to ...") is about a program or a
#: reference, not the card, and is left out.
ENGINE_ASIDES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r" \(the engine also accepts (the [\w ]+?) itself or no target\)"),
     r" (\1 itself, turned to pay, may be the one straightened)"),
    (re.compile(rf" ?\([^()]*(?:{_CITED})[^()]*\)"), ""),
    (re.compile(rf"; {_SOURCE} (?:says|sends|accept)\b[^;.]*(?=\.)"), ""),
    (re.compile(rf"^{_SOURCE} (?:says|sends|accept)\b[^;.]*; "), ""),
)


def for_players(text: str) -> str:
    """``text`` from the card data with its asides about engines and sources (`ENGINE_ASIDES`) told as
    a rule or left out."""
    for pattern, replacement in ENGINE_ASIDES:
        text = pattern.sub(replacement, text)
    return text[:1].upper() + text[1:]


def _power_lines(raw: dict[str, Any]) -> list[str]:
    """One line per power or reaction: the data's summaries where there are some (every base
    component), else each described from its cost and effects (the expansion's data has none)."""
    summaries = [p.get("summary") for p in raw.get("reference_powers") or []]
    lines = [for_players(s) for s in summaries if s]
    if not lines:
        lines = [power_summary(p, raw) for p in (raw.get("powers") or []) + (raw.get("reactions") or [])]
    return lines


def _bullets(lines: list[str]) -> Group | Text:
    if not lines:
        return Text("none", style="dim")
    return Group(*(Text("- ") + Text(line) for line in lines))


#: The topics of a set's general rulings that tell what every component of a kind does.
KIND_TOPICS = {"scroll": "scrolls"}


def kind_rulings(component: dict[str, Any]) -> list[str]:
    """The general rulings of the component's set about every component of its kind (a scroll's: they
    are claimed only with Inscription, kept until used, then go back to the centre); [] for most."""
    topic = KIND_TOPICS.get(component["kind"])
    if topic is None:
        return []
    return [r["text"] for r in load_set(component["set"]).get("general_rulings") or []
            if r.get("topic") == topic and r.get("text")]


def card_details(component: dict[str, Any], framed: bool = True) -> RenderableType:
    """Everything a player wants to read about one component: in a panel titled with its name, or
    (``framed`` false, for the game's card panel, which frames it itself) headed by its name and one
    line of its kind, cost and points, so that its text comes first even in a short panel."""
    raw = component["raw"]
    if framed:
        facts = Table.grid(padding=(0, 2))
        facts.add_column(style="dim", no_wrap=True)
        facts.add_column()
        facts.add_row("id", component["id"])
        if component["set"] != BASE_SET:
            facts.add_row("set", f"{SET_TITLES[component['set']]} ({component['set']})")
        facts.add_row("kind", kind_label(component["kind"]))
        facts.add_row("types", ", ".join(component["types"]))
        facts.add_row("cost", cost_text(component["cost"]))
        facts.add_row("points", _points_text(component))
        head: RenderableType = facts
    else:
        kinds = ", ".join(t for t in component["types"] if t != component["kind"]) or kind_label(component["kind"])
        where = f" ({SET_TITLES[component['set']]})" if component["set"] != BASE_SET else ""
        points = _points_text(component).plain
        points = f"{points} point{'' if points == '1' else 's'}" if points.isdigit() else f"points {points}"
        head = Text(f"{kinds}{where} · cost {cost_text(component['cost'])} · {points}", style="dim")

    parts: list[RenderableType] = [head, Text(for_players(component["text"]))]
    if framed:
        parts.insert(1, Text())
    parts += [Text(), Text("Powers", style="bold"), Padding(_bullets(_power_lines(raw)), (0, 0, 0, 2))]
    rulings = [for_players(r["text"]) for r in raw.get("rulings") or [] if r.get("text")]
    parts += [Text(), Text("Rulings", style="bold"), Padding(_bullets(rulings), (0, 0, 0, 2))]
    general = kind_rulings(component)
    if general:  # what every component of its kind does (a scroll: how it is claimed, kept and used)
        parts += [Text(), Text(f"Every {kind_label(component['kind'])}", style="bold"),
                  Padding(_bullets(general), (0, 0, 0, 2))]
    if raw.get("notes"):
        parts += [Text(), Text("Notes", style="bold"), Padding(Text(for_players(raw["notes"])), (0, 0, 0, 2))]
    if not framed:
        return Group(Text(component["name"], style="bold"), *parts)
    return Panel(Group(*parts), title=Text(component["name"], style="bold"), title_align="left")


def nearest_name(name: str | None, all_components: list[dict[str, Any]]) -> str:
    """``" (did you mean Seer?)"`` for a near miss of a component's name, else ""."""
    if not name:
        return ""
    names = {c["name"].lower(): c["name"] for c in all_components}
    close = difflib.get_close_matches(name.strip().lower(), list(names), n=1, cutoff=0.6)
    return f" (did you mean {names[close[0]]}?)" if close else ""
