"""Match files (`matches.record`): plain msgpack with string keys, atomic saves, loading by replaying every
decision, and one clear `MatchFileError` line — with the file left untouched — for anything wrong.

Format-version fixtures: every format version that ever ships keeps a fixture in ``tests/data/``
(``match_v{N}.amigos``, written by ``tests/make_match_fixture.py``) and a test here that it still
loads and replays to its known result.  Never regenerate or delete an old version's fixture: it stands
for the files people already have.
"""

from __future__ import annotations

import copy
import os
import zlib
from datetime import datetime
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import amigos
from ai.agents import make_agent
from amigos import cards as C
from amigos import files as files_module
from amigos.config import GameConfig
from amigos.rng import derive_seed
from matches import record as record_module
from matches.match import FORMAT, ROUND_LIMIT, VERSION, Match, card_digest, play
from matches.record import MatchFileError, load, pack, parse, read_record, save
from tests.helpers import DATA

FIXTURE_V1 = DATA / "match_v1.amigos"
FIXTURE_V2 = DATA / "match_v2.amigos"
FIXTURE_V3 = DATA / "match_v3.amigos"


def played(seed: int, specs: list[str], fmt: str = "match") -> Match:
    m = Match.new(seed, specs, fmt=fmt)
    play(m, [make_agent(s, seed=derive_seed(seed, "seat", i)) for i, s in enumerate(specs)])
    return m


@pytest.fixture(scope="module")
def finished() -> Match:
    """A finished best of three that goes to three games (seed 1: greedy wins 2-1)."""
    m = played(1, ["greedy", "random"])
    assert len(m.record["games"]) == 3
    return m


@pytest.fixture(scope="module")
def finished_bytes(finished) -> bytes:
    return pack(finished.record)


@pytest.fixture(scope="module")
def small_bytes() -> bytes:
    """A short single game, for the fuzzing (a replay per example)."""
    return pack(played(3, ["greedy", "random"], fmt="game").record)


def unfinished_record(m: Match, game: int = 2, decisions: int = 30) -> dict:
    record = copy.deepcopy(m.record)
    record["games"] = record["games"][:game]
    record["games"][-1]["decisions"] = record["games"][-1]["decisions"][:decisions]
    record["games"][-1]["result"] = None
    record["games"][-1].pop("final_digest", None)
    record["status"], record["result"] = "unfinished", None
    return record


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def snapshot(path: Path):
    st_ = path.stat()
    return path.read_bytes(), st_.st_mtime_ns, st_.st_size, sorted(os.listdir(path.parent))


def assert_refused(path: Path, *fragments: str) -> str:
    """``load(path)`` raises MatchFileError with a one-line message containing ``fragments``; the file
    and its folder are untouched."""
    before = snapshot(path) if path.is_file() else None
    with pytest.raises(MatchFileError) as info:
        load(path)
    message = str(info.value)
    assert "\n" not in message and message.strip() == message and message
    for fragment in fragments:
        assert fragment in message, message
    if before is not None:
        assert snapshot(path) == before
    return message


# -- saving and the format -----------------------------------------------------------------------------


def test_save_load_round_trip_gives_an_equal_record(tmp_path, finished):
    path = tmp_path / "m.amigos"
    save(finished, path)
    loaded = load(path)
    assert loaded.record == finished.record
    assert loaded.is_over() and loaded.state.digest() == finished.state.digest()
    # and again: load -> save -> same bytes
    save(loaded, tmp_path / "again.amigos")
    assert (tmp_path / "again.amigos").read_bytes() == path.read_bytes()


def test_round_trip_of_an_unfinished_match(tmp_path, finished):
    m = Match.from_record(unfinished_record(finished))
    path = tmp_path / "u.amigos"
    save(m, path)
    loaded = load(path)
    assert loaded.record == m.record and not loaded.is_over()
    assert loaded.game_number == 2 and loaded.state.digest() == m.state.digest()


def _plain(value, where="record"):
    """Only plain msgpack types: maps with string keys, lists, str, int, float, bool, None."""
    if isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str), f"{where}: key {k!r}"
            _plain(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _plain(v, f"{where}[{i}]")
    else:
        assert value is None or isinstance(value, (str, int, float, bool, bytes)), f"{where}: {type(value)}"


def test_file_is_plain_msgpack_with_string_keys_and_the_header(tmp_path, finished):
    path = tmp_path / "m.amigos"
    save(finished, path)
    data = path.read_bytes()
    raw = msgpack.unpackb(data, raw=False, strict_map_key=True)   # any msgpack reader can open it
    _plain(raw)
    assert raw["format"] == FORMAT == "amigos.match"
    assert raw["version"] == VERSION and isinstance(raw["version"], int)
    assert raw["rules_version"] == amigos.RULES_VERSION
    assert raw["app_version"] == amigos.__version__
    assert raw["card_digest"] == card_digest() and len(raw["card_digest"]) == 16
    for stamp in ("created_at", "updated_at"):
        assert datetime.fromisoformat(raw[stamp]).tzinfo is not None
    assert raw["seed"] == 1 and raw["variant"] == "standard" and raw["best_of"] == 3
    assert raw["players"] == [{"name": "player 1", "spec": "greedy"}, {"name": "player 2", "spec": "random"}]
    assert raw["status"] == "finished"
    assert raw["result"] == {"score": [2, 1], "winner": 0, "shared": False}
    for i, game in enumerate(raw["games"], 1):
        assert game["index"] == i
        assert game["seed"] == derive_seed(raw["seed"], "game", i)
        assert set(game) >= {"index", "seed", "decisions", "result", "final_digest"}
        # the decisions: msgpack inside zlib inside the msgpack map
        decisions = msgpack.unpackb(zlib.decompress(game["decisions"]), raw=False, strict_map_key=True)
        _plain(decisions)
        assert decisions == finished.record["games"][i - 1]["decisions"]
        for d in decisions:
            assert len(d) in (3, 5) and d[0] in (0, 1) and isinstance(d[1]["__type__"], str) and d[2] >= 0


def test_save_is_atomic_and_replaces_an_existing_file(tmp_path, finished):
    path = tmp_path / "m.amigos"
    path.write_bytes(b"an older file")
    save(finished, path)
    assert os.listdir(tmp_path) == ["m.amigos"], "no temporary file is left"
    assert load(path).record == finished.record
    save(Match.from_record(unfinished_record(finished)), path)
    assert os.listdir(tmp_path) == ["m.amigos"]
    assert not load(path).is_over()


def test_a_failed_save_leaves_the_old_file_and_no_temporary(tmp_path, finished, monkeypatch):
    path = tmp_path / "m.amigos"
    save(finished, path)
    before = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files_module.os, "replace", broken_replace)
    with pytest.raises(MatchFileError, match="cannot save \\(the disk is full\\)"):
        save(Match.from_record(unfinished_record(finished)), path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["m.amigos"]


def test_save_with_a_relative_path_in_the_current_folder(tmp_path, finished, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save(finished, "here.amigos")
    assert os.listdir(tmp_path) == ["here.amigos"]
    assert load("here.amigos").record == finished.record


# -- bad files ---------------------------------------------------------------------------------------


def _mutate(record: dict, change) -> bytes:
    r = copy.deepcopy(record)
    change(r)
    return pack(r)


def _set(path, value):
    def change(r):
        target = r
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _redraft_retake(r):
    """Game 2: the third recorded redraft pick takes the card the first pick already took."""
    d = r["games"][1]["decisions"]
    picks = [i for i, x in enumerate(d) if x[1]["__type__"] == "RedraftPick"]
    first, third = d[picks[0]], d[picks[2]]
    third[1]["artifact_name"] = first[1]["artifact_name"]
    r["_expect"] = f"game 2, decision {picks[2]}: illegal decision"


def _other_mage(r):
    """Game 1: player ``p`` chooses a mage dealt to the rival (a real mage of this game, not theirs)."""
    m = Match.new(r["seed"], ["random", "random"], GameConfig.parse(r["variant"]))
    state = m.state
    d0 = r["games"][0]["decisions"][0]
    p = d0[0]
    theirs = [c.name for e, c in enumerate(state.cards) if c.kind == C.MAGE and state.owner[e] == 1 - p]
    d0[1]["mage_name"] = theirs[0]
    r["_expect"] = "game 1, decision 0: illegal decision"


BAD_RECORDS = {
    "seed a string": (_set(["seed"], "0"), "'seed'"),
    "seed a bool": (_set(["seed"], True), "'seed'"),
    "variant unknown": (_set(["variant"], "chaos"), "variant"),
    "best_of 5": (_set(["best_of"], 5), "best_of"),
    "status unknown": (_set(["status"], "done"), "status"),
    "ruleset unknown": (_set(["ruleset"], "house"), "ruleset"),
    "players not two": (lambda r: r["players"].append({"name": "x", "spec": "random"}), "players"),
    "player spec missing": (lambda r: r["players"][0].pop("spec"), "players"),
    "games not a list": (_set(["games"], {"1": []}), "'games'"),
    "decisions not a list": (_set(["games", 0, "decisions"], "many"), "game 1"),
    "game seed a string": (_set(["games", 1, "seed"], "1"), "game 2"),
    "decision not a list": (_set(["games", 0, "decisions", 3], "pass"), "game 1, decision 3: malformed"),
    "decision of four fields": (lambda r: r["games"][0]["decisions"][4].append(1),
                                "game 1, decision 4: malformed"),
    "decision actor a string": (_set(["games", 1, "decisions", 2, 0], "0"), "game 2, decision 2: malformed"),
    "decision think negative": (_set(["games", 0, "decisions", 5, 2], -1), "game 1, decision 5: malformed"),
    "decision step a list": (_set(["games", 2, "decisions", 1, 1], ["Pass"]), "game 3, decision 1: malformed"),
    "search details bad": (lambda r: r["games"][0]["decisions"][6].extend(["many", 0.5]),
                           "game 1, decision 6: malformed search details"),
    "result malformed": (_set(["games", 0, "result"], [0]), "game 1 has a malformed result"),
    "more games than best_of": (_set(["best_of"], 1), "more games"),
    "unknown action type": (_set(["games", 0, "decisions", 7, 1, "__type__"], "Teleport"),
                            "game 1, decision 7: undecodable"),
    "unknown card name": (_set(["games", 1, "decisions", 1, 1, "artifact_name"], "Excalibur"),
                          "game 2, decision 1: undecodable"),
    "wrong actor": (lambda r: r["games"][0]["decisions"][10].__setitem__(0, 1 - r["games"][0]["decisions"][10][0]),
                    "game 1, decision 10: decision by a player who was not to act"),
    "illegal mage choice": (_other_mage, None),
    "illegal redraft pick": (_redraft_retake, None),
    "digest mismatch": (_set(["games", 0, "final_digest"], "0" * 32), "game 1, decision 127: final position digest"),
    "winners differ": (_set(["games", 1, "result", "winners"], [0]), "game 2, decision 224: the recorded winners"),
    "game 3 missing but finished": (lambda r: r["games"].pop(), "says finished"),
    "game 2 seed not derived": (_set(["games", 1, "seed"], 12345), "game 2, decision 0: game seed"),
    "game 1 seed not derived": (_set(["games", 0, "seed"], 12345), "game 1, decision 0: game seed"),
    "decision after the match": (lambda r: r["games"][2]["decisions"].append(r["games"][2]["decisions"][-1]),
                                 "game 3, decision 208: a decision after the end of its game"),
    "game ends earlier than the file says": (lambda r: r["games"][0]["decisions"].pop(),
                                             "game 1, decision 126: the game does not end where the file says"),
    "unfinished but the game ended": (_set(["games", 2, "result"], None), "the file says unfinished"),
    "version 0": (_set(["version"], 0), "bad format version"),
    "version a string": (_set(["version"], "1"), "bad format version"),
    "version 99": (_set(["version"], 99), "newer Amigos"),
    "format missing": (lambda r: r.pop("format"), "no 'amigos.match' header"),
    "another format": (_set(["format"], "amigos.tournament"), "no 'amigos.match' header"),
}


def _packed(change):
    """A change to game 2 of the file's raw map, where its decisions are packed bytes."""
    def make(record):
        raw = msgpack.unpackb(pack(record), raw=False)
        change(raw["games"][1])
        return msgpack.packb(raw, use_bin_type=True)
    return make


BAD_PACKED = {
    "decisions a plain list": (_packed(lambda g: g.__setitem__("decisions", [[0, {"__type__": "Pass"}, 0]])),
                               "game 2: malformed match file (decisions are not packed)"),
    "not zlib": (_packed(lambda g: g.__setitem__("decisions", b"\x78\x9c not zlib at all")),
                 "game 2: corrupt decisions (bad compressed data)"),
    "compressed data cut short": (_packed(lambda g: g.__setitem__("decisions", g["decisions"][:-9])),
                                  "game 2: corrupt decisions (truncated"),
    "bytes after the compressed data": (_packed(lambda g: g.__setitem__("decisions", g["decisions"] + b"xy")),
                                        "game 2: corrupt decisions (truncated or extra data)"),
    "not msgpack inside": (_packed(lambda g: g.__setitem__("decisions", zlib.compress(b"\xc1\xc1"))),
                           "game 2: corrupt decisions (not msgpack)"),
    "a decompression bomb": (_packed(lambda g: g.__setitem__(
        "decisions", zlib.compress(b"\x90" * (record_module.MAX_DECISION_BYTES + 1)))),
        "game 2: corrupt decisions (too large)"),
}


@pytest.mark.parametrize("case", sorted(BAD_PACKED))
def test_bad_packed_decisions_are_refused_with_one_line_and_the_file_untouched(case, tmp_path, finished):
    make, expected = BAD_PACKED[case]
    path = write(tmp_path / "bad.amigos", make(finished.record))
    assert_refused(path, expected)


def test_a_long_best_of_three_stays_small_and_loads_fast_enough(tmp_path):
    """Random play makes the longest matches (seed 27: three games, one adjudicated at the round limit);
    packed, its file stays far under 64 KB (the timing itself is measured by lab/)."""
    m = played(27, ["random", "random"])
    rounds = [g["result"]["rounds"] for g in m.record["games"]]
    assert len(rounds) == 3 and max(rounds) == ROUND_LIMIT
    decisions = sum(len(g["decisions"]) for g in m.record["games"])
    path = tmp_path / "long.amigos"
    save(m, path)
    size = path.stat().st_size
    assert decisions > 2000 and size < 8 * decisions and size < 64 * 1024
    assert load(path).record == m.record


def test_a_version_1_file_has_plain_decisions_and_loads_through_the_migration():
    raw = msgpack.unpackb(FIXTURE_V1.read_bytes(), raw=False)
    assert raw["version"] == 1 and isinstance(raw["games"][0]["decisions"], list)
    record = parse(FIXTURE_V1.read_bytes())
    assert record["version"] == VERSION == 3
    assert record["games"][0]["decisions"] == raw["games"][0]["decisions"]


@pytest.mark.parametrize("case", sorted(BAD_RECORDS))
def test_bad_record_is_refused_with_one_line_and_the_file_untouched(case, tmp_path, finished):
    change, expected = BAD_RECORDS[case]
    record = copy.deepcopy(finished.record)
    change(record)
    expected = record.pop("_expect", expected)
    path = write(tmp_path / "bad.amigos", pack(record))
    message = assert_refused(path, expected)
    assert message.startswith(str(path)), "the message names the file"


def test_version_99_message_is_clear(tmp_path, finished):
    path = write(tmp_path / "new.amigos", _mutate(finished.record, _set(["version"], 99)))
    message = assert_refused(path)
    assert "newer" in message and "99" in message and f"up to {VERSION}" in message and "upgrade" in message


@pytest.mark.parametrize("data,reason", [
    (b"", "empty"),
    (b"\xc1", "its first byte does not start a record"),
    (b"\xc1" * 100, "its first byte does not start a record"),
    (b"PK\x03\x04 this is a zip, not a match", "not an Amigos match file (its first byte"),
    (b"hello", "not an Amigos match file (a text file; amigos writes them with --save)"),
    ("# Amigos\n\nA README, in UTF-8: \u00e9t\u00e9\n".encode() * 300, "not an Amigos match file (a text file"),
    (b"\x80", "no 'amigos.match' header"),
    (msgpack.packb([1, 2, 3]), "its first byte does not start a record"),
    (msgpack.packb({1: 2}), "not a match file"),
    (msgpack.packb("amigos.match"), "its first byte does not start a record"),
], ids=["empty", "c1", "c1x100", "zip", "text", "readme", "empty-map", "list", "int-keys", "string"])
def test_not_a_match_file(data, reason, tmp_path):
    path = write(tmp_path / "x.amigos", data)
    assert_refused(path, reason)
    with pytest.raises(MatchFileError):
        parse(data)


def test_extra_data_after_the_record(tmp_path, finished_bytes):
    assert_refused(write(tmp_path / "x.amigos", finished_bytes + b"\x00"), "extra data")
    assert_refused(write(tmp_path / "y.amigos", finished_bytes + finished_bytes), "extra data")


def test_truncated_at_many_lengths(tmp_path, finished_bytes):
    path = tmp_path / "cut.amigos"
    n = len(finished_bytes)
    cuts = sorted(set(list(range(0, 70)) + list(range(70, n, max(1, n // 150))) + [n - 2, n - 1]))
    for cut in cuts:
        write(path, finished_bytes[:cut])
        message = assert_refused(path)
        if cut >= 64:
            assert "truncated" in message, (cut, message)


def test_a_missing_file(tmp_path):
    path = tmp_path / "nowhere.amigos"
    message = assert_refused(path, "no such file")
    assert not path.exists() and os.listdir(tmp_path) == []
    assert message.startswith(str(path))


def test_a_folder_is_not_a_match_file(tmp_path):
    folder = tmp_path / "folder.amigos"
    folder.mkdir()
    assert_refused(folder, "a folder, not a match file")


def test_a_huge_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.amigos"
    with open(path, "wb") as f:
        f.truncate(record_module.MAX_BYTES + 1)     # sparse: nothing is written
    assert_refused(path, "too large")


def test_read_record_returns_the_checked_record(tmp_path, finished):
    path = tmp_path / "m.amigos"
    save(finished, path)
    assert read_record(path) == finished.record


def test_an_unfinished_file_without_games_is_refused_or_usable(tmp_path, finished):
    record = unfinished_record(finished)
    record["games"] = []
    path = write(tmp_path / "nogames.amigos", pack(record))
    try:
        m = load(path)
    except MatchFileError:
        return
    assert m.state is not None and m.game_number == 1


def test_a_decision_after_the_end_of_a_game_is_refused(tmp_path, finished):
    def change(r):
        r["games"][0]["decisions"].append(r["games"][1]["decisions"].pop(0))
    path = write(tmp_path / "moved.amigos", _mutate(finished.record, change))
    assert_refused(path, "game 1, decision 127")


# -- fuzzing -------------------------------------------------------------------------------------------

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                derandomize=True)


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _load_bytes(data: bytes, folder: Path):
    """``parse`` and ``load`` of ``data``: MatchFileError or a result of the right kind, nothing else."""
    try:
        record = parse(data)
    except MatchFileError as exc:
        assert "\n" not in str(exc)
    else:
        assert isinstance(record, dict)
    path = folder / "fuzz.amigos"
    path.write_bytes(data)
    before = path.stat().st_mtime_ns
    try:
        m = load(path)
    except MatchFileError as exc:
        assert "\n" not in str(exc)
    else:
        assert isinstance(m, Match)
        assert m.is_over() == (m.record["status"] == "finished")
    assert path.read_bytes() == data and path.stat().st_mtime_ns == before


@FUZZ
@given(st.binary(max_size=400))
def test_fuzz_random_bytes(fuzz_dir, data):
    _load_bytes(data, fuzz_dir)


@FUZZ
@given(st.data())
def test_fuzz_truncations(small_bytes, fuzz_dir, data):
    cut = data.draw(st.integers(0, len(small_bytes) - 1))
    _load_bytes(small_bytes[:cut], fuzz_dir)


@FUZZ
@given(st.data())
def test_fuzz_byte_mutations(small_bytes, fuzz_dir, data):
    buf = bytearray(small_bytes)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(buf) - 1))
        buf[i] = data.draw(st.integers(0, 255))
    _load_bytes(bytes(buf), fuzz_dir)


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


#: Values a hostile file holds: non-finite numbers, extension types, bytes, deep nesting, containers
#: by the hundred thousand, control characters, huge integers.
_hostile = st.sampled_from([
    float("inf"), float("-inf"), float("nan"), msgpack.ExtType(5, b"x"), msgpack.Timestamp(1, 0),
    b"\x00\x01", _nested(40), _nested(900), [[]] * 250_000, {"k" * 3: [[]] * 120_000},
    "\x1b[2J\x9b31m", 2**64 - 1, -2**63, 10**18, "x" * 5_000,
])

_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.floats() | st.text(max_size=8)
    | st.binary(max_size=4) | _hostile,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:12]):      # the first decisions are enough
            yield from _paths(v, prefix + (i,))


@FUZZ
@given(st.data())
def test_fuzz_structured_mutations(small_bytes, fuzz_dir, data):
    """Replace any value of a real record (header, game, decision, step field) by an arbitrary one,
    in the unpacked record (then packed as the file stores it) or in the file's raw msgpack map."""
    packed = data.draw(st.booleans())
    record = parse(small_bytes) if packed else msgpack.unpackb(small_bytes, raw=False)
    paths = [p for p in _paths(record) if p]
    path = data.draw(st.sampled_from(paths))
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(_values)
    if isinstance(target, dict) and data.draw(st.booleans()):  # and an unknown key beside it
        target[data.draw(st.text(max_size=6))] = data.draw(_values)
    _load_bytes(pack(record) if packed else msgpack.packb(record, use_bin_type=True), fuzz_dir)


# -- version fixtures ----------------------------------------------------------------------------------
# Every format version that ever ships keeps a fixture here (tests/data/match_v{N}.amigos) and an entry
# in FIXTURES; an old one is never regenerated.  tests/make_match_fixture.py writes the current one.

FIXTURES = {
    1: {"path": FIXTURE_V1, "seed": 0, "players": [{"name": "Player 1 (greedy)", "spec": "greedy"},
                                                   {"name": "Player 2 (random)", "spec": "random"}],
        "winners": [[0], [1], [0]], "decisions": [189, 211, 279],
        "result": {"score": [2, 1], "winner": 0, "shared": False},
        "final_digest": "4352f5482f4e3109c1729442315c3e92"},
    2: {"path": FIXTURE_V2, "seed": 0, "players": [{"name": "Player 1 (greedy)", "spec": "greedy"},
                                                   {"name": "Player 2 (random)", "spec": "random"}],
        "winners": [[1], [0], [1]], "decisions": [254, 238, 275],
        "result": {"score": [1, 2], "winner": 1, "shared": False},
        "final_digest": "50ba6610c223c1385ef4eb55b55c52fe"},
    3: {"path": FIXTURE_V3, "seed": 0, "players": [{"name": "Player 1 (greedy)", "spec": "greedy"},
                                                   {"name": "Player 2 (random)", "spec": "random"}],
        "winners": [[1], [0], [1]], "decisions": [210, 238, 275],
        "result": {"score": [1, 2], "winner": 1, "shared": False},
        "final_digest": "50ba6610c223c1385ef4eb55b55c52fe"},
}


def test_every_format_version_has_a_fixture():
    assert set(FIXTURES) == set(range(1, VERSION + 1))
    for version, fixture in FIXTURES.items():
        assert fixture["path"].is_file()
        assert msgpack.unpackb(fixture["path"].read_bytes(), raw=False)["version"] == version


@pytest.mark.parametrize("version", sorted(FIXTURES))
def test_version_fixture_loads_and_replays_to_its_result(version):
    fixture = FIXTURES[version]
    path = fixture["path"]
    before = snapshot(path)
    m = load(path)
    assert snapshot(path) == before
    record = m.record
    assert m.is_over() and record["status"] == "finished"
    assert record["seed"] == fixture["seed"] and record["players"] == fixture["players"]
    assert [g["result"]["winners"] for g in record["games"]] == fixture["winners"]
    assert [len(g["decisions"]) for g in record["games"]] == fixture["decisions"]
    assert record["result"] == fixture["result"] and m.score() == fixture["result"]["score"]
    assert m.state.digest() == fixture["final_digest"] == record["games"][-1]["final_digest"]
    assert len(m.redraft_picks()) == 15


def test_fixture_generator_writes_a_finished_best_of_three(tmp_path):
    """The generator still works (its match may change with the agents; the shipped file does not)."""
    from tests.make_match_fixture import main
    out = tmp_path / "fresh.amigos"
    main(["--out", str(out)])
    fresh = load(out)
    assert fresh.is_over() and fresh.record["version"] == VERSION and fresh.record["best_of"] == 3
    assert os.listdir(tmp_path) == ["fresh.amigos"]


# -- games of three to five players (format version 3) ---------------------------------------------------

def _table(players: int, lux: bool = False) -> Match:
    config = GameConfig(players=players, expansions=("lux",) if lux else ())
    match = Match.new(5, ["random"] * players, config, fmt="game")
    play(match, [make_agent("random", seed=p) for p in range(players)])
    return match


@pytest.mark.parametrize("players,lux", [(3, False), (4, False), (5, True)])
def test_a_game_of_more_players_saves_loads_and_replays(tmp_path, players, lux):
    match = _table(players, lux)
    path = tmp_path / "table.amigos"
    save(match, path)
    again = load(path)
    assert again.record["players"] == match.record["players"] and len(again.record["players"]) == players
    assert again.state.digest() == match.state.digest()
    assert again.record["result"] == match.record["result"] and len(again.record["result"]["score"]) == players
    assert again.config.players == players


def test_a_best_of_three_is_for_two_players_and_specs_must_match_the_seats():
    with pytest.raises(amigos.AmigosError, match="best-of-three match .* two players"):
        Match.new(1, ["random"] * 3, GameConfig(players=3), fmt="match")
    with pytest.raises(amigos.AmigosError, match="3 players need 3"):
        Match.new(1, ["random"] * 2, GameConfig(players=3), fmt="game")


@pytest.mark.parametrize("change,fragment", [
    (lambda r: r.update(players=r["players"][:1]), "'players' must be 2 to 5"),
    (lambda r: r.update(players=r["players"] * 3), "'players' must be 2 to 5"),
    (lambda r: r.update(best_of=3), "best-of-three match is for two players"),
    (lambda r: r["result"].update(score=[1, 0]), "result.score"),
    (lambda r: r["games"][0]["result"].update(vp=[1, 2]), "malformed result \\(vp\\)"),
    (lambda r: r["games"][0]["result"].update(winners=[3]), "result winners"),
    (lambda r: r["games"][0]["decisions"][0].__setitem__(0, 3), "actor"),
])
def test_a_file_of_three_players_with_a_field_out_of_range_is_refused(change, fragment):
    from matches.validate import check_record
    record = copy.deepcopy(_table(3).record)
    check_record(record)
    change(record)
    with pytest.raises(ValueError, match=fragment):
        check_record(record)
