"""A tournament's reports, rebuilt from its folder's files alone (`matches.tournament.collect`): the
summary (standings, crosstable, SPRT) in ``summary.json`` and ``summary.csv``, and one row per finished
game or match in ``games.csv``, the same rows the live per-game lines print (`game_row`, `game_line`).

Points: a won game (or match) is 1 for its winner and 0 for the loser, a shared one ½ each; a match
counts as one, as in the standings.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from . import files
from . import tournament as T
from .manifest import TournamentError

SUMMARY_JSON = "summary.json"
SUMMARY_CSV = "summary.csv"
GAMES_CSV = "games.csv"
SHARED = "shared"  # the winner column of a shared game or drawn match

STANDINGS_COLUMNS = ["agent", "spec", "games", "wins", "losses", "shared", "win_rate", "rate_low", "rate_high",
                     "elo", "elo_error"]
#: games.csv: p1 and p2 are the agents in seat order (player 1 and 2 of the match file); vp1, vp2 and
#: rounds hold one number a game, space-separated for the games of a match; score is games won.
GAMES_COLUMNS = ["id", "deal", "p1", "p2", "winner", "points1", "points2", "score", "vp1", "vp2", "rounds",
                 "file"]


def points(outcome: dict[str, Any]) -> tuple[float, float]:
    """The points of the agents in seat 1 and 2 of one finished game or match."""
    if outcome["winner"] is None:
        return 0.5, 0.5
    return (1.0, 0.0) if outcome["winner"] == 0 else (0.0, 1.0)


def crosstable(settings: dict[str, Any], outcomes: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """Each agent against each other it is scheduled to meet: ``table[name][opponent]`` is
    {"games", "wins", "losses", "shared", "points"} from ``name``'s side (names: `T.agent_names`), in
    the agents' order; a pairing without a finished game has zeros."""
    names = T.agent_names(settings["agents"])
    table: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in names}
    met = {tuple(sorted(job["seats"])) for job in settings["schedule"]}
    for a, b in sorted(met):
        for x, y in ((a, b), (b, a)):
            table[names[x]][names[y]] = {"games": 0, "wins": 0, "losses": 0, "shared": 0, "points": 0.0}
    for name in names:  # opponents in the agents' order, whatever order the pairings came in
        table[name] = {other: table[name][other] for other in names if other in table[name]}
    for o in outcomes:
        seats = o["seats"]
        for seat in (0, 1):
            cell = table[names[seats[seat]]][names[seats[1 - seat]]]
            T.count_result(cell, o["winner"], seat)
            cell["points"] += points(o)[seat]
    return table


def game_row(settings: dict[str, Any], outcome: dict[str, Any], out: Path | None = None) -> dict[str, Any]:
    """One finished game or match as the live line and ``games.csv`` show it: {"id", "deal" (number and
    side, e.g. "3b"), "p1", "p2" (names in seat order), "winner" (a name or "shared"), "points1",
    "points2", "score" (games won by each), "vp" (per game, each player's), "rounds" (per game),
    "file" (its name in the folder ``out``, where an older tournament may have named it by id; without
    ``out``, the name it is written under)}."""
    names = T.agent_names(settings["agents"])
    job = {"id": outcome["id"], "seats": outcome["seats"]}
    deal, side = T.deal_of(job, settings)
    players = [names[a] for a in outcome["seats"]]
    return {"id": outcome["id"], "deal": f"{deal}{side}", "p1": players[0], "p2": players[1],
            "winner": SHARED if outcome["winner"] is None else players[outcome["winner"]],
            "points1": points(outcome)[0], "points2": points(outcome)[1], "score": list(outcome["score"]),
            "vp": [list(g["vp"]) for g in outcome["games"]], "rounds": [g["rounds"] for g in outcome["games"]],
            "file": T.game_path(out, job, settings).name if out is not None else T.game_file(job, settings)}


def game_line(row: dict[str, Any], done: int, total: int) -> str:
    """The line printed as a game ends, e.g. ``3/6  P1 greedy 1-0 P2 random  VP 31-12  9 rounds
    deal 1a``; a match adds its games won and lists each game's points and rounds."""
    result = f"{_half(row['points1'])}-{_half(row['points2'])}"
    vp = " ".join(f"{a}-{b}" for a, b in row["vp"])
    rounds = " ".join(str(r) for r in row["rounds"])
    games = f"  games {row['score'][0]}-{row['score'][1]}" if len(row["vp"]) > 1 else ""
    return (f"{done}/{total}  P1 {row['p1']} {result} P2 {row['p2']}{games}  VP {vp}  "
            f"{rounds} round{'s' if row['rounds'] != [1] else ''}  deal {row['deal']}")


def _half(x: float) -> str:
    return "½" if x == 0.5 else str(int(x))


def summary(settings: dict[str, Any], outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """What ``summary.json`` holds: the settings people read, progress (played of scheduled), the
    standings (`T.standings`), the crosstable and, with ``--sprt``, the test's record."""
    data: dict[str, Any] = {
        "agents": settings["agents"], "names": T.agent_names(settings["agents"]),
        "format": settings["match_format"], "variant": settings["variant"],
        "expansions": list(settings.get("expansions") or ()), "seed": settings["seed"],
        "played": len(outcomes), "scheduled": len(settings["schedule"]),
        "standings": T.standings(settings["agents"], outcomes), "crosstable": crosstable(settings, outcomes)}
    test = T.sprt_of(settings, outcomes)
    if test is not None:
        data["sprt"] = test.record()
    return data


def write_csv(path: Path, columns: list[str], rows: list[list[Any]]) -> None:
    """Write a CSV file of ``columns`` and ``rows`` atomically (`files.write_atomic`)."""
    text = io.StringIO(newline="")
    w = csv.writer(text)
    w.writerow(columns)
    w.writerows(rows)
    files.write_atomic(path, text.getvalue().encode(), error=TournamentError)


def write_summary(out: Path) -> dict[str, Any]:
    """Rebuild ``summary.json``, ``summary.csv`` and ``games.csv`` in ``out`` from its files; returns
    the summary (`summary`)."""
    return write_files(out, *T.collect(out))


def write_files(out: Path, settings: dict[str, Any], outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """Write ``summary.json``, ``summary.csv`` and ``games.csv`` in ``out`` for ``outcomes``, the
    tournament's finished games in schedule order (`T.collect`); returns the summary (`summary`)."""
    data = summary(settings, outcomes)
    files.write_atomic(out / SUMMARY_JSON, json.dumps(data, indent=1).encode(), error=TournamentError)
    standings = [[r["agent"], r["spec"], r["games"], r["wins"], r["losses"], r["shared"], f"{r['rate']:.4f}",
                  f"{r['low']:.4f}", f"{r['high']:.4f}", f"{r['elo']:.1f}", f"{r['elo_error']:.1f}"]
                 for r in data["standings"]]
    write_csv(out / SUMMARY_CSV, STANDINGS_COLUMNS, standings)
    rows = [game_row(settings, o, out) for o in outcomes]  # (in schedule order, as `T.collect` gives them)
    write_csv(out / GAMES_CSV, GAMES_COLUMNS, [
        [g["id"], g["deal"], g["p1"], g["p2"], g["winner"], f"{g['points1']:g}", f"{g['points2']:g}",
         f"{g['score'][0]}-{g['score'][1]}", " ".join(str(v[0]) for v in g["vp"]),
         " ".join(str(v[1]) for v in g["vp"]), " ".join(str(r) for r in g["rounds"]), g["file"]] for g in rows])
    return data
