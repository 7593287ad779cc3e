"""What a match in play tells its listeners, in the order it happens: a player is to decide
(`TurnBegins`), a player decided (`Moved`), a game ended (`GameOver`), the match ended (`MatchOver`),
and the session's own messages (`Notice`).  `matches.match.play` emits the first four; the session
(`matches.session`) adds notices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from amigos.config import Action
from amigos.state import GameState


@dataclass(frozen=True)
class TurnBegins:
    """A player is to decide.  ``state`` is the match's own position, which changes as the match goes
    on: a listener that keeps it (or reads it on another thread) clones it first."""
    player: int
    state: GameState


@dataclass(frozen=True)
class Moved:
    """A player decided: the action, its words, the seconds it took and what the deciding agent said
    of it (an AI's ``info``: its iterations, ...; empty for a person)."""
    player: int
    action: Action
    text: str
    think: float
    info: dict[str, Any]


@dataclass(frozen=True)
class GameOver:
    """Game number ``game`` ended with ``result`` (its record's result: winners, points, rounds), the
    match's score then ``score``."""
    game: int
    result: dict[str, Any]
    score: list[int]


@dataclass(frozen=True)
class MatchOver:
    """The match ended (``result``: the record's result)."""
    result: dict[str, Any] | None


#: The tones of a `Notice`: a thing done ("Undone.") or a thing refused ("Nothing of yours to undo").
DONE: Final = "done"
REFUSED: Final = "refused"


@dataclass(frozen=True)
class Notice:
    """A message about the session itself, of a `tone` (`DONE` or `REFUSED`)."""
    text: str
    tone: str


#: What a session tells its listeners.
MatchEvent = TurnBegins | Moved | GameOver | MatchOver | Notice
