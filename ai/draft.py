"""Draft and redraft picks: what a card is worth, what it adds to the picker's plan, and what taking it
denies the rival.

A card's worth is learned (`ai.learned.ValueModel.card_worth`: how much holding it raised the chance
of winning in self-play, in log-odds).  Its *fit* to a player's plan counts how much of what the card
makes the plan asks for, how much of what the card asks the plan makes, and the Dragons or Creatures it
works with; a plan is the player's mage (or mage options), the artifacts they hold and the places of
power on the table.  What a unit of fit is worth is learned with the card worths
(`ValueModel.synergy`).  A pick is zero-sum: what the card is worth to the picker plus what it would
be worth to the rival, so a card that feeds the rival's engine is worth taking away.  In a redraft the
engine that won the game before is known (`GameState.previous_game`): its artifacts are worth
`ENGINE` more to whoever holds them with that mage, so the winner wants them back and the loser takes
them away (after losing game 1 to Hand of Glory feeding Catacombs, leave the winner neither).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from amigos import actions as A
from amigos import cards as C
from amigos.codes import AVAILABLE, BEING_CHOSEN, DECK, HAND, IN_PLAY
from amigos.config import Action
from amigos.determinize import Determinizer

if TYPE_CHECKING:
    from amigos.cards import Card
    from amigos.state import GameState

    from .learned import ValueModel

# What an artifact of the engine that won the game before is worth beyond its learned worth, in
# log-odds: it has shown it wins with that mage, and the learned worths (about 0 to 1 across the
# cards) average over every mage and plan.  A judgment, not a fit: matches are too few to learn it.
ENGINE = 0.5


def _spread(count: int, kinds: tuple[int, ...]) -> list[float]:
    out = [0.0] * 5
    for k in kinds:
        out[k] += count / len(kinds)
    return out


class Flow:
    """The essences a card makes each round and asks for (placing it, using its powers), by kind."""

    __slots__ = ("makes", "asks", "dragon", "creature", "likes_dragons", "likes_creatures")

    makes: tuple[float, ...]
    asks: tuple[float, ...]
    dragon: bool
    creature: bool
    likes_dragons: bool
    likes_creatures: bool

    def __init__(self, card: Card) -> None:
        makes = [float(x) for x in card.collect]
        if card.collect_choice is not None:
            makes = [a + b for a, b in zip(makes, _spread(*card.collect_choice))]
        asks = [float(x) for x in card.cost]
        for pw in card.powers:
            if pw.kind != C.ACTION:
                continue
            gained: list[float] = [a + b for a, b in zip(pw.gain_pool, pw.store)]
            if pw.mix_count:
                gained = [a + b for a, b in zip(gained, _spread(pw.mix_count, pw.mix_kinds))]
            if not pw.destroy:
                makes = [a + b for a, b in zip(makes, gained)]
            asks = [max(a, b) for a, b in zip(asks, pw.pay)]
        self.makes = tuple(makes)
        self.asks = tuple(asks)
        self.dragon = card.is_dragon
        self.creature = card.is_creature
        self.likes_dragons = _likes(card, "dragon")
        self.likes_creatures = _likes(card, "creature")


def _likes(card: Card, kind: str) -> bool:
    """True when ``card`` works with its owner's ``kind`` ("dragon" or "creature") artifacts: it
    discounts, places, turns or straightens them, or scores per one."""
    if any(kind in types for types, _, _ in card.discounts):
        return True
    if (card.vp_per_dragon if kind == "dragon" else card.vp_per_creature):
        return True
    for pw in card.powers:
        if pw.turn_other == kind or (pw.places is not None and pw.places[2] == kind):
            return True
        if any(eff[0] == "straighten" and eff[1] == "own_turned_" + kind for eff in pw.effects):
            return True
    return False


FLOWS = tuple(Flow(c) for c in C.CARDS)


def plan_of(state: GameState, p: int) -> tuple[list[float], list[float], int, int, int, int]:
    """(makes, asks, Dragons, Creatures, cards liking Dragons, cards liking Creatures) of ``p``'s plan:
    their mage (or the mage options still open), the artifacts they hold, and what the places of power
    on the table ask."""
    makes, asks = [0.0] * 5, [0.0] * 5
    dragons = creatures = likes_d = likes_c = 0
    places = 0
    for e, card in enumerate(state.cards):
        where, owner = state.loc[e], state.owner[e]
        mine = owner == p and ((e < state.n_art and where in (DECK, HAND, IN_PLAY))
                               or (card.kind == C.MAGE and where in (IN_PLAY, BEING_CHOSEN)))
        if mine:
            f = FLOWS[card.idx]
            makes = [a + b for a, b in zip(makes, f.makes)]
            asks = [a + b for a, b in zip(asks, f.asks)]
            dragons += f.dragon
            creatures += f.creature
            likes_d += f.likes_dragons
            likes_c += f.likes_creatures
        elif card.kind == C.PLACE_OF_POWER and where == AVAILABLE:
            places += 1
            asks = [a + b / 4 for a, b in zip(asks, card.cost)]  # a place is one plan among several
    return makes, asks, dragons, creatures, likes_d, likes_c


def fit(card: Card, plan: tuple[list[float], list[float], int, int, int, int]) -> float:
    """How well ``card`` joins ``plan`` (`plan_of`): essences it makes that the plan asks for, essences
    it asks for that the plan makes (each capped), and type synergies."""
    makes, asks, dragons, creatures, likes_d, likes_c = plan
    f = FLOWS[card.idx]
    feeds = sum(min(m, a) for m, a in zip(f.makes, asks))
    fed = sum(min(a, m) for a, m in zip(f.asks, makes))
    types = (f.dragon * likes_d + f.likes_dragons * dragons + f.creature * likes_c + f.likes_creatures * creatures)
    return 0.5 * feeds + 0.25 * fed + 0.5 * types


def pick_scores(state: GameState, model: ValueModel) -> list[tuple[float, Action, dict[str, float]]]:
    """Every legal draft or redraft pick of the player to move with its score and the parts of it,
    best first: (score, action, {"worth", "fit", "deny", "engine"}); the score is the card's worth to
    the picker (its learned worth and its fit to their plan) plus its fit to the rival's plan, each
    unit of fit weighed by the model's learned synergy, plus `ENGINE` for an artifact of the engine
    that won the game before."""
    p = state.current_player()
    mine = plan_of(state, p)
    rivals = [plan_of(state, q) for q in range(state.n_players) if q != p]
    engine = winning_engine(state)
    out = []
    for a in state.legal_actions():
        card = state.cards[A.subject(a)]
        worth = model.card_worth(card)
        own = fit(card, mine)
        deny = max(fit(card, plan) for plan in rivals) if rivals else 0.0
        won = ENGINE if card.id in engine else 0.0
        score = worth + model.synergy * (own + deny) + won
        out.append((score, a, {"worth": worth, "fit": own, "deny": deny, "engine": won}))
    out.sort(key=lambda t: (-t[0], A.subject(t[1])))
    return out



def network_picks(state: GameState, leaf: Callable[[GameState], list[float]], worlds: int,
                  seed: int) -> list[tuple[float, Action]]:
    """Every legal draft or redraft pick of the player to move with the chance of winning after it as
    ``leaf`` (a value's rewards, from the picker's view) rates it, averaged over ``worlds``
    determinisations of what the picker does not see (the rivals' packets and decks), best first
    (a tie by entity)."""
    p = state.current_player()
    legal = state.legal_actions()
    deal = Determinizer(state, p).deal
    rng = random.Random(seed)
    totals = [0.0] * len(legal)
    for _ in range(worlds):
        world = deal(rng.getrandbits(64))
        for i, a in enumerate(legal):
            after = world.clone()
            after.apply_unchecked(a)
            totals[i] += leaf(after)[p]
    out = [(total / worlds, a) for total, a in zip(totals, legal)]
    out.sort(key=lambda t: (-t[0], A.subject(t[1])))
    return out


def winning_engine(state: GameState) -> frozenset[str]:
    """The artifacts the winner of the game before had in play at its end (none in a first game or
    after a shared one)."""
    previous = state.previous_game
    if previous is None or len(previous[0]) != 1:
        return frozenset()
    return previous[1][previous[0][0]]


def plan_synergy(state: GameState, p: int) -> float:
    """How well ``p``'s cards fit together: the sum of each held artifact's fit to the plan."""
    plan = plan_of(state, p)
    return sum(fit(state.cards[e], plan) for e in range(state.n_art)
               if state.owner[e] == p and state.loc[e] in (DECK, HAND, IN_PLAY))
