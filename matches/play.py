"""The one loop that plays a game or a match with agents (`play_out`), and a single game as a `Table`.

`play_out(table, agents)` asks the agents for every decision of a `Table` until it is over: a single game
(`Game`, as strength runs and self-play use it) or a match of games (`matches.match`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ai.agent import Agent
from amigos.config import Action

from .validate import MAX_DECISIONS  # (the most a game takes before it is given up on, in a file or here)

if TYPE_CHECKING:
    from amigos.state import GameState


class Table(Protocol):
    """What agents play: a game or a match, which applies and records each decision its own way."""

    @property
    def state(self) -> GameState:
        """The position of the next decision."""

    def is_over(self) -> bool:
        """True once there is nothing left to decide."""

    def to_act(self) -> int:
        """The seat whose decision is next (a table may settle forced moves first)."""

    def decide(self, action: Action, think: float, info: dict[str, Any]) -> None:
        """Apply the acting seat's ``action``, which it took ``think`` seconds to choose, its agent's
        ``info`` after choosing it."""

    def history(self) -> list[tuple[GameState, Action]]:
        """The current game's decisions so far, each with the position it was made in (for the agents
        of a resumed game: `ai.agent.Agent.observe`)."""


def play_out(table: Table, agents: Sequence[Agent], seed_of: Callable[[int], int] | None = None) -> None:
    """Play ``table`` to its end: ``agents[p]`` decides for seat ``p`` (reseeded with ``seed_of(p)``
    before each decision when ``seed_of`` is given), timed, and ``table.decide`` applies it.  Every
    agent is told of every decision (`ai.agent.Agent.observe`), the game's earlier ones first."""
    told = list({id(agent): agent for agent in agents}.values())  # (an agent playing both seats told once)
    for state, action in table.history():
        for agent in told:
            agent.observe(state, action)
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
        for other in told:
            other.observe(state, action)
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
    told: list[tuple[GameState, Action]]  # each decision with the position it was made in (`history`)

    def __init__(self, state: GameState, name: str = "game") -> None:
        """``name`` says which game in the error of a game that does not end ("game 7")."""
        self.state = state
        self.name = name
        self.thought = [0.0] * state.n_players
        self.chose = [0] * state.n_players
        self.choices = []
        self.told = []

    def history(self) -> list[tuple[GameState, Action]]:
        return list(self.told)

    def is_over(self) -> bool:
        return self.state.is_terminal()

    def to_act(self) -> int:
        return self.state.current_player()

    def decide(self, action: Action, think: float, info: dict[str, Any]) -> None:
        state = self.state
        p = state.current_player()
        legal = state.legal_actions()
        self.told.append((state.clone(), action))
        if len(legal) > 1:
            self.chose[p] += 1
        self.thought[p] += think
        state.apply(action)  # (`IllegalAction` for an action not in ``legal``)
        self.choices.append(legal.index(action))
        if len(self.choices) > MAX_DECISIONS:
            raise RuntimeError(f"{self.name} did not end")
