"""What a position holds for each player, as numbers a player would name: the features of the learned
value (`ai.learned`).

`player_features(state)` gives, for every player, the list of `FEATURES`: points and the First Player
token; essences and what they can buy (places of power, monuments and artifacts within reach now and
after the next Collect, essences of kinds nothing asks for); the engine (income each round, points its
places make each round, stored essences); cards (hand, deck, what the hand can place); tempo (passed,
to move).  Everything is read from what the searching player may see of the rival too: cards in play,
pools, essences on components, hand and deck sizes; a rival's hand cards count only in a
determinisation, where they were dealt from the unseen cards.

Per-card figures are worked out once, at import (`CardFacts`).  This runs at every leaf of the search,
so it makes one pass over the entities and no allocation it can avoid.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from amigos import cards as C
from amigos.cards import MONUMENT_COST_GOLD
from amigos.codes import AVAILABLE, DECK, DISCARD, HAND, IN_PLAY, MONUMENT_DECK

from .value import power_income

if TYPE_CHECKING:
    from amigos.cards import Card
    from amigos.state import GameState

#: The features of one player, in the order `player_features` lists them.
FEATURES = (
    "points",           # victory points without the First Player token
    "token",            # 1 for the holder of the First Player token
    "gold",             # Gold in the pool (stored Gold on non-scoring components included)
    "useful",           # non-Gold essences that some cost of the player's asks for (pool and stored)
    "spare",            # non-Gold essences beyond what every cost asks for, capped at 10
    "income",           # non-Gold essences the components collect or make each round
    "gold_income",      # Gold the components collect or make each round
    "engine_points",    # points the places of power in play can add each round, as far as income allows
    "hand",             # cards in hand
    "hand_points",      # printed points of the artifacts in hand
    "placeable",        # artifacts in hand whose cost the pool covers now
    "placeable_points",  # their printed points
    "deck",             # cards left to draw (deck and discard pile)
    "artifacts",        # artifacts in play
    "attacks",          # powers in play that make rivals lose Life
    "shields",          # Reacts in play that ignore Life loss
    "threat",           # the rivals' attacks, when the player has no React that ignores Life loss
    "ready",            # straightened components with an action power that makes essences or points
    "hand_income",      # what the artifacts in hand would collect or make each round once placed
    "place_now",        # worth of the best place of power the pool pays for now (0 if none)
    "place_next",       # worth of the best place of power over (1 + essences it lacks after a Collect)
    "monument_now",     # 1 if a monument can be claimed now
    "monument_next",    # 1 / (1 + Gold lacking for a monument after a Collect); 0 with none left
    "passed",           # 1 once the player has passed this round
    "to_move",          # 1 for the player whose decision it is
)
N_FEATURES = len(FEATURES)
SPARE_CAP: Final = 10


# A card's way to points each round: (points, pay, pay_any, once a round)
Engine = tuple[int, tuple[int, ...], int, bool]


class CardFacts:
    """What the features need of one card, worked out once."""

    __slots__ = ("income", "gold_income", "attacks", "shields", "engine", "place_worth", "asks", "makes")

    income: int
    gold_income: int
    attacks: int
    shields: int
    engine: tuple[Engine, ...]
    place_worth: float
    asks: tuple[int, ...]
    makes: bool

    def __init__(self, card: Card) -> None:
        collect = card.collect
        income = collect[0] + collect[1] + collect[2] + collect[3]
        gold_income = collect[4]
        if card.collect_choice is not None:
            count, kinds = card.collect_choice
            if kinds == (C.GOLD,):
                gold_income += count
            else:
                income += count
        if card.collect_special is not None:
            income += 1
        # The best action power's net gain, its Gold counted apart (Dwarven Pickaxe turns Elan into Gold).
        best = gold_best = 0
        for pw in card.powers:
            made = power_income(pw)
            gold = pw.gain_pool[C.GOLD] + pw.store[C.GOLD] - pw.pay[C.GOLD]
            if pw.kind == C.ACTION and not pw.destroy and gold > 0:
                gold_best = max(gold_best, gold)
                made = max(0, made - gold)
            best = max(best, made)
        self.income = income + best
        self.gold_income = gold_income + gold_best
        self.makes = bool(best or gold_best)
        self.attacks = sum(1 for pw in card.powers for eff in pw.effects if eff[0] == "rivals_lose_life")
        self.shields = sum(1 for pw in card.powers if pw.kind == C.REACT and pw.trigger == C.TRIGGER_LIFE_LOSS)
        # Point-making powers of a place of power: (points a use adds, its cost, once a round?).
        engine = []
        per = card.vp_per_essence
        if per is not None:
            for pw in card.powers:
                if pw.kind != C.ACTION:
                    continue
                points = sum(pw.store[k] * per[k] for k in range(5))
                if points:
                    engine.append((points, pw.pay, pw.pay_any, pw.turn_self or pw.turn_other is not None))
        if card.vp_per_dragon or card.vp_per_creature:
            engine.append((0, C.ZERO, 0, True))
        self.engine = tuple(engine)
        self.makes = self.makes or bool(engine)
        # What a place of power is worth to claim: its points and a point a round from its engine.
        self.place_worth = card.points + (1.0 if engine else 0.0) + 0.5 * card.vp_per_dragon
        # Essences the card's costs ask for (placement, and its action powers once in play).
        asks = list(card.cost)
        for pw in card.powers:
            if pw.kind == C.ACTION:
                for k in range(5):
                    asks[k] = max(asks[k], pw.pay[k])
        self.asks = tuple(asks)


FACTS = tuple(CardFacts(c) for c in C.CARDS)
_INDEX = {name: i for i, name in enumerate(FEATURES)}


def in_play(card: Card) -> list[tuple[int, float]]:
    """The features a component adds to its owner's by being in play (straightened), as
    (feature index, amount) pairs: its income, attacks, Reacts against Life loss, readiness."""
    f = FACTS[card.idx]
    parts = [("income", f.income), ("gold_income", f.gold_income), ("attacks", f.attacks),
             ("shields", f.shields), ("ready", 1.0 if f.makes else 0.0)]
    return [(_INDEX[name], float(x)) for name, x in parts if x]


def _lacking(have: Sequence[float], cost: Sequence[int]) -> float:
    """Essences of ``cost`` (a 5-tuple) that ``have`` does not cover."""
    missing = 0.0
    for k in range(5):
        d = cost[k] - have[k]
        if d > 0:
            missing += d
    return missing


class Scan:
    """One pass over a state: per player, what the features need besides the pool (`row` takes the
    pool as an argument, so that the choice of a payment can weigh pools without scanning again)."""

    __slots__ = ("vp", "hand_sizes", "stored", "income", "gold_income", "attacks", "shields", "artifacts",
                 "deck", "hand_points", "asks", "hands", "engines", "places", "monuments", "first_player", "mover",
                 "passed", "after_collect", "place_costs", "ready", "hand_income")

    vp: list[int]
    hand_sizes: list[int]
    stored: list[list[int]]
    income: list[int]
    gold_income: list[int]
    attacks: list[int]
    shields: list[int]
    artifacts: list[int]
    deck: list[int]
    hand_points: list[int]
    asks: list[list[int]]
    hands: list[list[Card]]
    engines: list[list[tuple[Engine, ...]]]
    places: list[Card]
    monuments: int
    first_player: int
    mover: int
    passed: list[bool]
    after_collect: list[tuple[float, float, float, float, float]]
    place_costs: list[tuple[float, tuple[int, ...]]]
    ready: list[int]
    hand_income: list[int]

    def __init__(self, state: GameState) -> None:
        n = state.n_players
        loc, owner, cards, ess = state.loc, state.owner, state.cards, state.ess
        facts = FACTS
        self.vp, self.hand_sizes = state.scores()
        self.stored = stored = [[0] * 5 for _ in range(n)]
        self.income = income = [0] * n
        self.gold_income = gold_income = [0] * n
        self.attacks = attacks = [0] * n
        self.shields = shields = [0] * n
        self.artifacts = artifacts = [0] * n
        self.deck = deck = [0] * n
        self.hand_points = hand_points = [0] * n
        self.ready = ready = [0] * n
        self.hand_income = hand_income = [0] * n
        turned = state.turned
        self.asks = asks = [[0] * 5 for _ in range(n)]
        hands: list[list[Card]]
        engines: list[list[tuple[Engine, ...]]]
        self.hands = hands = [[] for _ in range(n)]
        self.engines = engines = [[] for _ in range(n)]
        self.places = places = []
        monuments = 0
        n_art = state.n_art
        for e in range(len(loc)):
            where = loc[e]
            if where == IN_PLAY:
                p = owner[e]
                card = cards[e]
                f = facts[card.idx]
                income[p] += f.income
                gold_income[p] += f.gold_income
                attacks[p] += f.attacks
                shields[p] += f.shields
                if e < n_art:
                    artifacts[p] += 1
                if f.makes and not turned[e]:
                    ready[p] += 1
                if f.engine:
                    engines[p].append(f.engine)
                a = asks[p]
                fa = f.asks
                for k in range(5):
                    if fa[k] > a[k]:
                        a[k] = fa[k]
                if card.vp_per_essence is None:
                    x = 5 * e
                    if ess[x] or ess[x + 1] or ess[x + 2] or ess[x + 3] or ess[x + 4]:
                        st = stored[p]
                        for k in range(5):
                            st[k] += ess[x + k]
            elif where == HAND:
                p = owner[e]
                card = cards[e]
                hands[p].append(card)
                hand_points[p] += card.points
                hand_income[p] += facts[card.idx].income + facts[card.idx].gold_income
            elif where == DECK or where == DISCARD:
                if e < n_art:
                    deck[owner[e]] += 1
            elif where == AVAILABLE:
                card = cards[e]
                if card.kind == C.PLACE_OF_POWER:
                    places.append(card)
                elif card.kind == C.MONUMENT:
                    monuments += 1
            elif where == MONUMENT_DECK:
                monuments += 1
        self.monuments = monuments
        for p in range(n):
            a = asks[p]
            for card in hands[p]:
                cost = card.cost
                for k in range(5):
                    a[k] += cost[k]
            for card in places:
                cost = card.cost
                for k in range(5):
                    if cost[k] > a[k]:
                        a[k] = cost[k]
        self.first_player = state.first_player
        self.mover = state.current_player()
        self.passed = state.passed
        # What a Collect adds besides the pool: stored essences come back and the income arrives,
        # spread over the kinds the player asks for (a rough but cheap reading of "which kinds").
        self.after_collect = after = []
        for p in range(n):
            a = asks[p]
            st = stored[p]
            asked = a[0] + a[1] + a[2] + a[3]
            inc = income[p]
            share = inc / asked if inc and asked else 0.0
            after.append((st[0] + share * a[0], st[1] + share * a[1], st[2] + share * a[2], st[3] + share * a[3],
                          st[4] + gold_income[p]))
        self.place_costs = [(facts[card.idx].place_worth, card.cost) for card in places]


def row(scan: Scan, p: int, have: C.Essences) -> list[float]:
    """`FEATURES` of player ``p`` with ``have`` (five counts) in the pool."""
    st = scan.stored[p]
    a = scan.asks[p]
    h0, h1, h2, h3, h4 = have
    useful = spare = 0
    for x, want in ((h0 + st[0], a[0]), (h1 + st[1], a[1]), (h2 + st[2], a[2]), (h3 + st[3], a[3])):
        if x > want:
            useful += want
            spare += x - want
        else:
            useful += x
    if spare > SPARE_CAP:
        spare = SPARE_CAP
    c0, c1, c2, c3, c4 = scan.after_collect[p]
    n0, n1, n2, n3, n4 = h0 + c0, h1 + c1, h2 + c2, h3 + c3, h4 + c4
    can_act = not scan.passed[p]
    place_now = place_next = 0.0
    for worth, cost in scan.place_costs:
        if can_act and worth > place_now and h0 >= cost[0] and h1 >= cost[1] and h2 >= cost[2] \
                and h3 >= cost[3] and h4 >= cost[4]:
            place_now = worth
        lacking = ((cost[0] - n0 if cost[0] > n0 else 0) + (cost[1] - n1 if cost[1] > n1 else 0)
                   + (cost[2] - n2 if cost[2] > n2 else 0) + (cost[3] - n3 if cost[3] > n3 else 0)
                   + (cost[4] - n4 if cost[4] > n4 else 0))
        v = worth / (1.0 + lacking)
        if v > place_next:
            place_next = v
    placeable = placeable_points = 0
    if can_act:
        in_pool = h0 + h1 + h2 + h3 + h4
        for card in scan.hands[p]:
            cost = card.cost
            if (h0 >= cost[0] and h1 >= cost[1] and h2 >= cost[2] and h3 >= cost[3] and h4 >= cost[4]
                    and in_pool >= card.cost_total):
                placeable += 1
                placeable_points += card.points
    engine_points = 0.0
    if scan.engines[p]:
        nxt = (n0, n1, n2, n3, n4)
        in_next = n0 + n1 + n2 + n3 + n4
        for engine in scan.engines[p]:
            best = 0.0
            for points, pay, pay_any, once in engine:
                need = pay[0] + pay[1] + pay[2] + pay[3] + pay[4] + pay_any
                if need:
                    uses = (in_next - sum(pay)) / need + 1 if _lacking(nxt, pay) == 0 else 0.0
                    uses = min(uses, 1.0 if once else 3.0)
                else:
                    uses = 1.0
                if points * uses > best:
                    best = points * uses
            engine_points += best
    fp = scan.first_player
    monuments = scan.monuments
    threat = 0
    if not scan.shields[p]:
        for r, attacks in enumerate(scan.attacks):
            if r != p:
                threat += attacks
    return [
        scan.vp[p] - (1 if fp == p else 0), 1.0 if fp == p else 0.0, h4 + st[4], useful, spare,
        scan.income[p], scan.gold_income[p], engine_points, scan.hand_sizes[p], scan.hand_points[p], placeable,
        placeable_points, scan.deck[p], scan.artifacts[p], scan.attacks[p], scan.shields[p], threat,
        0 if scan.passed[p] else scan.ready[p], scan.hand_income[p], place_now, place_next,
        1.0 if monuments and can_act and h4 >= MONUMENT_COST_GOLD else 0.0,
        1.0 / (1.0 + (MONUMENT_COST_GOLD - n4 if n4 < MONUMENT_COST_GOLD else 0.0)) if monuments else 0.0,
        0.0 if can_act else 1.0, 1.0 if scan.mover == p else 0.0,
    ]


def player_features(state: GameState) -> list[list[float]]:
    """`FEATURES` of every player of ``state``, one list per player."""
    scan = Scan(state)
    pool = state.pool
    return [row(scan, p, (pool[5 * p], pool[5 * p + 1], pool[5 * p + 2], pool[5 * p + 3], pool[5 * p + 4]))
            for p in range(state.n_players)]
