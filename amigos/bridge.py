"""The engine protocol's request handler (conformance/PROTOCOL.md §1): one `Bridge` serves many games,
like one bot process.  Pure: the stdin/stdout loop lives in the CLI (`amigos bridge`).

Games started here use the ``reference`` ruleset, so that move lists match the reference engine.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Sequence

from . import jsontext
from .errors import AmigosError
from .protocol import dump_state, state_from_setup
from .steps import action_from_json, action_json, match_known_cards

if TYPE_CHECKING:
    from .config import Action
    from .state import GameState

COMMANDS = ("new_game_from_setup", "legal_actions", "advance", "get_state", "search", "quit")


class Bridge:
    """Answers protocol requests.  ``finished`` becomes True after ``quit``."""

    def __init__(self, ruleset: str = "reference",
                 search: Callable[[GameState, int, int], tuple[Action, int, int]] | None = None,
                 expansions: Sequence[str] = ()) -> None:
        """``search(state, depth, player) -> (action, nodes, depth reached)`` answers the ``search``
        command; the engine has no search of its own (the AI layer supplies it).  ``expansions``:
        setups may name these expansions' cards (our own scenarios; `amigos bridge` plays the base
        game, as the reference protocol)."""
        self.ruleset = ruleset
        self.expansions = tuple(expansions)
        self.search = search
        self.state: GameState | None = None
        self.session_player = 0
        self.finished = False

    def handle_line(self, line: str) -> str | None:
        """One request line -> one reply line (None for a blank line, which gets no reply)."""
        if not line.strip():
            return None
        try:
            request = jsontext.loads(line)
        except ValueError as exc:
            return json.dumps({"error": f"Invalid JSON: {exc}"})
        return json.dumps(self.handle(request))

    def handle(self, request: Any) -> dict[str, Any]:
        cmd = request.get("cmd") if isinstance(request, dict) else None
        if cmd not in COMMANDS:
            return {"error": f"Unknown command: {cmd!r}"}
        if cmd == "quit":
            self.finished = True
            return {"status": "ok"}
        try:
            if cmd == "new_game_from_setup":
                return self._new_game(request)
            if self.state is None:
                raise AmigosError("No active session")
            if cmd == "legal_actions":
                s = self.state
                return {"actions": [action_json(s, a) for a in _all_legal(s)]}
            if cmd == "advance":
                return self._advance(request.get("step"))
            if cmd == "get_state":
                return {"state": dump_state(self.state)}
            return self._search(request)
        except AmigosError as exc:
            return {"error": f"{cmd} failed: {exc}"}

    def _new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        n = request.get("num_players", 2)
        state = state_from_setup(request.get("setup"), num_players=n, ruleset=self.ruleset, auto_chance=False,
                                 expansions=self.expansions)
        self.state = state
        self.session_player = request.get("player_id", 0)
        return {"status": "ok"}

    def _advance(self, step: Any) -> dict[str, Any]:
        s = self.state
        assert s is not None  # (`handle` checks there is a game first)
        try:
            action = match_known_cards(s, action_from_json(s, step))
            s.apply(action)
        except AmigosError as exc:
            return {"status": "error", "msg": str(exc)}
        return {"status": "ok"}

    def _search(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.search is None:
            raise AmigosError("no search is available in this bridge")
        assert self.state is not None  # (`handle` checks there is a game first)
        depth = request.get("depth", 3)
        player = request.get("maximizing_pid", self.session_player)
        if not isinstance(depth, int) or depth < 1:
            raise AmigosError("depth must be an integer of at least 1")
        if not isinstance(player, int) or not 0 <= player < self.state.n_players:
            raise AmigosError("maximizing_pid out of range")
        if self.state.current_player() != player or not self.state.legal_actions():
            raise AmigosError("the maximizing player has no legal move")
        action, nodes, reached = self.search(self.state, depth, player)
        return {"step": action_json(self.state, action), "nodes": nodes, "depth": reached}


def _all_legal(s: GameState) -> list[Action]:
    from .legal import legal_actions
    return legal_actions(s)
