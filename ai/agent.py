"""What plays a seat (`Agent`), and the one loop that plays a game or a match with agents (`play_out`).

An agent decides for one seat: ``select(state)`` returns one of ``state.legal_actions()`` for
``state.current_player()`` and leaves ``info``, a dict of what the decision took (iterations, value, ...)
for logs and match files.  ``reseed(seed)`` restarts its random stream and ``close()`` releases what it
holds (a search's worker processes).  `BaseAgent` is an agent's defaults: nothing to reseed or release.
`as_agent` makes an `Agent` of an agent of another commit's ``ai`` package (benchmarks/against_commit.py),
which may lack the rest.

`play_out(table, agents)` asks the agents for every decision of a `Table` until it is over: a single game
(`Game`, as strength runs and self-play use it) or a match of games (`matches.match`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from amigos.state import GameState

#: The most decisions a `Game` takes before it gives up on the game ending.
MAX_DECISIONS = 20000


@runtime_checkable
class Agent(Protocol):
    """Decides for one seat (see the module docstring)."""

    @property
    def info(self) -> dict:
        """What the last `select` took: {"choices", "iterations", "value", ...} (keys vary by agent)."""

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> tuple:
        """One of ``state.legal_actions()`` for ``state.current_player()``; an agent that searches calls
        ``progress(iterations)`` now and then while it does."""

    def reseed(self, seed: int) -> None:
        """Restart the agent's random stream (a match does this before every decision, so that a resumed
        match plays on exactly as it would have)."""

    def close(self) -> None:
        """Release what the agent holds (worker processes); it is not asked again."""


class BaseAgent:
    """An agent's defaults: no randomness to restart, nothing to release."""

    info: dict

    def __init__(self) -> None:
        self.info = {}

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> tuple:
        raise NotImplementedError

    def reseed(self, seed: int) -> None:
        """Nothing to restart."""

    def close(self) -> None:
        """Nothing to release."""


class _Adapted:
    """An object with ``select(state)`` and ``info`` as an `Agent`: its own ``reseed`` and ``close``
    when it has them, else nothing; it is not told a search's progress."""

    player: Any

    def __init__(self, player: Any) -> None:
        self.player = player

    @property
    def info(self) -> dict:
        info: dict = self.player.info
        return info

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> tuple:
        action: tuple = self.player.select(state)
        return action

    def reseed(self, seed: int) -> None:
        reseed = getattr(self.player, "reseed", None)
        if reseed is not None:
            reseed(seed)

    def close(self) -> None:
        close = getattr(self.player, "close", None)
        if close is not None:
            close()


def as_agent(player: Any) -> Agent:
    """``player`` itself when it is an `Agent`, else ``player`` (anything with ``select(state)`` and
    ``info``: an agent of another commit's ``ai``) made one."""
    if isinstance(player, Agent):
        return player
    return _Adapted(player)


class Table(Protocol):
    """What agents play: a game or a match, which applies and records each decision its own way."""

    @property
    def state(self) -> GameState:
        """The position of the next decision."""

    def is_over(self) -> bool:
        """True once there is nothing left to decide."""

    def to_act(self) -> int:
        """The seat whose decision is next (a table may settle forced moves first)."""

    def decide(self, action: tuple, think: float, info: dict) -> None:
        """Apply the acting seat's ``action``, which it took ``think`` seconds to choose, its agent's
        ``info`` after choosing it."""


def play_out(table: Table, agents: Sequence[Agent], seed_of: Callable[[int], int] | None = None) -> None:
    """Play ``table`` to its end: ``agents[p]`` decides for seat ``p`` (reseeded with ``seed_of(p)``
    before each decision when ``seed_of`` is given), timed, and ``table.decide`` applies it."""
    while not table.is_over():
        p = table.to_act()
        if table.is_over():
            break
        agent = agents[p]
        if seed_of is not None:
            agent.reseed(seed_of(p))
        state = table.state
        start = time.perf_counter()
        action = agent.select(state)
        think = time.perf_counter() - start
        table.decide(action, think, agent.info)


class Game:
    """A single game as a `Table`: every decision is asked of an agent, a forced one too.  It keeps per
    seat the seconds thought (`thought`) and the decisions among two or more legal actions (`chose`), and
    each decision's index among the legal actions (`choices`); `RuntimeError` after `MAX_DECISIONS`."""

    state: GameState
    name: str
    thought: list[float]
    chose: list[int]
    choices: list[int]

    def __init__(self, state: GameState, name: str = "game") -> None:
        """``name`` says which game in the error of a game that does not end ("game 7")."""
        self.state = state
        self.name = name
        self.thought = [0.0] * state.n_players
        self.chose = [0] * state.n_players
        self.choices = []

    def is_over(self) -> bool:
        return self.state.is_terminal()

    def to_act(self) -> int:
        return self.state.current_player()

    def decide(self, action: tuple, think: float, info: dict) -> None:
        state = self.state
        p = state.current_player()
        legal = state.legal_actions()
        if len(legal) > 1:
            self.chose[p] += 1
        self.thought[p] += think
        state.apply(action)  # (`IllegalAction` for an action not in ``legal``)
        self.choices.append(legal.index(action))
        if len(self.choices) > MAX_DECISIONS:
            raise RuntimeError(f"{self.name} did not end")
