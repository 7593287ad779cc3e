"""What one player sees of a position, as the screens draw it: `Seen`, read from the engine's
`observation` (the one gate for secrecy, which the engine's leak tests cover) and the card catalog
(`amigos.cards.BY_ID`), never from the position itself.

Every screen (the line prompt's board, the full screen's board, hand and card panel, the replay, the
end of a game) is drawn from a `Seen` made once per redraw; `look` makes one from a position, or
passes one on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Union

from amigos import cards as C
from amigos.observe import SPECTATOR, observation

if TYPE_CHECKING:
    from amigos.state import GameState

    #: What a screen may be given to draw: a `Seen`, or a position to see through the gate (`look`).
    View = Union["Seen", GameState]


class Piece(NamedTuple):
    """A component in play as everyone sees it."""

    card: C.Card
    is_turned: bool
    essences: tuple[int, ...]  # the five counts on it


class PointsSource(NamedTuple):
    """Where some of a player's points come from: a component in play (``card``), else the First
    Player token (``what`` "first_player") or the round's points ("this_round")."""

    what: str  # "card", "first_player" or "this_round"
    card: C.Card | None
    points: int


class Seen:
    """A read-only view of one `observation`: what ``viewer`` (`SPECTATOR`: nobody's secrets) sees.

    Cards are the catalog's `amigos.cards.Card` (name, kind, cost), looked up by id; lists keep the
    observation's order (components in play, the centre: the table's order; hands, decks, packets,
    discard piles: sorted by id)."""

    __slots__ = ("data", "viewer", "player_count", "phase_name", "round_number", "to_play", "over", "_players")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data: dict[str, Any] = data  # the observation itself
        self.viewer: int = data["player"]
        self.player_count: int = len(data["players"])
        self.phase_name: str = data["phase"]  # `amigos.codes.PHASE_NAMES`: "ACTIONS", "SETUP_DRAFT", ...
        self.round_number: int = data["round"]
        self.to_play: int = data["current_player"]
        self.over: bool = data["phase"] == "GAME_OVER"
        self._players: list[dict[str, Any]] = data["players"]

    @classmethod
    def of(cls, state: GameState, viewer: int) -> Seen:
        """What ``viewer`` sees of ``state``: its `observation`."""
        return cls(observation(state, viewer))

    # -- every player, in public ----------------------------------------------------------------------

    def points(self, p: int) -> int:
        return int(self._players[p]["vp"])

    def points_sources(self, p: int) -> list[PointsSource]:
        """Where ``p``'s points come from, in the engine's order (`GameState.points_breakdown`)."""
        return [PointsSource(s["source"], None if s["card"] is None else C.BY_ID[s["card"]], s["points"])
                for s in self._players[p]["points_breakdown"]]

    def pool_counts(self, p: int) -> tuple[int, ...]:
        """``p``'s pool: elan, life, calm, death, gold."""
        return tuple(self._players[p]["pool"])

    def pool_worth(self, p: int) -> int:
        """``p``'s pool as a tie on points is decided (rules.md §11.6): each Gold counts two."""
        pool = self._players[p]["pool"]
        return sum(pool) + pool[4]

    def has_passed(self, p: int) -> bool:
        return bool(self._players[p]["passed"])

    def holds_token(self, p: int) -> bool:
        """``p`` holds the First Player token (nobody does before the chooser of game 2 or 3 chose)."""
        return bool(self._players[p]["first_player"]) and self.phase_name != "SETUP_CHOOSE_FIRST"

    def hand_size(self, p: int) -> int:
        return int(self._players[p]["hand_size"])

    def deck_size(self, p: int) -> int:
        return int(self._players[p]["deck_size"])

    def discards(self, p: int) -> list[C.Card]:
        """``p``'s discard pile."""
        return _cards(self._players[p]["discard"])

    def pieces(self, p: int) -> list[Piece]:
        """``p``'s components in play, scrolls included."""
        return [Piece(C.BY_ID[c["id"]], bool(c["turned"]), tuple(c["essences"])) for c in self._players[p]["in_play"]]

    def redraft_taken(self, p: int) -> list[C.Card]:
        """The artifacts ``p`` took in the face-up redraft so far (while it lasts: `redrafting`)."""
        return _cards(self._players[p]["redraft_taken"])

    def winner_seats(self) -> list[int]:
        """The winners, in seat order (several on a shared victory); empty until the end."""
        return list(self.data["winners"])

    # -- the centre -----------------------------------------------------------------------------------------

    def monuments(self) -> list[C.Card]:
        """The face-up monuments."""
        return _cards(self.data["monuments_face_up"])

    def monument_deck_size(self) -> int:
        return int(self.data["monument_deck_size"])

    def places(self) -> list[C.Card]:
        """The places of power not claimed yet."""
        return _cards(self.data["places_of_power"])

    def magic_items_free(self) -> list[C.Card]:
        return _cards(self.data["magic_items_available"])

    def scrolls_free(self) -> list[C.Card]:
        """The scrolls in the centre, free to claim (with Inscription)."""
        return _cards(self.data["scrolls_available"])

    def has_scrolls(self) -> bool:
        """The game has scrolls (*Lux et Tenebrae*), in the centre or held."""
        return bool(self.data["scrolls_in_game"])

    def face_up(self) -> list[C.Card]:
        """The artifacts face up for the redraft, in the order they lie."""
        return _cards(self.data["face_up_artifacts"])

    def redrafting(self) -> bool:
        """A face-up redraft is on (or about to begin: its cards lie face up)."""
        return bool(self.data["face_up_artifacts"]) or self.phase_name == "SETUP_REDRAFT"

    def pending(self) -> dict[str, Any] | None:
        """The decision waited for (`amigos.observe._pending`), if any."""
        pending: dict[str, Any] | None = self.data["pending"]
        return pending

    # -- the viewer's own ---------------------------------------------------------------------------------

    def _mine(self, key: str) -> list[C.Card]:
        if self.viewer == SPECTATOR:
            return []
        return _cards(self._players[self.viewer].get(key, []))

    def own_hand(self) -> list[C.Card]:
        """The viewer's hand (none for a spectator)."""
        return self._mine("hand")

    def known_deck(self) -> list[C.Card]:
        """The cards of the viewer's deck they have seen (not its order)."""
        return self._mine("deck")

    def unseen_in_deck(self) -> int:
        """How many cards of the viewer's deck they have never seen (a First Game's, dealt face down)."""
        if self.viewer == SPECTATOR:
            return 0
        return self.deck_size(self.viewer) - len(self._players[self.viewer]["deck"])

    def draft_packet(self) -> list[C.Card]:
        return self._mine("draft_packet")

    def mage_options(self) -> list[C.Card]:
        """The mages the viewer is choosing between (until every mage is chosen)."""
        return self._mine("mage_options")


def _cards(ids: list[str]) -> list[C.Card]:
    return [C.BY_ID[i] for i in ids]


def look(view: View, viewer: int | None = None) -> Seen:
    """``view`` as a `Seen`: a `Seen` as it is (which must be ``viewer``'s, when one is named), or what
    ``viewer`` (None: `SPECTATOR`) sees of a position, through the gate (`Seen.of`)."""
    if isinstance(view, Seen):
        if viewer is not None and viewer != view.viewer:
            raise ValueError(f"a view of seat {view.viewer} drawn for seat {viewer}")
        return view
    return Seen.of(view, SPECTATOR if viewer is None else viewer)
