"""Write the README's picture of a replay with its review: ``docs/replay-review.svg`` (Textual's SVG
export), the recorded person's game ``lab/data/g101.amigos`` reviewed at the default budget, shown at its
first mistake (or its turning point), 140x36.

    python -m lab.review_picture [--out docs/replay-review.svg] [--file lab/data/g101.amigos]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
from pathlib import Path

from amigos_cli.tui.replay import ReplayApp
from matches import review as R
from matches.record import load


async def shoot(path: Path, out: Path) -> None:
    match = load(path)
    seats = [p for p, player in enumerate(match.record["players"]) if player["spec"] == "human"] or [0]
    result, _ = R.review_file(path, match.record, seats)
    app = ReplayApp(match, path.name, seats[0], True, review=result)
    async with app.run_test(size=(140, 36)) as pilot:
        await pilot.pause()
        if any(d.grade in R.FAULTS for d in result.decisions):
            await pilot.press("n")
        else:  # (no mistake: the turning point, the move that lost the most)
            worst = max(result.decisions, key=lambda d: d.lost)
            app.at = worst.index + 1
            app.draw()
        await pilot.pause()
        app.save_screenshot(str(out.name), path=str(out.parent))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("docs/replay-review.svg"))
    ap.add_argument("--file", type=Path, default=Path("lab/data/g101.amigos"))
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / args.file.name  # (the review is kept beside the copy, not in the checkout)
        shutil.copy(args.file, copy)
        asyncio.run(shoot(copy, args.out.resolve()))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
