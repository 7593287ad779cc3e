"""Measures of the online table (`amigos host`, amigos_cli/table), for the issue's closing note:

1. **move to redrawn board**: the time from a move sent by one seat to the view that shows it at another
   seat (``moves``, the decisions made so far, grew), over websocket clients, against an ``amigos host``
   process of two people (each client answers its decisions at random); then in Chromium: seat 1 a
   websocket client against the random agent, the spectators' page open in headless Chromium, timed
   from the move sent to the end of the page's drawing of it (its ``draw`` wrapped, with the layout
   forced; paint not included), and the page's drawing time alone (median);
2. **memory**: the resident memory of an ``amigos host`` process with no connection, 1, and
   `amigos_cli.table.server.MAX_CONNECTIONS` connections (one seat, the rest spectators); per table:
   a process of its own holding 1 to N tables (`Table` and `TableServer`, each on its port, each with a
   connection that received its view);
3. **the most held with no error**: the connections of one table up to the cap (every one receiving
   the view after a move; one more is refused, 503), the tables of one process (as in 2), and several
   ``amigos host`` processes at once, each with a seat connected.

    python -m benchmarks.table_speed [--moves 150] [--tables 1,100,250,500] [--hosts 8] [--skip-browser]

Figures are printed as one line each (medians in milliseconds, memory in MB).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from amigos_cli.table.server import MAX_CONNECTIONS
from tests.web.test_table_browser import CHROMIUM, Chromium, free_port

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"^\s+(.+): http://\S+/t/(\S+)$")

#: Wraps the page's ``draw``: each view drawn is kept as [wall-clock ms at its end, its moves, ms drawing].
WRAP_DRAW = """(() => {
  window.drawn = [];
  const original = draw;
  draw = function (view) {
    const t = performance.now();
    original(view);
    void document.body.offsetHeight;  // (the layout too)
    window.drawn.push([Date.now(), view.moves, performance.now() - t]);
  };
  return true;
})()"""


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid``, in MB (Linux's /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start_host(args: list[str], folder: Path, port: int) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """An ``amigos host`` process and its links (seat name or "spectators": token)."""
    proc = subprocess.Popen([sys.executable, "-m", "amigos_cli", "host", *args, "--port", str(port)], cwd=folder,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    links: dict[str, str] = {}
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        found = LINK.search(line)
        if found:
            links[found.group(1)] = found.group(2)
        if "to stop" in line:
            return proc, links
    raise RuntimeError(f"no links from amigos host: {links}")


def stop_host(proc: subprocess.Popen[str]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    proc.communicate(timeout=30)


def pick(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    groups = data["choices"]["groups"]
    g = rng.randrange(len(groups))
    w = rng.randrange(len(groups[g]["ways"])) if groups[g]["ways"] else 0
    return {"type": "choose", "ask": data["choices"]["ask"], "group": g, "way": w}


# -- 1. a move to the board redrawn ---------------------------------------------------------------------

async def latency_websockets(port: int, tokens: list[str], moves: int) -> list[float]:
    """Milliseconds from each move sent by a seat to the other seat's view showing it."""
    sent: dict[int, tuple[int, float]] = {}  # moves before it: (seat that moved, when)
    took: list[float] = []
    done = asyncio.Event()

    async def seat(me: int, rng: random.Random) -> None:
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{tokens[me]}", max_msg_size=0) as ws:
                async for message in ws:
                    data = json.loads(message.data)
                    if data["type"] != "view":
                        continue
                    now = time.perf_counter()
                    for before, (who, at) in list(sent.items()):
                        if who != me and data["moves"] > before:
                            took.append((now - at) * 1000)
                            del sent[before]
                    if data["over"] or len(took) >= moves:
                        done.set()
                    if done.is_set():
                        return
                    if data["choices"] and data["moves"] not in sent:
                        sent[data["moves"]] = (me, time.perf_counter())
                        await ws.send_json(pick(data, rng))

    tasks = [asyncio.ensure_future(seat(p, random.Random(p))) for p in (0, 1)]
    await done.wait()
    for task in tasks:
        task.cancel()
    return took


async def latency_browser(port: int, seat_token: str, spectators: str, moves: int) -> tuple[list[float], list[float]]:
    """(ms from seat 1's move to the spectators' page in Chromium having drawn it, ms of each drawing)."""
    sent: dict[int, float] = {}  # moves before it: wall-clock ms when sent
    async with Chromium() as browser:
        page = await browser.open(f"http://127.0.0.1:{port}/t/{spectators}")
        await page.wait_for("typeof current !== 'undefined' && current !== null")
        await page.evaluate(WRAP_DRAW)
        rng = random.Random(9)
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{seat_token}", max_msg_size=0) as ws:
                async for message in ws:
                    data = json.loads(message.data)
                    if data["type"] != "view":
                        continue
                    if data["over"] or len(sent) >= moves:
                        break
                    if data["choices"] and data["moves"] not in sent:
                        await asyncio.sleep(0.05)  # (a person's pace: one drawing at a time)
                        sent[data["moves"]] = time.time() * 1000
                        await ws.send_json(pick(data, rng))
        await asyncio.sleep(0.5)
        drawn = await page.evaluate("window.drawn")
        assert not page.errors, page.errors
    took = []
    for before, at in sent.items():
        after = [end for end, count, _ in drawn if count > before]
        if after:
            took.append(after[0] - at)
    return took, [ms for _, _, ms in drawn]


# -- 2 and 3. memory, and what is held ---------------------------------------------------------------------

async def connections(port: int, links: dict[str, str], pid: int) -> dict[str, Any]:
    """The host's memory with 0, 1 and `MAX_CONNECTIONS` connections, each of which must receive the
    catalog, its view, and a view after a move; one more is refused."""
    out: dict[str, Any] = {"rss_0": rss_mb(pid)}
    async with aiohttp.ClientSession() as client:
        socks = []
        seat = await client.ws_connect(f"ws://127.0.0.1:{port}/ws/{links['Player 1']}", max_msg_size=0)
        socks.append(seat)
        first = [await seat.receive_json(timeout=30), await seat.receive_json(timeout=30)]
        assert first[0]["type"] == "cards" and first[1]["type"] == "view"
        await asyncio.sleep(0.5)
        out["rss_1"] = rss_mb(pid)
        for _ in range(MAX_CONNECTIONS - 1):
            ws = await client.ws_connect(f"ws://127.0.0.1:{port}/ws/{links['spectators']}", max_msg_size=0)
            assert (await ws.receive_json(timeout=30))["type"] == "cards"
            socks.append(ws)
        await asyncio.sleep(1.0)
        out["rss_max"] = rss_mb(pid)
        try:
            extra = await client.ws_connect(f"ws://127.0.0.1:{port}/ws/{links['spectators']}")
            await extra.close()
            out["refused"] = False
        except aiohttp.WSServerHandshakeError as exc:
            out["refused"] = exc.status == 503
        view = first[1]
        while not view.get("choices"):
            view = await seat.receive_json(timeout=30)
            if view.get("type") != "view":
                view = {}
        await seat.send_json(pick(view, random.Random(1)))
        moved = view["moves"]
        ok = 0
        for ws in socks:
            while True:
                data = await ws.receive_json(timeout=30)
                if data.get("type") == "view" and data["moves"] > moved:
                    ok += 1
                    break
        out["held"] = ok
        for ws in socks:
            await ws.close()
    return out


async def child_tables(counts: list[int]) -> None:
    """(Run in a process of its own.)  Hold 1 to max(counts) tables, each with a connection that
    received its view; print this process's memory at each count as JSON."""
    from amigos.config import GameConfig
    from amigos_cli.table.model import Table
    from amigos_cli.table.server import TableServer
    from matches.match import Match

    folder = Path(tempfile.mkdtemp(prefix="amigos-tables-"))
    held: list[tuple[Table, Any, aiohttp.ClientWebSocketResponse]] = []
    report = {"rss_none": rss_mb(os.getpid())}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as client:  # (no cap of 100)
        for n in range(1, max(counts) + 1):
            match = Match.new(n, ["human", "human"], GameConfig(players=2), fmt="game")
            table = Table.new(match, folder / f"t{n}.amigos")
            server = TableServer(table)
            port = free_port()
            runner = await server.start("127.0.0.1", port)
            ws = await client.ws_connect(f"ws://127.0.0.1:{port}/ws/{table.tokens[0]}", max_msg_size=0)
            assert (await ws.receive_json(timeout=30))["type"] == "cards"
            assert (await ws.receive_json(timeout=30))["type"] == "view"
            held.append((table, runner, ws))
            if n in counts:
                await asyncio.sleep(0.3)
                report[str(n)] = rss_mb(os.getpid())
        for table, runner, ws in held:
            await ws.close()
            table.stop()
            await runner.cleanup()
    print(json.dumps(report))


async def hosts(count: int, folder: Path) -> list[float]:
    """``count`` ``amigos host`` processes at once, each with its seat connected and shown its view: the
    resident memory of each (MB)."""
    procs = []
    try:
        for k in range(count):
            port = free_port()
            proc, links = start_host(["--p1", "human", "--p2", "random", "--seed", str(100 + k),
                                      "--save", f"h{k}.amigos"], folder, port)
            procs.append((proc, port, links))
        async with aiohttp.ClientSession() as client:
            socks = []
            for _proc, port, links in procs:
                ws = await client.ws_connect(f"ws://127.0.0.1:{port}/ws/{links['Player 1']}", max_msg_size=0)
                assert (await ws.receive_json(timeout=30))["type"] == "cards"
                assert (await ws.receive_json(timeout=30))["type"] == "view"
                socks.append(ws)
            await asyncio.sleep(0.5)
            out = [rss_mb(proc.pid) for proc, _, _ in procs]
            for ws in socks:
                await ws.close()
        return out
    finally:
        for proc, _, _ in procs:
            stop_host(proc)


def ms(values: list[float]) -> str:
    values = sorted(values)
    return (f"median {statistics.median(values):.1f} ms, p90 {values[int(0.9 * (len(values) - 1))]:.1f} ms, "
            f"max {values[-1]:.1f} ms over {len(values)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--tables", default="1,100,250,500")
    parser.add_argument("--hosts", type=int, default=8)
    parser.add_argument("--skip-browser", action="store_true")
    parser.add_argument("--child-tables", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_tables:
        asyncio.run(child_tables([int(n) for n in args.child_tables.split(",")]))
        return
    folder = Path(tempfile.mkdtemp(prefix="amigos-speed-"))

    port = free_port()
    proc, links = start_host(["--p1", "human", "--p2", "human", "--seed", "3", "--save", "a.amigos"], folder, port)
    try:
        took = asyncio.run(latency_websockets(port, [links["Player 1"], links["Player 2"]], args.moves))
    finally:
        stop_host(proc)
    print(f"move -> the other seat's view (websocket clients, amigos host of two people): {ms(took)}")

    if not args.skip_browser and CHROMIUM.exists():
        port = free_port()
        proc, links = start_host(["--p1", "human", "--p2", "random", "--seed", "4", "--save", "b.amigos"], folder, port)
        try:
            took, drawing = asyncio.run(latency_browser(port, links["Player 1"], links["spectators"], args.moves))
        finally:
            stop_host(proc)
        print(f"move -> the spectators' page in Chromium drawn: {ms(took)}")
        print(f"the page's drawing of a view (layout included): {ms(drawing)}")

    port = free_port()
    proc, links = start_host(["--p1", "human", "--p2", "human", "--seed", "5", "--save", "c.amigos"], folder, port)
    try:
        held = asyncio.run(connections(port, links, proc.pid))
    finally:
        stop_host(proc)
    per = (held["rss_max"] - held["rss_1"]) / (MAX_CONNECTIONS - 1)
    print(f"amigos host (one table): {held['rss_0']:.1f} MB with no connection, {held['rss_1']:.1f} MB with 1, "
          f"{held['rss_max']:.1f} MB with {MAX_CONNECTIONS} ({per * 1024:.0f} KB a connection); "
          f"{held['held']} of {MAX_CONNECTIONS} connections shown the next move; "
          f"one more {'refused (503)' if held['refused'] else 'NOT refused'}")

    counts = [int(n) for n in args.tables.split(",")]
    safe_path = ["-P"] if sys.flags.safe_path else []  # (the build this process imports: lab/README.md)
    child = subprocess.run([sys.executable, *safe_path, "-m", "benchmarks.table_speed", "--child-tables", args.tables],
                           cwd=ROOT, capture_output=True, text=True, timeout=1800)
    if child.returncode != 0:
        print(f"tables in one process: failed: {child.stderr[-800:]}")
    else:
        report = json.loads(child.stdout.strip().splitlines()[-1])
        top = max(counts)
        per_table = (report[str(top)] - report["1"]) / (top - 1)
        print("tables in one process (each with a connection): "
              + ", ".join(f"{n}: {report[str(n)]:.1f} MB" for n in counts)
              + f" (before any: {report['rss_none']:.1f} MB; {per_table * 1024:.0f} KB a table); all {top} held")

    sizes = asyncio.run(hosts(args.hosts, folder))
    print(f"{args.hosts} amigos host processes at once, each with its seat connected: "
          f"{statistics.median(sizes):.1f} MB each (median), {sum(sizes):.0f} MB in all; all held")


if __name__ == "__main__":
    main()
