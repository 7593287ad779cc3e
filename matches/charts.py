"""Charts of a tournament's reports, drawn with matplotlib (the optional ``plots`` extra:
``pip install 'amigos[plots]'``): ``standings.png``, each agent's Elo with its error bar beside its win
rate with its 95% interval, and with ``--card-stats`` ``card_stats.png``, each card's win rates.

matplotlib is imported only here, when a chart is drawn, and draws with its Agg backend onto a figure
of its own (no pyplot, no window, no global state): a tournament without it writes everything else.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from amigos import files
from amigos.errors import AmigosError
from amigos.files import FileProblem

from .manifest import TournamentError

STANDINGS_PNG = "standings.png"
CARD_STATS_PNG = "card_stats.png"
INSTALL_HINT = "pip install 'amigos[plots]'"
DPI = 120
ROW_INCHES = 0.3       # the height of one agent's or card's row
MIN_INCHES = 2.5       # the least height of a chart
CARD_ROW_INCHES = 0.28
MARKERS = {"drafted": "o", "played": "s", "claimed": "^"}
OFFSETS = {"drafted": 0.22, "played": 0.0, "claimed": -0.22}  # a card's three rates one above the other in its row
RATE_LIMITS = (-0.02, 1.02)  # a little room beyond 0 and 100%, so that a marker there shows whole


class ChartsUnavailable(Exception):
    """matplotlib is not installed."""


def _save(figure: Any, path: Path, error: type[AmigosError] = TournamentError) -> None:
    """Write ``figure`` as a PNG to ``path`` atomically (`files.write_atomic`: a link there is replaced)."""
    data = io.BytesIO()
    figure.savefig(data, format="png")
    files.write_atomic(path, data.getvalue(), error=error)


def _figure(width: float, height: float) -> Any:
    """A matplotlib figure drawn by the Agg backend; `ChartsUnavailable` without matplotlib."""
    try:
        import matplotlib  # noqa: F401 - the package first: a stand-in None in sys.modules stops here
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ChartsUnavailable(f"charts need matplotlib: {INSTALL_HINT}") from None
    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def standings_chart(rows: list[dict[str, Any]], path: Path, title: str = "Standings") -> Path:
    """Draw the standings (`matches.tournament.standings`, best first, at the top) to ``path``: Elo
    with its 95% error bar (none for an agent without games), and win rate with its 95% interval
    against the 50% line."""
    figure = _figure(9.0, max(MIN_INCHES, 1.2 + ROW_INCHES * len(rows)))
    elo_axes, rate_axes = figure.subplots(1, 2, sharey=True)
    ys = list(range(len(rows)))[::-1]
    finite = [r["elo_error"] != float("inf") for r in rows]
    elo_axes.errorbar([r["elo"] for r in rows], ys, xerr=[r["elo_error"] if f else 0.0 for r, f in zip(rows, finite)],
                      fmt="o", capsize=3)
    elo_axes.axvline(0, color="grey", linewidth=0.8)
    elo_axes.set_xlabel("Elo (mean 0), 95% error bar")
    elo_axes.set_yticks(ys, [r["agent"] for r in rows])
    rate_axes.errorbar([r["rate"] for r in rows], ys, xerr=_spans([(r["rate"], r["low"], r["high"]) for r in rows]),
                       fmt="o", capsize=3)
    rate_axes.axvline(0.5, color="grey", linewidth=0.8)
    rate_axes.set_xlim(*RATE_LIMITS)
    rate_axes.set_xlabel("win rate, 95% interval")
    figure.suptitle(title)
    _save(figure, path)
    return path


def card_chart(rows: list[dict[str, Any]], path: Path, title: str = "Card statistics") -> Path:
    """Draw the card statistics (`matches.cardstats.card_stats`) to ``path``: per card, the win rate
    of those who drafted, played or claimed it, each with its 95% interval, cards by name."""
    rows = [r for r in rows if any(r[how]["games"] for how in MARKERS)]
    figure = _figure(8.0, max(MIN_INCHES, 1.2 + CARD_ROW_INCHES * len(rows)))
    axes = figure.subplots()
    ys = list(range(len(rows)))[::-1]
    for how, marker in MARKERS.items():
        shown = [(y, r[how]) for y, r in zip(ys, rows) if r[how]["games"]]
        if not shown:
            continue
        axes.errorbar([x["win_rate"] for _, x in shown], [y + OFFSETS[how] for y, _ in shown], fmt=marker,
                      capsize=2, markersize=4, label=how,
                      xerr=_spans([(x["win_rate"], x["low"], x["high"]) for _, x in shown]))
    axes.axvline(0.5, color="grey", linewidth=0.8)
    axes.set_xlim(*RATE_LIMITS)
    axes.set_yticks(ys, [r["name"] for r in rows])
    axes.set_ylim(-1, len(rows))
    axes.set_xlabel("win rate of a player who drafted, played or claimed the card (95% interval)")
    figure.legend(loc="outside upper center", ncols=len(MARKERS), fontsize="small")
    figure.suptitle(title)
    _save(figure, path)
    return path


def _spans(intervals: list[tuple[float, float, float]]) -> list[list[float]]:
    """matplotlib's ``xerr`` of (value, low, high) triples: the lengths below and above each value,
    never negative (a Wilson bound at 0 or 1 can miss the rate by a rounding error)."""
    return [[max(0.0, x - low) for x, low, _ in intervals], [max(0.0, high - x) for x, _, high in intervals]]


def write_charts(out: Path, standings: list[dict[str, Any]], cards: list[dict[str, Any]] | None = None) -> list[Path]:
    """Draw ``standings.png`` and, given card statistics, ``card_stats.png`` in ``out``; the files
    written.  `ChartsUnavailable` (naming what to install) without matplotlib."""
    written = [standings_chart(standings, out / STANDINGS_PNG)]
    if cards is not None:
        written.append(card_chart(cards, out / CARD_STATS_PNG))
    return written


def review_chart(lines: dict[str, list[tuple[int, float, str]]], path: Path, title: str = "Chance to win") -> Path:
    """Draw a review's win-chance graph to ``path``: for each reviewed player (``lines``: name -> their
    decisions in order, each its number in the match, its chance before it and its grade), the chance
    before each decision, its mistakes (o) and blunders (x) marked."""
    figure = _figure(9.0, 3.5)
    axes = figure.subplots()
    for name, points in lines.items():
        xs = [x for x, _, _ in points]
        drawn = axes.plot(xs, [chance for _, chance, _ in points], label=name, linewidth=1.2)
        colour = drawn[0].get_color()
        for mark, grade in (("o", "mistake"), ("x", "blunder")):
            hits = [(x, c) for x, c, g in points if g == grade]
            if hits:
                axes.scatter(*zip(*hits), marker=mark, color=colour, zorder=3)
    axes.axhline(0.5, color="grey", linewidth=0.8)
    axes.set_ylim(*RATE_LIMITS)
    axes.set_xlabel("decision of the match (o mistake, x blunder)")
    axes.set_ylabel("chance to win")
    axes.legend(loc="best")
    figure.suptitle(title)
    _save(figure, path, FileProblem)
    return path
