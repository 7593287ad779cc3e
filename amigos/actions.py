"""Actions: plain tuples whose first item is a kind code and second the deciding player.

Entities are referred to by entity index, essences by 5-tuples (elan, life, calm, death, gold).
Tuples compare by value, so "is this action legal" is list membership.  The encodings:

    (PLACE, p, artifact, pay)                      PlaceArtifact (main action or a power's placement)
    (CLAIM_MONUMENT, p, monument)                  ClaimMonument
    (CLAIM_TOP, p)                                 ClaimTopMonument
    (CLAIM_POP, p, place, pay)                     ClaimPlaceOfPower
    (DISCARD, p, artifact, gain)                   DiscardForEssences
    (POWER, p, entity, index, target, rival, pay, gain)   UsePower (target/rival -1 when unused)
    (PASS, p, magic item)                          Pass
    (DECLINE, p, entity)                           Decline
    (LL_REACT, p, entity, index, target, pay, gain)       LifeLossReact
    (LL_CHOICE, p, pay)                            LifeLossChoice
    (V_REACT, p, entity, index, pay[, other])      VictoryReact (other: the artifact it turns, or the type
                                                   it counts as, where the React names one)
    (TAKE, p, entity, decision)                    TakeStored (decision 3 take, 4 leave)
    (COLLECT_COST, p, entity, decision)            CollectCost (0 pay, 1 turn, 2 decline)
    (GAIN, p, entity, gain)                        Gain
    (SCRY_DECK, p, deck type)                      ScryDeckChoice (0 artifact deck, 1 monument deck)
    (SCRY_ORDER, p, order)                         ScryChoice (a permutation tuple)
    (DISCARD_CHOICE, p, artifacts)                 DiscardChoice (entities ascending)
    (CHOOSE_MAGE, p, mage)                         ChooseMage
    (CHOOSE_ITEM, p, magic item)                   ChooseMagicItem
    (DRAFT_PICK, p, artifact)                      DraftPick (our draft variant)
    (R_DRAW, p, known, revealed)                   ResolveDrawReveal (chance; revealed ascending)
    (R_SCRY, p, revealed)                          ResolveScryReveal (chance; order matters)
    (R_MON_DRAW, p, monument)                      ResolveMonumentDraw (chance)
    (R_MON_REVEAL, p, monument)                    ResolveMonumentReveal (chance)
    (CHOOSE_FIRST, p, first player)                ChooseFirstPlayer (games 2 and 3 of a match)
    (REDRAFT_PICK, p, artifact)                    RedraftPick (the face-up redraft of a match)
    (BANK, p, entity, kind, count)                 Bank (Infernal Engine: count essences of a kind onto it)
"""

from typing import Any, Final

PLACE: Final = 0
CLAIM_MONUMENT: Final = 1
CLAIM_TOP: Final = 2
CLAIM_POP: Final = 3
DISCARD: Final = 4
POWER: Final = 5
PASS: Final = 6
DECLINE: Final = 7
LL_REACT: Final = 8
LL_CHOICE: Final = 9
V_REACT: Final = 10
TAKE: Final = 11
COLLECT_COST: Final = 12
GAIN: Final = 13
SCRY_DECK: Final = 14
SCRY_ORDER: Final = 15
DISCARD_CHOICE: Final = 16
CHOOSE_MAGE: Final = 17
CHOOSE_ITEM: Final = 18
DRAFT_PICK: Final = 19
R_DRAW: Final = 20
R_SCRY: Final = 21
R_MON_DRAW: Final = 22
R_MON_REVEAL: Final = 23
CHOOSE_FIRST: Final = 24
REDRAFT_PICK: Final = 25
BANK: Final = 26

MAIN_ACTIONS = frozenset((PLACE, CLAIM_MONUMENT, CLAIM_TOP, CLAIM_POP, DISCARD, POWER, PASS))
CHANCE_ACTIONS = frozenset((R_DRAW, R_SCRY, R_MON_DRAW, R_MON_REVEAL))
SETUP_ACTIONS = frozenset((CHOOSE_MAGE, CHOOSE_ITEM, DRAFT_PICK, CHOOSE_FIRST, REDRAFT_PICK))
#: The kinds whose third field is the entity the action is about (the artifact placed or discarded, the
#: monument or place claimed, the component whose power or React is used, the magic item taken on
#: passing, the mage or item chosen, the artifact picked); the others hold a deck, an order, cards or a
#: player there (`card`).
CARD_KINDS = frozenset((PLACE, CLAIM_MONUMENT, CLAIM_POP, DISCARD, POWER, PASS, DECLINE, LL_REACT, V_REACT, TAKE,
                        COLLECT_COST, GAIN, CHOOSE_MAGE, CHOOSE_ITEM, DRAFT_PICK, REDRAFT_PICK, BANK))

PAY_COST: Final = 0
PAY_TURN: Final = 1
DECLINE_COST: Final = 2
TAKE_STORED: Final = 3
LEAVE_STORED: Final = 4

TYPE_NAMES = ("PlaceArtifact", "ClaimMonument", "ClaimTopMonument", "ClaimPlaceOfPower",
              "DiscardForEssences", "UsePower", "Pass", "Decline", "LifeLossReact", "LifeLossChoice",
              "VictoryReact", "TakeStored", "CollectCost", "Gain", "ScryDeckChoice", "ScryChoice",
              "DiscardChoice", "ChooseMage", "ChooseMagicItem", "DraftPick", "ResolveDrawReveal",
              "ResolveScryReveal", "ResolveMonumentDraw", "ResolveMonumentReveal", "ChooseFirstPlayer",
              "RedraftPick", "Bank")
TYPE_CODES = {name: i for i, name in enumerate(TYPE_NAMES)}
#: Each kind's name in the screens' data (the web board's ``act``), in the order of the kind codes.
KIND_WORDS = ("place", "monument", "top_monument", "place_of_power", "discard", "power", "pass", "decline",
              "react", "life_loss", "victory_react", "take", "collect_cost", "gain", "scry_deck", "scry_order",
              "discard_choice", "mage", "magic_item", "draft", "draw", "scry", "monument_draw",
              "monument_reveal", "first_player", "redraft", "bank")


def is_chance(action: tuple[Any, ...]) -> bool:
    """True for the four chance outcomes (information nobody chooses)."""
    return action[0] in CHANCE_ACTIONS


def macro_key(action: tuple[Any, ...]) -> tuple[Any, ...]:
    """The action without its payment and gain: "place Fire Dragon" for every way of paying for it."""
    n = _MACRO_LEN.get(action[0])
    return action if n is None else action[:n]


# -- the fields of an action, read here for every layer (`lab/DECISIONS.md`, "How to read an action's
# fields": compiled, an accessor costs no more than a read by position) -----------------------------

#: Each kind's fields by name, in the order of its tuple (the encodings above): the one statement of the
#: layout, which the accessors below and the protocol's codec (`amigos.steps`) read.  A `V_REACT` may
#: have one field more, ``other``.
FIELDS: Final[dict[int, tuple[str, ...]]] = {
    PLACE: ("kind", "player", "artifact", "pay"),
    CLAIM_MONUMENT: ("kind", "player", "monument"),
    CLAIM_TOP: ("kind", "player"),
    CLAIM_POP: ("kind", "player", "place", "pay"),
    DISCARD: ("kind", "player", "artifact", "gain"),
    POWER: ("kind", "player", "card", "power", "target", "rival", "pay", "gain"),
    PASS: ("kind", "player", "item"),
    DECLINE: ("kind", "player", "card"),
    LL_REACT: ("kind", "player", "card", "power", "target", "pay", "gain"),
    LL_CHOICE: ("kind", "player", "pay"),
    V_REACT: ("kind", "player", "card", "power", "pay", "other"),
    TAKE: ("kind", "player", "card", "decision"),
    COLLECT_COST: ("kind", "player", "card", "decision"),
    GAIN: ("kind", "player", "card", "gain"),
    SCRY_DECK: ("kind", "player", "deck"),
    SCRY_ORDER: ("kind", "player", "order"),
    DISCARD_CHOICE: ("kind", "player", "artifacts"),
    CHOOSE_MAGE: ("kind", "player", "mage"),
    CHOOSE_ITEM: ("kind", "player", "item"),
    DRAFT_PICK: ("kind", "player", "artifact"),
    R_DRAW: ("kind", "player", "known", "revealed"),
    R_SCRY: ("kind", "player", "revealed"),
    R_MON_DRAW: ("kind", "player", "monument"),
    R_MON_REVEAL: ("kind", "player", "monument"),
    CHOOSE_FIRST: ("kind", "player", "first"),
    REDRAFT_PICK: ("kind", "player", "artifact"),
    BANK: ("kind", "player", "card", "essence", "count"),
}


def field_at(kind: int, name: str) -> int:
    """Where actions of ``kind`` hold the field ``name`` (-1: they have none)."""
    fields = FIELDS[kind]
    return fields.index(name) if name in fields else -1


#: The fields of `FIELDS` that hold a tuple (of essences, entities or an order); every other field holds
#: a whole number.
TUPLE_FIELDS: Final = frozenset(("pay", "gain", "known", "revealed", "order", "artifacts"))


def well_formed(obj: object) -> bool:
    """Whether ``obj`` (from outside: a person, a file, the bridge) has an action's shape: a tuple of a
    kind code and the fields `FIELDS` gives that kind, each a whole number or a tuple as it should be
    (a `V_REACT` may have its ``other`` or not).  Not whether it is legal."""
    if not isinstance(obj, tuple) or not obj or type(obj[0]) is not int or obj[0] not in FIELDS:
        return False
    fields = FIELDS[obj[0]]
    if len(obj) != len(fields) and not (obj[0] == V_REACT and len(obj) == len(fields) - 1):
        return False
    return all(isinstance(value, tuple) if name in TUPLE_FIELDS else type(value) is int
               for name, value in zip(fields, obj))


#: Where an action holds what it pays and what it gains (-1: nothing), by kind (for the kinds that do).
PAY_GAIN_AT: Final = {k: (field_at(k, "pay"), field_at(k, "gain")) for k in FIELDS
                      if field_at(k, "pay") >= 0 or field_at(k, "gain") >= 0}
# The leading fields that name an action, by kind: those before its payment and gain (a `V_REACT`'s
# ``other`` after its payment goes too).
_MACRO_LEN = {k: min(at for at in places if at >= 0) for k, places in PAY_GAIN_AT.items()}
_PAY_AT: Final = tuple(PAY_GAIN_AT.get(k, (-1, -1))[0] for k in range(len(TYPE_NAMES)))  # (by kind code: fast)
_GAIN_AT: Final = tuple(PAY_GAIN_AT.get(k, (-1, -1))[1] for k in range(len(TYPE_NAMES)))
Essences = tuple[int, int, int, int, int]  # (elan, life, calm, death, gold), as `amigos.cards.Essences`
NOTHING: Final[Essences] = (0, 0, 0, 0, 0)


def kind(action: tuple[Any, ...]) -> int:
    """The action's kind (`PLACE`, `POWER`, ...)."""
    return action[0]


def player(action: tuple[Any, ...]) -> int:
    """The deciding player (for a chance outcome: the player it happens to)."""
    return action[1]


def subject(action: tuple[Any, ...]) -> Any:
    """The third field: for most kinds the entity the action is about (the artifact placed or
    discarded, the monument or place claimed, the component whose power or React is used, the magic
    item passed for, the mage or item chosen, the card picked); for the others what their encoding
    above says (a deck type, an order, artifacts, a revealed card, the first player)."""
    return action[2]


def card(action: tuple[Any, ...]) -> int | None:
    """The entity the action is about, for the kinds of `CARD_KINDS`; None for the others."""
    return action[2] if action[0] in CARD_KINDS and len(action) > 2 else None


def power_index(action: tuple[Any, ...]) -> int:
    """Which power of its component a `POWER`, `LL_REACT` or `V_REACT` uses."""
    return action[3]


def target(action: tuple[Any, ...]) -> int:
    """A `POWER`'s or `LL_REACT`'s target entity (-1: none)."""
    return action[4]


def rival(action: tuple[Any, ...]) -> int:
    """A `POWER`'s chosen rival (-1: none)."""
    return action[5]


def decision(action: tuple[Any, ...]) -> int:
    """A `TAKE`'s (`TAKE_STORED`, `LEAVE_STORED`) or `COLLECT_COST`'s (`PAY_COST`, `PAY_TURN`,
    `DECLINE_COST`) choice."""
    return action[3]


def payment(action: tuple[Any, ...]) -> Essences:
    """What the action pays, as five essences (`NOTHING` for a kind that pays nothing)."""
    at = _PAY_AT[action[0]]
    return action[at] if at >= 0 else NOTHING


def gain(action: tuple[Any, ...]) -> Essences:
    """What the action gains, as five essences (`NOTHING` for a kind that gains nothing)."""
    at = _GAIN_AT[action[0]]
    return action[at] if at >= 0 else NOTHING


def other(action: tuple[Any, ...]) -> int | None:
    """What a `V_REACT` names besides its payment, where it names one: the artifact it turns (Dark
    Cathedral) or the type it counts as (Illusion); None for every other action."""
    return action[5] if action[0] == V_REACT and len(action) > 5 else None


def banked(action: tuple[Any, ...]) -> tuple[int, int]:
    """A `BANK`'s essence kind (an index of `amigos.cards.ESSENCES`) and how many it puts on the card."""
    return action[3], action[4]


def revealed(action: tuple[Any, ...]) -> tuple[Any, ...]:
    """The cards a chance outcome reveals: an `R_DRAW`'s (beside the known ones, `subject`), an
    `R_SCRY`'s."""
    return action[3] if action[0] == R_DRAW else action[2]
