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


@dataclass(frozen=True)
class GameConfig:
    """How a game is set up: the variant (rules.md §2), the ruleset (``official``; ``reference``
    lists moves as the reference engine does), the expansions played (in `EXPANSIONS` order, each
    once) and the number of players.  Checked when made: `SetupError` for a word it does not know."""

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
        if self.players != 2:
            raise SetupError("the engine deals two-player games")
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
