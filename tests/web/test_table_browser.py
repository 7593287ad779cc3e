"""The table's web board in a real browser: a whole game played in headless Chromium by clicking, a
person against an agent (`amigos host`'s `Table` and `TableServer` in the test's event loop), the page
driven over the Chrome DevTools Protocol with aiohttp's websocket client.  Skipped, with the reason,
where Debian's chromium is not installed.

`Chromium` and `Page` are also what lab/table_screenshots.py and benchmarks/table_speed.py drive the board with.
"""

from __future__ import annotations

import asyncio
import base64
import os
import random
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from amigos.config import GameConfig
from amigos_cli.table.model import Table
from amigos_cli.table.server import TableServer
from matches.match import Match
from matches.record import load

CHROMIUM = Path(os.environ.get("AMIGOS_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-extensions", "--mute-audio", "--disable-renderer-backgrounding",
                  "--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows", "--remote-debugging-address=127.0.0.1",
                  "--remote-debugging-port=0")
LISTENING = re.compile(r"DevTools listening on (ws://\S+)")
START_TIMEOUT = 30.0   # seconds for Chromium to say where its DevTools listen
GAME_TIMEOUT = 170.0   # seconds for the whole game by clicking (it takes about 15 on 2 cores)
POLL = 0.02            # seconds between looks at the page while the agent moves

needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no browser: {CHROMIUM} is not installed "
                                    "(Debian: apt-get install chromium)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Page:
    """One tab, over its DevTools websocket: `call` a method and wait for its answer; exceptions the
    page's script throws are kept in ``errors``."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 0
        self.errors: list[str] = []

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        mine = self.next_id
        await self.ws.send_json({"id": mine, "method": method, "params": params})
        while True:
            message = await self.ws.receive_json(timeout=60)
            if message.get("method") == "Runtime.exceptionThrown":
                details = message["params"]["exceptionDetails"]
                self.errors.append(details.get("exception", {}).get("description") or details.get("text", "?"))
            if message.get("id") == mine:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))

    async def evaluate(self, expression: str) -> Any:
        """The value of a script expression in the page (awaited if a promise)."""
        reply = await self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression[:60]}...: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    async def key(self, key: str, code: str = "", text: str = "") -> None:
        """Press and release one key (``key`` as the page's event reads it: "3", "Enter", "Escape")."""
        for kind in ("keyDown", "keyUp"):
            await self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code or key, text=text if kind == "keyDown" else "",
                            windowsVirtualKeyCode={"Enter": 13, "Escape": 27}.get(key, ord(key[0]) if len(key) == 1 else 0))

    async def screenshot(self, path: Path) -> None:
        shot = await self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))

    async def wait_for(self, expression: str, timeout: float = 20.0) -> Any:
        """The first true value of ``expression``, looked at until ``timeout`` (an expression that throws
        while the page is still loading counts as false)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = await self.evaluate(expression)
            except RuntimeError:
                value = None
            if value:
                return value
            await asyncio.sleep(POLL)
        raise AssertionError(f"the page never had {expression}")


class Chromium:
    """Headless Chromium with its DevTools on a free port (read from its "DevTools listening on" line),
    in a profile folder of its own; `open` a tab at an address."""

    def __init__(self, width: int = 1400, height: int = 900) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="amigos-chromium-"))
        self.size = (width, height)
        self.proc: subprocess.Popen[bytes] | None = None
        self.http = ""
        self.client: aiohttp.ClientSession | None = None
        self.pages: list[Page] = []

    async def __aenter__(self) -> Chromium:
        errors = (self.folder / "stderr").open("wb")
        self.proc = subprocess.Popen([str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={self.folder / 'profile'}",
                                      f"--window-size={self.size[0]},{self.size[1]}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=errors, stdin=subprocess.DEVNULL)
        errors.close()
        deadline = time.monotonic() + START_TIMEOUT
        while not self.http:
            found = LISTENING.search((self.folder / "stderr").read_text(errors="replace"))
            if found:
                self.http = "http://" + found.group(1).split("/")[2]
            elif self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("chromium did not start: " + (self.folder / "stderr").read_text(errors="replace")[-800:])
            else:
                await asyncio.sleep(0.05)
        self.client = aiohttp.ClientSession()
        return self

    async def open(self, url: str) -> Page:
        """A new tab at ``url``, its script's exceptions watched."""
        assert self.client is not None
        async with self.client.put(f"{self.http}/json/new?{url}") as reply:
            target = await reply.json(content_type=None)
        ws = await self.client.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
        page = Page(ws)
        await page.call("Runtime.enable")
        await page.call("Page.enable")
        await page.call("Emulation.setDeviceMetricsOverride", width=self.size[0], height=self.size[1],
                        deviceScaleFactor=1, mobile=False)
        self.pages.append(page)
        return page

    async def __aexit__(self, *exc: object) -> None:
        for page in self.pages:
            await page.ws.close()
        if self.client is not None:
            await self.client.close()
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


#: A script that makes one move on the board, as a person would, and says what it did: "over" once the
#: result is shown, "wait" while it is not this seat's decision; else it clicks, by ``pick`` (a number
#: in [0, 1) from the test's seeded random): a card outlined as playable (a quarter of the time, when
#: there is one), or one of the listed buttons (a choice, or a way of the payment picker).
MOVE = """((pick) => {
  if (document.querySelector('#choices .result')) return 'over';
  const buttons = [...document.querySelectorAll('#choices .list button:not([disabled])')];
  if (!buttons.length) return 'wait';
  const picking = document.querySelector('#choices h2').textContent.includes('which way');
  const cards = [...document.querySelectorAll('#table .playable')];
  if (!picking && cards.length && pick < 0.25) {
    const card = cards[Math.floor(pick * 4 * cards.length)];
    card.click();
    return 'card ' + (card.dataset.card || 'monument deck');
  }
  const button = buttons[Math.floor(pick * buttons.length)];
  button.click();
  return (picking ? 'way ' : 'choice ') + button.textContent;
})(%s)"""


ENABLED = "document.querySelectorAll('#choices .list button:not([disabled])').length"
PICKING = "(document.querySelector('#choices h2') || {textContent: ''}).textContent.includes('which way')"


async def play_by_clicking(page: Page, rng: random.Random, timeout: float, keys_every: int = 7) -> list[str]:
    """Play one seat's decisions on ``page`` until the result is shown; what was done, in order.  Every
    ``keys_every``-th move is made with the keyboard instead (a number, then Enter; Escape once from a
    payment picker before choosing again)."""
    done: list[str] = []
    deadline = time.monotonic() + timeout
    while True:
        if time.monotonic() >= deadline:
            shown = await page.evaluate("document.querySelector('#choices').innerText")
            raise AssertionError(f"the game was not over in {timeout} s: {done[-5:]}; the page shows {shown[:400]!r}")
        if len(done) % keys_every == keys_every - 1 and await page.evaluate(ENABLED):
            if await page.evaluate(PICKING):
                await page.key("Escape")
                assert not await page.evaluate(PICKING), "Escape did not go back from the ways"
            count = await page.evaluate(ENABLED)
            if count:
                n = rng.randrange(min(count, 9)) + 1
                await page.key(str(n), code=f"Digit{n}", text=str(n))
                assert await page.evaluate("document.querySelector('#choices button.lit .num').textContent") == f"{n}."
                await page.key("Enter", text="\r")
                done.append(f"keys {n}")
                continue
        did = await page.evaluate(MOVE % rng.random())
        if did == "over":
            return done
        if did == "wait":
            await asyncio.sleep(POLL)
            continue
        done.append(did)


@needs_chromium
def test_a_whole_game_played_by_clicking_in_headless_chromium(tmp_path):
    """A person (seat 1, clicking choices, ways, cards and typing numbers) against a random agent,
    until the page shows the result; the match file is finished, the page threw nothing, and its board
    showed the cards with their costs, the centre and the log along the way."""
    match = Match.new(11, ["human", "random"], GameConfig(players=2), fmt="game", names=["Ann", "Random"])
    table = Table.new(match, tmp_path / "browser.amigos")
    server = TableServer(table)
    port = free_port()
    seen: dict[str, Any] = {}

    async def scenario() -> list[str]:
        runner = await server.start("127.0.0.1", port)
        try:
            async with Chromium() as browser:
                page = await browser.open(f"http://127.0.0.1:{port}/t/{table.tokens[0]}")
                await page.wait_for("document.querySelectorAll('#choices .list button').length")
                seen["first"] = await page.evaluate(BOARD_FACTS)
                seen["words"] = await page.evaluate(WORDS)
                done = await play_by_clicking(page, random.Random(3), GAME_TIMEOUT)
                seen["last"] = await page.evaluate(BOARD_FACTS)
                seen["result"] = await page.evaluate("document.querySelector('#choices .result').innerText")
                await page.screenshot(tmp_path / "over.png")
                assert not page.errors, page.errors
                return done
        finally:
            table.stop()
            await runner.cleanup()

    done = asyncio.run(scenario())
    saved = load(tmp_path / "browser.amigos")
    assert saved.is_over() and saved.record["status"] == "finished"
    assert any(d.startswith("way ") for d in done), "no payment picker was used"
    assert any(d.startswith("keys ") for d in done) and any(d.startswith("card ") for d in done)
    first, last = seen["first"], seen["last"]
    assert seen["words"] == ('Use Prism: pay <span class="pip l" title="1 life">1L</span>, gain '
                             '<span class="pip g" title="2 gold">2G</span>  <span class="vpnote">(+1 VP)</span>')
    assert first["mageOptions"] == 2 and first["turn"] == "Your turn"
    assert last["cards"] > 5 and last["costs"] > 0 and last["logLines"] > 20 and last["centre"] >= 5
    winners = saved.record["games"][0]["result"]["winners"]
    names = ["Ann", "Random"]
    assert all(names[p] in seen["result"] for p in winners) and "Ann" in seen["result"] and "Random" in seen["result"]
    assert (tmp_path / "over.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


#: What the board shows, counted in the page (for the test's checks).
BOARD_FACTS = """({
  turn: document.querySelector('#turn').textContent,
  mageOptions: [...document.querySelectorAll('#hand .card.mage')].length,
  cards: document.querySelectorAll('#table .card').length,
  costs: document.querySelectorAll('#table .card .ccost .pip').length,
  centre: document.querySelectorAll('#centre .card').length,
  logLines: document.querySelectorAll('#log p').length,
})"""


#: A choice's words as the board draws them from their segments (amigos_cli/table/view.py's `words`).
WORDS = """(() => {
  const box = document.createElement('div');
  box.appendChild(words([{text: 'Use Prism: pay '}, {essences: [0, 1, 0, 0, 0]}, {text: ', gain '},
                         {essences: [0, 0, 0, 0, 2]}, {text: '  '}, {points: 1, text: '(+1 VP)'}]));
  return box.innerHTML;
})()"""


def test_the_board_reads_no_number_or_name_back_out_of_words():
    """The board draws the view's fields (amigos_cli/table/view.py): it matches no pattern against the
    server's words; its only patterns turn a code's underscores into spaces ("place_of_power")."""
    from importlib import resources
    script = resources.files("amigos_cli.table").joinpath("static", "board.js").read_text("utf-8")
    code = "\n".join(line.split("//")[0] for line in script.splitlines())  # (not the comments)
    patterns = re.findall(r"(?<![\w)\]\s])\s*(/(?![/*])(?:\\.|[^/\n\\])+/[dgimsuy]*)", code)
    assert {p.strip() for p in patterns} <= {"/_/g"}, patterns
    for reading in ("RegExp", "matchAll(", ".match(", ".search(", ".test(", "startsWith(", "endsWith(", "parseInt(", "Number("):
        assert reading not in code.replace("parseInt(typed", ""), reading


def test_the_page_and_its_files_are_served_whole_and_fetch_nothing_from_elsewhere():
    """The board works offline: no address outside the table's own server in its HTML, style or script."""
    from importlib import resources
    folder = resources.files("amigos_cli.table").joinpath("static")
    for name in ("board.html", "board.css", "board.js"):
        text = folder.joinpath(name).read_text("utf-8")
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/|@import|url\(", text), name
    html = folder.joinpath("board.html").read_text("utf-8")
    assert set(re.findall(r'(?:src|href)="([^"]+)"', html)) == {"/board-files/board.css", "/board-files/board.js"}


def test_the_board_names_the_essences_as_the_engine_sends_them():
    """The essences' names and letters come with the catalog (`amigos_cli.table.view.vocabulary`), from
    the engine's one table of them: the board's script restates none, and every kind of action a choice
    may name is the engine's."""
    from importlib import resources

    from amigos import actions as A
    from amigos import cards as C
    from amigos_cli.table.view import vocabulary
    script = resources.files("amigos_cli.table").joinpath("static", "board.js").read_text("utf-8")
    code = "\n".join(line.split("//")[0] for line in script.splitlines())  # (not the comments)
    assert not [name for name in C.ESSENCES if f'"{name}"' in code]
    words = vocabulary()
    assert words["essences"] == list(C.ESSENCES) and len(words["letters"]) == len(C.ESSENCES)
    assert len(words["acts"]) == len(A.TYPE_NAMES) == len(set(words["acts"]))
