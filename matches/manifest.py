"""A tournament folder's ``tournament.json`` read through the same checkpoint as a match file.

`read` takes a regular file only, of at most `MAX_BYTES`, JSON at most a few levels deep (`files`), and
`check` then types and ranges every field: the agents are specs `ai.agents.parse_spec` accepts, the
counts are whole numbers in range, the schedule is a list of games with distinct seats among the
agents, as many as the ``table`` (two where it is not given).  Whether the schedule is the one the settings make is compared by `matches.tournament`, which
makes schedules.  `check_links` refuses a folder whose files point outside it.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any, NoReturn

import amigos
from ai.agents import SpecError, parse_spec
from amigos import files
from amigos.config import EXPANSIONS, FEWEST_PLAYERS, MOST_PLAYERS_LUX, OFFICIAL, RULESETS
from matches.sprt import check_rates

NAME = "tournament.json"
FORMAT = "amigos.tournament"
VERSION = 1
MAX_AGENTS = 64
MAX_SCHEDULE = 200_000   # games in one tournament: weeks of play on a cluster
MAX_BYTES = 32 << 20     # a schedule of MAX_SCHEDULE games is about 12 MB of JSON
MAX_ELO = 2_000          # an SPRT's bounds: no two agents are further apart than this
SEED_LIMIT = 1 << 64


class TournamentError(amigos.AmigosError):
    """Bad tournament settings, a ``tournament.json`` that cannot be used or a folder that holds another
    tournament; the message says which in one line."""


def read(out: Path) -> dict[str, Any]:
    """The checked settings in ``out``'s ``tournament.json``; `TournamentError` (one line) otherwise."""
    path = out / NAME
    if not os.path.lexists(path):
        raise TournamentError(f"{out}: no tournament here ({NAME} missing)")
    settings = files.read_json(path, MAX_BYTES, "tournament manifest", error=TournamentError)
    check(settings, str(path))
    return settings


def check(settings: Any, where: str) -> None:
    """Raise `TournamentError` naming the first field of ``settings`` that is missing, mistyped or out
    of range."""
    def bad(what: str) -> NoReturn:
        raise TournamentError(f"{where}: not a tournament manifest ({what})")

    if not isinstance(settings, dict) or settings.get("format") != FORMAT:
        bad(f"no '{FORMAT}' header")
    version = settings.get("version", VERSION)
    if not _whole(version) or version < 1:
        bad("'version' must be a whole number")
    if version > VERSION:
        raise TournamentError(f"{where}: made by a newer Amigos (manifest version {version}); upgrade to open it")
    agents = settings.get("agents")
    if not isinstance(agents, list) or not 2 <= len(agents) <= MAX_AGENTS:
        bad(f"'agents' must be a list of 2 to {MAX_AGENTS} specs")
    for i, spec in enumerate(agents):
        try:
            parse_spec(spec)
        except SpecError as exc:
            bad(f"agents[{i}]: {exc}")
    _whole_in(settings.get("games"), "games", 1, MAX_SCHEDULE, bad)
    _whole_in(settings.get("seed"), "seed", -SEED_LIMIT + 1, SEED_LIMIT - 1, bad)
    if settings.get("match_format") not in ("game", "match"):
        bad("'match_format' must be game or match")
    if settings.get("variant") not in amigos.VARIANTS:
        bad(f"'variant' must be one of {', '.join(amigos.VARIANTS)}")
    if not isinstance(settings.get("gauntlet"), bool):
        bad("'gauntlet' must be true or false")
    if settings.get("ruleset", OFFICIAL) not in RULESETS:
        bad(f"'ruleset' must be one of {', '.join(RULESETS)}")
    expansions = settings.get("expansions", [])
    if not isinstance(expansions, list) or not all(name in EXPANSIONS for name in expansions):
        bad(f"'expansions' must list known expansions ({', '.join(EXPANSIONS)})")
    if "sprt" in settings:
        _check_sprt(settings["sprt"], bad)
    table = settings.get("table", 2)  # (no key: two-player games, as every folder before it)
    _whole_in(table, "table", FEWEST_PLAYERS, MOST_PLAYERS_LUX, bad)
    if table > len(agents):
        bad("'table' seats more players than there are agents")
    _check_schedule(settings.get("schedule"), len(agents), table, bad)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole_in(value: Any, key: str, low: int, high: int, bad: Any) -> None:
    if not _whole(value) or not low <= value <= high:
        bad(f"'{key}' must be a whole number from {low} to {high}")


def _check_sprt(test: Any, bad: Any) -> None:
    if not isinstance(test, dict) or set(test) != {"elo0", "elo1", "alpha", "beta"}:
        bad("'sprt' must be a map of elo0, elo1, alpha and beta")
    for key, value in test.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            bad(f"'sprt.{key}' must be a finite number")
    if not -MAX_ELO <= test["elo0"] < test["elo1"] <= MAX_ELO:
        bad(f"'sprt' needs elo0 < elo1, both from -{MAX_ELO} to {MAX_ELO}")
    try:
        check_rates(test["alpha"], test["beta"])
    except ValueError as exc:
        bad(f"'sprt': {str(exc).lstrip('-')}")


def _check_schedule(jobs: Any, agents: int, table: int, bad: Any) -> None:
    if not isinstance(jobs, list) or not 1 <= len(jobs) <= MAX_SCHEDULE:
        bad(f"'schedule' must be a list of 1 to {MAX_SCHEDULE} games")
    ids = set()
    for n, job in enumerate(jobs):
        if not isinstance(job, dict) or set(job) != {"id", "seats", "seed"}:
            bad(f"schedule[{n}] must be a map of id, seats and seed")
        seats, seed, key = job["seats"], job["seed"], job["id"]
        if not isinstance(key, str) or not 1 <= len(key) <= 40 or key in ids:
            bad(f"schedule[{n}].id must be a distinct short text")
        ids.add(key)
        if not isinstance(seats, list) or len(seats) != table or not all(_whole(s) and 0 <= s < agents for s in seats) \
                or len(set(seats)) != table:
            bad(f"schedule[{n}].seats must be {table} different agents' numbers from 0 to {agents - 1}")
        _whole_in(seed, f"schedule[{n}].seed", 0, SEED_LIMIT - 1, bad)


def check_links(out: Path) -> None:
    """Refuse a folder with a symlink that points outside it (or nowhere): the tournament would read
    or write another folder's files through it."""
    try:
        entries = list(os.scandir(out))
    except OSError as exc:
        raise TournamentError(f"{out}: cannot read the folder ({files.reason(exc)})") from None
    inside = out.resolve()
    for entry in entries:
        if not entry.is_symlink():
            continue
        target = Path(os.path.realpath(entry.path))
        if not target.is_relative_to(inside):
            raise TournamentError(f"{out}: {entry.name} links outside the folder (to {target}); "
                                  "a tournament folder holds its own files: remove the link")
        if not target.exists():
            raise TournamentError(f"{out}: {entry.name} is a link to nothing; remove it")


def write(out: Path, settings: dict[str, Any]) -> None:
    """Write ``settings`` as ``out``'s ``tournament.json`` (atomically, see `files.write_atomic`)."""
    files.write_atomic(out / NAME, json.dumps(settings, indent=1).encode(), error=TournamentError)
