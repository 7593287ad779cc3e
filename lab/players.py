"""Games of two to five players: random games (exceptions, decisions a CPU second) and an agent's
share of wins at a table of greedy and random players.

    python -m lab.players random --games 10000 --players 2 3 4 5
    python -m lab.players table --agent mcts:time=1.0 --players 3 --deals 20 --jobs 2 --record lab/results/t3.jsonl

``random``: for each player count, that many uniform-random games (standard, draft and First Game in
turn; five players with *Lux et Tenebrae*, and a quarter of the others too), every exception counted
with its seed, and the decisions per CPU second.  ``table``: the agent at a table of ``--players``
seats, the others greedy and random in turn, each deal played in every rotation of the seats; its wins
(a victory shared by k counts 1/k) against its fair share, 1/players.  Measures the build the
interpreter imports (named in the first line).  ``--record`` keeps a line a game (resumable).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from pathlib import Path

import amigos
from ai.agents import make_agent
from amigos.config import GameConfig, needed_expansions
from amigos.rng import derive_seed
from benchmarks.bench_positions import random_game
from matches.arena import wilson
from matches.runner import open_runner

VARIANTS = ("standard", "draft", "first_game")


def config_for(players: int, k: int) -> GameConfig:
    """Game ``k``'s configuration at ``players``: the variants in turn, the expansion for five players
    and for every fourth game otherwise (no First Game for five: four preset hands)."""
    lux = players == 5 or k % 4 == 3
    variant = VARIANTS[k % (2 if players == 5 else 3)]
    return GameConfig(variant, expansions=("lux",) if lux else (), players=players)


def random_games(players: int, games: int) -> None:
    failures: list[str] = []
    decisions = 0
    seconds = 0.0
    for k in range(games):
        config = config_for(players, k)
        start = time.process_time()
        try:
            decisions += random_game(k, config=config)
        except Exception:  # noqa: BLE001 - counted and named, which is the point
            failures.append(f"seed {k} {config}: {traceback.format_exc().splitlines()[-1]}")
        seconds += time.process_time() - start
    print(f"{players} players: {games} random games, {len(failures)} exceptions, "
          f"{decisions / seconds:,.0f} decisions a CPU second ({decisions / games:.0f} decisions a game)")
    for line in failures[:10]:
        print("  " + line)


def table_game(seed: int, specs: list[str], config: GameConfig) -> dict[str, object]:
    """One game of ``specs`` in seat order: the winners and points."""
    s = amigos.deal(seed, config)
    agents = [make_agent(spec, seed=derive_seed(seed, "seat", p)) for p, spec in enumerate(specs)]
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply(legal[0] if len(legal) == 1 else agents[s.current_player()].select(s))
    for agent in agents:
        agent.close()
    return {"winners": s.winners(), "vp": s.victory_points(), "rounds": s.round}


def table(agent: str, players: int, deals: int, jobs: int, record: Path | None, seed: int) -> None:
    others = ["greedy", "random"] * players
    lineup = [agent] + others[:players - 1]
    done: dict[str, dict[str, object]] = {}
    if record is not None and record.exists():
        done = {line["key"]: line for line in map(json.loads, record.read_text().splitlines())}
    config = GameConfig(expansions=needed_expansions(players), players=players)
    with open_runner(jobs) as runner:
        for d in range(deals):
            for turn in range(players):
                key = f"{d}-{turn}"
                if key not in done:
                    seats = lineup[turn:] + lineup[:turn]
                    runner.submit(key, table_game, derive_seed(seed, "table", players, d), seats, config)
        for key, result in runner.as_completed():
            turn = int(key.split("-")[1])
            line = dict(result, key=key, seat=(players - turn) % players)
            done[key] = line
            if record is not None:
                with open(record, "a", encoding="utf-8") as f:
                    f.write(json.dumps(line) + "\n")
    points = sum(1.0 / len(g["winners"]) for g in done.values() if g["seat"] in g["winners"])  # type: ignore[operator, arg-type]
    low, high = wilson(points, len(done))
    rounds = sum(g["rounds"] for g in done.values()) / len(done)  # type: ignore[misc]
    print(f"{agent} at {players} players against {', '.join(lineup[1:])}: {points:g}/{len(done)} = "
          f"{points / len(done):.1%} (95% {low:.1%}-{high:.1%}; a fair share is {1 / players:.0%}); "
          f"{rounds:.1f} rounds a game")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("random")
    r.add_argument("--games", type=int, default=1000)
    r.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    t = sub.add_parser("table")
    t.add_argument("--agent", default="mcts:time=1.0")
    t.add_argument("--players", type=int, default=3)
    t.add_argument("--deals", type=int, default=20)
    t.add_argument("--jobs", type=int, default=1)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--record", type=Path)
    args = ap.parse_args(argv)
    print(f"amigos: {'compiled' if amigos.COMPILED else 'pure Python'} ({Path(amigos.__file__ or '').parent})")
    if args.what == "random":
        for n in args.players:
            random_games(n, args.games)
    else:
        table(args.agent, args.players, args.deals, args.jobs, args.record, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
