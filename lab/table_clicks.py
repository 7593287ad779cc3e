"""Clicks a round at the online table: a person's seat (seat 1) of a two-player game against the greedy AI,
played in headless Chromium by clicking as a person would, each decision the one an agent (``--agent``)
would make for them: the choice's line in the list (one click) and, when it has several ways, the way in the
payment picker (one more); with ``--auto-collect`` the page's box is ticked first (once, not counted),
and the decisions auto-collect makes cost none.  Prints the clicks of each round and their mean.

    python -m lab.table_clicks [--seed 5] [--rounds 5] [--auto-collect] [--size 1400x900] [--agent greedy]

It drives the page through its own script's state (``current``: the view drawn) and its buttons
(``data-group``, ``data-way``), which the board has had since the table's first version, so the same
script measures an earlier commit's board too (run it with that checkout first on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from ai.agents import make_agent
from amigos.config import GameConfig
from amigos_cli.table.model import Table
from amigos_cli.table.server import TableServer
from amigos_cli.views.choices import ordered_variants
from matches.match import Match
from tests.web.test_table_browser import Chromium, Page, free_port

POLL = 0.02


async def asked(page: Page) -> int | None:
    """The ask's number of the decision the page offers now (None: none)."""
    return await page.evaluate("current && current.choices && !document.querySelector('#choices .list button[disabled]')"
                               " ? current.choices.ask : null")


def target(table: Table, agent: Any, ask: int) -> tuple[int, int, int] | None:
    """Decision number ``ask`` of seat 1's as the greedy agent would make it: (round, group, way); None
    while the table has not come to it."""
    together = getattr(table.snapshot, "together", None)  # (an earlier board's table has none)
    if table.asked is not None and table.asked[0] == 0 and table.asked[1] == ask:
        position = table.asked[2]
    elif together is not None and together.offers.get(0) == ask:
        position = together.places[0]
    else:
        return None
    action = agent.select(position.clone())
    for g, group in enumerate(position.legal_groups()):
        ways = ordered_variants(group)
        if action in ways:
            return position.round, g, ways.index(action) if len(ways) > 1 else -1
    raise AssertionError("the agent's move is not offered")


async def play(seed: int, rounds: int, auto: bool, size: tuple[int, int], spec: str) -> Counter[int]:
    """The clicks of each round up to ``rounds`` (or the game's end)."""
    clicks: Counter[int] = Counter()
    with tempfile.TemporaryDirectory() as folder:
        match = Match.new(seed, ["human", "greedy"], GameConfig(players=2), fmt="game", names=["Ann", "AI"])
        table = Table.new(match, Path(folder) / "clicks.amigos")
        server = TableServer(table)
        port = free_port()
        runner = await server.start("127.0.0.1", port)
        agent = make_agent(spec, seed=seed)
        try:
            async with Chromium(*size) as browser:
                page = await browser.open(f"http://127.0.0.1:{port}/t/{table.tokens[0]}")
                await page.wait_for("current !== null")
                if auto:
                    await page.evaluate("document.querySelector('.tool input[type=checkbox]').click()")
                answered = None
                while True:
                    if await page.evaluate("!!document.querySelector('#choices .result')"):
                        break
                    ask = await asked(page)
                    found = target(table, agent, ask) if ask is not None and ask != answered else None
                    if found is None:
                        await asyncio.sleep(POLL)
                        continue
                    answered = ask
                    round_, group, way = found
                    if round_ > rounds:
                        break
                    # (a board that lists a lone choice's ways at once: the way is the one click)
                    listed = await page.evaluate("typeof picking !== 'undefined' && picking !== null")
                    if not listed:
                        await page.evaluate(f"document.querySelector('#choices .list button[data-group=\"{group}\"]').click()")
                        clicks[round_] += 1
                    if way >= 0:
                        await page.wait_for(f"!!document.querySelector('#choices .list button[data-way=\"{way}\"]')")
                        await page.evaluate(f"document.querySelector('#choices .list button[data-way=\"{way}\"]').click()")
                        clicks[round_] += 1
                assert not page.errors, page.errors
        finally:
            table.stop()
            await runner.cleanup()
    return clicks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--auto-collect", action="store_true")
    parser.add_argument("--size", default="1400x900", help="the browser window, WIDTHxHEIGHT")
    parser.add_argument("--agent", default="greedy", help="the agent that chooses the person's moves")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    clicks = asyncio.run(play(args.seed, args.rounds, args.auto_collect, (width, height), args.agent))
    played = sorted(r for r in clicks if r >= 1)
    print("clicks by round:", ", ".join(f"{r}: {clicks[r]}" for r in sorted(clicks)))
    if played:
        print(f"mean over rounds 1-{played[-1]}: {sum(clicks[r] for r in played) / len(played):.1f} a round"
              f" (setup: {clicks[0]})")


if __name__ == "__main__":
    main()
