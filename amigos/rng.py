"""Our own small PRNG (SplitMix64) whose whole state is one int, so games replay identically on every
Python version; and `derive_seed`, which makes child seeds from a parent by hashing labels.

The functions are pure: they take the state and return ``(value, new_state)``, so a game state can
keep its generator as a plain int and clone it for free.
"""

from __future__ import annotations

import hashlib
from typing import Final, TypeVar

MASK64: Final = (1 << 64) - 1
T = TypeVar("T")


def next_u64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: returns ``(output, new_state)``."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """A number in ``range(n)`` (n >= 1) by Lemire's multiply-shift; returns ``(value, new_state)``."""
    z, state = next_u64(state)
    return (z * n) >> 64, state


def shuffle(state: int, items: list[T]) -> int:
    """Shuffle ``items`` in place (Fisher-Yates); returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        j, state = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def sample(state: int, items: list[T], k: int) -> tuple[list[T], int]:
    """``k`` distinct items of ``items`` in random order; returns ``(chosen, new_state)``."""
    if k == 1:  # the common case (drawing one card), without copying ``items``
        j, state = below(state, len(items))
        return [items[j]], state
    pool = list(items)
    chosen: list[T] = []
    for _ in range(k):
        j, state = below(state, len(pool))
        chosen.append(pool[j])
        pool[j] = pool[-1]
        pool.pop()
    return chosen, state


def derive_seed(parent: int, *labels: object) -> int:
    """A 64-bit child seed of ``parent`` for the given labels (e.g. ``derive_seed(match, "game", 2)``)."""
    text = repr((int(parent),) + tuple(str(x) for x in labels)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")
