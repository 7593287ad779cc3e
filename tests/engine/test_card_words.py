"""A card's text as a player reads it: the card data's asides about other engines' move lists and the
sources they cite are told as a rule in a player's words, or left out
(`amigos_cli.views.cards.for_players`)."""

from __future__ import annotations

import re

import pytest

from amigos.carddata import SETS, components
from amigos_cli.tui.board import flatten
from amigos_cli.views.cards import card_details, cards_table

WIDE = 200  # (one line per paragraph: a note is found whole)
#: What a developer's note says and a player's text does not: an engine, a move list, a source cited by
#: its letter ("G says", "D sends", "A, B, G and M agree", "D unit test").
JARGON = re.compile(r"\bengines?\b|move list|Python port|\b[A-Z](?:(?:, | and )[A-Z])* (?:says|sends|agree|accept|unit test)")


@pytest.mark.parametrize("framed", [True, False], ids=["amigos cards", "card panel"])
def test_no_card_text_speaks_of_an_engine(framed):
    for c in components(SETS):
        text = flatten(card_details(c, framed=framed), WIDE).plain
        assert not JARGON.search(text), (c["name"], text)
    assert not JARGON.search(flatten(cards_table(components(SETS)), WIDE).plain)


def test_a_self_straightening_power_says_it_may_straighten_itself():
    chalice = next(c for c in components(SETS) if c["name"] == "Chalice of Fire")
    text = " ".join(flatten(card_details(chalice, framed=False), WIDE).plain.split())
    assert "straighten one of your turned components (the Chalice itself, turned to pay, may be the one straightened)" in text
    crypt = next(c for c in components(SETS) if c["name"] == "Crypt")
    text = " ".join(flatten(card_details(crypt, framed=False), WIDE).plain.split())
    assert "at 2 fewer non-Gold essences." in text and "decline" not in text
