"""What tests in every folder share: where the repository, the tests and their data are, and the
positions and files several folders' tests start from."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final

import amigos
from amigos import cards as C
from amigos.apply import settle
from amigos.codes import COLLECT, DECK, HAND
from amigos.config import GameConfig
from amigos.flow import start_round
from amigos.position import build_position
from amigos.state import GameState
from matches.match import Match
from matches.record import save

ROOT: Final = Path(__file__).resolve().parents[1]  # the repository
TESTS: Final = ROOT / "tests"
DATA: Final = TESTS / "data"


def random_positions(seed: int, config: GameConfig = GameConfig(), limit: int = 200) -> Iterator[GameState]:
    """The positions of a game of ``config`` dealt from ``seed`` and played at random (by ``seed``), up to
    ``limit`` of them or the game's end (the same state object, changed between yields)."""
    state = amigos.deal(seed, config)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            return
        yield state
        state.apply(rng.choice(state.legal_actions()))


def mid_game(seed: int, steps: int = 30, players: int = 2, expansions: tuple[str, ...] = ()) -> GameState:
    """A position of round 1 or later after ``steps`` random decisions (of a game with ``expansions``)
    where the acting player has a real choice and each rival still holds at least two unseen cards."""
    state = amigos.deal(seed, GameConfig(players=players, expansions=expansions))
    rnd = random.Random(seed)
    n = 0
    while True:
        p = state.current_player()
        hidden = [[e for e in range(state.n_art) if state.owner[e] == r and state.loc[e] in (HAND, DECK)]
                  for r in range(players) if r != p]
        if n >= steps and len(state.legal_actions()) >= 3 and min(map(len, hidden)) >= 2 and state.round >= 1:
            return state
        legal = state.legal_actions()
        state.apply(legal[rnd.randrange(len(legal))])
        n += 1


def hidden_twin(state: GameState, viewer: int | None = None) -> GameState:
    """The same position except what ``viewer`` (None: the acting player) cannot see: every rival's
    hidden cards are other cards, and which of them is in hand and which in the deck is swapped."""
    p = state.current_player() if viewer is None else viewer
    twin = state.clone()
    hidden = [e for e in range(twin.n_art) if twin.owner[e] != p and twin.loc[e] in (HAND, DECK)]
    assert len(hidden) >= 2
    seen = {c.id for e, c in enumerate(twin.cards) if e not in hidden}
    spare = [c for c in C.ARTIFACTS if c.id not in seen]
    cards = list(twin.cards)
    for e, card in zip(hidden, reversed(spare)):
        cards[e] = card
    twin.cards = tuple(cards)
    for rival in range(twin.n_players):
        hand = [e for e in hidden if twin.loc[e] == HAND and twin.owner[e] == rival]
        deck = [e for e in hidden if twin.loc[e] == DECK and twin.owner[e] == rival]
        if hand and deck:
            twin.loc[hand[0]], twin.loc[deck[0]] = DECK, HAND
    twin.names = {c.id: e for e, c in enumerate(cards)}
    twin._legal = twin._groups = None
    assert twin.digest() != state.digest()
    assert twin.observation(p) == state.observation(p)
    return twin


def at_collect(card: str, essences: dict[str, int], zone: str = "in_play") -> tuple[GameState, int]:
    """Player 1's Collect with ``card`` (in ``zone``: "in_play", "places") holding ``essences``, and the
    card's entity."""
    s = build_position([{"mage": "seer", "item": "research", zone: [card], "essences_on": {card: essences}}])
    start_round(s)
    settle(s)
    s._legal = s._groups = None
    assert s.phase == COLLECT
    return s, next(e for e, c in enumerate(s.cards) if c.id == card)


def partly_played(path: Path, decisions: int, seed: int = 5, specs: Sequence[str] = ("random", "random"),
                  fmt: str = "match", names: Sequence[str] | None = None) -> Match:
    """A match (``fmt``: "match" or "game") of ``seed`` between ``specs`` whose first ``decisions`` decisions
    are made at random, saved to ``path``."""
    match = Match.new(seed, list(specs), fmt=fmt, names=list(names) if names else None)
    rng = random.Random(1)
    for _ in range(decisions):
        match.to_act()
        match.decide(rng.choice(match.state.legal_actions()))
    save(match, path)
    return match
