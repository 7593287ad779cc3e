"""The card table: every component compiled once, at import, from the packaged card data.

Cards are data where they are regular: costs are 5-tuples in essence order (elan, life, calm, death,
gold) plus an ``any`` count, and powers are compiled into `Power` records whose effects are small
tuples of a closed vocabulary (see `EFFECT_OPS`).  A power's position in `Card.powers` is the
protocol's ``power_index`` (the reference engine's order, recorded in base.json as
``reference_powers``), so the Obelisk's on-claim effect sits at index 0 and cannot be used.

The *Lux et Tenebrae* expansion fits the same model: its cards are more data in the same vocabulary
(appended to `CARDS` after the base game's, so a base card's ``idx`` never changes), plus a few effect
ops (retrieve, claim a scroll, take every essence off a component, gain per rival Demon), the Demon
type and the scroll kind.  `ARTIFACTS`, `MAGES`, ... are the base game's; `set_cards` gives a set's.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Final

from .carddata import BASE_SET as BASE_SET  # (part of this module's interface: `cards.BASE_SET`)
from .carddata import LUX_SET, SETS, load_base, load_packaged, load_set, raw_components
from .essences import add

ELAN: Final = 0
LIFE: Final = 1
CALM: Final = 2
DEATH: Final = 3
GOLD: Final = 4
ESSENCES = ("elan", "life", "calm", "death", "gold")
ESSENCE_INDEX = {name: i for i, name in enumerate(ESSENCES)}
ESSENCE_LETTERS: Final = "ELCDG"  # one letter each, in the order of `ESSENCES` ("2E 1G")
Essences = tuple[int, int, int, int, int]  # five counts (or changes): elan, life, calm, death, gold
ZERO: Final[Essences] = (0, 0, 0, 0, 0)
NON_GOLD: Final[tuple[int, int, int, int]] = (ELAN, LIFE, CALM, DEATH)
ALL_KINDS: Final[tuple[int, int, int, int, int]] = (ELAN, LIFE, CALM, DEATH, GOLD)
MONUMENT_COST_GOLD: Final = 4  # the Gold every monument costs

# Component kinds, in the order their entities are laid out in a game (artifacts first, places last):
# that order is also the "component order" the rules scan in (Collect, powers).
ARTIFACT: Final = 0
MAGE: Final = 1
MAGIC_ITEM: Final = 2
MONUMENT: Final = 3
PLACE_OF_POWER: Final = 4
SCROLL: Final = 5  # the expansion's scrolls: held by a player (in play, never turned), or in the centre
KIND_NAMES = ("ARTIFACT", "MAGE", "MAGIC_ITEM", "MONUMENT", "PLACE_OF_POWER", "SCROLL")

# Power kinds and triggers.
ACTION: Final = 0
REACT: Final = 1
ON_CLAIM: Final = 2
TRIGGER_LIFE_LOSS: Final = 1
TRIGGER_DRAGON: Final = 2
TRIGGER_VICTORY: Final = 3
TRIGGER_DEMON: Final = 4        # a Life loss caused by a rival's Demon (Possessed Demon Slayer)
TRIGGER_DESTROYED: Final = 5    # any artifact destroyed (Vial of Light)
TRIGGER_OWN_POWER: Final = 6    # its owner using a power (Illusion)

# The artifact types a power can count as (Illusion) or ask to turn: the order of `TYPE_NAMES`.
CREATURE: Final = 0
DRAGON: Final = 1
DEMON: Final = 2
TYPE_NAMES = ("creature", "dragon", "demon")

# Effect vocabulary: each effect is a tuple whose first item is one of these names.
EFFECT_OPS = frozenset({
    "gain",              # ("gain",) fixed pool gain and fixed store are in Power.gain_pool/store
    "gain_mix",          # mix count/kinds in Power.mix_*
    "rivals_gain",       # ("rivals_gain", essences5)
    "rivals_lose_life",  # ("rivals_lose_life", amount, is_dragon, rider, is_demon) rider: None | ("pay", e5) | ("discard",) | ("destroy",)
    "ignore_life_loss",  # ("ignore_life_loss",)
    "straighten",        # ("straighten", "self" | "own_turned" | "own_turned_creature" | "own_turned_demon" | "all_demons")
    "draw",              # ("draw", n)
    "draw_discard",      # ("draw_discard", n drawn, n discarded)
    "scry",              # ("scry", n)
    "place",             # ("place", source, required_type, free, discount)
    "gain_from_rival",   # ("gain_from_rival", counted_kind, gained_kind)
    "gain_from_cost",    # ("gain_from_cost", "destroyed" | "discarded", modifier, as_kind or None)
    "put_paid",          # ("put_paid", "chosen" | "self")
    "check_victory",     # ("check_victory",)
    "temporary_vp",      # ("temporary_vp", n)
    "gain_x_gold",       # ("gain_x_gold", rate)  X identical paid -> X // rate Gold
    "gain_x_other",      # ("gain_x_other",) Prism: X identical paid -> X of another non-Gold kind
    "gain_per_rival_type",  # ("gain_per_rival_type", type, kind): 1 kind per artifact of the type a rival has
    "take_all",          # ("take_all",) every essence on the target (one of yours) into the pool
    "retrieve",          # ("retrieve",) the target card of your discard pile into your hand
    "claim_scroll",      # ("claim_scroll",) the target scroll from the centre
    "count_as",          # ("count_as", types) Illusion: counts as one of these types for the power
})


def essences5(amount: dict[str, Any] | None) -> tuple[int, ...]:
    """An essence amount object of base.json as a 5-tuple, ignoring its ``any`` key."""
    if not amount:
        return ZERO
    return tuple(int(amount.get(name, 0)) for name in ESSENCES)


class Power:
    """One power of a card: its cost parts, its effects and the flags the rules need.

    ``pay`` is the fixed essence cost; ``pay_any`` essences of ``any_kinds`` are paid on top (Mermaid's
    "1 of Calm/Life/Gold" is an any-part with three kinds).  ``identical`` marks the pay-X-of-one-kind
    costs (Athanor, Philosopher's Stone, Prism).  ``gain_pool``/``store`` are fixed gains to the pool and
    onto the card; ``mix_count``/``mix_kinds``/``mix_to_card`` a chosen gain of N essences.
    """

    __slots__ = ("index", "kind", "trigger", "turn_self", "usable_while_turned", "pay", "pay_any",
                 "any_kinds", "identical", "remove_self", "destroy", "discard_hand", "turn_other",
                 "gain_pool", "store", "mix_count", "mix_kinds", "mix_to_card", "effects", "text",
                 "needs_target", "target_rule", "chooses_rival", "places", "cost_gain", "simple", "pool_cap",
                 "spend_self", "pay_x", "destroy_types", "discard_types", "exclude_self", "rate")

    index: int
    kind: int                      # ACTION, REACT or ON_CLAIM
    trigger: int
    turn_self: bool
    usable_while_turned: bool
    pay: tuple[int, ...]           # a 5-vector of essences
    pay_any: int
    any_kinds: tuple[int, ...]
    identical: bool
    remove_self: tuple[int, ...] | None
    destroy: str | None
    discard_hand: int
    turn_other: str | None
    gain_pool: tuple[int, ...]
    store: tuple[int, ...]
    mix_count: int
    mix_kinds: tuple[int, ...]
    mix_to_card: bool
    effects: tuple[tuple[Any, ...], ...]
    text: str
    needs_target: bool
    target_rule: str | None
    chooses_rival: bool
    places: tuple[Any, ...] | None
    cost_gain: tuple[Any, ...] | None
    simple: bool
    pool_cap: tuple[int, ...] | None
    spend_self: bool               # a scroll used up by the power: back to the centre
    pay_x: bool                    # then puts any number of essences of ``any_kinds`` on it (Infernal Engine)
    destroy_types: tuple[str, ...] | None  # the destroyed artifact must have one of these types
    discard_types: tuple[str, ...] | None  # the discarded card must have one of these types (Bard)
    exclude_self: bool             # a straighten that may not target the component using it
    rate: int                      # essences paid per Gold gained by an X-identical power (Projection: 3)

    def __init__(self, index: int, kind: int):
        self.index = index
        self.kind = kind
        self.trigger = 0
        self.turn_self = False
        self.usable_while_turned = False
        self.pay = ZERO
        self.pay_any = 0
        self.any_kinds = ALL_KINDS
        self.identical = False
        self.remove_self = None
        self.destroy = None          # None | "self" | "own_any" | "own_other" | "own_dragon_creature"
        self.discard_hand = 0
        self.turn_other = None       # None | "dragon" | "creature"
        self.gain_pool = ZERO
        self.store = ZERO
        self.mix_count = 0
        self.mix_kinds = NON_GOLD
        self.mix_to_card = False
        self.effects: tuple[tuple[Any, ...], ...] = ()
        self.text = ""
        self.needs_target = False    # a step without a target is not offered
        self.target_rule = None      # how candidate targets are found (see amigos.legal._targets)
        self.chooses_rival = False
        self.places = None           # the "place" effect tuple, for placement powers
        self.cost_gain = None        # the "gain_from_cost" effect tuple
        self.simple = False          # no target, rival or card essences: its steps depend on the pool only
        self.spend_self = False
        self.pay_x = False
        self.destroy_types = None
        self.discard_types = None
        self.exclude_self = False
        self.rate = 1

    def split_gain(self, gain: Essences) -> tuple[Essences, Essences]:
        """A step's declared gain (the power's fixed gains and its chosen mix, 5 counts) as
        (the part to the pool, the part put on the card): the fixed part stored on the card goes on
        it, and with ``mix_to_card`` the chosen mix too.  The one copy of that split (applying the
        power, telling it, valuing it)."""
        on_card: Essences
        if self.mix_to_card:
            fixed = self.gain_pool
            on_card = (gain[0] - fixed[0], gain[1] - fixed[1], gain[2] - fixed[2], gain[3] - fixed[3],
                       gain[4] - fixed[4])
        else:
            store = self.store
            on_card = (store[0], store[1], store[2], store[3], store[4])
        return (gain[0] - on_card[0], gain[1] - on_card[1], gain[2] - on_card[2], gain[3] - on_card[3],
                gain[4] - on_card[4]), on_card


class Card:
    """A compiled component.  Immutable after the table is built; shared by every game."""

    __slots__ = ("idx", "id", "name", "ref_name", "set", "kind", "types", "is_dragon", "is_creature",
                 "is_demon", "cost", "cost_any", "cost_total", "points", "vp_per_essence", "vp_per_dragon",
                 "vp_per_creature", "vp_per_demon", "vp_per_artifacts", "counts_types", "collect", "collect_choice", "collect_special", "collect_cost",
                 "discounts", "powers", "first_game_preset", "text", "raw", "tile", "reverse_id", "pool_cap")

    idx: int
    id: str
    name: str
    ref_name: str                  # the name the reference engine and its protocol use
    set: str                       # its card set: "base" or "lux"
    kind: int                      # ARTIFACT, MAGE, MAGIC_ITEM, MONUMENT or PLACE_OF_POWER
    types: tuple[str, ...]
    is_dragon: bool
    is_creature: bool
    is_demon: bool
    cost: tuple[int, ...]          # a 5-vector of essences
    cost_any: int
    cost_total: int
    points: int
    vp_per_essence: tuple[int, ...] | None
    vp_per_dragon: int
    vp_per_creature: int
    vp_per_demon: int
    vp_per_artifacts: tuple[int, int] | None  # (points, per so many artifacts in play): Crystal Keep
    counts_types: bool             # its points depend on its owner's artifacts in play
    collect: tuple[int, ...]
    collect_choice: tuple[int, tuple[int, ...]] | None
    collect_special: tuple[Any, ...] | None  # ("vault", count, kinds) | ("windup",)
    collect_cost: tuple[int, ...] | None
    discounts: tuple[tuple[tuple[str, ...], int, bool], ...]
    powers: tuple[Power, ...]
    first_game_preset: int | None  # the First Game hand (1-4) it belongs to
    text: str
    raw: dict[str, Any]
    tile: str | None
    reverse_id: str | None
    pool_cap: tuple[int, ...]

    def __init__(self) -> None:
        self.powers = ()

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Cards are shared constants: pickle (e.g. to a search worker) by reference.
        return (_card_by_id, (self.id,))

    def __repr__(self) -> str:
        return f"<Card {self.id}>"

    def essence_points(self, e0: int, e1: int, e2: int, e3: int, e4: int) -> int:
        """The points these essences on the card are worth (a place of power that scores them; else 0)."""
        per = self.vp_per_essence
        if per is None:
            return 0
        return per[0] * e0 + per[1] * e1 + per[2] * e2 + per[3] * e3 + per[4] * e4

    def type_points(self, dragons: int, creatures: int, demons: int = 0, artifacts: int = 0) -> int:
        """The points the card gives for these Dragons, Creatures, Demons and artifacts of its owner in
        play (Sorcerer's Bestiary, Gate of Hell, Crystal Keep; else 0)."""
        if not self.counts_types:
            return 0
        points = self.vp_per_dragon * dragons + self.vp_per_creature * creatures + self.vp_per_demon * demons
        per = self.vp_per_artifacts
        if per is not None:
            points += per[0] * (artifacts // per[1])
        return points


def _compile_cost(power: Power, cost: dict[str, Any]) -> None:
    power.turn_self = bool(cost.get("turn_self"))
    pay = cost.get("pay") or {}
    power.pay = essences5(pay)
    power.pay_any = int(pay.get("any", 0))
    if "pay_mix" in cost:
        power.any_kinds = tuple(sorted(ESSENCE_INDEX[k] for k in cost["pay_mix"]["allowed"]))
        if cost["pay_mix"]["count"] == "X":  # any number of them, chosen kind by kind after (Infernal Engine)
            power.pay_x = True
        else:
            power.pay_any = cost["pay_mix"]["count"]
    if "pay_identical" in cost:
        power.identical = True
    if "remove_from_self" in cost:
        power.remove_self = essences5(cost["remove_from_self"])
    if "destroy" in cost:
        what = cost["destroy"]
        if what["what"] == "this_component":
            power.destroy = "self"
        elif what.get("may_be_this_component"):
            power.destroy = "own_any"
        else:
            power.destroy = "own_other"
        if what.get("required_types_any_of"):
            power.destroy_types = tuple(what["required_types_any_of"])
    power.discard_hand = int(cost.get("discard_from_hand", 0))
    if cost.get("discard_required_types_any_of"):
        power.discard_types = tuple(cost["discard_required_types_any_of"])
    if "turn_other" in cost:
        power.turn_other = cost["turn_other"]["type"]
    power.spend_self = bool(cost.get("spend_this_scroll"))


def _attack(eff: dict[str, Any]) -> tuple[Any, ...]:
    """A Life loss for the rivals: (amount, from a Dragon?, what ignoring it costs, from a Demon?)."""
    rider = eff.get("ignore_rider")
    rider_t: tuple[Any, ...] | None
    if rider is None:
        rider_t = None
    elif "pay" in rider:
        rider_t = ("pay", essences5(rider["pay"]))
    elif "discard_from_hand" in rider:
        rider_t = ("discard",)
    else:
        rider_t = ("destroy",)
    return ("rivals_lose_life", eff["amount"], bool(eff["source_is_dragon"]), rider_t,
            bool(eff.get("source_is_demon")))


_STRAIGHTEN_TARGETS = {"this_component": "self", "own_turned_component": "own_turned",
                       "own_turned_creature": "own_turned_creature", "own_turned_demon": "own_turned_demon",
                       "all_turned_demons_of_all_players": "all_demons"}
# The effects that compile to a step of the power's effects and nothing else, by op.
_SIMPLE_EFFECTS: dict[str, Callable[[dict[str, Any]], tuple[Any, ...]]] = {
    "rivals_gain": lambda eff: ("rivals_gain", essences5(eff["essences"])),
    "rivals_lose_life": _attack,
    "ignore_life_loss": lambda eff: ("ignore_life_loss",),
    "draw_cards": lambda eff: ("draw", eff["count"]),
    "draw_then_discard": lambda eff: ("draw_discard", eff["draw"], eff["discard"]),
    "look_and_reorder": lambda eff: ("scry", eff["count"]),
    "put_paid_essences_on": lambda eff: ("put_paid", "self" if eff["destination"] == "this_component" else "chosen"),
    "check_victory_now": lambda eff: ("check_victory",),
    "temporary_victory_points": lambda eff: ("temporary_vp", eff["amount"]),
    "gain_x_identical": lambda eff: ("gain_x_other",),
    "take_all_essences_from": lambda eff: ("take_all",),
    "retrieve_from_discard": lambda eff: ("retrieve",),
    "claim_scroll": lambda eff: ("claim_scroll",),
    "count_as_type": lambda eff: ("count_as", tuple(eff["types_choice"])),
}


def _compile_effects(power: Power, effects: list[dict[str, Any]]) -> None:
    compiled: list[tuple[Any, ...]] = []
    for eff in effects:
        op = eff["op"]
        if op in _SIMPLE_EFFECTS:
            compiled.append(_SIMPLE_EFFECTS[op](eff))
        elif op == "gain":
            if eff["destination"] == "pool":
                power.gain_pool = add(power.gain_pool, essences5(eff["essences"]))
            else:
                power.store = add(power.store, essences5(eff["essences"]))
        elif op == "gain_mix":
            power.mix_count = eff["count"]
            power.mix_kinds = _kinds_but(eff.get("exclude"))
            power.mix_to_card = eff["destination"] == "this_component"
        elif op == "straighten":
            power.exclude_self = bool(eff.get("exclude_this_component"))
            compiled.append(("straighten", _STRAIGHTEN_TARGETS[eff["target"]]))
        elif op == "place_artifact":
            discount = eff.get("discount") or {}
            power.places = ("place", eff["from"], eff.get("required_type"), eff["payment"] == "free",
                            int(discount.get("amount", 0)))
            compiled.append(power.places)
        elif op == "gain_equal_to_rival_pool":
            power.chooses_rival = True
            compiled.append(("gain_from_rival", ESSENCE_INDEX[eff["count_rival_essence"]],
                             ESSENCE_INDEX[eff["gain_essence"]]))
        elif op == "gain_from_artifact_cost":
            as_kind = eff.get("as_essence")
            power.cost_gain = ("gain_from_cost", eff["artifact"], eff["modifier"],
                               ESSENCE_INDEX[as_kind] if as_kind else None)
            compiled.append(power.cost_gain)
        elif op == "gain_x":
            power.rate = 3 if eff["amount"] == "floor(X/3)" else 1
            compiled.append(("gain_x_gold", power.rate))
        elif op == "gain_equal_to_rival_artifact_count":
            power.chooses_rival = True
            compiled.append(("gain_per_rival_type", eff["count_rival_artifact_type"],
                             ESSENCE_INDEX[eff["gain_essence"]]))
        else:  # pragma: no cover - the completeness test keeps this unreachable
            raise ValueError(f"unknown effect op {op!r}")
    power.effects = tuple(compiled)


def _target_rule(power: Power) -> None:
    """Which targets a power chooses among, and whether choosing one is required (protocol §4.4)."""
    for eff in power.effects:
        op = eff[0]
        if op == "straighten" and eff[1] not in ("self", "all_demons"):
            power.target_rule = eff[1]
            return
        if op == "put_paid" and eff[1] == "chosen":
            power.target_rule = "own_component"
            power.needs_target = True
            return
        if op == "take_all":  # (a component with nothing on it gives nothing: not offered as a target)
            power.target_rule = "own_stocked"
            return
        if op == "retrieve":  # (with an empty discard pile the power may still be used, for nothing)
            power.target_rule = "own_discard"
            return
        if op == "claim_scroll":  # (likewise with no scroll left in the centre)
            power.target_rule = "scroll"
            return
    if power.turn_other:
        power.target_rule = "turn_" + power.turn_other
        power.needs_target = True
    elif power.discard_hand:
        power.target_rule = "hand"
        power.needs_target = True
    elif power.destroy in ("own_any", "own_other"):
        power.target_rule = "destroy_" + power.destroy
        power.needs_target = True


# The reference engine's asides in the power summaries ("(the engine lets you decline the
# placement)"): about that engine's move list, not the card, so not told to players.
_ENGINE_NOTE = re.compile(r" \(the engine[^)]*\)")


def _compile_power(spec: dict[str, Any], kind: int) -> Power:
    power = Power(0, kind)
    _compile_cost(power, spec["cost"])
    _compile_effects(power, spec["effects"])
    power.usable_while_turned = bool(spec.get("usable_while_turned")) and kind == ACTION
    if kind == REACT:
        power.trigger = {"life_loss": TRIGGER_LIFE_LOSS, "life_loss_from_rival_dragon": TRIGGER_DRAGON,
                         "victory_check": TRIGGER_VICTORY, "life_loss_from_rival_demon": TRIGGER_DEMON,
                         "artifact_destroyed": TRIGGER_DESTROYED, "own_power_used": TRIGGER_OWN_POWER,
                         }[spec["trigger"]]
    _target_rule(power)
    power.simple = power.target_rule is None and not power.chooses_rival and power.remove_self is None
    # What a power can take from the pool is bounded unless it pays X identical essences.
    power.pool_cap = None if power.identical else tuple(power.pay[k] + power.pay_any for k in range(5))
    return power


_KIND_BY_TYPE = {"artifact": ARTIFACT, "mage": MAGE, "magic_item": MAGIC_ITEM, "monument": MONUMENT,
                 "place_of_power": PLACE_OF_POWER, "scroll": SCROLL}


def _compile_card(raw: dict[str, Any], ref_names: dict[str, str]) -> Card:
    card = Card()
    card.id = raw["id"]
    card.name = raw["name"]
    card.ref_name = ref_names.get(raw["name"], raw["name"])
    card.kind = _KIND_BY_TYPE[raw["component_type"]]
    card.types = tuple(raw["types"])
    card.is_dragon = "dragon" in card.types
    card.is_creature = "creature" in card.types
    card.is_demon = "demon" in card.types
    cost = raw.get("placement_cost") or {}
    card.cost = essences5(cost)
    card.cost_any = int(cost.get("any", 0))
    card.cost_total = raw.get("placement_cost_total") or 0
    card.pool_cap = tuple(card.cost[k] + card.cost_any for k in range(5))  # a placement never pays more
    _compile_points(card, raw["victory_points"])
    _compile_collect(card, raw["collect"])
    # (types, amount, may reduce Gold): only Homunculus's discount may (its Demons' Gold)
    card.discounts = tuple(
        (tuple(p["applies_to_types"]), p["amount"], bool(p.get("can_reduce_gold")))
        for p in raw["passives"] if p["kind"] == "placement_discount")
    card.powers = _compile_powers(raw)
    texts = [r.get("summary", "") for r in raw.get("reference_powers") or ()] or [
        p.get("text", "") for p in raw["powers"] + raw["reactions"]]
    for p, t in zip(card.powers, texts):
        p.text = _ENGINE_NOTE.sub("", t)
    card.first_game_preset = raw.get("first_game_preset")
    card.text = raw.get("text", "")
    card.raw = raw
    card.tile = raw.get("tile")
    card.reverse_id = raw.get("reverse_side_id")
    return card


def _compile_points(card: Card, vp: dict[str, Any]) -> None:
    """The card's victory points: fixed, per essence on it, per own Dragon, Creature, Demon or artifacts."""
    card.points = vp.get("fixed") or 0
    card.vp_per_essence = essences5(vp["per_essence_on_this"]) if vp.get("per_essence_on_this") else None
    per_type = vp.get("per_own_artifact_type") or {}
    card.vp_per_dragon = per_type.get("dragon", 0)
    card.vp_per_creature = per_type.get("creature", 0)
    card.vp_per_demon = per_type.get("demon", 0)
    per_artifacts = vp.get("per_own_artifacts_in_play")
    card.vp_per_artifacts = (per_artifacts["points"], per_artifacts["per"]) if per_artifacts else None
    card.counts_types = bool(per_type) or per_artifacts is not None


def _compile_collect(card: Card, abilities: list[dict[str, Any]]) -> None:
    """What the card collects: fixed essences, a choice of them, a special collect, a collect cost."""
    fixed: tuple[int, ...] = ZERO
    card.collect_choice = None
    card.collect_special = None
    card.collect_cost = None
    for ability in abilities:
        k = ability["kind"]
        if k == "gain":
            fixed = add(fixed, essences5(ability["essences"]))
        elif k == "gain_one_of":
            card.collect_choice = (1, tuple(sorted(ESSENCE_INDEX[e] for e in ability["options"])))
        elif k == "gain_mix":
            card.collect_choice = (ability["count"], _kinds_but(ability.get("exclude")))
        elif k == "conditional_gain_mix":
            card.collect_special = ("vault", ability["count"], _kinds_but(ability.get("exclude")))
        elif k == "windup":
            card.collect_special = ("windup",)
        elif k == "collect_cost":
            card.collect_cost = essences5(ability["pay"])
        else:  # pragma: no cover
            raise ValueError(f"unknown collect kind {k!r}")
    card.collect = fixed


def _kinds_but(excluded: list[str] | None) -> tuple[int, ...]:
    """The kinds of essence, in order, without the ``excluded`` ones (by name)."""
    out = {ESSENCE_INDEX[e] for e in excluded or ()}
    return tuple(k for k in ALL_KINDS if k not in out)


def _compile_powers(raw: dict[str, Any]) -> tuple[Power, ...]:
    """The card's powers, Reacts and claim effects, in the reference engine's order of power indices
    (the card data's ``reference_powers``; an expansion card's as listed)."""
    powers = [_compile_power(p, ACTION) for p in raw["powers"]]
    reactions = [_compile_power(p, REACT) for p in raw["reactions"]]
    claims = []
    for eff in raw.get("on_claim") or ():
        claim = Power(0, ON_CLAIM)
        _compile_effects(claim, [eff])
        claims.append(claim)
    by_index = {}
    if "reference_powers" not in raw:  # an expansion card: its powers, then its Reacts, as listed
        by_index = dict(enumerate(powers + reactions + claims))
    for ref in raw.get("reference_powers") or ():
        if "our_power" in ref:
            by_index[ref["index"]] = powers[ref["our_power"]]
        elif "our_reaction" in ref:
            by_index[ref["index"]] = reactions[ref["our_reaction"]]
        elif "our_on_claim" in ref:
            by_index[ref["index"]] = claims[ref["our_on_claim"]]
    ordered = []
    for i in range(len(by_index)):
        p = by_index[i]
        p.index = i
        ordered.append(p)
    return tuple(ordered)


def _load() -> tuple[tuple[Card, ...], dict[str, Any]]:
    """Every component compiled, set by set (the base game's first, in entity order, then the
    expansion's), and the base game's data."""
    reference = load_packaged("reference_cards.json")
    ref_names = {}
    for section in reference.values():
        for c in section:
            ref_names[c["name"].replace("/", " / ")] = c["name"]
    cards: list[Card] = []
    for card_set in SETS:
        for raw in raw_components(card_set):
            card = _compile_card(raw, ref_names)
            card.set = card_set
            card.idx = len(cards)
            cards.append(card)
    return tuple(cards), load_base()


CARDS: tuple[Card, ...]
BASE: dict[str, Any]
CARDS, BASE = _load()
BY_ID = {c.id: c for c in CARDS}
BY_NAME = {}
for _c in CARDS:
    BY_NAME[_c.name] = _c
    BY_NAME[_c.ref_name] = _c


def set_cards(kind: int, sets: tuple[str, ...] = (BASE_SET,)) -> tuple[Card, ...]:
    """The components of one kind in these card sets, base game first."""
    return tuple(c for c in CARDS if c.kind == kind and c.set in sets)


def set_tiles(sets: tuple[str, ...] = (BASE_SET,)) -> tuple[tuple[Card, Card], ...]:
    """The place-of-power tiles of these sets, each a pair of sides: the first-game side first (for a
    tile without one, side A)."""
    out = []
    for card_set in SETS:
        if card_set not in sets:
            continue
        for tile in load_set(card_set)["places_of_power"]:
            first = tile["first_game_side_id"] or tile["sides"][0]["id"]
            other = next(side["id"] for side in tile["sides"] if side["id"] != first)
            out.append((BY_ID[first], BY_ID[other]))
    return tuple(out)


# The base game's components (the game `amigos.new_game` deals unless told of an expansion).
ARTIFACTS = set_cards(ARTIFACT)
MAGES = set_cards(MAGE)
MAGIC_ITEMS = set_cards(MAGIC_ITEM)
MONUMENTS = set_cards(MONUMENT)
PLACES_OF_POWER = set_cards(PLACE_OF_POWER)
# The five tiles, each a pair of sides (first-game side first).
TILES = set_tiles()
FIRST_GAME = BASE["first_game"]
LUX: Final = LUX_SET  # the expansion's name in ``expansions=(...)``


def _card_by_id(card_id: str) -> Card:
    return BY_ID[card_id]


def card_by_name(name: str) -> Card:
    """The card with this printed or protocol name (e.g. ``"Calm / Elan"`` or ``"Calm/Elan"``)."""
    return BY_NAME[name]
