"""The parts of the game that run by themselves between decisions: Collect, drawing and scrying,
turn order, victory checks, the end of a round, and chance resolved from the state's own RNG; and
`move`, the one way a card changes place or owner in play, with what each player knows of it.

`amigos.apply.settle` runs them after every applied action until the game needs a decision again
(PROTOCOL.md §3.1: "everything that follows a step happens inside the same advance").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import actions as A
from . import cards as C
from . import rng as R
from .adjudicate import WINNING_POINTS
from .codes import (
    ACTIONS,
    CHECK_END_OF_ROUND,
    CHECK_MID_ROUND,
    COLLECT,
    DECK,
    DECK_ARTIFACT,
    DISCARD,
    DRAFT_RESERVE,
    DRAFTING,
    GAME_OVER,
    HAND,
    IN_PLAY,
    MONUMENT_DECK,
    NO_CHECK,
    P_CCOST,
    P_DRAW,
    P_GAIN,
    P_MONDRAW,
    P_SCRYORDER,
    P_SCRYREV,
    P_TAKE,
    P_VREACT,
    VICTORY_CHECK,
)
from .legal import victory_react_actions

if TYPE_CHECKING:
    from .state import GameState


def advance_turn(s: GameState) -> None:
    """Move the turn pointer to the next player in seat order who has not passed (or leave it)."""
    n = s.n_players
    for i in range(1, n + 1):
        q = (s.turn + i) % n
        if not s.passed[q]:
            s.turn = q
            return


# -- rounds and Collect ------------------------------------------------------------------------------

def start_round(s: GameState) -> None:
    s.round += 1
    s.phase = COLLECT
    s.turn = s.first_player
    s.passed = [False] * s.n_players
    s.collect_player = 0
    s.collect_done = 0
    s.collect_next = 0


def collect_continue(s: GameState) -> bool:
    """Advance the Collect cursor (players in seat order; first every component without a collect cost,
    then those with one).  Returns True when a choice was pushed."""
    loc, owner, cards = s.loc, s.owner, s.cards
    n = len(loc)
    # The cursor lives in locals while it moves (this runs once a round per iteration of the search).
    p, cpass, e = s.collect_player, s.collect_done, s.collect_next
    while p < s.n_players:
        # Collecting moves no component, so the player's components in play can be listed first.
        for x in [x for x in range(e, n) if loc[x] == IN_PLAY and owner[x] == p]:
            card = cards[x]
            if cpass == 0:
                if card.collect_cost is None:
                    s.collect_player, s.collect_done, s.collect_next = p, cpass, x + 1
                    if _collect_component(s, p, x, card):
                        return True
            elif card.collect_cost is not None:
                s.collect_player, s.collect_done, s.collect_next = p, cpass, x + 1
                s.stack.append((P_CCOST, p, x))
                return True
        if cpass == 0:
            cpass = 1
        else:
            p += 1
            cpass = 0
        e = 0
    s.collect_player, s.collect_done, s.collect_next = p, cpass, e
    return False


def _collect_component(s: GameState, p: int, e: int, card: C.Card) -> bool:
    b = 5 * e
    on = s.ess[b:b + 5]
    stored = on[0] + on[1] + on[2] + on[3] + on[4]
    special = card.collect_special
    if special is not None:
        if special[0] == "vault":
            if on[4] > 0:
                s.stack.append((P_TAKE, p, e, special))
                return True
            if stored and not s.reference:  # DIFFERENCES row 3: you may always take them off
                s.stack.append((P_TAKE, p, e, None))
                return True
            return False
        if stored:  # Windup Man
            s.stack.append((P_TAKE, p, e, special))
            return True
        return False
    pushed = False
    gain = card.collect
    if gain != C.ZERO:
        pb = 5 * p
        for k in range(5):
            s.pool[pb + k] += gain[k]
    if card.collect_choice is not None:
        amount, kinds = card.collect_choice
        s.stack.append((P_GAIN, p, e, amount, kinds))
        pushed = True
    if stored:
        s.stack.append((P_TAKE, p, e, None))
        pushed = True
    return pushed


# -- victory -------------------------------------------------------------------------------------------

def start_victory_check(s: GameState, trigger: int | None) -> None:
    """Begin a victory check: mid-round if ``trigger`` is the player whose power called it, else the
    end-of-round check.  Victory-check Reacts are offered first (protocol §3.10)."""
    s.phase = VICTORY_CHECK
    s.victory_check = CHECK_MID_ROUND if trigger is not None else CHECK_END_OF_ROUND
    s.check_caller = -1 if trigger is None else trigger
    players = sorted(range(s.n_players), reverse=True)
    if trigger is not None:
        players.remove(trigger)
        players.insert(0, trigger)
    loc, owner, cards, turned = s.loc, s.owner, s.cards, s.turned
    # Few cards have a victory React: find the untapped ones in play first.
    ready = [e for e in range(len(loc)) if loc[e] == IN_PLAY and not turned[e] and cards[e].idx in _VICTORY_REACT]
    if not ready:
        return
    order: list[tuple[Any, ...]] = []
    for p in players:
        pool = s.pool_of(p)
        for e in ready:
            if owner[e] != p:
                continue
            for pw in cards[e].powers:
                if pw.kind != C.REACT:
                    continue
                if pw.trigger == C.TRIGGER_VICTORY:
                    if pw.turn_other is not None:  # (Dark Cathedral: only with a Demon to turn)
                        if len(victory_react_actions(s, p, e, pw.index)) > 1:
                            order.append((P_VREACT, p, e, pw.index))
                    elif all(pool[k] >= pw.pay[k] for k in range(5)):
                        order.append((P_VREACT, p, e, pw.index))
                    break
                if pw.trigger == C.TRIGGER_OWN_POWER:
                    # Illusion, only at the check the player's own power called (rules.md §17.1)
                    if p == trigger and len(victory_react_actions(s, p, e, pw.index)) > 1:
                        order.append((P_VREACT, p, e, pw.index))
                    break
    s.stack.extend(reversed(order))


_VICTORY_REACT = frozenset(c.idx for c in C.CARDS if any(
    pw.kind == C.REACT and pw.trigger in (C.TRIGGER_VICTORY, C.TRIGGER_OWN_POWER) for pw in c.powers))


def pool_score(s: GameState, p: int) -> int:
    b = 5 * p
    pool = s.pool
    return pool[b] + pool[b + 1] + pool[b + 2] + pool[b + 3] + 2 * pool[b + 4]


def evaluate_victory(s: GameState) -> None:
    """Decide the check: 10+ VP ends the game, most VP wins, ties by pool (Gold double), then shared.
    The end-of-round check of the game's last round (``s.round_limit``, 0 for none) ends it regardless."""
    vps = s.scores()[0]
    candidates = [p for p in range(s.n_players) if vps[p] >= WINNING_POINTS]
    if candidates:
        best = max(vps[p] for p in candidates)
        tied = [p for p in candidates if vps[p] == best]
        if len(tied) > 1:
            top = max(pool_score(s, p) for p in tied)
            tied = [p for p in tied if pool_score(s, p) == top]
        s.won = tuple(sorted(tied))
        s.phase = GAME_OVER
        s.victory_check = NO_CHECK
        return
    mid = s.victory_check == CHECK_MID_ROUND
    if not mid and s.round_limit and s.round >= s.round_limit:
        # The round limit (`amigos.adjudicate`): the last round's check ranks the players as at 10 points.
        ranked = max((vps[p], pool_score(s, p)) for p in range(s.n_players))
        s.won = tuple(p for p in range(s.n_players) if (vps[p], pool_score(s, p)) == ranked)
        s.phase = GAME_OVER
        s.victory_check = NO_CHECK
        return
    s.temp_vp = [0] * s.n_players
    s.victory_check = NO_CHECK
    s.check_caller = -1
    if mid:
        s.phase = ACTIONS
        return
    turned = s.turned
    turned[:] = [0] * len(turned)  # straighten everything
    start_round(s)


# -- cards: moving, and what each player knows of them ----------------------------------------------------

def hidden_place(where: int) -> bool:
    """Whether an artifact at ``where`` is hidden from everyone but its holder: a hand, a deck, a draft
    packet (held or in reserve).  Everywhere else (in play, a discard pile, face up, out of the game)
    it is in view of all (rules.md §1.9, §9.4)."""
    return where == HAND or where == DECK or where == DRAFTING or where == DRAFT_RESERVE


def move(s: GameState, e: int, where: int, who: int) -> None:
    """Component ``e`` goes to location ``where``, owned by ``who``.  Every change of a component's place
    or owner during a game is made here (not a deal being laid out, `amigos.setup`, nor a
    determinisation's re-deal), so that what each player knows follows the card
    (`GameState.known_held`, `GameState.known_decks`), from public information only:

    - an artifact leaving its holder's hidden places (for a public place, or another holder) is known
      held by them no longer;
    - one going from a public place into ``who``'s hand or deck becomes known to every other player as
      among ``who``'s hidden cards (`learn_held`);
    - one that becomes ``who``'s from a public place is ``who``'s own now, no longer one of the cards of
      others ``who`` has seen (`amigos.observe.unseen_deck` reads that record);
    - a move between hidden places of one holder (a draw) tells nobody anything, nor does a draft's
      passing (`amigos.draft` tells what it does)."""
    learned = _place(s, e, where, who)
    if learned is not None:
        learn_held(s, frozenset((learned,)), who)


def move_all(s: GameState, es: list[int], where: int, who: int) -> None:
    """`move` of each of ``es`` to ``where``, owned by ``who``, with what the others learn told at once."""
    learned = []
    for e in es:
        cid = _place(s, e, where, who)
        if cid is not None:
            learned.append(cid)
    if learned:
        learn_held(s, frozenset(learned), who)


def _place(s: GameState, e: int, where: int, who: int) -> str | None:
    """`move`'s move and what it makes each player forget; returns the id of an artifact that went from
    a public place to a hidden one (for `learn_held`), else None."""
    loc, owner = s.loc, s.owner
    was, had = loc[e], owner[e]
    loc[e] = where
    owner[e] = who
    if e >= s.n_art or (was == where and had == who):
        return None
    hidden_before, hidden_after = hidden_place(was), hidden_place(where)
    if hidden_before:
        if had != who or not hidden_after:
            _forget_held(s, s.cards[e].id, had)
        return None
    if had != who and who < s.n_players:
        cid = s.cards[e].id
        if cid in s.known_decks[who]:
            s.known_decks = s.known_decks[:who] + (s.known_decks[who] - {cid},) + s.known_decks[who + 1:]
    return s.cards[e].id if hidden_after else None


def _forget_held(s: GameState, cid: str, holder: int) -> None:
    """Nobody knows ``holder`` to hold the artifact ``cid`` any longer (it left their hidden places)."""
    rows = s.known_held
    for row in rows:
        if cid in row[holder]:
            s.known_held = tuple(r[:holder] + (r[holder] - {cid},) + r[holder + 1:] if cid in r[holder] else r
                                 for r in rows)
            return


def learn_held(s: GameState, ids: frozenset[str], holder: int) -> None:
    """Every player but ``holder`` now knows the artifacts ``ids``, which were in view, to be among
    ``holder``'s hidden cards: in their record of cards seen (`GameState.known_decks`, which
    determinisation deals from) and of cards known held (`GameState.known_held`, which deals them to
    ``holder`` alone)."""
    s.known_decks = tuple(k if q == holder else k | ids for q, k in enumerate(s.known_decks))
    s.known_held = tuple(row if q == holder else row[:holder] + (row[holder] | ids,) + row[holder + 1:]
                         for q, row in enumerate(s.known_held))


# -- cards: drawing, scrying, monuments ---------------------------------------------------------------

def draw(s: GameState, p: int, n: int) -> int:
    """Begin drawing ``n`` cards (§3.6): push the draw reveal; returns how many cards will be drawn.

    Reference ruleset: when more unknown cards are needed than the deck holds, the whole discard pile is
    merged into the deck first and any of the merged cards may come.  Official (DIFFERENCES row 2): the
    deck's own cards come first; the reshuffled discard pile only supplies the remainder."""
    loc, owner, order = s.loc, s.owner, s.order
    known: list[int] = []
    unknown: list[int] = []
    pile: list[int] = []
    for e in range(s.n_art):
        if owner[e] == p:
            where = loc[e]
            if where == DECK:
                (known if order[e] >= 0 else unknown).append(e)
            elif where == DISCARD:
                pile.append(e)
    d = min(n, len(known) + len(unknown) + len(pile))
    if d == 0:
        return 0
    if known:
        known = sorted(known, key=order.__getitem__)[:d]
    u = d - len(known)
    must: tuple[int, ...] = ()
    if u > len(unknown):
        if not s.reference:
            must = tuple(unknown)
        reshuffle(s, p, pile)
    s.stack.append((P_DRAW, p, tuple(known), u, must))
    return d


def reshuffle(s: GameState, p: int, pile: list[int]) -> None:
    """``p``'s discard pile (entities ``pile``) goes into their deck, order unknown.  Every card of it
    was in view, so each rival now knows it is among ``p``'s hidden cards (`move_all`)."""
    order = s.order
    for e in pile:
        order[e] = -1
    move_all(s, pile, DECK, p)


def resolve_draw(s: GameState, p: int, known: tuple[int, ...], revealed: tuple[int, ...]) -> None:
    """The drawn cards go to ``p``'s hand; known cards left in the deck move up."""
    loc, order = s.loc, s.order
    shift = len(known)
    for e in known + revealed:
        move(s, e, HAND, p)
        order[e] = -1
    if shift:
        for e in range(s.n_art):
            if loc[e] == DECK and s.owner[e] == p and order[e] >= 0:
                order[e] -= shift


def scry_begin(s: GameState, p: int, deck_type: int, count: int) -> None:
    """After a ScryDeckChoice: look at the top ``count`` cards of the chosen deck (§3.6)."""
    loc, owner, order = s.loc, s.owner, s.order
    must: tuple[int, ...] = ()
    if deck_type == DECK_ARTIFACT:
        deck = [e for e in range(s.n_art) if loc[e] == DECK and owner[e] == p]
        if len(deck) < count:
            pile = [e for e in range(s.n_art) if loc[e] == DISCARD and owner[e] == p]
            if pile:
                if not s.reference:
                    must = tuple(e for e in deck if order[e] < 0)
                reshuffle(s, p, pile)
                deck = [e for e in range(s.n_art) if loc[e] == DECK and owner[e] == p]
    else:
        deck = [e for e in range(len(loc)) if loc[e] == MONUMENT_DECK]
    known = tuple(sorted((e for e in deck if order[e] >= 0), key=order.__getitem__)[:count])
    unknown = sum(1 for e in deck if order[e] < 0)
    r = min(count - len(known), unknown)
    if r > 0:
        s.stack.append((P_SCRYREV, p, deck_type, known, r, must))
    else:
        s.stack.append((P_SCRYORDER, p, deck_type, known))


def scry_order(s: GameState, top: tuple[Any, ...], perm: tuple[int, ...]) -> None:
    """Put the looked-at cards back: ``perm[i]`` is the index of the card that goes to position i."""
    _, p, deck_type, looked = top
    loc, owner, order = s.loc, s.owner, s.order
    if deck_type == DECK_ARTIFACT:
        deck = [e for e in range(s.n_art) if loc[e] == DECK and owner[e] == p]
    else:
        deck = [e for e in range(len(loc)) if loc[e] == MONUMENT_DECK]
    for e in deck:
        order[e] = -1
    for i, j in enumerate(perm):
        order[looked[j]] = i
    if deck_type != DECK_ARTIFACT:
        s.mon_seer = p


def take_monument(s: GameState, e: int) -> None:
    """Monument ``e`` leaves the deck (drawn or revealed): known cards below it move up."""
    order = s.order
    was_known = order[e] >= 0
    order[e] = -1
    if was_known:
        for x in range(len(s.loc)):
            if s.loc[x] == MONUMENT_DECK and order[x] > 0:
                order[x] -= 1


# -- chance from the state's own RNG --------------------------------------------------------------------

def random_chance_outcome(s: GameState, top: tuple[Any, ...]) -> tuple[Any, ...]:
    """The outcome of the chance point ``top`` (on top of the stack) drawn from ``s.rng``, which it
    advances: the chance action that `amigos.apply.apply_chance` applies (normal play)."""
    kind, p = top[0], top[1]
    if kind == P_DRAW:
        known, u, must = top[2], top[3], top[4]
        loc, owner, order = s.loc, s.owner, s.order
        rest = [e for e in range(s.n_art) if loc[e] == DECK and owner[e] == p and order[e] < 0]
        if must:
            rest = [e for e in rest if e not in must]
        picked, s.rng = R.sample(s.rng, rest, u - len(must))
        return (A.R_DRAW, p, known, tuple(sorted(must + tuple(picked))))
    elif kind == P_SCRYREV:
        deck_type, r, must = top[2], top[4], top[5]
        if deck_type == DECK_ARTIFACT:
            deck = [e for e in range(s.n_art) if s.loc[e] == DECK and s.owner[e] == p]
        else:
            deck = [e for e in range(len(s.loc)) if s.loc[e] == MONUMENT_DECK]
        rest = [e for e in deck if s.order[e] < 0 and e not in must]
        picked, s.rng = R.sample(s.rng, rest, r - len(must))
        revealed = list(must) + picked
        s.rng = R.shuffle(s.rng, revealed)
        return (A.R_SCRY, p, tuple(revealed))
    deck = [e for e in range(len(s.loc)) if s.loc[e] == MONUMENT_DECK]
    known = [e for e in deck if s.order[e] == 0]
    if known:
        e = known[0]
    else:
        i, s.rng = R.below(s.rng, len(deck))
        e = deck[i]
    return (A.R_MON_DRAW if kind == P_MONDRAW else A.R_MON_REVEAL, p, e)

