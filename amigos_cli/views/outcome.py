"""What a decision did, in words: the difference between the position before and after it, as one
player may know it ("gained 2 elan; put 1 calm on Sunken Reef; drew Fire Dragon").

A rival's draws and the cards they put back stay unnamed ("drew a card"); with ``viewer`` None (a
spectator of AI games, a replay) every card is named.
"""

from __future__ import annotations

from amigos.codes import AVAILABLE, DECK, DISCARD, FACE_UP, HAND, IN_PLAY, MONUMENT_DECK
from amigos.state import GameState
from amigos.text import essences_text

from .board import LETTERS


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


def collects(before: GameState, after: GameState, names: list[str]) -> str:
    """"Round 3 collects: You +2E +1L, AI +1D" when a new round began between the two positions (the
    essences each pool gained by then: the round's fixed collects); "" otherwise."""
    if after.round == before.round or before.n_players != after.n_players:
        return ""
    changes = [f"{names[p]} {signed(before.pool_of(p), after.pool_of(p)) or 'nothing'}" for p in range(after.n_players)]
    return f"Round {after.round} collects: " + ", ".join(changes)


def _card_moves(before: GameState, after: GameState, p: int, viewer: int | None, said: str) -> list[str]:
    """The cards of ``p`` (or claimed by ``p``) that changed place, in words; a card named in ``said``
    (the words of the decision) only when it was drawn."""
    out: list[str] = []
    drawn = 0
    reshuffled = False
    for e in range(len(after.loc)):
        was, now = before.loc[e], after.loc[e]
        if was == now and before.owner[e] == after.owner[e]:
            continue
        name = after.cards[e].name
        named = viewer is None or viewer == p
        if after.owner[e] != p and before.owner[e] != p:
            continue
        if now != HAND and name in said:
            continue
        if now == HAND and was == DISCARD and name in said:  # (retrieved: the pile is public)
            out.append(f"took {name} back from the discard pile")
        elif now == HAND and was in (DECK, DISCARD):  # (from the discard pile: drawn after a reshuffle)
            reshuffled = reshuffled or was == DISCARD
            if named:
                out.append(f"drew {name}")
            else:
                drawn += 1
        elif now == DECK and was == DISCARD:
            reshuffled = True
        elif now == DECK and was == HAND:
            out.append(f"put {name if named else 'a card'} back on the deck")
        elif now == IN_PLAY and was == MONUMENT_DECK:
            out.append(f"claimed {name} from the top of the monument deck")
        elif now == IN_PLAY and was == AVAILABLE and before.owner[e] != p:
            out.append(f"took {name}")
        elif now == IN_PLAY and was == HAND:
            out.append(f"put {name} into play")
        elif now == DISCARD and was == IN_PLAY:
            out.append(f"{name} went to the discard pile")
        elif now == DISCARD and was == HAND:
            out.append(f"discarded {name}")
        elif now == IN_PLAY and before.owner[e] != after.owner[e] and was == IN_PLAY:
            out.append(f"took {name} from the rival" if after.owner[e] == p else f"gave {name} to the rival")
        elif now == DECK and was == FACE_UP:
            out.append(f"took {name}")
    if drawn:
        out.append("drew a card" if drawn == 1 else f"drew {drawn} cards")
    if reshuffled:
        out.insert(0, "shuffled the discard pile into the deck")
    return out


def outcome(before: GameState, after: GameState, p: int, viewer: int | None, said: str = "") -> str:
    """What changed for player ``p`` between ``before`` and ``after``, as ``viewer`` may know it; "" if
    nothing visible changed.  ``said``: the decision's own words, which are not repeated.  When a new
    round began in between, the pools' changes are its collects (`collects`), not told here."""
    parts: list[str] = []
    if before.n_players != after.n_players or len(before.loc) != len(after.loc):
        return ""
    change = signed(before.pool_of(p), after.pool_of(p))
    if change and after.round == before.round:
        parts.append(f"pool {change}")
    for e in range(len(after.loc)):
        if after.loc[e] != IN_PLAY or after.owner[e] != p:
            continue
        on_added, on_removed = _delta(before.essences_on(e), after.essences_on(e))
        name = after.cards[e].name
        if any(on_added):
            parts.append(f"put {essences_text(on_added)} on {name}")
        if any(on_removed):
            parts.append(f"took {essences_text(on_removed)} from {name}")
    parts.extend(_card_moves(before, after, p, viewer, said))
    rival = [q for q in range(after.n_players) if q != p]
    for q in rival:
        _, lost = _delta(before.pool_of(q), after.pool_of(q))
        if any(lost) and after.round == before.round:
            parts.append(f"the rival lost {essences_text(lost)}")
    if after.first_player == p and before.first_player != p:
        parts.append("took the first player token")
    vp_before, vp_after = before.vp(p), after.vp(p)
    if vp_after != vp_before:
        parts.append(f"{'+' if vp_after > vp_before else ''}{vp_after - vp_before} VP ({vp_after} now)")
    return "; ".join(parts)

