"""Action texts a person reads at the prompt and in logs (`amigos.action_text`)."""

from __future__ import annotations

import amigos
from amigos import actions as A
from amigos.position import build_position


def find(s, card_id):
    return next(e for e, c in enumerate(s.cards) if c.id == card_id)


def texts(s, kind):
    return [amigos.action_text(s, a) for a in s.legal_actions() if A.kind(a) == kind]


def test_putting_back_looked_at_cards_names_them_top_first():
    s = build_position([{"mage": "seer", "item": "alchemy", "deck": ["hawk", "vault", "crypt"],
                         "pool": {"calm": 1}},
                        {"mage": "healer", "item": "research"}])
    seer = find(s, "seer")
    s.apply(next(a for a in s.legal_actions() if A.kind(a) == A.POWER and A.subject(a) == seer))
    s.apply(next(a for a in s.legal_actions() if A.kind(a) == A.SCRY_DECK and A.subject(a) == 0))  # your artifact deck
    orders = texts(s, A.SCRY_ORDER)
    assert len(orders) == 6 and all(t.startswith("Put them back, top first: ") for t in orders)
    for t in orders:
        assert sorted(t.split(": ")[1].split(", ")) == ["Crypt", "Hawk", "Vault"]
    assert len(set(orders)) == 6


def test_essences_a_power_puts_on_its_card_are_not_called_a_gain():
    s = build_position([{"mage": "seer", "item": "alchemy", "in_play": ["fountain_of_youth"],
                         "pool": {"death": 2}},
                        {"mage": "healer", "item": "research"}])
    fountain = find(s, "fountain_of_youth")
    uses = [amigos.action_text(s, a) for a in s.legal_actions() if A.kind(a) == A.POWER and A.subject(a) == fountain]
    assert uses and all("on it" in t and "gaining" not in t for t in uses), uses
    a = next(a for a in s.legal_actions() if A.kind(a) == A.POWER and A.subject(a) == fountain)
    pool = s.pool_of(0)
    s.apply(a)
    assert s.pool_of(0)[1:3] == pool[1:3] and any(s.essences_on(fountain))  # nothing came to the pool
