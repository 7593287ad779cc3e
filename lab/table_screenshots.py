"""Write the README's pictures of the online table: ``docs/table-seat1.png`` and ``docs/table-seat2.png``,
the web board of two people's seats at a table of three (two people and the greedy AI) in the middle of
a game, photographed in headless Chromium (tests/web/test_table_browser.py's `Chromium`).

The people's moves before the pictures are the greedy agent's (the position is a plausible one), played
straight into the match; the table then opens on it and each seat's page is photographed when seat 1 is
asked and seat 2 waits.

    python -m lab.table_screenshots [--seed 21] [--decisions 90] [--out docs] [--size 1400x900]
    python -m lab.table_screenshots --widths 1400,800,390   # seat 1 at each width: docs/table-WIDTH.png

Other tables, to look at (not the README's): ``--players 5 --expansion lux``, ``--variant draft``,
``--decisions 0`` (the mage choice), ``--agent mcts:iters=200`` (the moves before the pictures).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from ai.agents import make_agent
from amigos.codes import ACTIONS
from amigos.config import GameConfig
from amigos_cli.table.model import Table
from amigos_cli.table.server import TableServer
from matches.match import Match
from tests.web.test_table_browser import Chromium, free_port

PEOPLE = ["Ann", "Bob"]
PHONE_WIDER_THAN = 500  # a window narrower is a phone's, photographed PHONE_HEIGHT high
PHONE_HEIGHT = 844


def position(seed: int, decisions: int, players: int = 3, agent: str = "greedy", variant: str = "standard",
             expansions: tuple[str, ...] = ()) -> Match:
    """A game of ``players`` (two people, the others the greedy AI) played by ``agent`` agents (the
    people's seats too) for ``decisions`` decisions, stopped at seat 1's next decision of the actions
    phase (the board's fullest list of choices)."""
    specs = ["human", "human"] + ["greedy"] * (players - 2)
    names = PEOPLE + ["AI (greedy)" if players == 3 else f"AI {p - 1} (greedy)" for p in range(2, players)]
    config = GameConfig.parse(variant, expansions=expansions, players=players)
    match = Match.new(seed, specs, config, fmt="game", names=names)
    agents = [make_agent(agent, seed=seat + 1) for seat in range(players)]
    while len(match.record["games"][0]["decisions"]) < decisions or match.to_act() != 0 or (
            decisions and match.state.phase != ACTIONS):
        if match.is_over():
            raise SystemExit(f"the game ended before {decisions} decisions: ask for fewer")
        p = match.to_act()
        match.decide(agents[p].select(match.state))
    return match


async def shoot(match: Match, out: Path, size: tuple[int, int], names: tuple[str, str] = ("table-seat1", "table-seat2"),
                seats: tuple[int, ...] = (0, 1)) -> None:
    with tempfile.TemporaryDirectory() as folder:
        table = Table.new(match, Path(folder) / "shot.amigos")
        server = TableServer(table)
        port = free_port()
        runner = await server.start("127.0.0.1", port)
        try:
            async with Chromium(*size) as browser:
                pages = [await browser.open(f"http://127.0.0.1:{port}/t/{table.tokens[seat]}") for seat in seats]
                await pages[0].wait_for("document.querySelectorAll('#choices .list button').length")
                for page in pages[1:]:
                    await page.wait_for("document.querySelector('#turn').textContent")
                for seat, page in enumerate(pages):
                    await page.evaluate("document.querySelector('#log').scrollTop = 1e6")
                    await asyncio.sleep(0.3)
                    await page.screenshot(out / f"{names[seat]}.png")
                    assert not page.errors, page.errors
        finally:
            table.stop()
            await runner.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--decisions", type=int, default=90)
    parser.add_argument("--out", type=Path, default=Path("docs"))
    parser.add_argument("--size", default="1400x900", help="the browser window, WIDTHxHEIGHT")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--agent", default="greedy", help="the agent whose moves come before the pictures")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--expansion", action="append", default=[])
    parser.add_argument("--widths", help="seat 1 only, at each of these widths (a comma list): table-WIDTH.png")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    if args.widths:
        for wide in (int(w) for w in args.widths.split(",")):
            match = position(args.seed, args.decisions, args.players, args.agent, args.variant, tuple(args.expansion))
            tall = PHONE_HEIGHT if wide < PHONE_WIDER_THAN else height
            asyncio.run(shoot(match, args.out, (wide, tall), names=(f"table-{wide}", ""), seats=(0,)))
            print(f"wrote {args.out / f'table-{wide}.png'}")
        return
    match = position(args.seed, args.decisions, args.players, args.agent, args.variant, tuple(args.expansion))
    asyncio.run(shoot(match, args.out, (width, height)))
    print(f"wrote {args.out / 'table-seat1.png'} and {args.out / 'table-seat2.png'}")


if __name__ == "__main__":
    main()
