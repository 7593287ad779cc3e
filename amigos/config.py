"""The game's vocabulary as types, and the configuration a game is dealt with.

`Action`, `Entity` and `Player` name what the engine's ints and tuples mean where a signature uses
them; `Variant`, `Ruleset` and `Expansion` are the words a game may be set up with; `GameConfig` is
the frozen set of those choices (and the number of players), which the harness passes around instead
of three strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias, cast, get_args

from . import cards as C
from .errors import SetupError

# (kind, player, ...): `amigos.actions`; its fields are ints, and pools (five ints) where it pays or gains
Action: TypeAlias = tuple[Any, ...]
# An action's key without what its variants differ in (`amigos.actions.macro_key`); the search adds a purchase
Macro: TypeAlias = tuple[Any, ...]
Entity: TypeAlias = int  # an index into a state's components (`GameState.cards`)
Player: TypeAlias = int  # a seat, 0 for the first

Variant = Literal["standard", "first_game", "draft"]
Ruleset = Literal["official", "reference"]
Expansion = Literal["lux"]

VARIANTS: tuple[Variant, ...] = get_args(Variant)
RULESETS: tuple[Ruleset, ...] = get_args(Ruleset)
EXPANSIONS: tuple[Expansion, ...] = get_args(Expansion)  # in the order they apply
OFFICIAL: Final[Ruleset] = "official"  # the published rules (the default)
#: The player counts a game may be dealt for (rules.md §2.3: the expansion makes it 2-5).
FEWEST_PLAYERS: Final = 2
MOST_PLAYERS: Final = 4
MOST_PLAYERS_LUX: Final = 5
#: The fewest players of a game set up through the engine protocol (its rule scenarios include solo ones).
FEWEST_PLAYERS_SETUP: Final = 1


def needed_expansions(players: int) -> tuple[Expansion, ...]:
    """The expansions a table of ``players`` cannot be played without: *Lux et Tenebrae* beyond
    `MOST_PLAYERS`, none otherwise."""
    return ("lux",) if players > MOST_PLAYERS else ()


def check_players(players: object, expansions: Sequence[str], fewest: int = FEWEST_PLAYERS) -> int:
    """``players`` if a game with these expansions may have that many: ``fewest`` (`FEWEST_PLAYERS`) to
    `MOST_PLAYERS`, `MOST_PLAYERS_LUX` with Lux et Tenebrae; else `SetupError`.  The one check of a
    player count, for `GameConfig` and for the protocol's setups (`amigos.setup.build_state`)."""
    most = MOST_PLAYERS_LUX if "lux" in expansions else MOST_PLAYERS
    if not isinstance(players, int) or isinstance(players, bool) or not fewest <= players <= most:
        raise SetupError(f"Res Arcana is for {fewest} to {MOST_PLAYERS} players "
                         f"({MOST_PLAYERS_LUX} with Lux et Tenebrae), not {players!r}")
    return players


@dataclass(frozen=True)
class GameConfig:
    """How a game is set up: the variant (rules.md §2), the ruleset (``official``; ``reference``
    lists moves as the reference engine does), the expansions played (in `EXPANSIONS` order, each
    once) and the number of players (2 to 4, 5 with the expansion).  Checked when made: `SetupError` for
    a word or a player count it does not know."""

    variant: Variant = "standard"
    ruleset: Ruleset = OFFICIAL
    expansions: tuple[Expansion, ...] = ()
    players: int = 2

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise SetupError(f"unknown variant {self.variant!r} (expected one of {', '.join(VARIANTS)})")
        if self.ruleset not in RULESETS:
            raise SetupError(f"unknown ruleset {self.ruleset!r} (expected one of {', '.join(RULESETS)})")
        for name in self.expansions:
            if name not in EXPANSIONS:
                raise SetupError(f"unknown expansion {name!r} (expected one of {', '.join(EXPANSIONS)})")
        check_players(self.players, self.expansions)
        presets = len(C.FIRST_GAME["preset_hands"])
        if self.variant == "first_game" and self.players > presets:
            raise SetupError(f"a First Game deals its {presets} preset hands: at most {presets} players")
        object.__setattr__(self, "expansions", tuple(e for e in EXPANSIONS if e in self.expansions))

    @classmethod
    def parse(cls, variant: str = "standard", ruleset: str = "official", expansions: Sequence[str] = (),
              players: int = 2) -> GameConfig:
        """The configuration of these words as read from a file or a command line: checked as when
        made (`SetupError` for a word it does not know)."""
        return cls(cast(Variant, variant), cast(Ruleset, ruleset), cast("tuple[Expansion, ...]", tuple(expansions)),
                   players)

    @property
    def card_sets(self) -> tuple[str, ...]:
        """The card sets of the game: the base game's, then each expansion's."""
        return (C.BASE_SET,) + self.expansions
