"""The web server behind ``amigos serve``: textual-serve's, with a cap on live games and every tab's
game process ended when its tab closes.

Each tab's game runs in a process group of its own (the game and any search workers it starts).  When
the tab closes, or the server stops, the game is asked to quit (it has saved every decision already);
if it is still running `GRACE` seconds later (a search it cannot interrupt, say) the group gets
SIGTERM, then SIGKILL.  Past
``max_games`` live games the page and the websocket answer 503 with a page that says so.

textual-serve has no hooks for either, so `GameServer` overrides its websocket handler and `GameService`
the two methods of its ``AppService`` that start and stop the process (textual-serve 1.1).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import signal
import time
from asyncio.subprocess import Process
from collections.abc import Callable
from typing import Any

from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from .table.logs import quiet_logging
from .table.model import Table
from .table.server import Hall, TableServer

GRACE = 3.0     # seconds a closed tab's game has to quit by itself
SWEEP_SECONDS = 10.0  # how often the web board's tables are looked over (`Hall.sweep`)
KILL_WAIT = 2.0  # seconds between SIGTERM and SIGKILL
log = logging.getLogger("amigos.serve")


class GameService(AppService):
    """One tab's game: started in its own process group, and sure to end when stopped."""

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        self._process = process = await asyncio.create_subprocess_exec(
            *shlex.split(self.command), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self._build_environment(width=width, height=height),
            start_new_session=True)
        assert process.stdin is not None  # (a pipe was asked for)
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """Ask the game to quit; end its process group if it has not within `GRACE` seconds."""
        with contextlib.suppress(asyncio.TimeoutError, ConnectionError):
            await asyncio.wait_for(asyncio.shield(super().stop()), GRACE)
        process: Process | None = self._process
        if process is None or process.returncode is not None:
            return
        for sig, wait in ((signal.SIGTERM, KILL_WAIT), (signal.SIGKILL, None)):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, sig)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), wait)
                return


class GameServer(Server):
    """textual-serve's server with at most ``max_games`` games at once (`GameService` each), and beside
    the terminal at ``/`` the web board of `amigos_cli.table` at ``/board``: each visit a new game of
    ``new_table()``'s (a table of one person), counted in the same cap."""

    def __init__(self, command: str, host: str, port: int, max_games: int,
                 new_table: Callable[[], Table] | None = None) -> None:
        super().__init__(command, host=host, port=port, title="Amigos")
        self.max_games = max_games
        self.live: dict[GameService, web.WebSocketResponse] = {}  # each live game and its tab
        self.new_table = new_table
        self.hall = Hall()

    def initialize_logging(self) -> None:
        """One scrubbed line a record, no access log (`amigos_cli.table.logs`): textual-serve's own
        logging shows tracebacks with their local variables, a request and its token among them."""
        quiet_logging(logging.INFO)

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        if self.new_table is not None:
            app.add_routes([web.get("/board", self.handle_board), *self.hall.routes()])
            app.on_startup.append(self._sweeping)
        return app

    async def _sweeping(self, app: web.Application) -> None:
        async def sweep() -> None:
            while True:
                await asyncio.sleep(SWEEP_SECONDS)
                self.hall.sweep(time.monotonic())
        app["sweeper"] = asyncio.ensure_future(sweep())

    def games(self) -> int:
        """The games played now: terminals and web boards."""
        return len(self.live) + len(self.hall.tables())

    async def handle_board(self, request: web.Request) -> web.StreamResponse:
        """A new game on the web board: its table made and its person's seat opened."""
        if self.games() >= self.max_games:
            return self.full()
        assert self.new_table is not None  # (the route exists only with it)
        table = self.new_table()
        self.hall.add(TableServer(table))
        seat = next(token for token in table.tokens if token is not None)
        raise web.HTTPFound(f"/t/{seat}")

    async def on_shutdown(self, app: web.Application) -> None:
        """The server stopping (Ctrl-C, SIGTERM): every tab told so and its game ended at once (saved,
        as when a tab closes; `GameService.stop`), not when aiohttp's shutdown would cancel it."""
        tabs = list(self.live.items())
        await self.hall.stop()
        await asyncio.gather(*(websocket.close(code=WSCloseCode.GOING_AWAY, message=b"the server stopped")
                               for _, websocket in tabs), return_exceptions=True)
        await asyncio.gather(*(service.stop() for service, _ in tabs), return_exceptions=True)

    def full(self) -> web.Response:
        """The 503 page of a server whose every game is taken."""
        text = (f"<!doctype html><html><head><meta charset='utf-8'><title>Amigos: all tables taken</title></head>"
                f"<body><h1>Amigos</h1><p>All {self.max_games} games this server plays at once are under way. "
                "Try again when one ends (reload this page).</p></body></html>")
        return web.Response(status=503, text=text, content_type="text/html", headers={"Retry-After": "30"})

    async def handle_index(self, request: web.Request) -> Any:
        if self.games() >= self.max_games:
            return self.full()
        return await super().handle_index(request)

    async def handle_websocket(self, request: web.Request) -> Any:
        """One tab: refused past the cap, else its game played until the tab closes, then ended."""
        if self.games() >= self.max_games:
            return self.full()
        websocket = web.WebSocketResponse(heartbeat=15)

        async def close() -> None:
            await websocket.close()

        service = GameService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                              close=close, download_manager=self.download_manager, debug=self.debug)
        self.live[service] = websocket
        try:
            await websocket.prepare(request)
            await service.start(_size(request, "width", 80), _size(request, "height", 24))
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # (a broken connection: logged, and the game ended below)
            log.warning("a tab's connection failed: %s", error)
        finally:
            await service.stop()
            self.live.pop(service, None)
        return websocket


def _size(request: web.Request, key: str, default: int) -> int:
    """A terminal size from the websocket's query, within what a screen can be."""
    value = request.query.get(key, "")
    return min(max(int(value), 10), 1000) if value.isdigit() else default
