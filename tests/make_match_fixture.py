"""Write the match-file fixture of the current format version: ``tests/data/match_v{VERSION}.amigos``.

    .venv-dev/bin/python -m tests.make_match_fixture [--out PATH]

A small finished best of three: greedy (player 1) vs random (player 2), match seed 0, the agents seeded
as the CLI seeds them.  It goes to 3 games (version 2: random wins 2-1).  Think times are zeroed and the time stamps
fixed so that regenerating it with unchanged engine and agents gives the same bytes.

Every format version that ever ships keeps its fixture in tests/data/ (tests/matches/test_match_files.py loads
them all): when the format changes, bump `matches.match.VERSION`, add a migration in `matches.record`,
and run this script to add the new version's fixture — never overwrite an older one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ai.agents import make_agent
from amigos.rng import derive_seed
from matches.match import VERSION, Match, play
from matches.record import save

ROOT = Path(__file__).resolve().parents[1]

SEED = 0
SPECS = ["greedy", "random"]
STAMP = "2026-11-29T00:00:00+00:00"


def fixture_path(version: int = VERSION) -> Path:
    return ROOT / "tests" / "data" / f"match_v{version}.amigos"


def make_match() -> Match:
    match = Match.new(SEED, SPECS, names=[f"Player 1 ({SPECS[0]})", f"Player 2 ({SPECS[1]})"])
    play(match, [make_agent(spec, seed=derive_seed(SEED, "seat", seat)) for seat, spec in enumerate(SPECS)])
    for game in match.record["games"]:
        for decision in game["decisions"]:
            decision[2] = 0
    match.record["created_at"] = match.record["updated_at"] = STAMP
    return match


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="where to write it (default tests/data/)")
    args = parser.parse_args(argv)
    path = args.out or fixture_path()
    if args.out is None and path.exists():
        parser.error(f"{path} exists: a shipped fixture is never overwritten (use --out to write elsewhere)")
    match = make_match()
    save(match, path)
    games = match.record["games"]
    print(f"{path}: {path.stat().st_size} bytes, {len(games)} games, "
          f"{sum(len(g['decisions']) for g in games)} decisions, result {match.record['result']}")


if __name__ == "__main__":
    main()
