"""What plays a seat (`Agent`) and an agent's defaults (`BaseAgent`).

An agent decides for one seat: ``select(state)`` returns one of ``state.legal_actions()`` for
``state.current_player()`` and leaves ``info``, a dict of what the decision took (iterations, value, ...)
for logs and match files; ``observe(state, action)`` tells it of every decision of the game (for an
agent that remembers the rival's choices); ``ponder(state, seat)`` that a person decides now, while
the agent may think on for its own seat.  ``reseed(seed)`` restarts its random stream and
``close()`` releases what it holds (a search's worker processes).  The loop that asks agents for a game's decisions is the harness's
(`matches.play`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from amigos.config import Action

if TYPE_CHECKING:
    from amigos.state import GameState


@runtime_checkable
class Agent(Protocol):
    """Decides for one seat (see the module docstring)."""

    @property
    def info(self) -> dict[str, Any]:
        """What the last `select` took: {"choices", "iterations", "value", ...} (keys vary by agent)."""

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        """One of ``state.legal_actions()`` for ``state.current_player()``; an agent that searches calls
        ``progress(iterations)`` now and then while it does."""

    def observe(self, state: GameState, action: Action) -> None:
        """``action`` is about to be made in ``state``: every decision of the game, any seat's, in order
        (a resumed game's earlier ones first).  ``state`` is the live position: copy what is kept."""

    def ponder(self, state: GameState, seat: int) -> None:
        """A person decides now in ``state``: the agent playing ``seat`` may think meanwhile about its own
        next decision (from what ``seat`` sees only), until it is next asked to `select` or `close`."""

    def reseed(self, seed: int) -> None:
        """Restart the agent's random stream (a match does this before every decision, so that a resumed
        match plays on exactly as it would have)."""

    def close(self) -> None:
        """Release what the agent holds (worker processes); it is not asked again."""


class BaseAgent:
    """An agent's defaults: no randomness to restart, nothing to release."""

    info: dict[str, Any]

    def __init__(self) -> None:
        self.info = {}

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        raise NotImplementedError

    def observe(self, state: GameState, action: Action) -> None:
        """Nothing remembered."""

    def ponder(self, state: GameState, seat: int) -> None:
        """No thinking in the rival's time."""

    def reseed(self, seed: int) -> None:
        """Nothing to restart."""

    def close(self) -> None:
        """Nothing to release."""


class AgentWrapper:
    """An agent that passes every call on to ``inner``: a subclass changes what it must (a person's
    seat that collects by itself, a spinner while the AI thinks) and keeps the rest."""

    def __init__(self, inner: Agent) -> None:
        self.inner: Agent = inner

    @property
    def info(self) -> dict[str, Any]:
        return self.inner.info

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        return self.inner.select(state, progress)

    def observe(self, state: GameState, action: Action) -> None:
        self.inner.observe(state, action)

    def ponder(self, state: GameState, seat: int) -> None:
        self.inner.ponder(state, seat)

    def reseed(self, seed: int) -> None:
        self.inner.reseed(seed)

    def close(self) -> None:
        self.inner.close()
