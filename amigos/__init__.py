"""Amigos: the Res Arcana rules engine.

The interface every caller uses (a person's prompt, an agent, a replay, the bridge)::

    state = amigos.new_game(seed, variant="standard")   # or "first_game", "draft"
    state = amigos.deal(seed, amigos.GameConfig("draft", expansions=("lux",)))   # the same, by configuration
    state.current_player(); state.legal_actions(); state.apply(action); state.clone()
    state.is_terminal(); state.victory_points(); state.winners(); state.observation(p); state.digest()
    amigos.dump_state(state); amigos.action_json(state, action); amigos.action_text(state, action)
    amigos.determinize(state, player, seed)   # what ``player`` cannot see, re-dealt (for search)
"""

from .config import RULESETS, VARIANTS, GameConfig
from .determinize import determinize
from .errors import AmigosError, IllegalAction, SetupError
from .protocol import dump_state, state_from_setup
from .setup import build_state, deal, new_game, next_game
from .state import GameState
from .steps import action_from_json, action_json
from .text import action_text

__version__ = "0.1.0"


def _compiled() -> bool:
    """True when the engine runs as mypyc-compiled extensions (``pip install .``), False for the
    pure source (an editable install, ``AMIGOS_PURE=1``, or no C compiler at install)."""
    from . import state
    return not (state.__file__ or "").endswith(".py")


COMPILED: bool = _compiled()
# Bumped whenever the same seed and decisions can give another game (match files record it):
# 2 -- games end at the victory check of round 100 (was: stopped by the caller in round 101's Collect);
#      games 2 and 3 of a first-game match deal the Places of Power on random sides; essences on a
#      returned magic item go back to the supply (official ruleset).
RULES_VERSION = 2

__all__ = ["AmigosError", "IllegalAction", "SetupError", "GameState", "GameConfig", "new_game", "deal", "next_game",
           "build_state",
           "state_from_setup", "dump_state", "action_json", "action_from_json", "action_text",
           "determinize", "VARIANTS", "RULESETS", "__version__", "RULES_VERSION",
           "COMPILED"]
