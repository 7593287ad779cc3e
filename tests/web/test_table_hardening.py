"""A table tried as an attacker and an unlucky host would: its file's secrets, its caps, hostile
requests and messages, a kill right after a move was shown, any line on the host's input, names from
a file, and an agent's worker processes (issue 49)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.agents import make_agent
from amigos.config import GameConfig
from amigos_cli.table.model import Table
from amigos_cli.table.server import MAX_CONNECTIONS, TableServer
from matches.events import MatchEvent, Moved
from matches.match import Match, play
from matches.record import load, save
from matches.session import history
from tests.web.test_table import _links, free_port, seat_client, served

AMIGOS = [sys.executable, "-m", "amigos_cli"]


def host(folder: Path, *args: str, stdin: Any = subprocess.DEVNULL) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    proc = subprocess.Popen([*AMIGOS, "host", "--port", str(port), *args], cwd=folder, stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env=dict(os.environ, AMIGOS_MATCHES=str(folder)))  # (its folder of match files)
    return proc, port


def stop(proc: subprocess.Popen[str], sig: int = signal.SIGTERM) -> tuple[str, str]:
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
    return proc.communicate(timeout=30)


def decisions(path: Path) -> int:
    return len(load(path).record["games"][0]["decisions"])


# -- the file's secrets ------------------------------------------------------------------------------------

def test_a_table_s_file_is_its_owner_s_alone_after_every_save_in_a_private_folder(tmp_path):
    old = os.umask(0o022)
    try:
        proc, port = host(tmp_path, "--p1", "human", "--p2", "random", "--seed", "12")
    finally:
        os.umask(old)
    try:
        links = _links(proc)
        folder = tmp_path / "tables"  # (in the folder of match files, never the current one)
        (path,) = folder.glob("amigos-12.amigos")
        assert folder.stat().st_mode & 0o777 == 0o700 and path.stat().st_mode & 0o777 == 0o600
        path.chmod(0o644)  # (someone loosened it: the next save makes it private again)
        before = decisions(path)
        asyncio.run(asyncio.wait_for(seat_client(port, links["Player 1"], random.Random(1), [], stop_after=2), 60))
        deadline = time.monotonic() + 10
        while decisions(path) < before + 2:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert path.stat().st_mode & 0o777 == 0o600
    finally:
        stop(proc)


# -- hostile requests and messages ---------------------------------------------------------------------------

HOSTILE_REQUESTS = [
    b"GET /t/TOKEN HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(500)) + b"\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 200,
    b"GARBAGE\r\n\r\n",
    b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /ws/TOKEN HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: bad\r\nSec-WebSocket-Version: 13\r\n\r\n",
    b"POST /t/TOKEN HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
    b"GET /t/TOKEN HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"GET /t/%ff%fe HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /t/\x00\x01 HTTP/1.1\r\nHost: \xff\r\n\r\n",
]


def test_hostile_requests_and_messages_print_no_traceback_and_no_token_and_the_table_plays_on(tmp_path):
    proc, port = host(tmp_path, "--p1", "human", "--p2", "random", "--seed", "3", "--save", "t.amigos")
    try:
        links = _links(proc)
        token = links["Player 1"]
        for request in HOSTILE_REQUESTS:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as link:
                link.sendall(request.replace(b"TOKEN", token.encode()))
                assert link.recv(100).startswith(b"HTTP/1."), request[:40]

        async def messages() -> list[dict[str, Any]]:
            async with aiohttp.ClientSession() as client:
                async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{token}") as ws:
                    told = []
                    for text in ("[" * 4000, "{" * 30 + '"a":' * 10, '{"type": "choose", "ask": 1e400}',
                                 '{"type": "choose", "ask": NaN, "group": 0, "way": 0}',
                                 '{"type": "choose", "ask": "\\ud800", "group": 0, "way": 0}'):
                        await ws.send_str(text)
                        while (message := await ws.receive_json(timeout=10))["type"] != "refused":
                            pass
                        told.append(message)
                    await ws.send_bytes(b"\x00" * 100)  # (no page sends one: the connection is closed)
                    assert (await ws.receive(timeout=10)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
                    return told

        told = asyncio.run(messages())
        assert len(told) == 5
        asyncio.run(asyncio.wait_for(seat_client(port, token, random.Random(2), [], stop_after=2), 60))
    finally:
        out, err = stop(proc)
    assert proc.returncode == 0, err
    assert "Traceback" not in out + err and token not in err and err.count("\n") <= 2, err


def test_connections_are_counted_from_the_handshake_and_a_taken_over_tab_answers_nothing(tmp_path):
    """3 x 100 tabs of one seat opened at once: never more than `MAX_CONNECTIONS` open, and once they
    have settled only the last to take the seat over answers a message."""
    match = Match.new(5, ["human", "random"], GameConfig(), fmt="game", names=["A", "B"])
    table = Table.new(match, tmp_path / "t.amigos")
    server = TableServer(table)
    port = free_port()
    token = table.tokens[0]
    peak = 0

    async def scenario() -> int:
        nonlocal peak
        async with served(server, port):
            async def watch() -> None:
                nonlocal peak
                while True:
                    peak = max(peak, server.open)
                    await asyncio.sleep(0.001)

            watcher = asyncio.ensure_future(watch())
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(connector=connector) as client:
                async def tab() -> aiohttp.ClientWebSocketResponse | None:
                    try:
                        return await client.ws_connect(f"ws://127.0.0.1:{port}/ws/{token}")
                    except aiohttp.WSServerHandshakeError:
                        return None  # (refused: the table had as many connections as it takes)

                tabs = []
                for _ in range(3):
                    tabs += await asyncio.gather(*(tab() for _ in range(100)))
                await asyncio.sleep(1.0)
                answering = 0
                for ws in (t for t in tabs if t is not None and not t.closed):
                    try:
                        await ws.send_json({"type": "choose", "ask": -1, "group": 0, "way": 0})
                        while True:
                            message = await ws.receive(timeout=2)
                            if message.type != aiohttp.WSMsgType.TEXT:
                                break
                            if message.json()["type"] == "refused":
                                answering += 1
                                break
                    except (ConnectionError, asyncio.TimeoutError, RuntimeError):
                        pass
                for ws in tabs:
                    if ws is not None:
                        await ws.close()
            watcher.cancel()
            return answering

    answering = asyncio.run(scenario())
    assert answering == 1
    assert 0 < peak <= MAX_CONNECTIONS


# -- saved, then sent ---------------------------------------------------------------------------------------

def test_a_move_is_told_only_once_the_file_holds_it():
    match = Match.new(4, ["random", "random"], GameConfig(), fmt="game")
    saved: list[int] = []
    late: list[int] = []

    def on_event(event: MatchEvent) -> None:
        if isinstance(event, Moved):
            made = len(match.record["games"][-1]["decisions"])
            if not saved or saved[-1] != made:
                late.append(made)

    play(match, [make_agent("random", seed=1), make_agent("random", seed=2)], on_event=on_event,
         save=lambda m: saved.append(len(m.record["games"][-1]["decisions"])))
    assert saved and not late


async def play_until_killed(proc: subprocess.Popen[str], port: int, token: str, rng: random.Random,
                            moves: int) -> int:
    """Answer a seat's decisions at random until a view shows ``moves`` moves, then SIGKILL the host at
    once; the most moves a view showed."""
    seen = 0
    async with aiohttp.ClientSession() as client:
        async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{token}") as ws:
            async for message in ws:
                data = message.json()
                if data["type"] != "view":
                    continue
                seen = max(seen, data["moves"])
                if seen >= moves:
                    os.killpg(proc.pid, signal.SIGKILL)  # (at once: nothing more is saved)
                    return seen
                if data["choices"]:
                    groups = data["choices"]["groups"]
                    g = rng.randrange(len(groups))
                    w = rng.randrange(len(groups[g]["ways"])) if groups[g]["ways"] else 0
                    await ws.send_json({"type": "choose", "ask": data["choices"]["ask"], "group": g, "way": w})
    return seen


def test_a_host_killed_right_after_a_seat_saw_a_move_keeps_it_and_leaves_no_temporary_file(tmp_path):
    for attempt in range(3):
        proc, port = host(tmp_path, "--p1", "human", "--p2", "random", "--seed", str(20 + attempt),
                          "--save", f"k{attempt}.amigos")
        try:
            links = _links(proc)
            seen = asyncio.run(asyncio.wait_for(
                play_until_killed(proc, port, links["Player 1"], random.Random(attempt), 8 + 3 * attempt), 60))
        finally:
            stop(proc, signal.SIGKILL)
        assert len(history(load(tmp_path / f"k{attempt}.amigos").record)) >= seen
    leftover = tmp_path / ".k0.amigos.abcd1234.tmp"
    leftover.write_bytes(b"half a save")
    proc, _ = host(tmp_path, "--resume", "k0.amigos")
    try:
        _links(proc)
        assert not leftover.exists()
    finally:
        stop(proc)


# -- the host's terminal --------------------------------------------------------------------------------------

def test_the_host_answers_any_line_and_goes_on_reading(tmp_path):
    proc, _ = host(tmp_path, "--p1", "human", "--p2", "human", "--seed", "5", "--save", "t.amigos",
                   stdin=subprocess.PIPE)
    assert proc.stdin is not None
    try:
        links = _links(proc)
        bad = ["agent 2 bogus:x=1", "agent 2 mcts:time=nan", "\x1b[2J\x1b]0;title\x07", "agent " + "9" * 5000,
               "agent", "agent 1 2 3 4", "\u202eagent", "x" * 10_000, ""]
        proc.stdin.write("\n".join(bad) + "\n")
        proc.stdin.flush()
        proc.stdin.buffer.write(b"\xff\xfe\x80 agent\n")  # type: ignore[attr-defined]
        proc.stdin.write("links\nquit\n")
        proc.stdin.flush()
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            stop(proc)
    assert proc.returncode == 0, err
    assert "unknown agent 'bogus'" in out and "finite number" in out
    assert out.count(links["Player 1"]) == 1 and "Stopped." in out  # (the links again, after every bad line)
    assert "\x1b" not in out.replace("\x1b[", "") and "Traceback" not in err


def test_names_from_a_resumed_file_are_shown_escaped(tmp_path):
    names = ["\x1b[31mRed\x1b[0m\n  Fake: http://localhost:1/t/AAAAAAAAAAAAAAAAAAAAAA", "\u202eevil", "n" * 1000]
    match = Match.new(7, ["human", "human", "human"], GameConfig(players=3), fmt="game", names=names)
    table = Table.new(match, tmp_path / "t.amigos")
    save(table.match, tmp_path / "t.amigos", private=True)
    proc, _ = host(tmp_path, "--resume", "t.amigos")
    try:
        links = _links(proc)
    finally:
        out, err = stop(proc)
    assert len(links) == 4  # (three seats and the spectators: no line made by a name)
    shown = "".join(links) + out
    assert "\x1b" not in shown and "\u202e" not in shown and "n" * 100 not in shown
    assert "Fake: http" not in "".join(line.strip()[:6] for line in out.splitlines())


# -- an agent's worker processes ------------------------------------------------------------------------------

@pytest.mark.slow
def test_an_agent_with_two_workers_plays_at_a_host_whose_input_is_open_and_sigterm_ends_them_all(tmp_path):
    proc, port = host(tmp_path, "--p1", "human", "--p2", "mcts:time=0.2,workers=2", "--seed", "8",
                      "--save", "w.amigos", stdin=subprocess.PIPE)
    try:
        links = _links(proc)
        before = time.monotonic()
        asyncio.run(asyncio.wait_for(seat_client(port, links["Player 1"], random.Random(4), [], stop_after=10), 90))
        assert time.monotonic() - before < 60
        family = psutil.Process(proc.pid).children(recursive=True)
        searched = [d for d in load(tmp_path / "w.amigos").record["games"][0]["decisions"] if d[0] == 1]
        assert searched  # (the AI has decided: its workers did not hang)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        assert time.monotonic() - start < 3
        time.sleep(0.5)
        assert not [p for p in family if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    finally:
        if proc.poll() is None:
            stop(proc, signal.SIGKILL)


# -- any message ---------------------------------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)
CHOICE = st.fixed_dictionaries({"type": st.sampled_from(["choose", "Choose", "view"]),
                                 "ask": JSON, "group": JSON, "way": JSON})
TOOL = st.fixed_dictionaries({"type": st.sampled_from(["undo", "auto_collect", "Undo"]), "on": JSON})


class Socket:
    """A websocket's stand-in that keeps what is sent to it."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def send_json(self, data: Any) -> None:
        self.sent.append(data)

    async def close(self, **kwargs: Any) -> None:
        self.sent.append("closed")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.text(max_size=200), JSON.map(json.dumps), CHOICE.map(json.dumps), TOOL.map(json.dumps),
                      st.integers(1, 50_000).map(lambda n: "[" * n), st.integers(1, 2000).map(lambda n: '{"a":' * n)),
       seat=st.sampled_from([None, 0, 1]))
def test_any_message_is_answered_in_a_line_and_changes_nothing(table_server, text, seat):
    server, table = table_server
    asked = table.asked
    ws = Socket()
    why = asyncio.run(server.answer(seat, text, ws))  # type: ignore[arg-type]
    if why is None:
        message = json.loads(text)
        if message["type"] == "auto_collect":  # (a setting of the seat's own, as it should be)
            assert seat is not None and table.auto[seat] is message["on"]
            table.auto.clear()
            table.asked = asked
            return
        # (a choice of seat 1's for decision 1: taken, as it should be)
        assert seat == 0 and message["type"] == "choose" and message["ask"] == 1
        table.answers[0].get_nowait()
        table.asked = asked
        return
    assert isinstance(why, str) and "\n" not in why and len(why) < 100
    assert table.asked is asked and table.answers[0].empty() and table.answers[1].empty() and not ws.sent


@pytest.fixture(scope="module")
def table_server(tmp_path_factory):
    """A table whose seat 1 is asked decision 1 (not started: nothing answers it)."""
    match = Match.new(5, ["human", "human"], GameConfig(), fmt="game", names=["A", "B"])
    table = Table.new(match, tmp_path_factory.mktemp("fuzz") / "t.amigos")
    table.asked = (0, 1, match.state.clone())
    return TableServer(table), table
