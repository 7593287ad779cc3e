"""``amigos serve``: the page is served on localhost, and a websocket (as the page opens it) starts a
game whose screen arrives through it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request

import aiohttp
import pytest

from tests.helpers import ROOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(folder, *args: str):
    """``amigos serve`` on a free port in ``folder``, which is its tabs' folder of match files too: yields
    (port, its first page, its process)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "amigos_cli", "serve", "--port", str(port), *args],
                            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True, env=dict(os.environ, AMIGOS_MATCHES=str(folder)))
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                page = r.read().decode()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise AssertionError("amigos serve did not answer: " + proc.stdout.read().decode()[-2000:]) from None
            time.sleep(0.3)
    try:
        yield port, page, proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 15)
        proc.wait(timeout=30)


@pytest.fixture
def server(tmp_path):
    with serving(tmp_path, "--p2", "random") as (port, page, _):
        yield port, page, tmp_path


async def screen_until(ws: aiohttp.ClientWebSocketResponse, text: bytes, seconds: float = 60) -> bytes:
    """What the tab's websocket sends until ``text`` appears in it (or ``seconds`` pass, or it closes)."""
    received = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end and text not in received:
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


async def tab(port: int, keys: tuple[str, ...] = ()) -> bytes:
    """Open a tab's websocket, wait for the first choice, type ``keys``, and close the tab."""
    async with aiohttp.ClientSession() as client:
        async with client.ws_connect(f"ws://127.0.0.1:{port}/ws?width=100&height=30") as ws:
            await ws.send_json(["resize", {"width": 100, "height": 30}])
            received = await screen_until(ws, b"Your choice")
            for key in keys:
                await ws.send_json(["stdin", key])
                received += await screen_until(ws, b"Your choice", 2)
    return received


def test_the_page_and_a_game_through_its_websocket(server):
    port, page, folder = server
    assert "<html" in page.lower() and "/ws" in page and "Amigos" in page

    received = asyncio.run(tab(port))
    assert b"Your choice" in received, received[-2000:]
    assert list(folder.glob("amigos-*.amigos")), "the tab's game is saved in the folder of match files"



def games_of(server: subprocess.Popen) -> list[int]:
    """The game processes ``server`` runs (its children)."""
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(server.pid)], capture_output=True, text=True).stdout
    return [int(pid) for pid in out.split()]


def wait_for_games(server: subprocess.Popen, count: int, seconds: float) -> list[int]:
    end = time.monotonic() + seconds
    while len(games := games_of(server)) != count and time.monotonic() < end:
        time.sleep(0.2)
    return games


def test_games_are_capped_and_a_closed_tab_s_game_is_saved_and_ended(tmp_path):
    with serving(tmp_path, "--p2", "random", "--max-games", "2") as (port, _, proc):
        async def two_tabs_then_a_third() -> tuple[list[bytes], int, str, int]:
            async with aiohttp.ClientSession() as client:
                first = await client.ws_connect(f"ws://127.0.0.1:{port}/ws?width=100&height=30")
                second = await client.ws_connect(f"ws://127.0.0.1:{port}/ws?width=100&height=30")
                screens = [await screen_until(ws, b"Your choice") for ws in (first, second)]
                live = len(games_of(proc))
                async with client.get(f"http://127.0.0.1:{port}/") as page:
                    full = (page.status, await page.text())
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await client.ws_connect(f"ws://127.0.0.1:{port}/ws")
                await first.send_json(["stdin", "1"])
                await asyncio.sleep(1)
                await first.close()
                await second.close()
                return screens, live, full, refused.value.status

        screens, live, (status, page), ws_status = asyncio.run(two_tabs_then_a_third())
        assert all(b"Your choice" in screen for screen in screens)
        assert live == 2
        assert status == 503 and ws_status == 503 and "All 2 games" in page
        start = time.monotonic()
        assert wait_for_games(proc, 0, 15) == [], "closed tabs' games still running"
        print(f"games ended {time.monotonic() - start:.1f} s after their tabs closed")
        assert len(list(tmp_path.glob("amigos-*.amigos"))) == 2
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert r.status == 200, "the cap frees up as games end"


@pytest.mark.slow
def test_a_game_that_ignores_quit_is_ended_all_the_same(tmp_path):
    """A stubborn tab (its process ignores the quit message and SIGTERM) is killed, with its group."""
    from textual_serve.download_manager import DownloadManager

    from amigos_cli import serving

    script = tmp_path / "stubborn.py"
    ready = tmp_path / "child"
    script.write_text("import pathlib, signal, subprocess, sys, time\n"
                      "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                      "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'])\n"
                      f"pathlib.Path({str(ready)!r}).write_text(str(child.pid))\n"
                      "time.sleep(120)\n")

    async def run() -> tuple[int, int, float]:
        written: list[bytes] = []

        async def write_bytes(data: bytes) -> None:
            written.append(data)

        async def write_str(data: str) -> None:
            written.append(data.encode())

        async def close() -> None:
            pass

        service = serving.GameService(f"{sys.executable} {script}", write_bytes=write_bytes, write_str=write_str,
                                      close=close, download_manager=DownloadManager())
        await service.start(80, 24)
        process = service.process
        assert process is not None
        child = int(await _written(ready))
        start = time.monotonic()
        await service.stop()
        return process.returncode, child, time.monotonic() - start

    returncode, child, seconds = asyncio.run(run())
    assert returncode == -9
    assert seconds < serving.GRACE + serving.KILL_WAIT + 3
    assert not alive(child), "the game's own children go with it"


async def _written(path, seconds: float = 30) -> str:
    """The text of file ``path`` once it is written (a stubborn game says so once it ignores SIGTERM)."""
    end = time.monotonic() + seconds
    while not (path.exists() and path.read_text()):
        assert time.monotonic() < end, f"{path} was never written"
        await asyncio.sleep(0.05)
    return path.read_text()


def _stubborn_service(tmp_path):
    """A tab's game whose process ignores the quit message and SIGTERM (a search that holds on), and
    writes the file ``up`` once it does."""
    from textual_serve.download_manager import DownloadManager

    from amigos_cli import serving
    script = tmp_path / "stubborn.py"
    script.write_text(f"import pathlib, signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                      f"pathlib.Path({str(tmp_path / 'up')!r}).write_text('up')\ntime.sleep(120)\n")

    async def ignore(data) -> None:
        pass
    return serving.GameService(f"{sys.executable} {script}", write_bytes=ignore, write_str=ignore, close=ignore,
                               download_manager=DownloadManager())


def test_stopping_the_server_tells_every_tab_and_ends_its_game_at_once(tmp_path):
    """The server's shutdown closes each open tab (1001, "the server stopped") and ends its game, a
    stubborn one too, without waiting for aiohttp to cancel the tab's handler."""
    from amigos_cli import serving

    class Tab:
        closed: tuple | None = None

        async def close(self, code: int, message: bytes) -> None:
            self.closed = (code, message)

    async def run():
        server = serving.GameServer("unused", "127.0.0.1", free_port(), 4)
        service, tab = _stubborn_service(tmp_path), Tab()
        await service.start(80, 24)
        process = service.process
        await _written(tmp_path / "up")
        server.live[service] = tab
        start = time.monotonic()
        await server.on_shutdown(None)
        return process, tab, time.monotonic() - start

    process, tab, seconds = asyncio.run(run())
    assert tab.closed == (1001, b"the server stopped")
    assert process.returncode == -9 and seconds < serving.GRACE + serving.KILL_WAIT + 3


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed and not yet reaped, does not)."""
    time.sleep(0.3)
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.slow
def test_stopping_the_server_ends_the_games_of_open_tabs(tmp_path):
    with serving(tmp_path, "--p2", "random") as (port, _, proc):
        async def open_tab_then_stop_the_server() -> list[int]:
            async with aiohttp.ClientSession() as client:
                async with client.ws_connect(f"ws://127.0.0.1:{port}/ws?width=100&height=30") as ws:
                    await screen_until(ws, b"Your choice")
                    games = games_of(proc)
                    proc.send_signal(15)
                    await screen_until(ws, b"never shown", 10)  # (returns when the server closes the tab)
                    return games

        start = time.monotonic()
        games = asyncio.run(open_tab_then_stop_the_server())
        assert len(games) == 1
        proc.wait(timeout=20)
        assert time.monotonic() - start < 8, "the server waited for the open tab instead of ending its game"
        assert not alive(games[0]), "the open tab's game outlived the server"


def test_a_tab_of_a_three_player_server_plays_you_against_two_ais(tmp_path):
    from amigos_cli.commands.serve import game_command
    assert "--p3 greedy" in game_command("greedy", "standard", "game", players=3)
    assert "--players" not in game_command("greedy", "standard", "game")  # (two players: as before)
    with serving(tmp_path, "--players", "3", "--p2", "random") as (port, _, _):
        received = asyncio.run(tab(port))
    assert b"Your choice" in received
    from matches.record import load
    (saved,) = tmp_path.glob("amigos-*.amigos")
    assert [p["spec"] for p in load(saved).record["players"]] == ["human", "random", "random"]
    refused = subprocess.run([sys.executable, "-m", "amigos_cli", "serve", "--players", "3", "--format", "match"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "two players" in refused.stderr


def test_the_web_board_is_served_beside_the_terminal_each_visit_a_new_game(tmp_path):
    """``/board``: each visit makes a game of a person against the AI on the web board of
    ``amigos host`` (its seat's link the only way in), saved in the server's private folder of tables
    and counted in the cap with the terminal's games.  Its log holds no seat's token and no traceback,
    a malformed message (4,000 nested brackets) among them."""
    with serving(tmp_path, "--p2", "random", "--max-games", "1") as (port, _, proc):
        async def visit() -> tuple[dict, str]:
            async with aiohttp.ClientSession() as client:
                async with client.get(f"http://127.0.0.1:{port}/board", allow_redirects=False) as reply:
                    assert reply.status == 302
                    seat = reply.headers["Location"]
                assert seat.startswith("/t/")
                async with client.get(f"http://127.0.0.1:{port}{seat}") as page:
                    assert page.status == 200 and "board-files/board.js" in await page.text()
                async with client.get(f"http://127.0.0.1:{port}/board-files/board.js") as script:
                    assert script.status == 200
                async with client.get(f"http://127.0.0.1:{port}/board", allow_redirects=False) as full:
                    assert full.status == 503  # (one game at most: this server's cap)
                async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{seat.split('/')[-1]}") as ws:
                    assert (await ws.receive_json(timeout=10))["type"] == "cards"
                    await ws.send_str("[" * 4000)
                    refused, asked = False, None
                    while not (refused and asked):  # (the refusal and the first decision, in either order)
                        message = await ws.receive_json(timeout=30)
                        refused = refused or message == {"type": "refused", "why": "not JSON"}
                        if message.get("type") == "view" and message["choices"]:
                            asked = message
                    return asked, seat.split("/")[-1]
        view, token = asyncio.run(visit())
    assert view["you"] == 0 and view["names"][1] == "AI (random)"
    (saved,) = (tmp_path / "tables").glob("amigos-*.amigos")
    assert saved.stat().st_mode & 0o777 == 0o600 and saved.parent.stat().st_mode & 0o777 == 0o700
    log = proc.stdout.read().decode()
    assert token not in log and "Traceback" not in log and "GET /" not in log, log


def test_a_server_s_games_search_in_one_process_unless_the_spec_says_otherwise():
    """A server's games share its cores: its AI names one worker where the spec names none (a person
    at a terminal gets two: `bounded_spec`)."""
    from amigos_cli.commands.serve import one_process
    from matches.session import bounded_spec
    assert one_process("mcts:time=1.0") == "mcts:workers=1,ponder=0,time=1.0"
    served = bounded_spec(one_process("mcts:time=1.0"), against_a_person=True)
    assert served == "mcts:workers=1,ponder=0,time=1.0", served
    assert one_process("mcts") == "mcts:workers=1,ponder=0"
    assert one_process("mcts:time=1,workers=2") == "mcts:workers=2,ponder=0,time=1"
    assert one_process("mcts:time=1,workers=2,ponder=1") == "mcts:time=1,workers=2,ponder=1"
    assert one_process("greedy") == "greedy"


def test_the_textual_serve_installed_is_the_one_the_adapter_was_written_for():
    """amigos_cli/serving.py reaches into textual-serve through one adapter, written for the versions
    of `serving.WRITTEN_FOR` (which pyproject.toml pins) and relying on the private names of
    `serving.PRIVATE_NAMES`: an upgrade that moves the pin or loses a name fails here, by name, instead
    of a tab failing when it opens."""
    import tomllib
    from importlib.metadata import version

    from packaging.requirements import Requirement
    from packaging.specifiers import SpecifierSet

    from amigos_cli import serving
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (pin,) = [Requirement(d) for d in project["dependencies"] if Requirement(d).name == "textual-serve"]
    assert pin.specifier == SpecifierSet(serving.WRITTEN_FOR), (
        f"pyproject.toml pins textual-serve{pin.specifier}, and amigos_cli/serving.py's adapter was written for "
        f"{serving.WRITTEN_FOR}: read the new version's source against the adapter, then change both")
    installed = version("textual-serve")
    assert installed in SpecifierSet(serving.WRITTEN_FOR), (
        f"textual-serve {installed} is installed, and amigos_cli/serving.py's adapter was written for "
        f"{serving.WRITTEN_FOR}")
    missing = serving.missing_private_names()
    assert not missing, (f"textual-serve {installed} lacks {', '.join(missing)}, which amigos_cli/serving.py's "
                         "adapter relies on: adapt AdaptedService and AdaptedServer to the new version")
