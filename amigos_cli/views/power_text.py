"""A power told in words from its data (the vocabulary of shared/cards/README.md and the expansion's
schema_extensions), in the style of the base game's summaries: for the components whose data has no
summary (the expansion's).  A key or operation not known here is still shown, by its name, so nothing a
card does is silently left out; a test checks that the expansion needs no such fallback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from amigos.carddata import ANY, ESSENCES

#: React triggers, as "React to ...".
TRIGGERS = {
    "life_loss": "a Life loss",
    "life_loss_from_rival_demon": "a Life loss caused by a rival's Demon",
    "artifact_destroyed": "any artifact being destroyed",
    "own_power_used": "your own use of a power",
    "victory_check": "a victory check",
}
#: Straighten targets other than ``own_turned_<type>`` ("one of your turned <type>s").
STRAIGHTEN_TARGETS = {"all_turned_demons_of_all_players": "every turned Demon of every player"}
#: The prefix of a straighten target naming one of the user's turned components of a type.
OWN_TURNED = "own_turned_"
#: Destinations of essences gained or moved, with ``{this}`` for "the <component's name>".
DESTINATIONS = {"this_component": "on {this}", "chosen_own_component": "on one of your components"}
#: ``gain_x`` amounts (X is the number of essences paid), with ``{essence}`` for the one gained.
X_AMOUNTS = {"X": "X {essence}", "floor(X/3)": "1 {essence} per 3 paid (rounded down)"}
#: Nouns of targets and costs that are not artifact types, so not capitalised like ``Demons``.
PLAIN_NOUNS = frozenset({"component", "artifact"})
#: The essence kinds excluded from a mix when it is "non-Gold".
NON_GOLD = ["gold"]
#: The destination of essences gained into the player's pool.
POOL = "pool"
#: The kind of component a "destroy another of your artifacts" cost may not be itself.
ARTIFACT = "artifact"
#: Every power cost key told by :func:`power_summary`; another is shown by its name.
DESCRIBED_COSTS = frozenset({
    "turn_self", "spend_this_scroll", "turn_other", "pay", "pay_mix", "pay_identical",
    "remove_from_self", "destroy", "discard_from_hand", "discard_required_types_any_of",
})


def _plural(n: int | str, word: str) -> str:
    """``1 card``, ``2 cards``, ``X cards``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _or_list(words: list[str]) -> str:
    """``Elan``, ``Elan or Life``, ``Elan, Life or Calm``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _type_name(typ: str, plural: bool = False) -> str:
    """``demon`` -> ``Demon`` (``Demons``); ``component`` -> ``component`` (see `PLAIN_NOUNS`)."""
    name = typ.replace("_", " ")
    name = name if typ in PLAIN_NOUNS else name.capitalize()
    return name + "s" if plural else name


def _amounts(essences: dict[str, Any]) -> str:
    """``{"elan": 1, "death": 1}`` -> ``1 Elan + 1 Death``; ``{"any": 2}`` -> ``2 essences of any
    kind``; in canonical order."""
    parts = [f"{essences[k]} {k.capitalize()}" for k in ESSENCES if essences.get(k)]
    if essences.get(ANY):
        parts.append(_plural(essences[ANY], "essence") + " of any kind")
    return " + ".join(parts)


def _mix(count: int | str, exclude: list[str]) -> str:
    """``count`` essences of the kinds not in ``exclude``: ``2 essences of any kind``, ``4
    non-Gold essences``, ``1 Elan, Life or Calm``."""
    if not exclude:
        return _plural(count, "essence") + " of any kind"
    if exclude == NON_GOLD:
        return _plural(count, "non-Gold essence")
    allowed = [e.capitalize() for e in ESSENCES if e not in exclude]
    return f"{count} {_or_list(allowed)}" if count == 1 else f"{count} essences, each {_or_list(allowed)}"


def _kinds(allowed: list[str]) -> str:
    """The kinds a payment may use: ``any kind`` or ``Elan or Life``."""
    if set(allowed) >= set(ESSENCES):
        return "any kind"
    return _or_list([e.capitalize() for e in ESSENCES if e in allowed])


def _destination(effect: dict[str, Any], this: str) -> str:
    """Where ``effect`` puts essences, e.g. ``on the Chaos Imp``."""
    dest = effect.get("destination", POOL)
    return DESTINATIONS.get(dest, dest.replace("_", " ")).format(this=this)


def _cost_parts(power: dict[str, Any], raw: dict[str, Any]) -> list[str]:
    """What using ``power`` of the component ``raw`` costs, one phrase per part, in the order a
    player pays: spend or turn it, turn another, pay, take off, destroy, discard."""
    cost = power.get("cost") or {}
    this = f"the {raw['name']}"
    parts = []
    if cost.get("spend_this_scroll"):
        parts.append(f"return {this} scroll to the centre")  # using a scroll gives it back (rules §16.4)
    if cost.get("turn_self"):
        parts.append(f"turn {this}")
    if cost.get("turn_other"):
        parts.append(f"turn one of your {_type_name(cost['turn_other']['type'], plural=True)}")
    if cost.get("pay"):
        parts.append("pay " + _amounts(cost["pay"]))
    for key, how in (("pay_mix", "essences of {kinds}"), ("pay_identical", "essences all of one kind")):
        pay = cost.get(key)
        if pay:
            n = pay.get("count", pay.get("amount"))  # an int, or "X": any number from "min" up
            at_least = f" ({n} may be {pay['min']})" if not isinstance(n, int) and "min" in pay else ""
            kinds = _kinds(pay.get("allowed", list(ESSENCES)))
            parts.append(f"pay {n} " + how.format(kinds=kinds) + at_least)
    if cost.get("remove_from_self"):
        parts.append(f"take {_amounts(cost['remove_from_self'])} off {this}")
    destroy = cost.get("destroy")
    if destroy:
        if destroy.get("what") == "this_component":
            parts.append(f"destroy {this}")
        else:
            types = destroy.get("required_types_any_of")
            what = _or_list([_type_name(t, plural=True) for t in types]) if types else "artifacts"
            itself_too = raw["component_type"] != ARTIFACT or destroy.get("may_be_this_component")
            other = "one" if itself_too else "another"
            parts.append(f"destroy {other} of your {what}")
    if cost.get("discard_from_hand"):
        types = cost.get("discard_required_types_any_of")
        n = cost["discard_from_hand"]
        what = "a " + _or_list([_type_name(t) for t in types]) if types and n == 1 else _plural(n, "card")
        parts.append(f"discard {what} from your hand")
    parts += [k.replace("_", " ") for k in cost if k not in DESCRIBED_COSTS and cost[k]]
    return parts


def _gain(effect: dict[str, Any], this: str) -> str:
    """``gain`` (fixed essences) and ``gain_mix`` (of the player's choice), in the pool or on a
    component."""
    if "essences" in effect:
        what = _amounts(effect["essences"])
    else:
        what = _mix(effect["count"], effect.get("exclude") or [])
    return f"put {what} {_destination(effect, this)}" if _on_component(effect) else f"gain {what}"


def _gain_x_identical(effect: dict[str, Any], this: str) -> str:
    other = " other" if effect.get("different_from_paid_type") else ""
    kind = "non-Gold kind" if effect.get("exclude") == NON_GOLD else "kind"
    return f"gain {effect['amount']} essences all of one{other} {kind}"


def _gain_from_artifact_cost(effect: dict[str, Any], this: str) -> str:
    what = "non-Gold essences" if effect.get("exclude") == NON_GOLD else "essences"
    out = f"gain {what} equal to the destroyed artifact's printed cost"
    if effect.get("modifier"):
        out += f" + {effect['modifier']}"
    if effect.get("modifier_alternative"):
        out += f" (+ {effect['modifier_alternative']} by another source)"
    return out


def _straighten(effect: dict[str, Any], this: str) -> str:
    target = effect["target"]
    if target.startswith(OWN_TURNED):
        one = "another" if effect.get("exclude_this_component") else "one"
        return f"straighten {one} of your turned {_type_name(target[len(OWN_TURNED):], plural=True)}"
    return "straighten " + STRAIGHTEN_TARGETS.get(target, target.replace("_", " "))


def _retrieve(effect: dict[str, Any], this: str) -> str:
    n = effect.get("count", 1)
    what = "a card" if n == 1 else _plural(n, "card")
    return f"take {what} of your choice from your discard pile into your hand"


#: How each effect operation is told, from the effect and "the <component's name>". An operation
#: missing here is shown by its name (the base game's powers all have summaries of their own).
EFFECT_TEXTS: dict[str, Callable[[dict[str, Any], str], str]] = {
    "gain": _gain,
    "gain_mix": _gain,
    "gain_x": lambda e, this: "gain " + X_AMOUNTS.get(e["amount"], e["amount"] + " {essence}").format(
        essence=e["essence"].capitalize()),
    "gain_x_identical": _gain_x_identical,
    "gain_from_artifact_cost": _gain_from_artifact_cost,
    "gain_equal_to_rival_pool": lambda e, this: (
        f"gain 1 {e['gain_essence'].capitalize()} per {e['count_rival_essence'].capitalize()}"
        " a rival of your choice has"),
    "gain_equal_to_rival_artifact_count": lambda e, this: (
        f"gain 1 {e['gain_essence'].capitalize()} per {_type_name(e['count_rival_artifact_type'])}"
        " a rival of your choice has in play"),
    "rivals_gain": lambda e, this: f"every rival gains {_amounts(e['essences'])}",
    "rivals_lose_life": lambda e, this: f"every rival loses {e['amount']} Life",
    "ignore_life_loss": lambda e, this: "ignore that Life loss",
    "put_paid_essences_on": lambda e, this: f"put what was paid {_destination(e, this)}",
    "take_all_essences_from": lambda e, this: "move every essence on one of your components into your pool",
    "straighten": _straighten,
    "draw_cards": lambda e, this: "draw " + _plural(e["count"], "card"),
    "draw_then_discard": lambda e, this: f"draw {_plural(e['draw'], 'card')}, then discard {e['discard']}",
    "retrieve_from_discard": _retrieve,
    "claim_scroll": lambda e, this: "take a scroll of your choice from the centre",
    "count_as_type": lambda e, this: (
        f"{this} counts as a {_or_list([_type_name(t) for t in e['types_choice']])} for that power"),
    "temporary_victory_points": lambda e, this: f"+{_plural(e['amount'], 'point')} in that victory check",
    "check_victory_now": lambda e, this: "check victory now",
}


def _on_component(effect: dict[str, Any]) -> bool:
    """Whether ``effect`` puts what it gives on a component rather than in the pool."""
    return effect.get("destination", POOL) != POOL


def effect_text(effect: dict[str, Any], raw: dict[str, Any]) -> str:
    """One effect of a power of the component ``raw``, e.g. ``put 3 Death on the Chaos Imp``."""
    op = effect.get("op", "?")
    told = EFFECT_TEXTS.get(op)
    return told(effect, f"the {raw['name']}") if told else op.replace("_", " ")


def power_summary(power: dict[str, Any], raw: dict[str, Any]) -> str:
    """A one-line description of ``power`` (an entry of ``raw``'s ``powers`` or ``reactions``)
    from its data, in the style of the base game's summaries: ``Turn the Fire Demon and pay 1
    Elan: every rival loses 2 Life.``, ``React to a Life loss (turn the Golden Lion): ignore that
    Life loss.``"""
    cost = power.get("cost") or {}
    scroll = cost.get("spend_this_scroll")  # a scroll is never turned: its flags are only formal
    parts = _cost_parts(power, raw)
    paid = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else (parts[0] if parts else "free")
    effects = " and ".join(effect_text(e, raw) for e in power.get("effects") or [])
    repeatable = not cost.get("turn_self") and not scroll and power.get("repeatable_each_round")
    if power.get("kind") == "react":
        trigger = power.get("trigger", "?")
        if power.get("usable_while_turned") and not scroll:
            paid += ", even while turned"
        if repeatable:
            paid += ", repeatable"
        return f"React to {TRIGGERS.get(trigger, trigger.replace('_', ' '))} ({paid}): {effects}."
    if not cost.get("turn_self") and not scroll:
        paid += f", without turning the {raw['name']}" + (" (repeatable)" if repeatable else "")
    return f"{paid[0].upper()}{paid[1:]}: {effects}."
