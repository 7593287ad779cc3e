"""Building a position directly, for tests and analysis: these cards in play, this hand, these essences.

    s = build_position(
        players=[
            {"mage": "witch", "item": "alchemy", "in_play": ["fire_dragon", "vault"], "hand": ["hawk"],
             "deck": ["prism"], "discard": [], "pool": {"elan": 3, "gold": 1},
             "essences_on": {"vault": {"gold": 1}}, "turned": ["vault"], "monuments": ["temple"],
             "places": ["coral_castle"]},
            {"mage": "healer", "item": "protection", "pool": {"life": 2}},
        ],
        monuments_face_up=["obelisk"], monument_deck=["library"], places_of_power=["sacred_grove"],
        first_player=0, turn=0, ruleset="official")

Cards are named by id or printed name.  The position starts in the action phase of round 1 with
``turn`` to act and nothing pending; chance is resolved from ``seed`` unless ``auto_chance`` is False.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import cards as C
from .codes import ACTIONS, AVAILABLE, DECK, DISCARD, HAND, IN_PLAY, MONUMENT_DECK, NOBODY
from .errors import SetupError
from .setup import build_state

if TYPE_CHECKING:
    from .cards import Card
    from .state import GameState


def _card(name: str) -> Card:
    card = C.BY_ID.get(name) or C.BY_NAME.get(name)
    if card is None:
        raise SetupError(f"unknown card {name!r}")
    return card


def build_position(players: list[dict[str, Any]], monuments_face_up: Iterable[str] = (),
                   monument_deck: Iterable[str] = (), places_of_power: Iterable[str] = (), first_player: int = 0,
                   turn: int | None = None, ruleset: str = "official", seed: int = 0, auto_chance: bool = True,
                   round_number: int = 1, round_limit: int = 0) -> GameState:
    """A game in the action phase with exactly the given cards, essences and turned components (and no
    round limit unless ``round_limit`` is given, see `amigos.adjudicate`)."""
    zones = ("hand", "deck", "discard", "in_play")
    decks = []
    for spec in players:
        cards: list[Card] = []
        for zone in zones:
            cards.extend(_card(n) for n in spec.get(zone, ()))
        decks.append(cards)
    # build_state puts the first three artifacts in hand; every location is set explicitly below.
    mages = [[_card(spec["mage"])] if spec.get("mage") else [] for spec in players]
    if any(not m for m in mages):
        raise SetupError("every player needs a mage")
    monuments = [_card(n) for n in monuments_face_up]
    deck = [_card(n) for n in monument_deck]
    owned_monuments = [[_card(n) for n in spec.get("monuments", ())] for spec in players]
    owned_places = [[_card(n) for n in spec.get("places", ())] for spec in players]
    all_monuments = monuments + deck + [c for group in owned_monuments for c in group]
    all_places = [_card(n) for n in places_of_power] + [c for group in owned_places for c in group]
    pools = [tuple(spec.get("pool", {}).get(k, 0) for k in C.ESSENCES) for spec in players]
    s = build_state(len(players), decks, mages, all_monuments, [], all_places, first_player=first_player,
                    starting_essences=pools, ruleset=ruleset, auto_chance=auto_chance, round_limit=round_limit)
    s.rng = seed
    for p, spec in enumerate(players):
        for zone, where in (("hand", HAND), ("deck", DECK), ("discard", DISCARD), ("in_play", IN_PLAY)):
            for name in spec.get(zone, ()):
                e = s.find(_card(name).name)
                s.loc[e] = where
                s.owner[e] = p
        s.loc[s.find(mages[p][0].name)] = IN_PLAY
        if spec.get("item"):
            e = s.find(_card(spec["item"]).name)
            s.loc[e] = IN_PLAY
            s.owner[e] = p
        for group in (owned_monuments[p], owned_places[p]):
            for card in group:
                e = s.find(card.name)
                s.loc[e] = IN_PLAY
                s.owner[e] = p
        for name in spec.get("turned", ()):
            s.turned[s.find(_card(name).name)] = 1
        for name, amount in (spec.get("essences_on") or {}).items():
            e = s.find(_card(name).name)
            s.ess[5 * e:5 * e + 5] = [amount.get(k, 0) for k in C.ESSENCES]
        s.passed[p] = bool(spec.get("passed", False))
        s.mage_chosen[p] = True
    for card in deck:
        e = s.find(card.name)
        s.loc[e] = MONUMENT_DECK
        s.owner[e] = NOBODY
    for card in monuments:
        s.loc[s.find(card.name)] = AVAILABLE
    s.phase = ACTIONS
    s.round = round_number
    s.item_picks = len(players)
    s.turn = first_player if turn is None else turn
    s._legal = s._groups = None
    return s


def describe(s: GameState) -> dict[str, Any]:
    """The arguments of `build_position` that rebuild ``s`` (a game in the action phase with nothing
    pending): every player's cards by zone, pools, essences on components, turned components and
    passes; the monuments and places of power; the First Player, the turn and the round.  What it
    leaves out: the order of the decks, what each player knows of the other's cards and the chance
    generator (``seed`` picks a new one)."""
    if s.phase != ACTIONS or s.stack:
        raise SetupError("only a position in the action phase with nothing pending can be described")
    if s.sets != (C.BASE_SET,):  # (`build_position` sets up base-game tables: no scrolls, 8 magic items)
        raise SetupError("only a base-game position can be described")
    loc, owner, cards = s.loc, s.owner, s.cards
    players: list[dict[str, Any]] = []
    for p in range(s.n_players):
        spec: dict[str, Any] = {"mage": None, "item": None, "in_play": [], "hand": [], "deck": [], "discard": [],
                "monuments": [], "places": [], "pool": {}, "essences_on": {}, "turned": [],
                "passed": bool(s.passed[p])}
        players.append(spec)
        b = 5 * p
        spec["pool"] = {k: s.pool[b + i] for i, k in enumerate(C.ESSENCES) if s.pool[b + i]}
    zone_of = {HAND: "hand", DECK: "deck", DISCARD: "discard"}
    monuments_face_up, monument_deck, places = [], [], []
    for e, card in enumerate(cards):
        where, p = loc[e], owner[e]
        if e < s.n_art and where in zone_of:
            players[p][zone_of[where]].append(card.id)
        elif where == IN_PLAY:
            spec = players[p]
            if card.kind == C.ARTIFACT:
                spec["in_play"].append(card.id)
            elif card.kind == C.MAGE:
                spec["mage"] = card.id
            elif card.kind == C.MAGIC_ITEM:
                spec["item"] = card.id
            elif card.kind == C.MONUMENT:
                spec["monuments"].append(card.id)
            else:
                spec["places"].append(card.id)
            on = s.ess[5 * e:5 * e + 5]
            if any(on):
                spec["essences_on"][card.id] = {k: on[i] for i, k in enumerate(C.ESSENCES) if on[i]}
            if s.turned[e]:
                spec["turned"].append(card.id)
        elif where == AVAILABLE and card.kind == C.MONUMENT:
            monuments_face_up.append(card.id)
        elif where == MONUMENT_DECK:
            monument_deck.append(card.id)
        elif where == AVAILABLE and card.kind == C.PLACE_OF_POWER:
            places.append(card.id)
    return {"players": players, "monuments_face_up": monuments_face_up, "monument_deck": monument_deck,
            "places_of_power": places, "first_player": s.first_player, "turn": s.turn,
            "ruleset": "reference" if s.reference else "official", "round_number": s.round}
