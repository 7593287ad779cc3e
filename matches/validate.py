"""The one checkpoint between msgpack and the program: what a match file may hold, checked before
anything is replayed.

`unpack` decodes bytes with bounds on every container, on the number of containers and on nesting, and
refuses msgpack extension types; `check_record` then checks every field's type and range (integers
bounded, floats finite, strings text of bounded length, lists of bounded length) and that unknown keys
hold only plain, shallow values.  Anything else is a `ValueError` whose text names the field; the
loader turns it into its one-line error.
"""

from __future__ import annotations

import math
from typing import Any

import msgpack

from amigos.config import FEWEST_PLAYERS, MOST_PLAYERS_LUX

#: Containers (lists and maps) one unpacking may build: a best of three to the round limit holds about
#: 7,000 decisions of a few containers each.
MAX_CONTAINERS = 200_000
MAX_DEPTH = 8           # a record is 6 deep (record, games, game, decisions, decision, step, list)
MAX_LEN = 100_000       # the longest list a file holds (a game's decisions)
MAX_TEXT = 1_000        # the longest string (names, specs, card names, timestamps)
MAX_GAMES = 3
MAX_DECISIONS = 20_000  # a game played to the round limit takes about 2,200
INT_LIMIT = 2 ** 64     # seeds are 64-bit; every other integer is far smaller
SMALL_LIMIT = 2 ** 53   # think times, iterations, counts
MAX_EXPANSIONS = 8      # the expansions a game may name (the engine knows one)


class Budget(ValueError):
    """Too many containers in one unpacking."""


class DecisionError(ValueError):
    """A malformed decision: its text begins "game G, decision D: " and is the whole message."""


class Counter:
    """The containers built so far for one file (its record and every game's decisions)."""

    def __init__(self) -> None:
        self.built = 0


def unpack(data: bytes, budget: Counter | None = None, max_len: int = MAX_LEN) -> Any:
    """Decode msgpack ``data`` into plain Python values under the bounds above, counting containers on
    ``budget`` (shared by the unpackings of one file; raises `ValueError`, `Budget`, or msgpack's own
    errors); ``max_len``: the longest list."""
    budget = budget or Counter()

    def count(container: Any) -> Any:
        budget.built += 1
        if budget.built > MAX_CONTAINERS:
            raise Budget(f"more than {MAX_CONTAINERS} lists and maps")
        return container

    def no_ext(code: int, data: bytes) -> Any:
        raise ValueError(f"a msgpack extension type ({code})")

    return msgpack.unpackb(data, raw=False, strict_map_key=True, list_hook=count, object_hook=count,
                           ext_hook=no_ext, max_str_len=MAX_TEXT * 4, max_bin_len=len(data),
                           max_array_len=max_len, max_map_len=1_000, max_ext_len=0)


def plain(value: Any, where: str, depth: int = 0) -> None:
    """Raise `ValueError` unless ``value`` is plain data: None, bools, bounded integers, finite floats,
    strings, and lists and string-keyed maps of them, at most `MAX_DEPTH` deep."""
    if depth > MAX_DEPTH:
        raise ValueError(f"{where}: nested too deep")
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        if not -INT_LIMIT < value < INT_LIMIT:
            raise ValueError(f"{where}: integer out of range")
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where}: not a finite number")
        return
    if isinstance(value, list):
        for item in value:
            plain(item, where, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"{where}: a key that is not text")
            plain(item, where, depth + 1)  # (the key itself is file text: not put into the message)
        return
    raise ValueError(f"{where}: a value of type {type(value).__name__}")


def integer(value: Any, where: str, low: int = -SMALL_LIMIT, high: int = SMALL_LIMIT) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"'{where}' must be a whole number from {low} to {high}")
    return value


def text(value: Any, where: str, optional: bool = False) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise ValueError(f"'{where}' must be text of at most {MAX_TEXT} characters")


def check_record(record: Any) -> None:
    """Raise `ValueError` naming the first field of ``record`` (a decoded, migrated match record with
    plain decision lists) that is missing, of the wrong type or out of range."""
    if not isinstance(record, dict):
        raise ValueError("the record is not a map")
    plain(record, "record")
    integer(record.get("seed"), "seed", -INT_LIMIT + 1, INT_LIMIT - 1)
    if "games" not in record:
        raise ValueError("'games' missing")
    for key in ("variant", "status"):
        text(record.get(key), key)
    for key in ("ruleset", "created_at", "updated_at", "app_version", "card_digest"):
        text(record.get(key), key, optional=True)
    integer(record.get("best_of"), "best_of", 1, 3)
    if "expansions" in record:  # (a file without the key, as every file before them: the base game)
        expansions = record["expansions"]
        if not isinstance(expansions, list) or len(expansions) > MAX_EXPANSIONS:
            raise ValueError(f"'expansions' must be a list of at most {MAX_EXPANSIONS} names")
        for name in expansions:
            text(name, "expansions")
        if len(set(expansions)) != len(expansions):
            raise ValueError("'expansions' names an expansion twice")
    players = record.get("players")
    if not isinstance(players, list) or not FEWEST_PLAYERS <= len(players) <= MOST_PLAYERS_LUX \
            or not all(isinstance(p, dict) for p in players):
        raise ValueError(f"'players' must be {FEWEST_PLAYERS} to {MOST_PLAYERS_LUX} {{name, spec}} maps")
    n = len(players)
    if record["best_of"] > 1 and n != 2:
        raise ValueError("a best-of-three match is for two players")
    for p, player in enumerate(players):
        text(player.get("name"), f"players[{p}].name")
        text(player.get("spec"), f"players[{p}].spec")
    games = record.get("games")
    if not isinstance(games, list):
        raise ValueError("'games' must be a list")
    if len(games) > record["best_of"]:
        raise ValueError("more games than the format allows")
    for gi, game in enumerate(games):
        check_game(game, gi + 1, n)
    result = record.get("result")
    if result is not None:
        if not isinstance(result, dict):
            raise ValueError("'result' must be a map")
        score = result.get("score")
        if not isinstance(score, list) or len(score) != n:
            raise ValueError("'result.score' must be a number for each player")
        for s in score:
            integer(s, "result.score", 0, MAX_GAMES)
        if result.get("winner") is not None:
            integer(result.get("winner"), "result.winner", 0, n - 1)
        if not isinstance(result.get("shared"), bool):
            raise ValueError("'result.shared' must be true or false")


def check_game(game: Any, number: int, players: int = 2) -> None:
    where = f"game {number}"
    if not isinstance(game, dict):
        raise ValueError(f"{where} is not a map with a seed and decisions")
    integer(game.get("seed"), f"{where} seed", -INT_LIMIT + 1, INT_LIMIT - 1)
    if "index" in game:
        integer(game["index"], f"{where} index", 1, MAX_GAMES)
    decisions = game.get("decisions")
    if not isinstance(decisions, list) or len(decisions) > MAX_DECISIONS:
        raise ValueError(f"{where} decisions must be a list of at most {MAX_DECISIONS}")
    for di, d in enumerate(decisions):
        check_decision(d, f"{where}, decision {di}", players)
    digest = game.get("final_digest")
    if digest is not None and (not isinstance(digest, str) or len(digest) != 32):
        raise ValueError(f"{where} final_digest must be 32 hexadecimal digits")
    result = game.get("result")
    if result is None:
        return
    if not isinstance(result, dict):
        raise ValueError(f"{where} has a malformed result")
    winners, vp = result.get("winners"), result.get("vp")
    if not isinstance(winners, list) or not 1 <= len(winners) <= players:
        raise ValueError(f"{where} has a malformed result (winners)")
    for w in winners:
        integer(w, f"{where} result winners", 0, players - 1)
    if not isinstance(vp, list) or len(vp) != players:
        raise ValueError(f"{where} has a malformed result (vp)")
    for v in vp:
        integer(v, f"{where} result vp", -1_000, 1_000)
    integer(result.get("rounds"), f"{where} result rounds", 0, 1_000)
    if digest is None:
        raise ValueError(f"{where} is finished but its final_digest is missing")


def check_decision(d: Any, where: str, players: int = 2) -> None:
    """Raise `DecisionError` unless ``d`` is ``[actor, step, think ms]`` or that with
    ``[iterations, value]``, each in range (the actor one of ``players``; a step's numbers whole and
    bounded)."""
    def bad(what: str) -> None:
        raise DecisionError(f"{where}: {what}")

    if not isinstance(d, list) or len(d) not in (3, 5) or not isinstance(d[1], dict):
        bad("malformed decision (not [actor, step, think ms])")
    try:
        integer(d[0], "actor", 0, players - 1)
        integer(d[2], "think ms", 0)
    except ValueError as exc:
        bad(f"malformed decision ({exc})")
    for value in d[1].values():
        if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)
                                        and not -SMALL_LIMIT <= value <= SMALL_LIMIT):
            bad("malformed decision (a step field is not a whole number in range)")
    if len(d) == 5:
        ok_value = d[4] is None or (isinstance(d[4], (int, float)) and not isinstance(d[4], bool))
        if not ok_value or not isinstance(d[3], int) or isinstance(d[3], bool) or not 0 <= d[3] <= SMALL_LIMIT:
            bad("malformed search details")
