"""``amigos serve``: the page is served on localhost, and a websocket (as the page opens it) starts a
game whose screen arrives through it."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.request

import aiohttp
import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "amigos_cli", "serve", "--port", str(port), "--p2", "random"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                page = r.read().decode()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise AssertionError("amigos serve did not answer: " + proc.stdout.read().decode()[-2000:])
            time.sleep(0.3)
    yield port, page, tmp_path
    os.killpg(proc.pid, 15)
    proc.wait(timeout=30)


def test_the_page_and_a_game_through_its_websocket(server):
    port, page, folder = server
    assert "<html" in page.lower() and "/ws" in page and "Amigos" in page

    async def session() -> bytes:
        received = b""
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(f"ws://127.0.0.1:{port}/ws?width=100&height=30") as ws:
                await ws.send_json(["resize", {"width": 100, "height": 30}])
                end = time.monotonic() + 60
                while time.monotonic() < end and b"Your choice" not in received:
                    try:
                        message = await ws.receive(timeout=5)
                    except asyncio.TimeoutError:
                        continue
                    if message.type == aiohttp.WSMsgType.BINARY:
                        received += message.data
                    elif message.type == aiohttp.WSMsgType.TEXT:
                        received += message.data.encode()
                    elif message.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                        break
        return received

    received = asyncio.run(session())
    assert b"Your choice" in received, received[-2000:]
    assert list(folder.glob("amigos-*.amigos")), "the tab's game is saved in the server's folder"

