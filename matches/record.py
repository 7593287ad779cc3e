"""Match files: msgpack, written atomically after every decision, loaded by replaying every decision.

A file is one msgpack map with string keys and plain msgpack types only (any msgpack reader can inspect
it)::

    format "amigos.match", version, rules_version, app_version, card_digest, created_at, updated_at,
    seed, variant, best_of (1 or 3), ruleset, expansions? (e.g. ["lux"]; no key: the base game),
    players [{name, spec}] (2 to 5; a best of three: 2), status ("unfinished"/"finished"),
    games [{index, seed, decisions, result {winners, vp, rounds} | None, final_digest?}],
    result {score, winner, shared} | None

where a game's ``decisions`` is the list ``[[actor, action (protocol step), think ms, iterations?,
value?], ...]`` packed with msgpack and compressed with zlib (msgpack bin).  The protocol steps repeat
their keys and card names, so this is a tenth of their plain size: about 8 bytes a decision, which keeps
a best of three well under 64 KB even when its games run to the round limit.  In memory (`Match.record`)
the decisions are always the plain list; `pack` and `parse` convert.

Format versions (a changelog; every version that ever shipped keeps a fixture in tests/data/):
    1  2026-11  first version: decisions as a plain msgpack list (~75 bytes a decision).
    2  2026-11  decisions packed and zlib-compressed per game.
    3  2026-12  a single game of 2 to 5 players (a score, winner and vp for each).

Loading never modifies the file and never crashes on bad input: every problem is a `MatchFileError`
naming it (and the game and decision where there is one).
"""

from __future__ import annotations

import os
import zlib
from typing import Any, Callable, NoReturn

import msgpack

import amigos
from amigos import files
from amigos.config import EXPANSIONS

from . import validate
from .match import FORMAT, VERSION, Match, ReplayError

MAX_BYTES = 8 * 1024 * 1024

# Unpacked decisions of one game may not exceed this (a guard against decompression bombs).
MAX_DECISION_BYTES = 16 * 1024 * 1024


def _v1_to_v2(record: dict[str, Any]) -> dict[str, Any]:
    # Version 2 changed only how decisions are stored in the file; the unpacked record is the same.
    return {**record, "version": 2}


def _v2_to_v3(record: dict[str, Any]) -> dict[str, Any]:
    # Version 3 lets a single game have 2 to 5 players; a version-2 record is one of two players.
    return {**record, "version": 3}


# Migrations from older format versions: MIGRATIONS[v] turns a version-v record (as unpacked from its
# file) into version v+1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2, 2: _v2_to_v3}


class MatchFileError(amigos.AmigosError):
    """A match file that cannot be used; the message says why in one line."""


def save(match: Match, path: str | os.PathLike[str], private: bool = False) -> None:
    """Write the match atomically (`files.write_atomic`: a temporary file beside it, fsynced, renamed
    over it, keeping its mode, or readable by its owner alone if ``private``: a file that holds
    secrets); raises `MatchFileError` naming the reason, the previous file intact."""
    files.write_atomic(path, pack(match.record), error=MatchFileError, mode=files.PRIVATE if private else None)


def pack(record: dict[str, Any]) -> bytes:
    """The bytes of a match file holding ``record`` in the current format version: every game's
    decisions packed and compressed.  Nothing is checked here (tests pack broken records with it)."""
    games = record.get("games")
    if isinstance(games, list):
        record = {**record, "games": [
            {**g, "decisions": zlib.compress(msgpack.packb(g["decisions"], use_bin_type=True), 6)}
            if isinstance(g, dict) and "decisions" in g else g for g in games]}
    return msgpack.packb(record, use_bin_type=True)


def _unpack_decisions(record: dict[str, Any], name: str) -> None:
    """Replace each game's packed decisions by the plain list, in place (a freshly decoded record)."""
    games = record.get("games")
    if not isinstance(games, list):
        return  # (reported by the type checks)
    if len(games) > validate.MAX_GAMES:  # before any is inflated: each may hold megabytes
        raise MatchFileError(f"{name}: malformed match file (more than {validate.MAX_GAMES} games)")
    budget = validate.Counter()
    for gi, game in enumerate(games):
        if not isinstance(game, dict) or "decisions" not in game:
            continue
        packed = game["decisions"]
        if not isinstance(packed, bytes):
            raise MatchFileError(f"{name}: game {gi + 1}: malformed match file (decisions are not packed)")
        inflate = zlib.decompressobj()
        try:
            plain = inflate.decompress(packed, MAX_DECISION_BYTES)
        except zlib.error:
            raise MatchFileError(f"{name}: game {gi + 1}: corrupt decisions (bad compressed data)") from None
        if inflate.unconsumed_tail:
            raise MatchFileError(f"{name}: game {gi + 1}: corrupt decisions (too large)")
        if not inflate.eof or inflate.unused_data:
            raise MatchFileError(f"{name}: game {gi + 1}: corrupt decisions (truncated or extra data)")
        try:
            game["decisions"] = validate.unpack(plain, budget, max_len=validate.MAX_DECISIONS)
        except validate.Budget as exc:
            raise MatchFileError(f"{name}: game {gi + 1}: corrupt decisions ({exc})") from None
        except Exception:  # noqa: BLE001 - msgpack raises assorted errors on hostile input
            raise MatchFileError(f"{name}: game {gi + 1}: corrupt decisions (not msgpack)") from None


_MAP_STARTS = frozenset(range(0x80, 0x90)) | {0xDE, 0xDF}  # the bytes a msgpack map begins with


def _is_text(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) reads as UTF-8 text: printable characters and whitespace."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:  # (not a character cut at the end of the head)
            return False
        text = head[:exc.start].decode("utf-8")
    return bool(text) and all(c.isprintable() or c in "\n\r\t" for c in text)


def read_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The checked, migrated record of a match file (not yet replayed)."""
    return parse(read_bytes(path), str(path))


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a match file: a regular file only, at most `MAX_BYTES` (`files.read_regular`)."""
    return files.read_regular(path, MAX_BYTES, "match file", error=MatchFileError)


def parse(data: bytes, name: str = "match file") -> dict[str, Any]:
    """Decode and check the bytes of a match file."""
    if not data:
        raise MatchFileError(f"{name}: not a match file (empty)")
    if data[0] not in _MAP_STARTS:  # (a match file is one msgpack map: anything else is another file)
        what = "a text file" if _is_text(data[:4096]) else "its first byte does not start a record"
        raise MatchFileError(f"{name}: not an Amigos match file ({what}; amigos writes them with --save)")
    try:
        record = validate.unpack(data)
    except validate.Budget as exc:
        raise MatchFileError(f"{name}: not a match file ({exc})") from None
    except msgpack.ExtraData:
        raise MatchFileError(f"{name}: not a match file (extra data after the record)") from None
    except (ValueError, msgpack.UnpackException, TypeError) as exc:
        reason = "truncated" if "incomplete" in str(exc).lower() or isinstance(exc, msgpack.OutOfData) else "not msgpack"
        raise MatchFileError(f"{name}: not a match file ({reason})") from None
    except Exception:  # noqa: BLE001 - msgpack raises assorted errors on hostile input
        raise MatchFileError(f"{name}: not a match file (not msgpack)") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise MatchFileError(f"{name}: not a match file (no '{FORMAT}' header)")
    version = record.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise MatchFileError(f"{name}: bad format version {version!r}")
    if version > VERSION:
        raise MatchFileError(f"{name}: made by a newer Amigos (format version {version}; this one reads up to "
                             f"{VERSION}); upgrade to open it")
    if version >= 2:
        _unpack_decisions(record, name)
    while version < VERSION:
        record = MIGRATIONS[version](record)
        version = record["version"]
    _check_types(record, name)
    return record


def _check_types(record: dict[str, Any], name: str) -> None:
    def bad(what: str) -> NoReturn:
        raise MatchFileError(f"{name}: malformed match file ({what})")

    try:
        validate.check_record(record)
    except validate.DecisionError as exc:
        raise MatchFileError(f"{name}: {exc}") from None
    except ValueError as exc:
        bad(str(exc))

    # validate has checked every field's type and range; what is left is which values this program knows.
    if record["variant"] not in amigos.VARIANTS:
        bad(f"unknown variant {record['variant']!r}")
    if record["best_of"] not in (1, 3):
        bad("best_of must be 1 or 3")
    if record.get("ruleset", "official") not in amigos.RULESETS:
        bad("unknown ruleset")
    if record["status"] not in ("unfinished", "finished"):
        bad("unknown status")
    for name in record.get("expansions", ()):
        if name not in EXPANSIONS:
            bad(f"unknown expansion {name[:40]!r} (this Amigos knows {', '.join(EXPANSIONS)})")


def load(path: str | os.PathLike[str]) -> Match:
    """Load and replay a match file; raises `MatchFileError` (one line) for anything wrong with it."""
    record = read_record(path)
    try:
        match = Match.from_record(record)
    except ReplayError as exc:
        message = str(exc)
        played = record.get("rules_version")
        if isinstance(played, int) and played != amigos.RULES_VERSION:
            message += (f" (the match was played under rules version {played}; this Amigos plays version "
                        f"{amigos.RULES_VERSION})")
        raise MatchFileError(f"{path}: {message}") from None
    except amigos.AmigosError as exc:
        raise MatchFileError(f"{path}: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise MatchFileError(f"{path}: malformed match file ({type(exc).__name__})") from None
    if record["status"] == "finished" and not match.is_over():
        raise MatchFileError(f"{path}: the file says finished but its games do not end the match")
    if record["status"] != "finished" and match.is_over():
        raise MatchFileError(f"{path}: the file says unfinished but its games end the match")
    return match
