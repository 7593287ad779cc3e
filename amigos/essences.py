"""Essence counts as 5-tuples, one count per kind in the protocol's order (Elan, Life, Calm, Death,
Gold): their arithmetic, below both the card table (`amigos.cards`) and the ways to pay
(`amigos.payments`), which both need it."""

from __future__ import annotations

from typing import Sequence


def add(a: Sequence[int], b: Sequence[int]) -> tuple[int, int, int, int, int]:
    """Two essence counts added, kind by kind."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])


def sub(a: Sequence[int], b: Sequence[int]) -> tuple[int, int, int, int, int]:
    """``b`` taken from ``a``, kind by kind."""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4])


def covers(pool: Sequence[int], cost: Sequence[int]) -> bool:
    """Whether ``pool`` holds at least ``cost`` of every kind."""
    return (pool[0] >= cost[0] and pool[1] >= cost[1] and pool[2] >= cost[2] and pool[3] >= cost[3]
            and pool[4] >= cost[4])
