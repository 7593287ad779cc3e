"""The web server behind ``amigos serve``: textual-serve's, with a cap on live games and every tab's
game process ended when its tab closes.

Each tab's game runs in a process group of its own (the game and any search workers it starts).  When
the tab closes, or the server stops, the game is asked to quit (it has saved every decision already);
if it is still running `GRACE` seconds later (a search it cannot interrupt, say) the group gets
SIGTERM, then SIGKILL.  Past
``max_games`` live games the page and the websocket answer 503 with a page that says so.

textual-serve has no public hooks for either, nor for adding routes to its web application: this module
reaches into it through one small adapter, `AdaptedService` and `AdaptedServer` (the only code here that
names anything private of textual-serve's, `PRIVATE_NAMES`), written for the textual-serve of
`WRITTEN_FOR`, which pyproject.toml pins; tests/web/test_serve.py fails by name if an upgrade loses one.
`GameService` and `GameServer` use textual-serve's public methods and the adapter's only.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import shlex
import signal
import time
from asyncio.subprocess import Process
from collections.abc import AsyncIterator, Callable
from typing import Any

from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager
from textual_serve.server import Server

from .table.links import Links, links, origin_of
from .table.logs import quiet_logging
from .table.model import Table
from .table.server import Hall, TableServer

GRACE = 3.0     # seconds a closed tab's game has to quit by itself
SWEEP_SECONDS = 10.0  # how often the web board's tables are looked over (`Hall.sweep`)
KILL_WAIT = 2.0  # seconds between SIGTERM and SIGKILL
log = logging.getLogger("amigos.serve")
SWEEPER = web.AppKey("sweeper", asyncio.Task[None])  # the task that looks the web board's tables over
#: The origin the browser asked the terminal's page at, while `GameServer.handle_index` makes it (None
#: elsewhere): the page's own links to the server are made from it (`GameServer.public_url`).
PAGE_ORIGIN: contextvars.ContextVar[str | None] = contextvars.ContextVar("page_origin", default=None)

# -- the adapter: the only code that names textual-serve's private methods and attributes --------------------

#: The textual-serve the adapter was written for (read from its 1.1.3 source): pyproject.toml pins the same.
WRITTEN_FOR = ">=1.1,<1.2"
#: The private names of textual-serve's that the adapter relies on, by class: the methods it overrides
#: (``_open_app_process``, ``_make_app``) or calls (``_build_environment``, ``_process_messages``), and the
#: attributes it sets and reads (``_process``, ``_stdin``).
PRIVATE_NAMES = {AppService: ("_open_app_process", "_build_environment", "_process", "_stdin"),
                 Server: ("_make_app", "_process_messages")}


def missing_private_names() -> list[str]:
    """The names of `PRIVATE_NAMES` the installed textual-serve lacks ("AppService._stdin"): none, for a
    textual-serve the adapter fits."""
    async def nothing(*_: Any) -> None:
        pass

    service = AppService("true", write_bytes=nothing, write_str=nothing, close=nothing,
                         download_manager=DownloadManager())
    return [f"{cls.__name__}.{name}" for cls, names in PRIVATE_NAMES.items() for name in names
            if not hasattr(service if cls is AppService else cls, name)]


class AdaptedService(AppService):
    """textual-serve's ``AppService`` (one tab's game process), whose process is the command run without
    a shell in a process group of its own (so that ending the group ends the game's own workers too),
    and is readable (`process`)."""

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        # (textual-serve's ``start`` calls this, and its ``run`` and ``send_bytes`` use what it sets)
        self._process = process = await asyncio.create_subprocess_exec(
            *shlex.split(self.command), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self._build_environment(width=width, height=height),
            start_new_session=True)
        assert process.stdin is not None  # (a pipe was asked for)
        self._stdin = process.stdin
        return process

    @property
    def process(self) -> Process | None:
        """The game's process (None until ``start``)."""
        return self._process


class AdaptedServer(Server):
    """textual-serve's ``Server``, whose web application a subclass adds to (`extend`), and which passes a
    tab's messages (keys, resizes, pings) to its game on demand (`relay`)."""

    async def _make_app(self) -> web.Application:
        # (textual-serve's ``serve`` calls this for the application it runs)
        app = await super()._make_app()
        self.extend(app)
        return app

    def extend(self, app: web.Application) -> None:
        """Add routes and startup or cleanup work to the web application before it runs (here: none)."""

    async def relay(self, websocket: web.WebSocketResponse, service: AppService) -> None:
        """Pass ``websocket``'s messages to ``service``'s game until the tab closes."""
        await self._process_messages(websocket, service)


# -- the server ------------------------------------------------------------------------------------------------

class GameService(AdaptedService):
    """One tab's game: started in its own process group, and sure to end when stopped."""

    async def stop(self) -> None:
        """Ask the game to quit; end its process group if it has not within `GRACE` seconds."""
        with contextlib.suppress(asyncio.TimeoutError, ConnectionError):
            await asyncio.wait_for(asyncio.shield(super().stop()), GRACE)
        process = self.process
        if process is None or process.returncode is not None:
            return
        for sig, wait in ((signal.SIGTERM, KILL_WAIT), (signal.SIGKILL, None)):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, sig)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), wait)
                return


class GameServer(AdaptedServer):
    """textual-serve's server with at most ``max_games`` games at once (`GameService` each), and beside
    the terminal at ``/`` the web board of `amigos_cli.table` at ``/board``: each visit a new game of
    ``new_table()``'s (a table of one person), counted in the same cap.

    Its links (`links`) are made from ``public_url`` (``--public-url``'s base: a tunnel or a reverse
    proxy in front of it) when given, else from the addresses it listens on; the terminal's page names
    the server (its websocket, its files) by ``public_url`` when given, else by the origin the browser
    asked it at, which works from wherever the browser is."""

    def __init__(self, command: str, host: str, port: int, max_games: int,
                 new_table: Callable[[], Table] | None = None, public_url: str | None = None) -> None:
        self.links: Links = links([(host, port)], public_url)
        self.public = public_url
        super().__init__(command, host=host, port=port, title="Amigos", public_url=self.links.base)
        self.max_games = max_games
        self.live: dict[GameService, web.WebSocketResponse] = {}  # each live game and its tab
        self.new_table = new_table
        self.hall = Hall()

    @property
    def public_url(self) -> str:
        """The origin textual-serve's page and start-up line name the server by: the origin of the request
        being answered (`PAGE_ORIGIN`), else the main link's (`links`)."""
        return PAGE_ORIGIN.get() or self.configured_url

    @public_url.setter
    def public_url(self, value: str) -> None:
        # (textual-serve's __init__ sets it; the page's request may override it, `handle_index`)
        self.configured_url = value

    def initialize_logging(self) -> None:
        """One scrubbed line a record, no access log (`amigos_cli.table.logs`): textual-serve's own
        logging shows tracebacks with their local variables, a request and its token among them."""
        quiet_logging(logging.INFO)

    def extend(self, app: web.Application) -> None:
        """The web board's routes, and its tables looked over while the server runs (`sweeping`)."""
        if self.new_table is not None:
            app.add_routes([web.get("/board", self.handle_board), *self.hall.routes()])
            app.cleanup_ctx.append(self.sweeping)

    async def sweeping(self, app: web.Application) -> AsyncIterator[None]:
        """Look the web board's tables over every `SWEEP_SECONDS` (`Hall.sweep`) from the server's start
        to its cleanup."""
        async def sweep() -> None:
            while True:
                await asyncio.sleep(SWEEP_SECONDS)
                self.hall.sweep(time.monotonic())

        app[SWEEPER] = asyncio.create_task(sweep())
        yield
        app[SWEEPER].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await app[SWEEPER]

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
        raise web.HTTPFound(f"{self.public or ''}/t/{seat}")  # (behind a proxy: its path too)

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
        """The terminal's page (textual-serve's), naming the server as the browser reached it unless a
        public URL was given; past the cap, the page that says so."""
        if self.games() >= self.max_games:
            return self.full()
        asked = origin_of(request.host, request.scheme) if self.public is None else None
        token = PAGE_ORIGIN.set(asked)  # (this request's task only; reset before its connection's next one)
        try:
            return await super().handle_index(request)
        finally:
            PAGE_ORIGIN.reset(token)

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
            await self.relay(websocket, service)
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
