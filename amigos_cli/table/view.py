"""What one seat of a table (or a spectator) is sent: plain JSON data built from a position, never more
than that seat may see (`amigos.observe.observation`).

`catalog` is sent once: every component of the card sets by id, with its name, kind, cost, points and
text.
`view` is sent after every change: the position as the seat sees it (the observation, with each
player's name and where their points come from), the log as the seat may know it, who is to play and a
note when a rival must React or choose, and, when the decision is the seat's, its choices: each group
with its words (`amigos_cli.views.choices.group_text`) and its ways to pay or gain, in the order the
full screen lists them.  A choice comes back as (ask, group, way): the ask's number makes a stale or
replayed answer harmless (`amigos_cli.table.model.Table.choose`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from amigos import cards as C
from amigos.codes import TEMPORARY, TOKEN
from amigos.observe import SPECTATOR, observation
from amigos.state import GameState

from ..session import Step, step_line
from ..views.choices import group_text, ordered_variants, variant_text

LOG_LINES = 300  # the most recent log lines a view carries


def catalog(sets: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Every component of the card ``sets`` by id (all of them, not only those dealt: which were dealt
    is hidden): name, kind, cost (five counts and the "any" essences), points, text."""
    return {card.id: {"name": card.name, "kind": C.KIND_NAMES[card.kind].lower(), "cost": list(card.cost),
                      "cost_any": card.cost_any, "points": card.points, "text": card.text}
            for card in C.CARDS if card.set in sets}


def view(state: GameState, seat: int | None, names: Sequence[str], steps: Sequence[Step],
         asked: tuple[int, int] | None, seats: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of ``state``: see the module docstring.  ``asked`` is the
    seat asked now and the ask's number (None while an agent thinks or the game is over); ``seats``
    each seat's standing (its kind, whether its person is connected)."""
    viewer = SPECTATOR if seat is None else seat
    seen = observation(state, viewer)
    for p, entry in enumerate(seen["players"]):
        entry["name"] = names[p]
        entry["points_from"] = [[_source(state, source), points] for source, points in state.points_breakdown(p)]
    out: dict[str, Any] = {
        "type": "view", "you": seat, "names": list(names), "seats": list(seats), "position": seen,
        "log": [step_line(step, viewer, list(names)) for step in steps[-LOG_LINES:]],
        "to_play": None if state.is_terminal() else state.current_player(),
        "note": note(state, names), "choices": None, "over": state.is_terminal(),
    }
    if asked is not None and asked[0] == seat and not state.is_terminal():
        out["choices"] = choices(state, asked[1])
    return out


def choices(state: GameState, ask: int) -> dict[str, Any]:
    """The decision asked: its number and every group of legal actions with its words, the card it is
    about and its ways (one, or several to pay or gain, `ordered_variants`)."""
    groups = []
    for group in state.legal_groups():
        ways = ordered_variants(group)
        first = group[0]
        card = first[2] if len(first) > 2 and isinstance(first[2], int) and 0 <= first[2] < len(state.cards) else None
        groups.append({"text": group_text(state, group), "card": None if card is None else state.cards[card].id,
                       "ways": [variant_text(state, a) for a in ways] if len(ways) > 1 else []})
    return {"ask": ask, "groups": groups}


def note(state: GameState, names: Sequence[str]) -> str:
    """Who is to play, and what: "Bob must react to a Life loss", "Ann chooses ...", "" when over."""
    if state.is_terminal():
        return ""
    who = names[state.current_player()]
    top = state.stack[-1] if state.stack else None
    pending = observation(state, SPECTATOR)["pending"]
    if pending is not None and pending["kind"] == "life_loss":
        return f"{who} must answer a Life loss (from {C.BY_ID[pending['attacker']].name})"
    if top is not None:
        return f"{who} chooses"
    return f"{who} to play"


def _source(state: GameState, source: int) -> str:
    if source == TOKEN:
        return "first player"
    if source == TEMPORARY:
        return "this round"
    return state.cards[source].name
