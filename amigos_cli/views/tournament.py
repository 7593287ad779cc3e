"""A tournament's tables for the terminal: standings (with a small win-rate strip per agent), the
crosstable, card statistics, and the lines that describe its settings and progress; used by
``amigos tournament`` and ``amigos show DIR``.  Every table escapes the text it shows (agent specs
and folder names are rich markup otherwise)."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table

from matches.match import expansion_title
from matches.tournament import agent_names

from .safe import printable

STRIP_WIDTH = 10  # characters of the win-rate strip, each a tenth of the scale from 0 to 100%
STRIP_RATE, STRIP_INTERVAL, STRIP_EMPTY = "●", "━", "·"
NOT_MET = ""  # a crosstable cell of two agents that do not meet (a gauntlet), or an agent and itself


def rate_strip(rate: float, low: float, high: float, width: int = STRIP_WIDTH) -> str:
    """A win rate drawn in ``width`` characters from 0 to 100%: the 95% interval ``━``, the rate
    ``●``, the rest ``·``; e.g. ``····━━●━━·`` for 65% (45-85%)."""
    def cell(x: float) -> int:
        return max(0, min(int(x * width), width - 1))

    chars = [STRIP_EMPTY] * width
    for i in range(cell(low), cell(high) + 1):
        chars[i] = STRIP_INTERVAL
    chars[cell(rate)] = STRIP_RATE
    return "".join(chars)


def _name(text: str) -> str:
    return escape(printable(text))


def standings_table(rows: list[dict[str, Any]], title: str = "Standings", table_size: int = 2) -> Table:
    """The standings (`matches.tournament.standings`), best first; for games of more than two players
    (``table_size``) with each agent's mean place and its rating labelled as OpenSkill's."""
    many = table_size > 2
    columns = ["agent", "games", "wins", "losses", "shared", "win rate (95%)", f"0%{'100%':>{STRIP_WIDTH - 2}}"]
    columns += ["mean place", "rating (Elo scale)"] if many else ["Elo"]
    table = Table(*columns, title=title, caption="rating: OpenSkill's Plackett-Luce, on the Elo scale, 95%"
                  if many else None)
    for r in rows:
        played = r["games"] > 0
        cells = [_name(r["agent"]), str(r["games"]), str(r["wins"]), str(r["losses"]), str(r["shared"]),
                 f"{r['rate']:.0%} ({r['low']:.0%}-{r['high']:.0%})" if played else "-",
                 rate_strip(r["rate"], r["low"], r["high"]) if played else ""]
        if many:
            cells.append(f"{r['mean_place']:.2f}" if played else "-")
        cells.append(f"{r['elo']:+.0f} ± {r['elo_error']:.0f}" if played and r["elo_error"] != float("inf") else "-")
        table.add_row(*cells)
    return table


def crosstable_table(rows: list[dict[str, Any]], crosstable: dict[str, dict[str, dict[str, Any]]],
                     title: str = "Crosstable", table_size: int = 2) -> Table:
    """Each agent (in standings order, numbered) against each other: the row's points of the games
    played against the column's, and its wins-losses-shared (with more than two players at a game,
    ``table_size``, head to head: placed ahead, behind, equal)."""
    order = [r["agent"] for r in rows]
    caption = "row against column: points/games (wins-losses-shared)" if table_size == 2 else \
        "row against column, head to head in the games they played together: points/games (ahead-behind-equal)"
    table = Table("", "agent", *(str(k + 1) for k in range(len(order))), title=title, caption=caption)
    for k, name in enumerate(order):
        cells = []
        for other in order:
            cell = crosstable[name].get(other)
            if cell is None:
                cells.append(NOT_MET)
            else:
                cells.append(f"{cell['points']:g}/{cell['games']} ({cell['wins']}-{cell['losses']}-{cell['shared']})")
        table.add_row(str(k + 1), _name(name), *cells)
    return table


def card_table(rows: list[dict[str, Any]], title: str = "Card statistics") -> Table:
    """The card statistics (`matches.cardstats.card_stats`): games and win rate of each kind."""
    table = Table("card", "drafted: games, win rate (95%)", "played", "claimed", title=title)

    def cell(x: dict[str, Any]) -> str:
        if not x["games"]:
            return "-"
        return f"{x['games']}: {x['win_rate']:.0%} ({x['low']:.0%}-{x['high']:.0%})"

    for r in rows:
        table.add_row(escape(r["name"]), cell(r["drafted"]), cell(r["played"]), cell(r["claimed"]))
    return table


def settings_lines(folder: str, settings: dict[str, Any], played: int) -> list[str]:
    """Lines (rich markup) for a tournament's settings and progress: what is played by whom, and how
    many of the scheduled games are finished."""
    agents = settings["agents"]
    kind = "gauntlet" if settings.get("gauntlet") else "round robin"
    unit = "games" if settings["match_format"] == "game" else "matches (best of three)"
    scheduled = len(settings["schedule"])
    table = settings.get("table", 2)
    per = "per pairing" if table == 2 else f"per table of {table}"
    lines = [f"[bold]{escape(printable(folder, None))}[/]: {kind} of {len(agents)} agents, "
             f"{settings['games']} {unit} {per}, {escape(str(settings['variant']).replace('_', ' '))}, "
             f"seed {settings['seed']}",
             "Agents: " + ", ".join(_name(name) for name in agent_names(agents))]
    if settings.get("expansions"):
        lines.append(f"Expansion: {escape(expansion_title(settings['expansions']))}")
    test = settings.get("sprt")
    if test:
        lines.append(f"SPRT [{test['elo0']:g}, {test['elo1']:g}] alpha {test['alpha']:g} beta {test['beta']:g}: "
                     f"the first agent against the second, at most {scheduled} {unit.split()[0]}")
    lines.append(f"Progress: {played} of {scheduled} {unit.split()[0]} played"
                 + (" (finished)" if played == scheduled else ""))
    return lines
