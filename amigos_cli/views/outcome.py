"""What a decision did, in words: the difference between what one player may see before and after it
("gained 2 elan; put 1 calm on Sunken Reef; drew Fire Dragon").

Both positions are looked at through the engine's `observation` for that player, the one gate for
secrecy: a line tells nothing the observations do not.  A rival's draws stay unnamed ("drew a card",
counted from the size of their hand); with ``viewer`` None (a spectator of AI games, a replay) each
player's moves are told as that player sees them, every card named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from amigos import cards as C
from amigos.codes import (
    AVAILABLE,
    BEING_CHOSEN,
    DECK,
    DISCARD,
    DRAFTING,
    FACE_UP,
    HAND,
    IN_PLAY,
    MONUMENT_DECK,
    NOBODY,
)
from amigos.observe import SPECTATOR, observation
from amigos.text import essences_text

from .board import LETTERS

if TYPE_CHECKING:
    from amigos.state import GameState

#: The place of a card an observation does not show (a rival's hand or deck, a First Game's unseen
#: deck, the monument deck, a rival's mage options).
HIDDEN: Final = -1
ZERO: Final = (0, 0, 0, 0, 0)

Obs = dict[str, Any]


def _delta(before: tuple[int, ...], after: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(what was added, what was removed) between two essence vectors."""
    added = tuple(max(0, a - b) for a, b in zip(after, before))
    removed = tuple(max(0, b - a) for a, b in zip(after, before))
    return added, removed


def signed(before: tuple[int, ...], after: tuple[int, ...]) -> str:
    """The change of an essence vector as ``-2E +1L +1D`` (losses first); "" for none."""
    diff = [a - b for a, b in zip(after, before)]
    losses = [f"-{-d}{LETTERS[k]}" for k, d in enumerate(diff) if d < 0]
    gains = [f"+{d}{LETTERS[k]}" for k, d in enumerate(diff) if d > 0]
    return " ".join(losses + gains)


def _pool(o: Obs, p: int) -> tuple[int, ...]:
    return tuple(o["players"][p]["pool"])


def collects(before: GameState, after: GameState, names: list[str]) -> str:
    """"Round 3 collects: You +2E +1L, AI +1D" when a new round began between the two positions (the
    essences each pool gained by then: the round's fixed collects); "" otherwise.  All public."""
    b, a = observation(before, SPECTATOR), observation(after, SPECTATOR)
    return collects_of(b, a, names)


def collects_of(b: Obs, a: Obs, names: list[str]) -> str:
    """`collects` of two observations.  The players collect in seat order: when one stops to choose
    (a Collect decision pending), they and the players after them have not finished, and are said to
    be collecting ("You +1E so far (collecting)"), not to have collected nothing."""
    if a["round"] == b["round"] or len(b["players"]) != len(a["players"]):
        return ""
    pending = a.get("pending")
    collecting = pending["player"] if a["phase"] == "COLLECT" and pending is not None else len(a["players"])
    changes = []
    for p in range(len(a["players"])):
        gained = signed(_pool(b, p), _pool(a, p))
        if p < collecting:
            changes.append(f"{names[p]} {gained or 'nothing'}")
        else:
            changes.append(f"{names[p]} {gained + ' so far' if gained else 'nothing yet'} (collecting)")
    return f"Round {a['round']} collects: " + ", ".join(changes)


def places(o: Obs) -> dict[str, tuple[int, int]]:
    """Where the observation shows each card: id -> (place, owner), a place of `amigos.codes` (HAND and
    DECK only for the observer's own cards, and a player's picks in the face-up redraft), or `HIDDEN`
    for a card known to be among a rival's hidden cards."""
    where: dict[str, tuple[int, int]] = {}
    for q, entry in enumerate(o["players"]):
        for cid in entry.get("known_artifacts", ()):
            where[cid] = (HIDDEN, q)
        for key, place in (("hand", HAND), ("deck", DECK), ("redraft_taken", DECK), ("draft_packet", DRAFTING),
                           ("mage_options", BEING_CHOSEN), ("discard", DISCARD)):
            for cid in entry.get(key, ()):
                where[cid] = (place, q)
        for component in entry["in_play"]:
            where[component["id"]] = (IN_PLAY, q)
    for key in ("monuments_face_up", "places_of_power", "magic_items_available", "scrolls_available"):
        for cid in o[key]:
            where[cid] = (AVAILABLE, NOBODY)
    for cid in o["face_up_artifacts"]:
        where[cid] = (FACE_UP, NOBODY)
    for cid in o["monument_deck_top_known"]:
        where[cid] = (MONUMENT_DECK, NOBODY)
    return where


def _card_moves(b: Obs, a: Obs, p: int, said: str) -> list[str]:
    """The cards of ``p`` (or claimed by ``p``) that changed place as the observer sees them, in words;
    a card named in ``said`` (the words of the decision) only when it was drawn or taken back.  Cards
    named only when the observer sees them: a rival's draws are counted from their hand's size."""
    out: list[str] = []
    before, after = places(b), places(a)
    reshuffled = False
    retrieved = left_hand = 0  # (a rival's: taken back from the pile, placed or discarded from the hand)
    for cid in sorted(before.keys() | after.keys()):
        was, had = before.get(cid, (HIDDEN, NOBODY))
        now, has = after.get(cid, (HIDDEN, NOBODY))
        if (was, had) == (now, has) or p not in (had, has):
            continue
        card = C.BY_ID[cid]
        name = card.name
        if has != p and not (now == HIDDEN and has == NOBODY):  # (no longer ``p``'s: given away or passed on)
            if now == IN_PLAY and was == IN_PLAY and name not in said:
                out.append(f"gave {name} to the rival")
            continue
        hidden_artifact = was == HIDDEN and card.kind == C.ARTIFACT  # (a rival's, from their hand)
        if now not in (HAND, HIDDEN) and name in said:
            left_hand += hidden_artifact and now in (IN_PLAY, DISCARD)  # (placed or discarded, as said)
            continue
        if now in (HAND, HIDDEN) and was == DISCARD and name in said:  # (retrieved: the pile is public)
            out.append(f"took {name} back from the discard pile")
            retrieved += now == HIDDEN
        elif now == HAND and was in (DECK, DISCARD, HIDDEN):  # (from the pile: drawn after a reshuffle)
            reshuffled = reshuffled or was == DISCARD
            out.append(f"drew {name}")
        elif now in (DECK, HIDDEN) and was == DISCARD:  # (a rival's: into the deck, or drawn after)
            reshuffled = True
        elif now == DECK and was == HAND:
            out.append(f"put {name} back on the deck")
        elif now == IN_PLAY and (was == MONUMENT_DECK or (was == HIDDEN and card.kind == C.MONUMENT)):
            out.append(f"claimed {name} from the top of the monument deck")
        elif now == IN_PLAY and was == AVAILABLE:
            out.append(f"took {name}")
        elif now == IN_PLAY and (was == HAND or hidden_artifact):
            out.append(f"put {name} into play")
            left_hand += hidden_artifact
        elif now == DISCARD and was == IN_PLAY:
            out.append(f"{name} went to the discard pile")
        elif now == DISCARD and (was == HAND or hidden_artifact):
            out.append(f"discarded {name}")
            left_hand += hidden_artifact
        elif now == IN_PLAY and was == IN_PLAY:
            out.append(f"took {name} from the rival")
        elif now == DECK and was == FACE_UP:
            out.append(f"took {name}")
    if b["player"] != p:  # a rival's hand: what came into it unseen, counted
        drawn = a["players"][p]["hand_size"] - b["players"][p]["hand_size"] + left_hand - retrieved
        if drawn > 0:
            out.append("drew a card" if drawn == 1 else f"drew {drawn} cards")
    if reshuffled:
        out.insert(0, "shuffled the discard pile into the deck")
    return out


def outcome(before: GameState, after: GameState, p: int, viewer: int | None, said: str = "") -> str:
    """What changed for player ``p`` between ``before`` and ``after``, as ``viewer`` may know it (None:
    as ``p`` knows it, every card of theirs named); "" if nothing visible changed.  ``said``: the
    decision's own words, which are not repeated.  When a new round began in between, the pools'
    changes are its collects (`collects`), not told here."""
    seat = p if viewer is None else viewer
    return told(observation(before, seat), observation(after, seat), p, said)


def told(b: Obs, a: Obs, p: int, said: str = "") -> str:
    """`outcome` of two observations of one observer."""
    if len(b["players"]) != len(a["players"]):
        return ""
    parts: list[str] = []
    same_round = a["round"] == b["round"]
    change = signed(_pool(b, p), _pool(a, p))
    if change and same_round:
        parts.append(f"pool {change}")
    on_before = {c["id"]: tuple(c["essences"]) for entry in b["players"] for c in entry["in_play"]}
    for c in a["players"][p]["in_play"]:
        on_added, on_removed = _delta(on_before.get(c["id"], ZERO), tuple(c["essences"]))
        name = C.BY_ID[c["id"]].name
        if any(on_added):
            parts.append(f"put {essences_text(on_added)} on {name}")
        if any(on_removed):
            parts.append(f"took {essences_text(on_removed)} from {name}")
    parts.extend(_card_moves(b, a, p, said))
    for q in range(len(a["players"])):
        if q == p:
            continue
        _, lost = _delta(_pool(b, q), _pool(a, q))
        if any(lost) and same_round:
            parts.append(f"the rival lost {essences_text(lost)}")
    if a["players"][p]["first_player"] and not b["players"][p]["first_player"]:
        parts.append("took the first player token")
    vp_before, vp_after = b["players"][p]["vp"], a["players"][p]["vp"]
    if vp_after != vp_before:
        parts.append(f"{'+' if vp_after > vp_before else ''}{vp_after - vp_before} VP ({vp_after} now)")
    return "; ".join(parts)
