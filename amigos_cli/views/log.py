"""The log of a match in words: a decision's line as one player may know it, the score as a round
begins, and what the forced moves between two decisions did.  Every screen's log (the line prompt's,
the full screen's, the replay's, the online table's) is made of these lines.
"""

from __future__ import annotations

from typing import Final

from amigos import actions as A
from amigos.state import GameState
from matches.session import Step

from .outcome import collects, outcome

#: The decisions a rival does not see, and what a person is told of them instead: mages are chosen in
#: secret and revealed together (rules.md §2.1.6), the card a player keeps from a draft packet stays
#: theirs to know (§2.4), and so do the cards they looked at and put back on a deck (their names are in
#: the choice's text).  The board shows the mages once both are chosen.
SECRET: Final = {A.CHOOSE_MAGE: "chose a mage", A.DRAFT_PICK: "drafted a card", A.SCRY_ORDER: "put the cards back"}


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
    did = outcome(step.before, mid, step.actor, viewer, step.text)
    line = f"{who}: {step.text}" + (f" -> {did}" if did else "")
    if step.alone is not None:
        then = [f"{names[q]} {d}" for q in range(len(names)) if (d := outcome(step.alone, step.after, q, viewer))]
        if then:
            line += f" (then collected: {'; '.join(then)})"
    return line


def round_line(game: int, state: GameState, names: list[str]) -> str:
    """"Game 1, round 3: Ann 4 VP, Bob 5 VP": the score as a round of the log begins."""
    vp = state.victory_points()
    return f"Game {game}, round {state.round}: " + ", ".join(f"{names[p]} {vp[p]} VP" for p in range(len(vp)))


def settled_lines(step: Step, viewer: int | None, names: list[str]) -> list[str]:
    """What forced moves did between the decision before ``step`` and ``step`` (a round's collects,
    the first player token passed on), one line per player concerned."""
    if step.settled is None:
        return []
    round_began = collects(step.settled, step.before, names)
    if round_began:
        return [round_began]
    out = []
    for p in range(step.before.n_players):
        did = outcome(step.settled, step.before, p, viewer)
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
