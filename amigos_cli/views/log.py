"""The log of a match in words: a decision's line as one player may know it, the score as a round
begins, and what the forced moves between two decisions did.  Every screen's log (the line prompt's,
the full screen's, the replay's, the online table's) is made of these lines, each from what its reader
may see of the positions (`amigos.observe.observation`, through `outcome`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from amigos import actions as A
from amigos import cards as C
from amigos.observe import SPECTATOR, observation
from amigos.text import action_text
from matches.session import Step

from .outcome import collects_of, told

if TYPE_CHECKING:
    from amigos.state import GameState

#: The decisions a rival does not see, and what a person is told of them instead: mages are chosen in
#: secret and revealed together (rules.md §2.1.6), the card a player keeps from a draft packet stays
#: theirs to know (§2.4), and so do the cards they looked at and put back on a deck (their names are in
#: the choice's text).  The board shows the mages once both are chosen.
SECRET: Final = {A.CHOOSE_MAGE: "chose a mage", A.DRAFT_PICK: "drafted a card", A.SCRY_ORDER: "put the cards back"}


#: The observations of the positions logged, by position (its ``id``, kept with it) and observer: each
#: position of a log is read several times (the line of the decision that led to it, of the next one,
#: the forced moves in between, the round's score), and a log is written again whole after an undo, a
#: resize or for another person.  A log's positions (a `Step`'s) are never changed once made.
_SEEN: dict[int, tuple[GameState, dict[int, dict[str, Any]]]] = {}
_KEPT = 1024  # positions kept at most (then forgotten all at once)


def _observed(state: GameState, seat: int) -> dict[str, Any]:
    """`observation` of ``state`` by ``seat``, made once."""
    kept = _SEEN.get(id(state))
    if kept is None or kept[0] is not state:
        if len(_SEEN) >= _KEPT:
            _SEEN.clear()
        kept = _SEEN[id(state)] = (state, {})
    seen = kept[1].get(seat)
    if seen is None:
        seen = kept[1][seat] = observation(state, seat)
    return seen


def _public(state: GameState) -> dict[str, Any]:
    """An observation of ``state`` for what everyone sees of it (round, pools, points): any made already."""
    kept = _SEEN.get(id(state))
    if kept is not None and kept[0] is state and kept[1]:
        return next(iter(kept[1].values()))
    return _observed(state, SPECTATOR)


def _told(before: GameState, after: GameState, p: int, viewer: int | None, said: str = "") -> str:
    """`amigos_cli.views.outcome.outcome` of two logged positions."""
    seat = p if viewer is None else viewer
    return told(_observed(before, seat), _observed(after, seat), p, said)


def step_line(step: Step, viewer: int | None, names: list[str]) -> str:
    """The log line of a decision as ``viewer`` may know it (None: a spectator, who sees everything):
    "Ann: Use Hawk: paying 2 calm -> drew Fire Dragon".  A rival's secret decision (`SECRET`) is only
    "Ann chose a mage".  A Collect decision's own gains are told apart from the fixed collects that
    followed it: "Ann: Collect 1 life from Vault -> pool +1L (then collected: Ann pool +1E; Bob pool +2D)"."""
    who = names[step.actor]
    secret = SECRET.get(step.kind)
    if secret and viewer is not None and viewer != step.actor:
        return f"{who} {secret}"
    mid = step.alone or step.after
    text = step.text if step.action is None else action_text(step.before, step.action, names)
    did = _told(step.before, mid, step.actor, viewer, text) or _nothing_gained(step)
    line = f"{who}: {text}" + (f" -> {did}" if did else "")
    if step.alone is not None:
        then = [f"{names[q]} {d}" for q in range(len(names)) if (d := _told(step.alone, step.after, q, viewer))]
        if then:
            line += f" (then collected: {'; '.join(then)})"
    return line


def _nothing_gained(step: Step) -> str:
    """"gained nothing" for a power whose gain came to nothing (Treant choosing a rival with no death),
    which would otherwise read as a line with no outcome; else ""."""
    a = step.action
    if a is None or step.kind != A.POWER or step.card is None:
        return ""
    power = C.BY_ID[step.card].powers[A.power_index(a)]
    return "gained nothing" if any(str(effect[0]).startswith("gain") for effect in power.effects) else ""


def round_line(game: int, state: GameState, names: list[str]) -> str:
    """"Game 1, round 3: Ann 4 VP, Bob 5 VP": the score as a round of the log begins (``state``: a
    position of the log, a `Step`'s)."""
    seen = _public(state)
    return f"Game {game}, round {seen['round']}: " + ", ".join(f"{names[p]} {entry['vp']} VP"
                                                               for p, entry in enumerate(seen["players"]))


def round_of(state: GameState) -> int:
    """The round ``state`` (a position of the log, a `Step`'s) is in."""
    return int(_public(state)["round"])


def began_line(step: Step, names: list[str]) -> str:
    """"Round 3 collects: ..." when ``step`` began a round (`amigos_cli.views.outcome.collects`), else ""."""
    return collects_of(_public(step.before), _public(step.after), names)


def settled_lines(step: Step, viewer: int | None, names: list[str]) -> list[str]:
    """What forced moves did between the decision before ``step`` and ``step`` (a round's collects,
    the first player token passed on), one line per player concerned."""
    if step.settled is None:
        return []
    round_began = collects_of(_public(step.settled), _public(step.before), names)
    if round_began:
        return [round_began]
    out = []
    for p in range(len(names)):
        did = _told(step.settled, step.before, p, viewer)
        if did:
            out.append(f"{names[p]}: {did}")
    return out


def sync_lines(lines: list[str], steps: list[Step], viewer: int | None, names: list[str]) -> None:
    """Bring ``lines`` (in place) up to ``steps`` as ``viewer`` may know them: the new step's line added
    after a decision, every line made anew when the steps went back (an undo, a resume)."""
    if len(lines) + 1 == len(steps):
        lines.append(step_line(steps[-1], viewer, names))
    elif len(lines) != len(steps):
        lines[:] = [step_line(step, viewer, names) for step in steps]
