"""The state's codes: where a card is (its location), the phase of the game and the kinds of
pending choice on the stack, with their names as the protocol spells them.

Every module that uses them, in the engine and in the other layers, imports them from here (the
state module does not re-export them), so that no rules module needs the state module at run time.
"""

from __future__ import annotations

from typing import Final

# Locations (the protocol's CardLocation values, plus two of our own for the draft).
OUT_OF_GAME: Final = 0
AVAILABLE: Final = 1
MONUMENT_DECK: Final = 2
DECK: Final = 3
HAND: Final = 4
IN_PLAY: Final = 5
DISCARD: Final = 6
BEING_CHOSEN: Final = 7
DRAFTING: Final = 8
DRAFT_RESERVE: Final = 9
FACE_UP: Final = 10
LOCATION_NAMES = ("OUT_OF_GAME", "AVAILABLE", "MONUMENT_DECK", "DECK", "HAND", "IN_PLAY", "DISCARD",
                  "BEING_CHOSEN", "DRAFTING", "DRAFT_RESERVE", "FACE_UP")
NOBODY = 5  # owner of unowned cards, as in the protocol
TOKEN, TEMPORARY = -1, -2  # the sources of points that are not components (see `points_breakdown`)

# Phases (the protocol's GamePhase values, plus the draft).
SETUP_GAME: Final = 0
SETUP_CHOOSE_MAGES: Final = 1
SETUP_CHOOSE_ITEMS: Final = 2
COLLECT: Final = 3
ACTIONS: Final = 4
VICTORY_CHECK: Final = 5
GAME_OVER: Final = 6
SETUP_DRAFT: Final = 7
SETUP_CHOOSE_FIRST: Final = 8
SETUP_REDRAFT: Final = 9
PHASE_NAMES = ("SETUP_GAME", "SETUP_CHOOSE_MAGES", "SETUP_CHOOSE_ITEMS", "COLLECT", "ACTIONS",
               "VICTORY_CHECK", "GAME_OVER", "SETUP_DRAFT", "SETUP_CHOOSE_FIRST", "SETUP_REDRAFT")

# Pending choices on the stack: tuples whose first item is one of these, second the deciding player.
P_GAIN: Final = 0  # (P_GAIN, player, entity, amount, kinds)
P_TAKE: Final = 1  # (P_TAKE, player, entity, bonus)  bonus: None | ("vault", n, kinds) | ("windup",)
P_CCOST: Final = 2  # (P_CCOST, player, entity)
P_LIFE: Final = 3  # (P_LIFE, victim, attacker entity, amount, effect)
P_DRAW: Final = 4  # (P_DRAW, player, known entities, unknown count, must-include entities)  chance
P_DISCARD: Final = 5  # (P_DISCARD, player, count)
P_SCRYDECK: Final = 6  # (P_SCRYDECK, player, count)
P_SCRYREV: Final = 7  # (P_SCRYREV, player, deck type, known entities, unknown count, must-include)  chance
P_SCRYORDER: Final = 8  # (P_SCRYORDER, player, deck type, looked-at entities)
P_MONDRAW: Final = 9  # (P_MONDRAW, player)  chance
P_MONREV: Final = 10  # (P_MONREV, player)  chance
P_PLACE: Final = 11  # (P_PLACE, player, power entity, place effect)
P_VREACT: Final = 12  # (P_VREACT, player, entity, power index)
P_BANK: Final = 13  # (P_BANK, player, entity, essence kind)  how many of that kind to put on the card
CHANCE_PENDING = frozenset((P_DRAW, P_SCRYREV, P_MONDRAW, P_MONREV))

# The victory check due (`GameState.victory_check`): none, one a power called mid-round, the round's own.
NO_CHECK: Final = 0
CHECK_MID_ROUND: Final = 1
CHECK_END_OF_ROUND: Final = 2

# The two decks a scry can look at.
DECK_ARTIFACT: Final = 0
DECK_MONUMENT: Final = 1
