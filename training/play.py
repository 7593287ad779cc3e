"""Play self-play games for the learned value and append them to a JSON-lines file.

    amigos-train selfplay --games 1000 --agent mcts:iters=400 --seed 1 --jobs 2 --out runs/gen0.jsonl
    amigos-train selfplay ... --scheduler tcp://HOST:8786     (on a Dask cluster: README, Tournaments)

Game k is dealt by ``derive_seed(SEED, "selfplay", k)``; a file that already holds some of the games
goes on with the missing ones, so a run can be stopped and started again (the file is read and checked
first: one that is no self-play file of this run is refused in one line, and left as it was).  Each line
is one `training.selfplay.selfplay_game` record.  `amigos-train fit` (`training.train`) fits the value to
these files.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from amigos.rng import derive_seed
from matches.runner import open_runner

from .records import RecordError, read_records
from .records import selfplay_game as selfplay_record
from .selfplay import Record, selfplay_game

MAX_GAMES = 10_000_000  # games a run at most
Progress = Callable[[str, int, int], object]  # (what, done, of how many): a run's progress as it goes


def game_seed(seed: int, k: int) -> int:
    """The deal of self-play game ``k`` of a run seeded ``seed``."""
    return derive_seed(seed, "selfplay", k)


def read_games(path: Path, missing_ok: bool = True) -> list[Record]:
    """The game records of a self-play file (none if it does not exist and ``missing_ok``), each checked
    (`training.records.selfplay_game`); `training.records.RecordError` (one line naming the file) for a
    path that is no self-play file."""
    if missing_ok and not path.exists():
        return []
    return read_records(path, "self-play file", selfplay_record)


def play(out: Path, games: int, spec: str, seed: int, jobs: int, log: Callable[[str], object] = print,
         scheduler: str | None = None, progress: Progress = lambda label, done, total: None) -> list[Record]:
    """Play the games of ``out`` not played yet (0 .. games-1) and append them; returns all of them,
    ordered by game number.  Games run in ``jobs`` local processes, or with ``scheduler`` (a Dask
    scheduler's address) on its cluster (`matches.runner`); this process writes the file and calls
    ``progress("games", played, games)`` as each game ends."""
    have = {g.get("k", 0): g for g in read_games(out)}
    for k, g in have.items():
        if g["spec"] != spec or g["seed"] != game_seed(seed, k):
            raise RecordError(f"{out} holds games of another run (agent {g['spec'][:80]}); use another --out")
    todo = [k for k in range(games) if k not in have]
    out.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with open_runner(jobs, scheduler) as runner, out.open("a", encoding="utf-8") as sink:
        for k in todo:  # (a function of an installed package, so that any worker can run it)
            runner.submit(str(k), selfplay_game, game_seed(seed, k), spec)
        # Written as they finish (a long game does not hold back the others); the file's order is free.
        for n, (key, game) in enumerate(runner.as_completed(), 1):
            k = int(key)
            game["k"] = k
            sink.write(json.dumps(game, separators=(",", ":")) + "\n")
            sink.flush()
            have[k] = game
            progress("games", len(have), games)
            if n % 10 == 0 or n == len(todo):
                log(f"{len(have)}/{games} games, {time.perf_counter() - start:.0f} s")
    return [have[k] for k in sorted(have) if k < games]
