"""A tournament's reports, rebuilt from its folder's files alone (`matches.tournament.collect`): the
summary (standings, crosstable, SPRT) in ``summary.json`` and ``summary.csv``, and one row per finished
game or match in ``games.csv``, the same rows the live per-game lines print (`game_row`, `game_line`).

Points: a won game (or match) is 1 for its winner and 0 for the others, a victory shared by k players
1/k each; a match counts as one, as in the standings.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from amigos import files

from . import tournament as T
from .manifest import TournamentError

SUMMARY_JSON = "summary.json"
SUMMARY_CSV = "summary.csv"
GAMES_CSV = "games.csv"
SHARED = "shared"  # the winner column of a shared game or drawn match

STANDINGS_COLUMNS = ["agent", "spec", "games", "wins", "losses", "shared", "win_rate", "rate_low", "rate_high",
                     "mean_place", "elo", "elo_error"]


def games_columns(table: int) -> list[str]:
    """games.csv's columns for games of ``table`` players: p1, p2, ... are the agents in seat order
    (player 1, 2, ... of the match file), points1, ... their points, vp1, ... and rounds one number a
    game (space-separated for the games of a match), score the games won by each."""
    seats = range(1, table + 1)
    return (["id", "deal"] + [f"p{k}" for k in seats] + ["winner"] + [f"points{k}" for k in seats] + ["score"]
            + [f"vp{k}" for k in seats] + ["rounds", "file"])


def points(outcome: dict[str, Any]) -> list[float]:
    """The points of the agents in each seat of one finished game or match: 1 for a win, 1/k each for a
    victory shared by k, 0 for the others."""
    won = T.winning_seats(outcome)
    return [1.0 / len(won) if seat in won else 0.0 for seat in range(len(outcome["seats"]))]


def crosstable(settings: dict[str, Any], outcomes: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """Each agent against each other it is scheduled to meet, head to head: ``table[name][opponent]`` is
    {"games" (together), "wins" (placed ahead), "losses" (behind), "shared" (equal places), "points"
    (a place ahead 1, an equal one ½)} from ``name``'s side (names: `T.agent_names`), in the agents'
    order; a pairing without a finished game has zeros.  With two players, a game won, lost or shared."""
    names = T.agent_names(settings["agents"])
    table: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in names}
    met = {(a, b) for job in settings["schedule"] for a in job["seats"] for b in job["seats"] if a != b}
    for a, b in sorted(met):
        table[names[a]][names[b]] = {"games": 0, "wins": 0, "losses": 0, "shared": 0, "points": 0.0}
    for name in names:  # opponents in the agents' order, whatever order the pairings came in
        table[name] = {other: table[name][other] for other in names if other in table[name]}
    for o in outcomes:
        seats, places = o["seats"], T.places(o)
        for i, a in enumerate(seats):
            for j, b in enumerate(seats):
                if a == b:
                    continue
                cell = table[names[a]][names[b]]
                cell["games"] += 1
                how = "wins" if places[i] < places[j] else "losses" if places[i] > places[j] else "shared"
                cell[how] += 1
                cell["points"] += {"wins": 1.0, "losses": 0.0, "shared": 0.5}[how]
    return table


def game_row(settings: dict[str, Any], outcome: dict[str, Any], out: Path | None = None) -> dict[str, Any]:
    """One finished game or match as the live line and ``games.csv`` show it: {"id", "deal" (number and
    side, e.g. "3b"), "players" (names in seat order), "winner" (a name, names joined by " & " for a
    victory shared by some, or "shared" for a shared two-player game), "points" (each seat's), "score"
    (games won by each), "vp" (per game, each player's), "rounds" (per game), "file" (its name in the
    folder ``out``, where an older tournament may have named it by id; without ``out``, the name it is
    written under)}."""
    names = T.agent_names(settings["agents"])
    job = {"id": outcome["id"], "seats": outcome["seats"]}
    deal, side = T.deal_of(job, settings)
    players = [names[a] for a in outcome["seats"]]
    won = T.winning_seats(outcome)
    winner = players[won[0]] if len(won) == 1 else SHARED if len(players) == 2 else " & ".join(players[w] for w in won)
    return {"id": outcome["id"], "deal": f"{deal}{side}", "players": players, "winner": winner,
            "points": points(outcome), "score": list(outcome["score"]),
            "vp": [list(g["vp"]) for g in outcome["games"]], "rounds": [g["rounds"] for g in outcome["games"]],
            "file": T.game_path(out, job, settings).name if out is not None else T.game_file(job, settings)}


def game_line(row: dict[str, Any], done: int, total: int) -> str:
    """The line printed as a game ends, e.g. ``3/6  P1 greedy 1-0 P2 random  VP 31-12  9 rounds
    deal 1a`` (with more players, ``P1 a 1  P2 b 0  P3 c 0``); a match adds its games won and lists each
    game's points and rounds."""
    players, shares = row["players"], row["points"]
    if len(players) == 2:
        seats = f"P1 {players[0]} {_half(shares[0])}-{_half(shares[1])} P2 {players[1]}"
    else:
        seats = "  ".join(f"P{k + 1} {name} {_share(x)}" for k, (name, x) in enumerate(zip(players, shares)))
    vp = " ".join("-".join(map(str, game)) for game in row["vp"])
    rounds = " ".join(str(r) for r in row["rounds"])
    games = f"  games {'-'.join(map(str, row['score']))}" if len(row["vp"]) > 1 else ""
    return (f"{done}/{total}  {seats}{games}  VP {vp}  "
            f"{rounds} round{'s' if row['rounds'] != [1] else ''}  deal {row['deal']}")


def _share(x: float) -> str:
    return {1.0: "1", 0.0: "0", 0.5: "½"}.get(x, f"{x:.2f}")


def _half(x: float) -> str:
    return "½" if x == 0.5 else str(int(x))


def summary(settings: dict[str, Any], outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """What ``summary.json`` holds: the settings people read, progress (played of scheduled), the
    standings (`T.standings`), the crosstable and, with ``--sprt``, the test's record."""
    data: dict[str, Any] = {
        "agents": settings["agents"], "names": T.agent_names(settings["agents"]),
        "format": settings["match_format"], "variant": settings["variant"], "table": settings.get("table", 2),
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
                  f"{r['low']:.4f}", f"{r['high']:.4f}",
                  "" if r["mean_place"] is None else f"{r['mean_place']:.3f}", f"{r['elo']:.1f}",
                  f"{r['elo_error']:.1f}"] for r in data["standings"]]
    write_csv(out / SUMMARY_CSV, STANDINGS_COLUMNS, standings)
    rows = [game_row(settings, o, out) for o in outcomes]  # (in schedule order, as `T.collect` gives them)
    table = settings.get("table", 2)
    write_csv(out / GAMES_CSV, games_columns(table), [
        [g["id"], g["deal"], *g["players"], g["winner"], *(f"{x:g}" for x in g["points"]), "-".join(map(str, g["score"])),
         *(" ".join(str(v[k]) for v in g["vp"]) for k in range(table)), " ".join(str(r) for r in g["rounds"]),
         g["file"]] for g in rows])
    return data
