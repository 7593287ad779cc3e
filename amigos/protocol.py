"""The engine protocol's JSON forms (conformance/PROTOCOL.md §2 and §5): the ``get_state`` dump and
games started from a ``ResolveGameSetup``.  Actions as steps and back are `amigos.steps`'.

Card names on the wire are the reference engine's (``"Calm/Elan"``); our printed names are accepted
when reading.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Sequence

from . import cards as C
from .carddata import LUX_SET, components
from .codes import LOCATION_NAMES, PHASE_NAMES
from .config import FEWEST_PLAYERS_SETUP, check_players
from .errors import SetupError
from .setup import build_state
from .steps import pool_from_json

if TYPE_CHECKING:
    from .state import GameState


def dump_state(state: GameState) -> dict[str, Any]:
    """The protocol's ``get_state`` form (§5)."""
    players = []
    for p in range(state.n_players):
        players.append({"pool": list(state.pool_of(p)), "vp": state.vp(p), "has_passed": bool(state.passed[p]),
                        "has_first_player_token": state.first_player == p})
    entities = []
    for e, card in enumerate(state.cards):
        on = state.essences_on(e)
        entities.append({
            "name": card.ref_name,
            "kind": C.KIND_NAMES[card.kind],
            "location": LOCATION_NAMES[state.loc[e]],
            "owner": state.owner[e],
            "is_turned": bool(state.turned[e]),
            "essences_on_card": list(on) if any(on) else None,
            "order_index": state.order[e],
        })
    return {
        "phase": PHASE_NAMES[state.phase],
        "round": state.round,
        "current_player": state.current_player(),
        "first_player": state.first_player,
        "winner_ids": list(state.won),
        "players": players,
        "entities": entities,
    }


@lru_cache(maxsize=1)
def _expansion_names() -> frozenset[str]:
    """The names of the expansion's components (the reference protocol knows none of them)."""
    return frozenset(c["name"] for c in components((LUX_SET,)))


def state_from_setup(setup: object, num_players: int = 2, ruleset: str = "reference",
                     auto_chance: bool = False, expansions: Sequence[str] = ()) -> GameState:
    """A game from a ``ResolveGameSetup`` step (§2.7); raises `SetupError` for a bad setup.  The
    protocol is the base game's: a card of an expansion is refused unless ``expansions`` names it
    (our own rule scenarios of the expansion use the same format).  ``num_players``: 1 to 4, 5 with
    the expansion (`amigos.config.check_players`, the check of `GameConfig`)."""
    check_players(num_players, expansions, FEWEST_PLAYERS_SETUP)
    if not isinstance(setup, dict):
        raise SetupError("setup must be an object")

    def cards_of(names: object, what: str) -> list[C.Card]:
        if not isinstance(names, list):
            raise SetupError(f"{what} must be a list")
        out: list[C.Card] = []
        for name in names:
            if isinstance(name, str) and name in _expansion_names() and LUX_SET not in expansions:
                raise SetupError(f"{name!r} in {what} is a Lux et Tenebrae card: the engine protocol "
                                 f"plays the base game only")
            if not isinstance(name, str) or name not in C.BY_NAME:
                raise SetupError(f"unknown card {name!r} in {what}")
            out.append(C.BY_NAME[name])
        return out

    try:
        pops = cards_of(setup.get("places_of_power", []), "places_of_power")
        display = cards_of(setup.get("monument_display", []), "monument_display")
        deck = cards_of(setup.get("monument_deck", []), "monument_deck")
        mages = [cards_of(m, "mage_options") for m in setup.get("mage_options", [])]
        decks = [cards_of(d, "artifact_decks") for d in setup.get("artifact_decks", [])]
        essences = setup.get("starting_essences")
        pools: list[tuple[int, ...]] | None = None
        if essences is not None:
            pools = [pool_from_json(x) for x in essences][:num_players]
        first = setup.get("first_player", 0)
    except ValueError as exc:
        raise SetupError(str(exc)) from None
    return build_state(num_players, decks, mages, display, deck, pops, first_player=first,
                       starting_essences=pools, ruleset=ruleset, auto_chance=auto_chance, expansions=expansions)

