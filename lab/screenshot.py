"""Write the README's picture of the full-screen game: ``docs/screen.svg`` (Textual's SVG export) of a
position from a game against the AI, 120x40.

    python -m lab.screenshot [--out docs/screen.svg] [--seed 12] [--decisions 70]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from ai.agents import make_agent
from amigos_cli.tui.game import GameApp
from matches.match import Match


def position(seed: int, decisions: int) -> Match:
    """A game of a person (who plays the greedy agent's moves) against mcts:iters=300, stopped at the
    person's first decision after ``decisions`` decisions."""
    match = Match.new(seed, ["human", "mcts:iters=300"], fmt="game", names=["You", "AI (mcts:iters=300)"])
    you, rival = make_agent("greedy", seed=1), make_agent("mcts:iters=300", seed=2)
    while len(match.record["games"][0]["decisions"]) < decisions or match.to_act() != 0:
        p = match.to_act()
        if match.is_over():
            raise SystemExit(f"the game ended before {decisions} decisions: ask for fewer")
        match.decide((you if p == 0 else rival).select(match.state))
    return match


async def shoot(match: Match, out: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = GameApp(match, Path(folder) / "shot.amigos")
        async with app.run_test(size=(120, 40)) as pilot:
            while app.asking is None:
                await pilot.pause(0.05)
            await pilot.press("down", "down")
            await pilot.pause(0.3)
            app.save_screenshot(str(out.name), str(out.parent))
            await pilot.press("q")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("docs/screen.svg"))
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--decisions", type=int, default=44)
    args = ap.parse_args()
    asyncio.run(shoot(position(args.seed, args.decisions), args.out))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
