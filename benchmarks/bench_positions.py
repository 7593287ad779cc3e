"""The games and positions the benchmarks measure on (and the lab's speed scripts: `benchmarks/speed.py`,
`benchmarks/mcts_speed.py`): fixed by their seeds, so that a figure is comparable from one run to the next."""

from __future__ import annotations

import random

import amigos
from amigos.codes import ACTIONS
from amigos.config import GameConfig

MAX_DECISIONS = 20000  # a random game longer than this has not ended: an engine fault


def random_game(seed: int, variant: str = "standard", ruleset: str = "official",
                expansions: tuple[str, ...] = (), config: GameConfig | None = None) -> int:
    """Play one uniform-random game to the end (of ``config``, else of the words given); returns the
    number of decisions."""
    s = amigos.deal(seed, config or GameConfig.parse(variant, ruleset, expansions))
    rng = random.Random(seed)
    n = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_unchecked(legal[rng.randrange(len(legal))])
        n += 1
        if n > MAX_DECISIONS:
            raise RuntimeError(f"game {seed} ({variant}) did not end")
    return n


def mid_game(seed: int = 3, variant: str = "standard", min_round: int = 3) -> amigos.GameState:
    """A mid-game position: the first main-action decision (no pending choice) of round ``min_round`` or
    later in a uniform-random game; tries the following seeds if that game ends first."""
    for s_seed in range(seed, seed + 100):
        s = amigos.new_game(s_seed, variant)
        rng = random.Random(s_seed)
        while not s.is_terminal():
            if s.round >= min_round and s.phase == ACTIONS and not s.stack:
                return s
            legal = s.legal_actions()
            s.apply_unchecked(legal[rng.randrange(len(legal))])
    raise RuntimeError("no mid-game position found")


def search_position(seed: int = 3, steps: int = 30) -> amigos.GameState:
    """A position for the search: ``steps`` random decisions into game ``seed``, then on to the first
    decision among three or more actions."""
    s = amigos.new_game(seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        legal = s.legal_actions()
        s.apply(legal[rnd.randrange(len(legal))])
    while len(s.legal_actions()) < 3:
        s.apply(s.legal_actions()[0])
    return s


#: The six positions the search's speed is measured at (game seed, random decisions before it).
SEARCH_POSITIONS = ((3, 30), (1, 30), (2, 45), (4, 60), (5, 20), (6, 80))
