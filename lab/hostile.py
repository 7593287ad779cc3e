"""Hostile match files and paths against the reading commands: the time, the peak memory and the
answer of each, for this checkout and (``--commit C``) for an earlier one.

    python -m lab.hostile [--commit 4847079] [--limit 20]

Each case is a crafted file (or path) and a command (``show``, ``replay``, ``replay --game 1``, ...);
the command runs in its own process, with ``--limit`` seconds and 6 GB of address space at most;
its peak resident memory comes from ``wait4``.  A case passes when it ends in time with exit code 2
and one ``amigos:`` line (or exit 0 where the file is genuine), with no escape character on the
screen and no traceback.
"""

from __future__ import annotations

import argparse
import copy
import os
import resource
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import msgpack

from ai.agents import make_agent
from matches.match import Match, play
from matches.record import pack, save


def genuine(folder: Path) -> dict:
    match = Match.new(3, ["greedy", "random"], fmt="match", names=["A", "B"])
    play(match, [make_agent("greedy", seed=1), make_agent("random", seed=2)])
    save(match, folder / "genuine.amigos")
    return match.record


def craft(folder: Path) -> list[tuple[str, list[str], str]]:
    """(case, command arguments, expected: "refused" or "ok")."""
    record = genuine(folder)
    cases = []

    def write(name: str, data: bytes) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path

    def variant(name: str, change) -> Path:
        r = copy.deepcopy(record)
        change(r)
        return write(name, pack(r))

    inf = variant("inf.amigos", lambda r: r["games"][0]["decisions"][5][1].__setitem__("power_index", float("inf")))
    cases += [("power_index = infinity", [c, str(inf)], "refused") for c in ("show", "replay", "resume")]
    stamp = write("stamp.amigos", pack({**record, "created_at": msgpack.Timestamp(1, 0)}))
    cases.append(("a msgpack Timestamp in a header field", ["show", "--json", str(stamp)], "refused"))
    raw = variant("bytes.amigos", lambda r: r.__setitem__("app_version", b"\x00\x01"))
    cases.append(("raw bytes in a header field", ["show", "--json", str(raw)], "refused"))
    deep: list = []
    for _ in range(900):
        deep = [deep]
    nested = variant("deep.amigos", lambda r: r.__setitem__("extra", deep))
    cases.append(("a value 900 deep under an unknown key", ["replay", str(nested)], "refused"))
    bomb = copy.deepcopy(record)
    bomb["games"][0]["decisions"] = zlib.compress(msgpack.packb([[]] * 3_000_000), 9)
    bomb_file = write("bomb.amigos", msgpack.packb(bomb, use_bin_type=True))
    cases.append((f"decisions inflating to 3 million empty lists ({bomb_file.stat().st_size // 1024} KB)",
                  ["show", str(bomb_file)], "refused"))
    many = msgpack.unpackb(pack(record), raw=False)
    many["games"] = many["games"] * 20
    many_file = write("many.amigos", msgpack.packb(many, use_bin_type=True))
    cases.append((f"20 copies of a game ({many_file.stat().st_size // 1024} KB)", ["show", str(many_file)],
                  "refused"))
    lists = variant("lists.amigos", lambda r: r.__setitem__("extra", [[]] * 7_000_000))
    cases.append((f"7 million empty lists under an unknown key ({lists.stat().st_size // 2**20} MB)",
                  ["replay", str(lists)], "refused"))
    zero = folder / "zero.amigos"
    zero.symlink_to("/dev/zero")
    cases.append(("a symlink to /dev/zero", ["show", str(zero)], "refused"))
    fifo = folder / "fifo.amigos"
    os.mkfifo(fifo)
    cases.append(("a FIFO", ["show", str(fifo)], "refused"))
    named = variant("named.amigos", lambda r: r["players"][0].__setitem__("name", "Eve\x1b[2J"))
    cases += [("a player name with escape sequences", [c, str(named)], "ok") for c in ("show", "replay")]
    cases.append(("replay --game 1 of a finished match", ["replay", "--game", "1", str(folder / "genuine.amigos")],
                  "ok"))
    undigested = variant("nodigest.amigos", lambda r: r["games"][0].pop("final_digest"))
    cases.append(("a finished game without its digest", ["show", str(undigested)], "refused"))
    points = variant("points.amigos", lambda r: r["games"][0]["result"].__setitem__("vp", [99, 0]))
    cases.append(("stored points that the replay disagrees with", ["show", str(points)], "refused"))
    return cases


def run(python_path: str, args: list[str], limit: float) -> tuple[str, float, float, str]:
    """(verdict, seconds, peak MB, first line of stderr) of ``amigos ARGS`` with the code at
    ``python_path``."""
    env = dict(os.environ, PYTHONPATH=python_path, COLUMNS="100")

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))

    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "amigos_cli", *args], env=env, stdin=subprocess.DEVNULL,
                                stdout=out_file, stderr=err_file, preexec_fn=cap, cwd=tempfile.gettempdir())
        code, usage = None, None
        while time.perf_counter() - start < limit:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                code = os.waitstatus_to_exitcode(status)
                break
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        if code is None:
            proc.kill()
            _, _, usage = os.wait4(proc.pid, 0)
            proc.returncode = -9
            return "hung", seconds, usage.ru_maxrss / 1024, ""
        proc.returncode = code
        out_file.seek(0)
        err_file.seek(0)
        out, err = out_file.read(), err_file.read()
    peak = usage.ru_maxrss / 1024
    text = err.decode("utf-8", "replace")
    first = text.strip().splitlines()[0] if text.strip() else ""
    if "Traceback" in text:
        verdict = "traceback"
    elif b"\x1b" in out:
        verdict = "escape codes shown"
    elif proc.returncode == 2 and first.startswith("amigos: ") and len(text.strip().splitlines()) == 1:
        verdict = "refused"
    elif proc.returncode == 0:
        verdict = "ok"
    else:
        verdict = f"exit {proc.returncode}"
    return verdict, seconds, peak, first


def export(commit: str, into: Path) -> None:
    archive = subprocess.run(["git", "archive", commit], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commit", help="also run each case with this earlier commit's code")
    ap.add_argument("--limit", type=float, default=20.0, help="seconds a command may take")
    args = ap.parse_args()
    here = str(Path(__file__).resolve().parents[1])
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "cases"
        folder.mkdir()
        cases = craft(folder)
        before = None
        if args.commit:
            before = Path(tmp) / "before"
            before.mkdir()
            export(args.commit, before)
        for name, argv, expected in cases:
            verdict, seconds, peak, line = run(here, argv, args.limit)
            mark = "pass" if verdict == expected else "FAIL"
            text = f"{mark}  {name} ({argv[0]}{' ' + argv[1] if argv[1].startswith('-') else ''}): {verdict}, " \
                   f"{seconds:.2f} s, {peak:.0f} MB"
            if before is not None:
                old, old_seconds, old_peak, _ = run(str(before), argv, args.limit)
                text += f"   before: {old}, {old_seconds:.2f} s, {old_peak:.0f} MB"
            print(text, flush=True)


if __name__ == "__main__":
    main()
