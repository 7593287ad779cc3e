"""The web board in headless Chromium, round two (issue 53): three people choose their mages at once and
see them revealed together; a person against an agent gets the hint (and plays it with Enter), undoes and
turns auto-collect on; the one-column layout of a phone (390 pixels) has no sideways scroll and every
choice can be reached and taken.  Skipped where Debian's chromium is not installed."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from amigos.codes import SETUP_CHOOSE_MAGES
from amigos.config import GameConfig
from amigos_cli.table.model import Table
from amigos_cli.table.server import TableServer
from matches.match import Match
from matches.session import history

from .test_table_browser import MOVE, Chromium, Page, free_port, needs_chromium

BUTTONS = "document.querySelectorAll('#choices .list button:not([disabled])').length"
#: The mages in play of each player's panel on a page, by seat.
MAGES = """Object.fromEntries([...document.querySelectorAll('.player')].map((panel) =>
  [panel.dataset.seat, [...panel.querySelectorAll('.card.mage .cname')].map((n) => n.textContent)]))"""


async def _served(table: Table) -> tuple[Any, int]:
    server = TableServer(table)
    port = free_port()
    return await server.start("127.0.0.1", port), port


@needs_chromium
def test_three_people_choose_mages_at_once_in_their_browsers_and_see_them_revealed_together(tmp_path):
    names = ["Ann", "Bob", "Cy"]
    match = Match.new(21, ["human"] * 3, GameConfig(players=3), fmt="game", names=names)
    table = Table.new(match, tmp_path / "three.amigos")

    async def scenario() -> None:
        runner, port = await _served(table)
        try:
            async with Chromium(1400, 900) as browser:
                pages = [await browser.open(f"http://127.0.0.1:{port}/t/{table.tokens[seat]}") for seat in range(3)]
                for page in pages:  # (every seat is asked at once, not only the engine's first)
                    assert await page.wait_for(BUTTONS) == 2
                chosen = {}  # seat: the mage's name ("Choose Witch as mage")
                for seat in (2, 1):
                    words = await pages[seat].evaluate("document.querySelector('#choices .list button .text').textContent")
                    chosen[seat] = words.removeprefix("Choose ").removesuffix(" as mage")
                    await pages[seat].evaluate("document.querySelector('#choices .list button').click()")
                for seat in (2, 1):
                    await pages[seat].wait_for("document.querySelector('#notebar').textContent.includes('Waiting for Ann')")
                assert table.match.state.phase == SETUP_CHOOSE_MAGES
                # Ann, still choosing, sees neither mage chosen; each of the others sees their own only.
                seen = await pages[0].evaluate(MAGES)
                assert seen["1"] == [] and seen["2"] == []
                shown = await pages[0].evaluate("document.body.innerText")
                assert all(mage not in shown for mage in chosen.values())
                await pages[0].evaluate("document.querySelector('#choices .list button').click()")
                for page in pages:
                    await page.wait_for(f"Object.values({MAGES}).every((m) => m.length === 1)")
                    seen = await page.evaluate(MAGES)
                    for seat, mage in chosen.items():
                        assert seen[str(seat)] == [mage]
                    assert not page.errors, page.errors
        finally:
            table.stop()
            await runner.cleanup()

    asyncio.run(scenario())
    decisions = table.match.record["games"][0]["decisions"]
    assert sorted(d[0] for d in decisions[:3]) == [0, 1, 2]
    assert [s.actor for s in history(table.match.record)[:3]] == [d[0] for d in decisions[:3]]  # (replayed exactly)


@needs_chromium
def test_a_person_against_an_agent_hints_plays_the_hint_undoes_and_turns_auto_collect_on(tmp_path):
    match = Match.new(7, ["human", "random"], GameConfig(players=2), fmt="game", names=["Ann", "Random"])
    table = Table.new(match, tmp_path / "tools.amigos")

    async def scenario() -> None:
        runner, port = await _served(table)
        try:
            async with Chromium(1400, 900) as browser:
                page = await browser.open(f"http://127.0.0.1:{port}/t/{table.tokens[0]}")
                await page.wait_for(BUTTONS)
                await page.key("h", text="h")
                await page.key("Enter", text="\r")  # (pressed before the hint came: it waits for the hint)
                await page.wait_for("!!document.querySelector('#choices button.hinted')", timeout=60)
                hint = await page.evaluate("document.querySelector('#notebar').textContent")
                hinted = await page.evaluate("document.querySelector('#choices button.hinted .text').textContent")
                assert hint.startswith("Hint: ") and hinted in hint
                assert not [d for d in table.match.record["games"][0]["decisions"] if d[0] == 0]  # (Enter waited)
                await page.key("Enter", text="\r")
                await _wait(lambda: [d for d in table.match.record["games"][0]["decisions"] if d[0] == 0])
                await _wait(lambda: any(s.actor == 0 for s in table.session.steps))
                assert next(s.text for s in table.session.steps if s.actor == 0) == hinted.strip()
                # A few moves, then undo: the last decision of Ann's is taken back.
                rng = random.Random(5)
                while len([d for d in table.match.record["games"][0]["decisions"] if d[0] == 0]) < 4:
                    await _move(page, rng)
                await page.wait_for("[...document.querySelectorAll('.tool')]"
                                    ".some((b) => b.textContent.startsWith('Undo'))")
                mine = len([d for d in table.match.record["games"][0]["decisions"] if d[0] == 0])
                await page.key("u", text="u")
                await page.wait_for("document.querySelector('#notebar').textContent === 'Undone.'")
                assert len([d for d in table.match.record["games"][0]["decisions"] if d[0] == 0]) == mine - 1
                # The log's newest line is in view, within the window (the side is the window's height).
                assert await page.wait_for(NEWEST_IN_VIEW)
                # Auto-collect: the box reaches the server, and the browser keeps it.
                await page.evaluate("document.querySelector('.tool input[type=checkbox]').click()")
                await _wait(lambda: table.auto.get(0) is True)
                assert await page.evaluate("localStorage.getItem('amigos-auto-collect')") == "on"
                await page.wait_for("document.querySelector('.tool input[type=checkbox]').checked")
                assert not page.errors, page.errors
        finally:
            table.stop()
            await runner.cleanup()

    asyncio.run(scenario())


@needs_chromium
def test_a_phone_wide_page_has_no_sideways_scroll_and_every_choice_can_be_reached(tmp_path):
    match = Match.new(11, ["human", "greedy", "greedy"], GameConfig(players=3), fmt="game",
                      names=["Ann", "AI 1", "AI 2"])
    table = Table.new(match, tmp_path / "phone.amigos")
    checked: list[int] = []

    async def scenario() -> None:
        runner, port = await _served(table)
        try:
            async with Chromium(390, 844) as browser:
                page = await browser.open(f"http://127.0.0.1:{port}/t/{table.tokens[0]}")
                rng = random.Random(2)
                for _ in range(40):
                    await page.wait_for(BUTTONS, timeout=60)
                    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
                    # Every choice: brought into view, it lies within the page's width and can be tapped.
                    reach = await page.evaluate(REACH)
                    assert reach["outside"] == [] and reach["count"] > 0
                    checked.append(reach["count"])
                    if await _move(page, rng) == "over":
                        break
                assert not page.errors, page.errors
        finally:
            table.stop()
            await runner.cleanup()

    asyncio.run(scenario())
    assert len(checked) >= 20


#: The log's last line lies within the log's box, and the box within the window.
NEWEST_IN_VIEW = """(() => {
  const log = document.querySelector('#log'), last = log.lastElementChild;
  const line = last.getBoundingClientRect(), box = log.getBoundingClientRect();
  return line.bottom <= box.bottom + 1 && line.top >= box.top - 1 && box.bottom <= window.innerHeight + 1;
})()"""


#: Each listed choice scrolled into view and looked at: those not fully within the window's width, or
#: hidden under another element where a tap would land.
REACH = """(() => {
  const buttons = [...document.querySelectorAll('#choices .list button')];
  const outside = [];
  for (const b of buttons) {
    b.scrollIntoView({block: 'center'});
    const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.left < 0 || r.right > window.innerWidth || !(hit && b.contains(hit))) outside.push(b.textContent);
  }
  return {count: buttons.length, outside: outside};
})()"""


async def _move(page: Page, rng: random.Random) -> str:
    """One move by clicking (`MOVE`), waiting while it is not the seat's decision; "over" at the end."""
    while True:
        did = await page.evaluate(MOVE % rng.random())
        if did != "wait":
            await asyncio.sleep(0.05)
            return "over" if did == "over" else did
        await asyncio.sleep(0.02)


async def _wait(check: Any, seconds: float = 30.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not in time")
