"""What the expansion's powers offer and what the AI suggests among their ways: Infernal Engine empties
only a component that holds essences, and a scroll is never suggested for nothing while it can do
something."""

from __future__ import annotations

import amigos
from ai.heuristics import best_variant
from amigos import actions as A
from amigos import cards as C
from amigos.codes import ACTIONS, IN_PLAY

LUX = ("lux",)


def _position(artifacts: list[str], pool: tuple[int, int, int, int, int]) -> amigos.GameState:
    """Player 0 to act in round 1 with ``artifacts`` in play and ``pool``; player 1 with Elvish Bow."""
    filler = [c for c in C.ARTIFACTS if c.id not in artifacts]
    deck0 = [C.BY_ID[a] for a in artifacts] + filler[:8 - len(artifacts)]
    decks = [deck0, filler[8:16]]
    s = amigos.build_state(2, decks, [[C.BY_ID["bard"]], [C.BY_ID["druid"]]], [C.BY_ID["oracle"]], [],
                           [C.BY_ID["sacred_grove"]], expansions=LUX)
    while not (s.phase == ACTIONS and not s.stack):
        s.apply(s.legal_actions()[0])
    for e in range(s.n_art):
        if s.cards[e].id in artifacts:
            s.loc[e], s.owner[e] = IN_PLAY, 0
    s.pool[0:5] = list(pool)
    s.turn = 0
    s._legal = s._groups = None
    return s


def test_infernal_engine_empties_only_a_component_with_essences():
    s = _position(["infernal_engine", "windup_man", "vault"], (1, 1, 1, 1, 1))
    engine, windup = s.find("infernal_engine"), s.find("windup_man")
    s.ess[5 * windup:5 * windup + 5] = [2, 0, 0, 0, 0]
    s._legal = s._groups = None
    targets = {A.target(a) for a in s.legal_actions() if A.kind(a) == A.POWER and A.subject(a) == engine and A.power_index(a) == 1}
    assert targets == {windup}
    s.ess[5 * windup:5 * windup + 5] = [0, 0, 0, 0, 0]
    s._legal = s._groups = None
    targets = {A.target(a) for a in s.legal_actions() if A.kind(a) == A.POWER and A.subject(a) == engine and A.power_index(a) == 1}
    assert targets == {-1}  # nothing to take: the power may still be used, for nothing


def test_a_scroll_is_not_suggested_for_nothing():
    s = _position(["infernal_engine"], (1, 0, 1, 3, 0))
    projection = s.find("projection")
    s.loc[projection], s.owner[projection] = IN_PLAY, 0
    s._legal = s._groups = None
    group = next(g for g in s.legal_groups() if A.kind(g[0]) == A.POWER and A.subject(g[0]) == projection)
    assert any(A.payment(a) == C.ZERO and A.gain(a) == C.ZERO for a in group)  # a legal use, for nothing
    chosen = best_variant(s, list(group))
    assert A.payment(chosen) != C.ZERO and A.gain(chosen)[C.GOLD] == 1  # 3 Death for 1 Gold
