"""Training inputs read within bounds: JSON-lines files of game records, each record checked before its
game is replayed.

A file is read as model files are (`ai.checkpoint.read_regular`: a regular file, never a blocking read, at
most `FILE_BYTES`); a gzip file (``.jsonl.gz``, as `write_records` keeps a run's games) is unpacked to at
most `UNPACKED_BYTES`; each line at most `LINE_BYTES` and JSON within `amigos.jsontext`'s bounds.  A record
must hold a game that replays (`game`): its seed, the index of each decision among the legal actions
(checked again as the game replays: `chosen`), its variant and expansions, the search's value of each
decision and the root's visits of each deeply searched one (`searches`) where it has them; and what the command reading it uses besides (`selfplay_game`,
`neural_game`).  Every failure is a `RecordError` whose one line names the file and line, or the game.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Final

from ai.checkpoint import read_regular, write_file
from amigos import jsontext
from amigos.config import FEWEST_PLAYERS, MOST_PLAYERS_LUX, Action, GameConfig
from amigos.errors import AmigosError

Record = dict[str, Any]  # a game record: plain JSON data, checked

FILE_BYTES: Final = 64 << 20     # a file of records at most (a generation of 500 games: 0.4 MB)
UNPACKED_BYTES: Final = 512 << 20  # a gzip file's records unpacked at most (with root visits: 3 MB a generation)
GZIP_MAGIC: Final = b"\x1f\x8b"
LINE_BYTES: Final = 1 << 20      # a record at most (a game's: about 1 KB)
MAX_DECISIONS: Final = 100_000   # a game's decisions at most (a long one has a few hundred)
MAX_CHOICE: Final = 1_000_000    # an index among a position's legal actions at most (a few hundred at most)
MAX_VISITS: Final = 1 << 40      # a root move's visits at most (a search of hours makes a few million)
SEED_END: Final = 1 << 64        # seeds are below it (`amigos.rng`)
MAX_WORD: Final = 40             # a variant's or expansion's name at most, in characters


class RecordError(AmigosError):
    """A training input that is not what it should be; one line says which and why."""


def read_records(path: Path, what: str, check: Callable[[Any, str], Record]) -> list[Record]:
    """The records of the JSON-lines file at ``path`` (a ``what``), each passed through ``check`` with
    where it comes from ("PATH, line N"); `RecordError` naming the file for any other file."""
    data = read_regular(path, FILE_BYTES, what, RecordError)
    if data.startswith(GZIP_MAGIC):
        data = _unpacked(data, path, what)
    records = []
    for number, line in enumerate(data.split(b"\n"), 1):
        if not line.strip():
            continue
        where = f"{path}, line {number}"
        if len(line) > LINE_BYTES:
            raise RecordError(f"{where}: longer than {LINE_BYTES} bytes, not a game record")
        try:
            value = jsontext.loads(line.decode("utf-8"))
        except ValueError as exc:  # (a UnicodeDecodeError is one)
            raise RecordError(f"{where}: not JSON ({' '.join(str(exc).split())[:80]})") from None
        records.append(check(value, where))
    return records


def _unpacked(data: bytes, path: Path, what: str) -> bytes:
    """The gzip ``data`` of ``path`` unpacked, at most `UNPACKED_BYTES` (a small file that unpacks to
    more is refused, never unpacked whole); `RecordError` for a damaged one."""
    unpack = zlib.decompressobj(wbits=31)  # (31: a gzip header)
    try:
        out = unpack.decompress(data, UNPACKED_BYTES + 1)
        if len(out) > UNPACKED_BYTES:
            raise RecordError(f"{path}: unpacks to more than {UNPACKED_BYTES} bytes, too large for a {what}")
        if not unpack.eof or unpack.unused_data:
            raise RecordError(f"{path}: a damaged or cut gzip file, not a {what}")
    except zlib.error as exc:
        raise RecordError(f"{path}: a damaged gzip file, not a {what} ({exc})") from None
    return out


def write_records(path: Path, records: Iterable[Record], what: str) -> None:
    """Keep ``records`` at ``path`` as JSON lines, gzip-compressed if its name ends in ``.gz``, whole
    or not at all; `RecordError` naming the file if it cannot be written."""
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records).encode("utf-8")
    if path.name.endswith(".gz"):  # (no name nor time in the header: the same records, the same bytes)
        text = gzip.compress(text, compresslevel=9, mtime=0)
    write_file(path, lambda f: f.write(text), what, RecordError)


def game(record: Any, where: str) -> Record:
    """``record`` if it holds a game that replays: a "seed" (a whole number from 0 below 2**64), "choices"
    (whole numbers, at most `MAX_DECISIONS`), a "variant" and "expansions" `amigos.config.GameConfig`
    knows where it has them, "values" (a number from 0 to 1, or null, a decision) and "searches" (each
    deeply searched decision once: its number and the root's moves, `_search`) where it has them;
    `RecordError` naming ``where`` otherwise."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: not a game record (a JSON object)")
    if not _whole(record.get("seed"), 0, SEED_END - 1):
        raise RecordError(f"{where}: a game record without its seed (a whole number from 0 below 2**64)")
    choices = record.get("choices")
    if not isinstance(choices, list) or len(choices) > MAX_DECISIONS \
            or not all(_whole(c, 0, MAX_CHOICE) for c in choices):
        raise RecordError(f"{where}: a game record without its choices (at most {MAX_DECISIONS} whole numbers "
                          f"from 0 to {MAX_CHOICE})")
    variant = record.get("variant", "standard")
    expansions = record.get("expansions") or []
    if not _word(variant) or not isinstance(expansions, list) or len(expansions) > 8 \
            or not all(_word(e) for e in expansions):
        raise RecordError(f"{where}: a game record whose variant or expansions are not words")
    try:
        GameConfig.parse(variant, expansions=expansions)
    except AmigosError as exc:
        raise RecordError(f"{where}: {exc}") from None
    values = record.get("values")
    if values is not None and not (isinstance(values, list) and len(values) == len(choices)
                                   and all(v is None or _number(v, 0.0, 1.0) for v in values)):
        raise RecordError(f"{where}: a game record whose values are not a number from 0 to 1 (or null) a decision")
    searches = record.get("searches")
    if searches is not None and not (isinstance(searches, list) and all(_search(s, len(choices)) for s in searches)
                                     and len({s[0] for s in searches}) == len(searches)):
        raise RecordError(f"{where}: a game record whose searches are not [decision, [[move, visits, chance], ...]] "
                          f"(each decision once)")
    return record


def _search(entry: Any, decisions: int) -> bool:
    """Whether ``entry`` is a deeply searched decision of a record: [its number below ``decisions``, the
    root's moves as [index among the legal actions, visits, the mover's chance of winning by it]]."""
    if not (isinstance(entry, list) and len(entry) == 2 and _whole(entry[0], 0, decisions - 1)
            and isinstance(entry[1], list) and len(entry[1]) <= MAX_CHOICE):
        return False
    return all(isinstance(m, list) and len(m) == 3 and _whole(m[0], 0, MAX_CHOICE)
               and _whole(m[1], 1, MAX_VISITS) and _number(m[2], 0.0, 1.0) for m in entry[1])


def selfplay_game(record: Any, where: str) -> Record:
    """``record`` if it is a self-play game (`training.selfplay.selfplay_game`: a `game` with its "spec",
    its "winners" (one or both of players 0 and 1) and, in a file, its number "k"); `RecordError` naming
    ``where`` otherwise."""
    record = game(record, where)
    winners = record.get("winners")
    if not isinstance(record.get("spec"), str) or not _whole(record.get("k", 0), 0, MAX_DECISIONS * 100) \
            or not (isinstance(winners, list) and 1 <= len(winners) <= 2 and all(_whole(p, 0, 1) for p in winners)
                    and len(set(winners)) == len(winners)):
        raise RecordError(f"{where}: not a self-play game record (its spec, number k or winners)")
    return record


def neural_game(record: Any, where: str) -> Record:
    """``record`` if it is a game `training.neural` keeps (a `game` with each player's "result", a number
    from 0 to 1); `RecordError` naming ``where`` otherwise."""
    record = game(record, where)
    result = record.get("result")
    if not (isinstance(result, list) and FEWEST_PLAYERS <= len(result) <= MOST_PLAYERS_LUX
            and all(_number(r, 0.0, 1.0) for r in result)):
        raise RecordError(f"{where}: not a game record of amigos-train neural (its result)")
    try:  # (one result a player: the count must be one its setup may have)
        GameConfig.parse(record.get("variant", "standard"), expansions=record.get("expansions") or [],
                         players=len(result))
    except AmigosError as exc:
        raise RecordError(f"{where}: {exc}") from None
    return record


def chosen(legal: Sequence[Action], index: int, record: Record, decision: int) -> Action:
    """The action of ``record``'s decision number ``decision``, the ``index``-th of ``legal``; `RecordError`
    if it has none (a record that is not of the game its seed deals)."""
    if index >= len(legal):
        raise RecordError(f"game record of seed {record['seed']}: decision {decision} chooses action {index} "
                          f"of {len(legal)} (not a record of the game its seed deals)")
    return legal[index]


def _whole(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _number(value: Any, low: float, high: float) -> bool:
    return type(value) in (int, float) and low <= value <= high


def _word(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_WORD
