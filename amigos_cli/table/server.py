"""The web server of a table (``amigos host``): the board page and a websocket for each seat and for
spectators, on aiohttp.

Routes: ``/t/TOKEN`` the board page (the same page for every seat: it opens its websocket with the
token of its own address), ``/board-files/NAME`` the page's script and style, ``/ws/TOKEN`` the
websocket.
A token of no seat gets 404, and nothing else is served: the tables's links are the only way in.

On a websocket the server sends ``{"type": "cards", ...}`` once (`amigos_cli.table.view.catalog` and
`vocabulary`) and a ``{"type": "view", ...}`` after every change, with the seat's ``tools``: whether it
may undo (``undo``: the only person at a table of agents, while the match waits for them) and its
auto-collect setting (``auto_collect``), and the session's last ``notice`` ("Undone.").  The page sends

- ``{"type": "choose", "ask": A, "group": G, "way": W}``, a decision;
- ``{"type": "hint"}``: the AI's suggestion comes back as ``{"type": "hint", "ask", "group", "way", "text"}``
  (searched off the event loop, one at a time a table);
- ``{"type": "undo"}``; ``{"type": "auto_collect", "on": true|false}``;
- ``{"type": "leave"}``: the seat's person goes (``{"type": "left", "alone": ..., "file": ...}``); when
  they are the only person, the table stops, its file saved, to be resumed with ``amigos host --resume``;
- ``{"type": "review"}``, once the match is over: the seat's review (`amigos_cli.table.reviews`), computed
  once for every person's seat when the first asks, ``{"type": "reviewing", "done", "total"}`` as it goes,
  then ``{"type": "review", ...}`` (`review_view`) to each seat that asked, its own decisions only.

A malformed or refused message gets ``{"type": "refused", "why": ...}`` and changes nothing.  A second
connection to one seat takes it over: the first is told (``{"type": "replaced"}``) and closed.  Caps:
`MAX_CONNECTIONS` connections, `MAX_MESSAGE` bytes a message.  No access log is kept: the tokens are in
the addresses.

The match plays in a thread of its own (`amigos_cli.table.model.Table`); what it tells the server comes
onto the event loop through ``call_soon_threadsafe``: its changes (`TableServer.changed`) and its end
(`TableServer.ended`, an `asyncio.Event`).  Every task the server starts is kept until done
(`TableServer.tasks`) and cancelled when the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Coroutine
from importlib import resources
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from amigos import jsontext
from matches.review import DEFAULT_ITERS
from matches.session import HUMAN

from .model import Snapshot, Table
from .reviews import ReviewStopped, TableReview, review_view
from .view import LogBook, catalog, match_of, view, vocabulary

MAX_CONNECTIONS = 64
IDLE_SECONDS = 300.0  # a served table nobody has been connected to for this long is stopped
CLOCK_SECONDS = 1.0  # how often the move clocks are looked at (a seat out of time is told within this)
MAX_MESSAGE = 4096
CLOSE_SECONDS = 3.0  # how long a closing connection has to answer the close (then it is dropped)
STATIC = ("board.js", "board.css")  # the page's files, besides board.html
FILES = "/board-files/"  # where they are served (``amigos serve``'s terminal has its own /static/)
SPECTATORS = -1  # the key of the spectators' connections
log = logging.getLogger("amigos.host")


async def static_file(request: web.Request) -> web.Response:
    """One of the page's files (`STATIC`), the same for every table."""
    name = request.match_info["name"]
    if name not in STATIC:
        raise web.HTTPNotFound()
    text = resources.files(__package__).joinpath("static", name).read_text("utf-8")
    kind = "application/javascript" if name.endswith(".js") else "text/css"
    return web.Response(text=text, content_type=kind)


class TableServer:
    """Serves one `Table` (see the module docstring)."""

    def __init__(self, table: Table, review_iters: int = DEFAULT_ITERS) -> None:
        self.table = table
        self.review = TableReview(table, review_iters)  # (computed when a seat first asks, the match over)
        self.review_task: asyncio.Task[None] | None = None
        self.review_asked: set[int] = set()  # the seats that asked for their review
        self.connections: dict[int, list[web.WebSocketResponse]] = {}  # by seat (`SPECTATORS`); one a seat
        self.sending: set[web.WebSocketResponse] = set()  # the connections a view is on its way to (`send_view`)
        self.stale: set[web.WebSocketResponse] = set()  # ... and the table changed since that view was made
        self.open = 0  # every connection of this table, from before its handshake to its end
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: set[asyncio.Task[None]] = set()  # the server's tasks under way (views on their way): kept until done
        self.ended = asyncio.Event()  # the match's thread has ended (its last view sent on its way): `begin`
        self.flush_lock = threading.Lock()
        self.flushing = False  # a broadcast of the latest snapshot is on its way (`changed`)
        self.hinting = asyncio.Lock()  # a hint's search under way (one at a time: it takes a core)
        self.cards = catalog(table.snapshot.state.sets)
        players = table.match.record["players"]
        self.book = LogBook([p["name"] for p in players], [p["spec"] == HUMAN for p in players])
        self.app = web.Application()
        self.app.add_routes([web.get("/t/{token}", self.page), web.get(FILES + "{name}", static_file),
                             web.get("/ws/{token}", self.websocket)])
        self.app.on_shutdown.append(self.on_shutdown)

    # -- pages -------------------------------------------------------------------------------------------

    def _seat(self, request: web.Request) -> int | None:
        """The seat of the request's token (None: spectators); `HTTPNotFound` for any other token."""
        try:
            return self.table.seat_of(request.match_info["token"])
        except KeyError:
            raise web.HTTPNotFound(text="No such table seat.") from None

    async def page(self, request: web.Request) -> web.Response:
        self._seat(request)
        html = resources.files(__package__).joinpath("static", "board.html").read_text("utf-8")
        return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-store",
                                                                          "Referrer-Policy": "no-referrer"})


    # -- websockets --------------------------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One connection, counted in `MAX_CONNECTIONS` from before its handshake to its end (the count
        is taken and kept without a pause between, so that connections opened at once cannot pass it
        together).  A seat has one connection: a new one takes it over, and the old one, closed, answers
        nothing more."""
        seat = self._seat(request)
        if self.open >= MAX_CONNECTIONS:
            raise web.HTTPServiceUnavailable(text="This table has as many connections as it takes.")
        self.open += 1
        key = SPECTATORS if seat is None else seat
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30, timeout=CLOSE_SECONDS)
        try:
            await ws.prepare(request)
            await ws.send_json({"type": "cards", "cards": self.cards, **vocabulary()})  # (first: no view goes before it)
            sockets = self.connections.setdefault(key, [])
            replaced = list(sockets) if seat is not None else []
            if seat is not None:
                sockets.clear()
            sockets.append(ws)
            for old in replaced:  # (one tab a seat: the new one takes over)
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await old.send_json({"type": "replaced"})
                    await old.close(code=WSCloseCode.POLICY_VIOLATION, message=b"taken over by another tab")
            await self.send_view(ws, seat)
            self.broadcast()  # (the seat is shown connected to the others)
            async for message in ws:
                if ws not in self.connections.get(key, ()):
                    break  # (taken over while its message was on its way)
                if message.type == WSMsgType.TEXT:
                    why = await self.answer(seat, message.data, ws)
                    if why is not None:
                        await ws.send_json({"type": "refused", "why": why})
                else:
                    break  # (a binary message: no page sends one)
        except (ConnectionError, RuntimeError, asyncio.TimeoutError):
            pass  # (the connection broke: the seat waits for the next one)
        finally:
            self.open -= 1
            sockets = self.connections.get(key, [])
            if ws in sockets:
                sockets.remove(ws)
            self.sending.discard(ws)
            self.stale.discard(ws)
            self.broadcast()
        return ws

    async def answer(self, seat: int | None, text: str, ws: web.WebSocketResponse) -> str | None:
        """Take one message from ``seat``'s page (see the module docstring); why it is refused, or None.
        A message is read within the bridge's bounds (`amigos.jsontext`: depth, no non-finite numbers)
        and `MAX_MESSAGE` bytes."""
        if seat is None:
            return "spectators watch"
        if len(text) > MAX_MESSAGE:
            return "too long"
        try:
            message = jsontext.loads(text)
        except ValueError:
            return "not JSON"
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "choose":
            numbers = [message.get(key) for key in ("ask", "group", "way")]
            whole = [n for n in numbers if isinstance(n, int) and not isinstance(n, bool)]
            if len(whole) != 3:
                return "a choice is three whole numbers: ask, group and way"
            return self.table.choose(seat, whole[0], whole[1], whole[2])
        if kind == "hint":
            return await self.hint(seat, ws)
        if kind == "undo":
            return self.table.undo(seat)
        if kind == "auto_collect":
            on = message.get("on")
            if not isinstance(on, bool):
                return "auto_collect takes on: true or false"
            self.table.set_auto_collect(seat, on)
            return None
        if kind == "leave":
            await self.leave(seat, ws)
            return None
        if kind == "review":
            return self.ask_review(seat)
        return "unknown message"

    async def hint(self, seat: int, ws: web.WebSocketResponse) -> str | None:
        """Search for ``seat``'s hint off the event loop (one search at a time a table) and send it."""
        if self.hinting.locked():
            return "a hint is being worked out"
        async with self.hinting:
            found = await asyncio.get_running_loop().run_in_executor(None, self.table.hint, seat)
        if found is None:
            return "no decision of yours to hint at"
        ask, group, way, words = found
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_json({"type": "hint", "ask": ask, "group": group, "way": way, "text": words})
        return None

    async def leave(self, seat: int, ws: web.WebSocketResponse) -> None:
        """``seat``'s person goes.  The only person at a table of agents stops it (its file saved, to be
        resumed); at a table of people the seat waits for them, its link bringing them back."""
        alone = self.table.people() == [seat]
        if alone:
            await asyncio.get_running_loop().run_in_executor(None, self.table.stop)
            self.table.session.save()
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_json({"type": "left", "alone": alone, "file": str(self.table.path) if alone else None})
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"left")

    # -- the review, once the match is over ----------------------------------------------------------------

    def ask_review(self, seat: int) -> str | None:
        """``seat`` asks for its review: sent at once if it is made, else when it is (its computation
        started by the first to ask, its progress sent meanwhile); why not, if it cannot be."""
        if not self.table.match.is_over():
            return "the review comes once the match is over"
        if seat not in self.review.seats():
            return "no review for this seat"
        self.review_asked.add(seat)
        if self.review.result is not None:
            self._send_to(seat, review_view(self.review.result, seat))
        elif self.review_task is None:
            self.review_task = asyncio.get_running_loop().create_task(self._compute_review())
        else:
            self._send_to(seat, {"type": "reviewing", "done": self.review.done, "total": self.review.total})
        return None

    async def _compute_review(self) -> None:
        loop = asyncio.get_running_loop()

        def progress(done: int, total: int) -> None:  # (on the review's thread)
            loop.call_soon_threadsafe(self._reviewing, done, total)

        try:
            result = await loop.run_in_executor(None, self.review.compute, progress)
        except ReviewStopped:
            return
        except Exception as exc:  # noqa: BLE001 - told to the seats that asked, who may ask again
            log.warning("the review failed: %s", exc)
            self.review_task = None
            for seat in self.review_asked:
                self._send_to(seat, {"type": "refused", "why": f"the review failed: {exc}"})
            return
        for seat in self.review_asked:
            self._send_to(seat, review_view(result, seat))

    def _reviewing(self, done: int, total: int) -> None:
        for seat in self.review_asked:
            self._send_to(seat, {"type": "reviewing", "done": done, "total": total})

    def _send_to(self, seat: int, data: dict[str, Any]) -> None:
        """Send ``data`` to ``seat``'s connection, if it has one (on the event loop)."""
        async def send(ws: web.WebSocketResponse) -> None:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_json(data)

        for ws in list(self.connections.get(seat, ())):
            self.keep(send(ws))

    def people_connected(self) -> bool:
        """A person's seat has a page open."""
        return any(self.connections.get(seat) for seat in self.review.seats())

    # -- views -------------------------------------------------------------------------------------------

    def seats(self) -> list[dict[str, Any]]:
        """Each seat's standing: a person's (connected or waiting) or an agent's (its spec)."""
        out = []
        for seat, player in enumerate(self.table.match.record["players"]):
            if self.table.tokens[seat] is None or seat in self.table.handed:
                out.append({"kind": "agent", "spec": self.table.handed.get(seat, player["spec"])})
            else:
                out.append({"kind": "person", "connected": bool(self.connections.get(seat))})
        return out

    def view_for(self, seat: int | None, snapshot: Snapshot) -> dict[str, Any]:
        """What ``seat`` (None: spectators) is sent of the table at ``snapshot`` (`amigos_cli.table.view`)."""
        names = [p["name"] for p in self.table.match.record["players"]]
        data = view(snapshot.state, seat, names, self.table.steps(snapshot), snapshot.asked, self.seats(),
                    book=self.book, match=match_of(self.table.match), together=snapshot.together)
        if self.table.clocks is not None:
            data["clocks"] = self.table.clocks.view(len(names), time.monotonic())
        if seat is not None:
            data["tools"] = {"undo": self.table.can_undo(seat) and snapshot.asked is not None,
                             "auto_collect": self.table.auto.get(seat, False)}
            data["notice"] = self.table.notice if self.table.people() == [seat] else None
        return data

    async def send_view(self, ws: web.WebSocketResponse, seat: int | None) -> None:
        """Send ``seat``'s view of the table's latest snapshot on ``ws``.  A connection's views go one at a
        time, so the last to arrive is of the latest snapshot: a big view is compressed off the loop, and
        one sent after it could otherwise overtake it, leaving the page on a past decision.  While one is
        on its way, the changes meanwhile are sent once after it, in one view of the latest snapshot."""
        if ws in self.sending:
            self.stale.add(ws)
            return
        self.sending.add(ws)
        try:
            while not ws.closed:
                self.stale.discard(ws)
                data = self.view_for(seat, self.table.snapshot)
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await ws.send_json(data)
                if ws not in self.stale:
                    break
        finally:
            self.sending.discard(ws)

    def broadcast(self) -> None:
        """Send every connection its view of the table now (on the event loop)."""
        for key, sockets in list(self.connections.items()):
            for ws in list(sockets):
                self.keep(self.send_view(ws, None if key == SPECTATORS else key))

    def keep(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task of the server's, kept (`tasks`) until it is done: the loop keeps only a
        weak reference to a task."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def sent(self) -> None:
        """Wait for the views on their way (and any other task of the server's) to be done."""
        while self.tasks:
            await asyncio.wait(set(self.tasks))

    def changed(self) -> None:
        """The table changed (called on the match's thread): broadcast on the event loop.  Changes that
        come faster than the loop sends (an agent's moves one after another) are sent once: a view is
        always of the table's latest snapshot, whose log holds every move, so the views in between
        would only be drawn to be drawn over."""
        with self.flush_lock:
            if self.loop is None or self.flushing:
                return
            self.flushing = True
        self.loop.call_soon_threadsafe(self._flush)

    def _flush(self) -> None:
        with self.flush_lock:
            self.flushing = False
        self.broadcast()

    async def on_shutdown(self, app: web.Application) -> None:
        """The server stopping: every connection closed, told why, and the tasks under way cancelled (a
        review under way too, at its next decision)."""
        self.review.stop()
        if self.review_task is not None:
            self.review_task.cancel()
        for sockets in self.connections.values():
            for ws in list(sockets):
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await ws.close(code=WSCloseCode.GOING_AWAY, message=b"the table stopped")
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- running -----------------------------------------------------------------------------------------

    async def start(self, host: str, port: int) -> web.AppRunner:
        """Listen on ``host``:``port`` and start the table's match (no access log: tokens are in the paths)."""
        runner = web.AppRunner(self.app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, host, port).start()
        self.begin()
        return runner

    def begin(self) -> None:
        """Start the table's match, its changes sent on the running event loop, and `ended` set there when
        its thread ends (after its last change is sent on its way: the loop runs callbacks in order)."""
        self.loop = asyncio.get_running_loop()
        self.table.start(self.changed, self._ended)
        if self.table.clocks is not None:
            self.keep(self._watch_clocks())

    async def _watch_clocks(self) -> None:
        """Look at the move clocks every `CLOCK_SECONDS` until the match ends: a seat whose time has run
        out is shown so, and handed to the clock's agent if the host named one (off the event loop:
        handing a seat over waits for nothing, but builds an agent)."""
        loop = asyncio.get_running_loop()
        while not self.ended.is_set():
            await asyncio.sleep(CLOCK_SECONDS)
            await loop.run_in_executor(None, self.table.clocks_run_out)  # (it tells the table's change)

    def _ended(self) -> None:
        """The match's thread ends (called on that thread)."""
        assert self.loop is not None  # (`begin` set it before the thread began)
        with contextlib.suppress(RuntimeError):  # (the loop is closed: nobody waits any more)
            self.loop.call_soon_threadsafe(self.ended.set)

    def idle(self) -> bool:
        """Nobody is connected."""
        return not any(self.connections.values())


class Hall:
    """Several tables served by one web application (``amigos serve``'s web board: a new table for each
    visit of ``/board``), each reached only through its own tokens.  A table whose match has ended (over,
    or failed) or that has been idle for `IDLE_SECONDS`, and that nobody is connected to, is stopped (its
    file is saved) and forgotten."""

    def __init__(self) -> None:
        self.servers: dict[str, TableServer] = {}  # every token of every table: its server
        self.quiet: dict[TableServer, float] = {}  # when each table was last seen with nobody connected

    def add(self, server: TableServer) -> None:
        server.begin()
        for token in [*server.table.tokens, server.table.spectator]:
            if token is not None:
                self.servers[token] = server

    def tables(self) -> list[TableServer]:
        return list(dict.fromkeys(self.servers.values()))

    def routes(self) -> list[web.RouteDef]:
        """The tables' pages, files and websockets, each sent to the table its token opens."""
        async def page(request: web.Request) -> web.StreamResponse:
            return await self._server(request).page(request)

        async def websocket(request: web.Request) -> web.StreamResponse:
            return await self._server(request).websocket(request)

        return [web.get("/t/{token}", page), web.get("/ws/{token}", websocket),
                web.get(FILES + "{name}", static_file)]

    def _server(self, request: web.Request) -> TableServer:
        server = self.servers.get(request.match_info["token"])
        if server is None:
            raise web.HTTPNotFound(text="No such table seat.")
        return server

    def sweep(self, now: float) -> None:
        """Stop and forget the tables nobody is connected to whose match has ended, or that have been idle
        for `IDLE_SECONDS`."""
        for server in self.tables():
            if not server.idle():
                self.quiet.pop(server, None)
                continue
            since = self.quiet.setdefault(server, now)
            if server.ended.is_set() or now - since >= IDLE_SECONDS:
                server.review.stop()
                server.table.stop()
                self.quiet.pop(server, None)
                self.servers = {t: s for t, s in self.servers.items() if s is not server}

    async def stop(self) -> None:
        for server in self.tables():
            await server.on_shutdown(server.app)
            server.table.stop()
