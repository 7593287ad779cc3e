"""A finished table offers its review (`amigos_cli.table.reviews`): a seat asks once the match is over and
gets the search's progress, then its own graded decisions only, the same as ``amigos review`` makes; the
review is kept beside the table's file with the file's mode; before the end, a spectator, or a seat
asking again are answered as they should be; the host stays open while a person's page is; the page
shows the review (graph, marks, "n" to the next mistake) in headless Chromium."""

from __future__ import annotations

import asyncio
import json
import random
import stat
from typing import Any

import aiohttp

from amigos_cli.table.model import Table
from amigos_cli.table.server import TableServer
from matches import review as R
from matches.record import load

from .test_table import _table, free_port, seat_client, served
from .test_table_browser import Chromium, needs_chromium, play_by_clicking

ITERS = 40  # (a small budget: the mechanics, not the grades' quality)


async def _ask(port: int, token: str, until: str = "review") -> list[dict[str, Any]]:
    """Open ``token``'s page, ask for the review, and return every message up to the first ``until``."""
    got: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as client, client.ws_connect(f"ws://127.0.0.1:{port}/ws/{token}") as ws:
        await ws.send_json({"type": "review"})
        async for message in ws:
            data = json.loads(message.data)
            got.append(data)
            if data["type"] in (until, "refused"):
                break
    return got


def test_a_finished_table_reviews_each_seat_s_own_decisions_and_keeps_the_review(tmp_path):
    table = _table(tmp_path, ["human", "greedy"], seed=8)
    server = TableServer(table, review_iters=ITERS)
    port = free_port()
    early: list[dict[str, Any]] = []

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
        async with served(server, port):
            async with aiohttp.ClientSession() as client, \
                    client.ws_connect(f"ws://127.0.0.1:{port}/ws/{table.tokens[0]}") as ws:
                await ws.send_json({"type": "review"})  # (before the end: refused)
                async for message in ws:
                    data = json.loads(message.data)
                    if data["type"] == "refused":
                        early.append(data)
                        break
            await asyncio.wait_for(seat_client(port, table.tokens[0], random.Random(4), []), 120)
            await asyncio.wait_for(server.ended.wait(), 30)
            watcher = await _ask(port, table.spectator)
            first = await asyncio.wait_for(_ask(port, table.tokens[0]), 300)
            again = await asyncio.wait_for(_ask(port, table.tokens[0]), 30)
            return watcher, first, again

    watcher, first, again = asyncio.run(scenario())
    assert early and early[0]["why"] == "the review comes once the match is over"
    assert watcher[-1] == {"type": "refused", "why": "spectators watch"}
    assert any(m["type"] == "reviewing" for m in first) and first[-1]["type"] == "review"
    sent = first[-1]
    # (made once: the second time it comes at once, no progress between)
    assert [m for m in again if m["type"] in ("review", "reviewing")] == [sent]
    record = load(tmp_path / "table.amigos").record
    made = R.review(record, [0], ITERS)  # (what `amigos review --seat 1 --iters 40` makes)
    ours = [d for g in sent["games"] for d in g["decisions"]]
    assert sent["seat"] == 0 and len(ours) == len(made.decisions) > 10
    assert [(d["index"], d["grade"], d["before"], d["after"]) for d in ours] == \
        [(d.index, d.grade, d.before, d.after) for d in made.decisions]
    assert all(d["mark"] == R.MARKS.get(d["grade"], "") for d in ours)
    path = R.review_path(tmp_path / "table.amigos")
    kept = R.kept_review(path, record)
    assert kept is not None and kept.seats == [0] and kept.decisions == made.decisions
    assert stat.S_IMODE(path.stat().st_mode) == stat.S_IMODE((tmp_path / "table.amigos").stat().st_mode) == 0o600


def test_two_people_each_get_their_own_decisions_only(tmp_path):
    table = _table(tmp_path, ["human", "human"], seed=9)
    server = TableServer(table, review_iters=ITERS)
    port = free_port()

    async def scenario() -> list[list[dict[str, Any]]]:
        async with served(server, port):
            await asyncio.wait_for(asyncio.gather(seat_client(port, table.tokens[0], random.Random(1), []),
                                                  seat_client(port, table.tokens[1], random.Random(2), [])), 120)
            await asyncio.wait_for(server.ended.wait(), 30)
            return list(await asyncio.wait_for(asyncio.gather(_ask(port, table.tokens[0]),
                                                              _ask(port, table.tokens[1])), 300))

    both = asyncio.run(scenario())
    record = load(tmp_path / "table.amigos").record
    made = R.review(record, [0, 1], ITERS)
    for seat, got in enumerate(both):
        sent = got[-1]
        assert sent["type"] == "review" and sent["seat"] == seat
        ours = [(g["game"], d["index"]) for g in sent["games"] for d in g["decisions"]]
        assert ours == [(d.game, d.index) for d in made.of(seat)] and ours


def test_a_review_under_way_stops_with_the_table(tmp_path):
    """The server stopping ends a review under way at its next decision: nothing is kept, nothing hangs."""
    table = _table(tmp_path, ["human", "greedy"], seed=8)
    server = TableServer(table, review_iters=3000)
    server.review.jobs = 1  # (the in-process path: its progress comes at each decision)
    port = free_port()

    async def scenario() -> None:
        async with served(server, port):
            await asyncio.wait_for(seat_client(port, table.tokens[0], random.Random(4), []), 120)
            await asyncio.wait_for(server.ended.wait(), 30)
            await asyncio.wait_for(_ask(port, table.tokens[0], until="reviewing"), 60)
            assert server.review_task is not None and not server.review_task.done()
        assert server.review.stopping.is_set()

    asyncio.run(asyncio.wait_for(scenario(), 200))
    assert not R.review_path(tmp_path / "table.amigos").exists()


@needs_chromium
def test_the_page_shows_the_review_its_graph_and_n_goes_to_the_next_mistake(tmp_path):
    from amigos.config import GameConfig
    from matches.match import Match
    match = Match.new(11, ["human", "random"], GameConfig(players=2), fmt="game", names=["Ann", "Random"])
    table = Table.new(match, tmp_path / "browser.amigos")
    server = TableServer(table, review_iters=ITERS)
    port = free_port()

    async def scenario() -> dict[str, Any]:
        runner = await server.start("127.0.0.1", port)
        try:
            async with Chromium() as browser:
                page = await browser.open(f"http://127.0.0.1:{port}/t/{table.tokens[0]}")
                await page.wait_for("document.querySelectorAll('#choices .list button').length")
                await play_by_clicking(page, random.Random(3), 170)
                await page.wait_for("!!document.querySelector('.review button')")
                offered = await page.evaluate("document.querySelector('.review').innerText")
                await page.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'r'}))")
                await page.wait_for("document.querySelectorAll('.review ol.graded li').length", timeout=300)
                before = await page.evaluate(FACTS)
                await page.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'n'}))")
                await asyncio.sleep(0.2)
                after = await page.evaluate(FACTS)
                await page.screenshot(tmp_path / "review.png")
                assert not page.errors, page.errors
                return {"offered": offered, "before": before, "after": after}
        finally:
            table.stop()
            await runner.cleanup()

    seen = asyncio.run(scenario())
    assert "Review my game" in seen["offered"]
    before, after = seen["before"], seen["after"]
    kept = R.kept_review(R.review_path(tmp_path / "browser.amigos"), load(tmp_path / "browser.amigos").record)
    assert kept is not None and before["moves"] == len(kept.of(0))
    assert before["points"] == before["moves"] and before["summary"].startswith("accuracy ")
    faults = [d for d in kept.of(0) if d.grade in R.FAULTS]
    assert before["marks"] == sum(d.grade in R.MARKS for d in kept.of(0))
    if faults:  # ("n": the first mistake or blunder picked out, in the list and on the graph)
        assert after["at"] is not None and after["at"].startswith(f"#{faults[0].index + 1}")
    else:
        assert after["at"] is None
    assert (tmp_path / "review.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


#: What the page shows of the review.
FACTS = """({
  moves: document.querySelectorAll('.review ol.graded li').length,
  marks: document.querySelectorAll('.review ol.graded li .mark').length,
  points: document.querySelector('.review svg.chance polyline').getAttribute('points').trim().split(' ').length,
  summary: document.querySelector('.review .summary').textContent,
  at: (document.querySelector('.review ol.graded li.at') || {textContent: null}).textContent,
})"""


def test_the_host_stays_open_while_a_person_s_page_is_and_ends_when_it_closes(tmp_path):
    """`amigos host` after the match: its end waits for the people's pages to close (to read their
    reviews), and comes within a look of their closing."""
    from amigos_cli.commands import host as H
    table = _table(tmp_path, ["human", "greedy"], seed=8)
    server = TableServer(table, review_iters=ITERS)
    port = free_port()

    async def scenario() -> tuple[bool, bool]:
        async with served(server, port):
            done = asyncio.Event()
            await asyncio.wait_for(seat_client(port, table.tokens[0], random.Random(4), []), 120)
            async with aiohttp.ClientSession() as client, \
                    client.ws_connect(f"ws://127.0.0.1:{port}/ws/{table.tokens[0]}") as reading:
                await reading.receive()  # (the cards: the page is open)
                ending = asyncio.create_task(H._end_of_play(server, done))
                await asyncio.sleep(3 * H.GONE_SECONDS)
                open_while_read = not done.is_set()
                await reading.close()
            await asyncio.wait_for(ending, 5 * H.GONE_SECONDS)
            return open_while_read, done.is_set()

    assert asyncio.run(scenario()) == (True, True)
