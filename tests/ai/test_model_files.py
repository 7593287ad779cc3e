"""Model files read through one checkpoint (`ai.checkpoint`): the neural value's ``.npz`` and the linear
value's JSON (an agent spec's ``net=FILE`` and ``model=FILE``).  A file that is not one is refused in one
line naming it (`NetError`), without a blocking read and without unpacking more than its format allows."""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import threading
import zipfile
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai import checkpoint as K
from ai import encoding as E
from ai import learned as L
from ai import network as NW
from ai.evaluator import packaged_model
from ai.network import NetError, ValueNet

PACKAGED = Path(str(resources.files("ai") / "data" / NW.NET_FILE))
PACKAGED_MODEL = Path(str(resources.files("ai") / "data" / L.MODEL_FILE))
INPUTS = E.N_INPUTS + NW.N_FEATURE_INPUTS  # (the packaged network reads the features too)


def load_net(path: Path) -> ValueNet:
    """The value network in ``path``, over the packaged linear value (`ValueNet.load`)."""
    return ValueNet.load(path, packaged_model())


# -- making files --------------------------------------------------------------------------------------------

def npy(array: Any) -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array(out, np.asanyarray(array), allow_pickle=False)
    return out.getvalue()


def npy_header(descr: str, shape: tuple[int, ...]) -> bytes:
    """An ``.npy`` header written by hand: numpy makes none for an array it could not hold."""
    text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape!r}, }}"
    text += " " * (-(len(text) + 11) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode("latin1")


def members(path: Path = PACKAGED) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {info.filename[:-4]: archive.read(info) for info in archive.infolist()}


def zip_bytes(parts: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in parts.items():
            archive.writestr(f"{name}.npy", data)
    return out.getvalue()


def zipped(path: Path, parts: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> Path:
    path.write_bytes(zip_bytes(parts, method))
    return path


def changed(tmp_path: Path, **parts: bytes | None) -> Path:
    """The packaged network's members with ``parts`` replaced (None: left out)."""
    mine = members()
    for name, data in parts.items():
        if data is None:
            del mine[name]
        else:
            mine[name] = data
    return zipped(tmp_path / "changed.npz", mine)


def refused(load: Callable[[Path], object], path: Path, *fragments: str) -> str:
    """The one line ``load(path)`` refuses ``path`` with (it names the file); it must answer promptly
    (a FIFO is never opened for a blocking read: the guard only keeps a failing test from hanging)."""
    result = answered(lambda: load(path), [path], str(path))
    error = result.get("error")
    assert isinstance(error, NetError), f"{path}: {result}"
    line = str(error)
    assert "\n" not in line and line.startswith(str(path)), line
    for fragment in fragments:
        assert fragment in line, line
    return line


def answered(call: Callable[[], object], fifos: Iterable[Path], what: str) -> dict[str, object]:
    """``call()``'s value (``"value"``) or exception (``"error"``), run in a thread of its own: a test
    fails when it has no answer within 20 s (a blocking read), and each of ``fifos`` is then opened for
    writing, so that the blocked reader goes on (it reads an empty file)."""
    result: dict[str, object] = {}

    def run() -> None:
        try:
            result["value"] = call()
        except BaseException as exc:  # noqa: BLE001 (the test reports whatever it was)
            result["error"] = exc
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(20)
    if thread.is_alive():
        for path in fifos:
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        pytest.fail(f"{what}: no answer (a blocking read)")
    return result


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


# -- the value network ---------------------------------------------------------------------------------------

def _truncated(tmp_path: Path) -> Path:
    path = tmp_path / "cut.npz"
    path.write_bytes(PACKAGED.read_bytes()[:len(PACKAGED.read_bytes()) // 2])
    return path


def _bad_crc(tmp_path: Path) -> Path:
    path = zipped(tmp_path / "crc.npz", members(), zipfile.ZIP_STORED)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("b2.npy")
    end = info.header_offset + 30 + len(info.filename) + len(info.extra) + info.compress_size
    data[end - 1] ^= 0x40  # (the last byte of b2's number)
    path.write_bytes(bytes(data))
    return path


CASES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "a truncated zip": (_truncated, "not a value network"),
    "a CRC error": (_bad_crc, "CRC"),
    "not a zip": (lambda t: _written(t, b"not a zip file at all"), "not a zip file"),
    "an empty file": (lambda t: _written(t, b""), "not a value network"),
    "a scalar array": (lambda t: changed(t, b1=npy(np.float64(0.0))), "b1 of shape ()"),
    "empty arrays": (lambda t: changed(t, w1=npy(np.zeros((INPUTS, 0), np.float32)), b1=npy(np.zeros(0)),
                                       w2=npy(np.zeros(0))), "hidden from 1 to 1024"),
    "an empty output bias": (lambda t: changed(t, b2=npy(np.zeros(0))), "b2 of shape (0,), not (1,)"),
    "a 4 TB declared shape": (lambda t: changed(t, w1=npy_header("<f4", (INPUTS, 1 << 30)) + bytes(64)),
                              "w1 of shape"),
    "a deep JSON header": (lambda t: changed(t, header=npy(np.array("[" * 10_000))), "nested"),
    "a header of numbers": (lambda t: changed(t, header=npy(np.zeros(3))), "a header of dtype float64 and shape (3,)"),
    "a complex dtype": (lambda t: changed(t, w2=npy(np.zeros(64, complex))), "complex128"),
    "an integer dtype": (lambda t: changed(t, b2=npy(np.zeros(1, np.int64))), "int64"),
    "a structured dtype": (lambda t: changed(t, b2=npy(np.zeros(1, "f8,f8"))), "b2.npy of dtype"),
    "a missing array": (lambda t: changed(t, w2=None), "no w2 array"),
    "a missing header": (lambda t: changed(t, header=None), "no header array"),
    "an array of another network": (lambda t: changed(t, u=npy(np.zeros(3))), "'u.npy' that is not one of its arrays"),
    "layers that do not match": (lambda t: changed(t, b1=npy(np.zeros(32))), "elsewhere hidden 64"),
    "too few inputs": (lambda t: changed(t, w1=npy(np.zeros((3, 64), np.float32))), "inputs 1482 or 1533"),
    "data shorter than its shape": (lambda t: changed(t, w2=npy(np.zeros(64))[:-8]), "holds 504 bytes"),
    "data longer than its shape": (lambda t: changed(t, w2=npy(np.zeros(64)) + bytes(8)), "holds 513+ bytes"),
    "not an .npy member": (lambda t: changed(t, w2=b"garbage"), "not a value network"),
    "NaN weights": (lambda t: changed(t, b2=npy(np.array([np.nan]))), "not finite"),
    "infinite weights": (lambda t: changed(t, w2=npy(np.full(64, np.inf, np.float32))), "not finite"),
    "huge weights": (lambda t: changed(t, w2=npy(np.full(64, 1e30))), "over 1e+06"),
    "a flag neither 0 nor 1": (lambda t: changed(t, base=npy(np.array([0.5]))), "its base is 0.5"),
    "a version that is not a number": (lambda t: changed(t, header=npy(np.array(json.dumps(
        {"format": NW.NET_FORMAT, "version": "1\x1b[2J" * 30})))), "of version '1\\x1b[2J"),
    "a header that is not an object": (lambda t: changed(t, header=npy(np.array("[1, 2]"))), "no 'amigos.valuenet' header"),
}


def _written(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "written.npz"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("case", list(CASES))
def test_a_file_that_is_no_value_network_is_refused_in_one_line_naming_it(tmp_path, case):
    make, fragment = CASES[case]
    refused(load_net, make(tmp_path), fragment)


def test_the_packaged_network_loads_as_before():
    net = load_net(PACKAGED)
    with np.load(PACKAGED) as data:
        assert np.array_equal(net.w1, data["w1"].astype(np.float64)) and np.array_equal(net.w2, data["w2"])
        assert net.b2 == float(data["b2"][0]) and net.base and net.features and net.hidden == 64


def test_a_folder_a_fifo_a_device_and_nothing_are_refused_without_a_blocking_read(tmp_path, fifo):
    refused(load_net, tmp_path, "a folder, not a value network")
    refused(load_net, fifo, "not a regular file")
    refused(load_net, Path("/dev/zero"), "not a regular file")
    refused(load_net, tmp_path / "missing.npz", "no such file")


def test_a_file_over_the_size_cap_is_refused_when_the_cap_is_passed(tmp_path):
    path = tmp_path / "big.npz"
    with open(path, "wb") as f:
        f.truncate(K.NET_BYTES + 1)  # (a sparse file: nothing to write)
    refused(load_net, path, f"too large for a value network (over {K.NET_BYTES} bytes)")


def test_too_many_zip_members_are_refused_before_zipfile_reads_them(tmp_path):
    parts = members() | {f"x{k}": b"" for k in range(K.MAX_MEMBERS)}
    refused(load_net, zipped(tmp_path / "many.npz", parts), f"more than {K.MAX_MEMBERS} zip members")


def test_an_encrypted_or_bzip2_member_is_refused(tmp_path):
    path = zipped(tmp_path / "bz.npz", members(), zipfile.ZIP_BZIP2)
    refused(load_net, path, "compressed or encrypted otherwise")
    data = bytearray(zipped(tmp_path / "plain.npz", members()).read_bytes())
    at = data.index(b"PK\x01\x02")
    data[at + 8] |= 0x1  # (the encrypted flag of the first member in the zip's directory)
    (tmp_path / "enc.npz").write_bytes(bytes(data))
    refused(load_net, tmp_path / "enc.npz", "compressed or encrypted otherwise")


@pytest.fixture(scope="module")
def bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 0.2 MB file whose w1 member unpacks to 200 MB: a valid header, then zeros."""
    path = tmp_path_factory.mktemp("bomb") / "bomb.npz"
    parts = members()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, data in parts.items():
            if name != "w1":
                archive.writestr(f"{name}.npy", data)
        with archive.open("w1.npy", "w") as f:
            f.write(npy_header("<f4", (INPUTS, 64)))
            block = bytes(1 << 20)
            for _ in range(200):
                f.write(block)
    return path


def test_a_zip_bomb_is_refused_by_its_declared_size_before_it_is_unpacked(bomb):
    assert bomb.stat().st_size < 2 << 20
    refused(load_net, bomb, "zip member w1.npy unpacks to 209715", "over the")


def test_a_zip_bomb_that_declares_a_small_size_is_read_no_further_than_it_declares(bomb, tmp_path):
    """zipfile unpacks a member no further than its declared size; the zip's CRC (of all 200 MB) then
    fails on the part read."""
    data = bytearray(bomb.read_bytes())
    with zipfile.ZipFile(bomb) as archive:
        info = archive.getinfo("w1.npy")
    entry = data.index(b"PK\x01\x02")  # (the zip's directory: an entry a member, its name at 46)
    while data[entry + 46:entry + 46 + 6] != b"w1.npy":
        entry = data.index(b"PK\x01\x02", entry + 4)
    honest = len(npy_header("<f4", (INPUTS, 64))) + INPUTS * 64 * 4
    data[entry + 24:entry + 28] = struct.pack("<I", honest)  # (its uncompressed size in the directory)
    assert info.file_size > honest
    path = tmp_path / "liar.npz"
    path.write_bytes(bytes(data))
    refused(load_net, path, "Bad CRC-32 for file 'w1.npy'")


def test_a_network_is_written_whole_or_not_at_all(tmp_path, fifo):
    net = ValueNet.initial(8, 1)
    (tmp_path / "old.npz").write_bytes(b"old")
    net.save(tmp_path / "old.npz")
    assert load_net(tmp_path / "old.npz").hidden == 8
    for where, fragment in ((tmp_path, "a folder, not a network file"), (Path("/dev/null"), "a device"),
                            (tmp_path / "no" / "n.npz", "no folder")):
        with pytest.raises(NetError, match=fragment):
            net.save(where)
    assert sorted(os.listdir(tmp_path)) == ["fifo", "old.npz"]
    assert Path("/dev/null").is_char_device()
    net.save(fifo)  # (a FIFO is replaced by the file, never written through: nothing waits)
    assert load_net(fifo).hidden == 8


# -- the linear value ----------------------------------------------------------------------------------------

def _model(**changes: Any) -> dict[str, Any]:
    data = json.loads(PACKAGED_MODEL.read_text())
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


def _weights(**rows: list[Any]) -> dict[str, Any]:
    return _model()["weights"] | rows


MODEL_CASES: dict[str, tuple[bytes, str]] = {
    "NaN weights": (json.dumps(_model(weights=_weights(base=[float("nan")] * L.N_FEATURES))).encode(), "not JSON: NaN"),
    "infinite weights (1e999)": (json.dumps(_model()).replace('"synergy": ', '"synergy": 1e999, "x": ').encode(),
                                 "inf among its synergy"),
    "huge weights": (json.dumps(_model(weights=_weights(late=[1e300] * L.N_FEATURES))).encode(), "1e+300 among its late weights"),
    "a missing key": (json.dumps(_model(weights=None)).encode(), "without its weights"),
    "a weight that is a word": (json.dumps(_model(weights=_weights(final=["a"] * L.N_FEATURES))).encode(), "'a' among its final weights"),
    "weights that are booleans": (json.dumps(_model(weights=_weights(final=[True] * L.N_FEATURES))).encode(), "True among its final weights"),
    "too few weights": (json.dumps(_model(weights=_weights(base=[0.0]))).encode(), f"{L.N_FEATURES} weights of each kind"),
    "weights that are an object": (json.dumps(_model(weights=[1, 2])).encode(), "without its weights"),
    "cards that are a list": (json.dumps(_model(cards=[1, 2])).encode(), "cards are not an object"),
    "a card worth that is a word": (json.dumps(_model(cards={"hawk": "x"})).encode(), "'x' among its cards"),
    "a training record that is a list": (json.dumps(_model(trained=[1])).encode(), "training record"),
    "a version that is true": (json.dumps(_model(version=True)).encode(), "of version True"),
    "features that are a number": (json.dumps(_model(features=3)).encode(), "for other features"),
    "deep JSON": (b"[" * 100_000, "nested more than"),
    "not JSON": (b'{"format": "amigos.value",', "not JSON"),
    "not UTF-8": (b'{"format": "\xff"}', "not UTF-8"),
    "a list": (b"[1, 2, 3]", "not a value model file"),
    "a number with 5,000 digits": (b"9" * 5000, "not JSON"),
}


@pytest.mark.parametrize("case", list(MODEL_CASES))
def test_a_file_that_is_no_linear_value_model_is_refused_in_one_line_naming_it(tmp_path, case):
    data, fragment = MODEL_CASES[case]
    path = tmp_path / "m.json"
    path.write_bytes(data)
    refused(L.ValueModel.load, path, fragment)


def test_a_linear_model_from_a_folder_a_fifo_a_device_or_too_large_a_file_is_refused(tmp_path, fifo):
    refused(L.ValueModel.load, tmp_path, "a folder, not a value model")
    refused(L.ValueModel.load, fifo, "not a regular file")
    refused(L.ValueModel.load, Path("/dev/zero"), "not a regular file")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * K.JSON_BYTES + b"{}")
    refused(L.ValueModel.load, big, "too large for a value model")


def test_the_packaged_linear_model_loads_from_its_path_as_from_the_package():
    assert L.ValueModel.load(PACKAGED_MODEL).to_json() == L.ValueModel.load(None).to_json()


# -- the command line and the specs ---------------------------------------------------------------------------

def amigos_play(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "amigos_cli", "play", "--seed", "1", "--plain", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


def one_line(result: subprocess.CompletedProcess, *fragments: str) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("amigos: "), result.stderr[-2000:]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def test_amigos_play_with_a_bad_value_network_says_so_in_one_line(tmp_path):
    bad = changed(tmp_path, w2=npy(np.zeros(64, complex)))
    one_line(amigos_play("--p1", f"mcts:iters=5,net={bad}", "--p2", "mcts:iters=5", "--save", "m.amigos",
                         cwd=tmp_path), f"amigos: {bad}: not a value network", "complex128")
    assert not (tmp_path / "m.amigos").exists()


def test_amigos_play_with_a_bad_linear_model_says_so_in_one_line(tmp_path):
    bad = tmp_path / "m.json"
    bad.write_text(json.dumps(_model(weights=None)))
    one_line(amigos_play("--p1", "mcts:iters=5", "--p2", f"mcts:iters=5,model={bad}", "--save", "m.amigos",
                         cwd=tmp_path), f"amigos: {bad}: a value model without its weights")
    assert not (tmp_path / "m.amigos").exists()


# -- fuzzing ---------------------------------------------------------------------------------------------------

#: The packaged network's members stored uncompressed: there a mutation lands in an .npy header or number.
STORED = zip_bytes(members(), zipfile.ZIP_STORED)


@st.composite
def mutated(draw: st.DrawFn, original: bytes) -> bytes:
    """``original`` with a few bytes changed, cut short, or a slice repeated; the zip's directory and
    first member (where its structure is) more often than anywhere."""
    data = bytearray(original)
    n = len(data)
    for _ in range(draw(st.integers(1, 4))):
        zone = draw(st.sampled_from(["start", "end", "anywhere"]))
        low, high = {"start": (0, min(n, 1500)), "end": (max(0, n - 700), n), "anywhere": (0, n)}[zone]
        at = draw(st.integers(low, max(low, high - 1)))
        kind = draw(st.sampled_from(["byte", "cut", "repeat"]))
        if kind == "byte" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif kind == "cut":
            data = data[:at]
        else:
            data[at:at] = data[at:at + draw(st.integers(1, 64))]
    return bytes(data)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.binary(max_size=600), mutated(PACKAGED.read_bytes()), mutated(STORED)))
def test_any_bytes_are_a_network_or_refused_in_one_line(tmp_path_factory, blob):
    path = tmp_path_factory.getbasetemp() / "fuzz.npz"
    path.write_bytes(blob)
    try:
        load_net(path)
    except NetError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(path))


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.binary(max_size=300), mutated(PACKAGED_MODEL.read_bytes())))
def test_any_bytes_are_a_linear_model_or_refused_in_one_line(tmp_path_factory, blob):
    path = tmp_path_factory.getbasetemp() / "fuzz.json"
    path.write_bytes(blob)
    try:
        L.ValueModel.load(path)
    except NetError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(path))
