"""The log's words for cards that come back from the discard pile: a draw after the pile is shuffled
into the deck (named to the drawer only) and a card retrieved by a power (named to everyone)."""

from __future__ import annotations

import pytest

import amigos
from amigos.codes import DECK, DISCARD, HAND
from amigos_cli.views.outcome import outcome


def _hand_and_pile(s: amigos.GameState, p: int) -> tuple[int, int]:
    """Two of ``p``'s artifacts: the first moved to the discard pile, the second too."""
    mine = [e for e in range(s.n_art) if s.owner[e] == p]
    return mine[0], mine[1]


def test_a_draw_after_a_reshuffle_is_named_to_the_drawer_and_told_to_the_rival():
    before = amigos.new_game(3)
    a, b = _hand_and_pile(before, 0)
    for e in range(before.n_art):
        if before.owner[e] == 0 and before.loc[e] == DECK:
            before.loc[e] = DISCARD
    before.loc[a], before.loc[b] = DISCARD, DISCARD
    after = before.clone()
    for e in range(after.n_art):  # the pile went into the deck; one card of it was drawn
        if after.owner[e] == 0 and after.loc[e] == DISCARD:
            after.loc[e] = DECK
    after.loc[a] = HAND
    name = after.cards[a].name
    mine = outcome(before, after, 0, 0, "Pass, taking Alchemy")
    assert "shuffled the discard pile into the deck" in mine and f"drew {name}" in mine
    theirs = outcome(before, after, 0, 1, "Pass, taking Alchemy")
    assert "drew a card" in theirs and name not in theirs


def test_a_retrieved_card_is_named_to_everyone():
    before = amigos.new_game(3)
    a, _ = _hand_and_pile(before, 0)
    before.loc[a] = DISCARD
    after = before.clone()
    after.loc[a] = HAND
    name = after.cards[a].name
    said = f"Use Demonologist power 1: on {name}, paying 1 life"
    assert outcome(before, after, 0, 1, said) == f"took {name} back from the discard pile"


def test_a_collect_choice_is_told_apart_from_the_fixed_collects_that_follow_it():
    import random

    from amigos import actions as A
    from amigos.codes import COLLECT
    from amigos.errors import IllegalAction
    from amigos.text import essences_text
    from amigos_cli.views.log import step_line
    from matches.session import make_step

    names = ["Ann", "Bob"]
    for seed in range(40):
        s, rng = amigos.new_game(seed), random.Random(seed)
        while not s.is_terminal():
            action = rng.choice(s.legal_actions())
            if s.phase == COLLECT and A.kind(action) == A.GAIN:
                before = s.clone()
                alone = s.after_alone(action)
                s.apply(action)
                p = A.player(action)
                own = [alone.pool_of(p)[k] - before.pool_of(p)[k] for k in range(5)]
                assert own == list(A.gain(action))  # the choice alone gains what it says
                if alone.pool != s.pool:  # fixed collects followed the choice
                    line = step_line(make_step(p, action, amigos.action_text(before, action), 1, None, before,
                                               s.clone()), None, names)
                    said, _, then = line.partition(" (then collected: ")
                    assert then.endswith(")") and "pool +" in then
                    letters = " ".join(f"+{n}{'ELCDG'[k]}" for k, n in enumerate(own) if n)
                    assert said == f"{names[p]}: {amigos.action_text(before, action)} -> pool {letters}", said
                    with pytest.raises(IllegalAction):
                        before.after_alone((A.PASS, 1 - p))
                    assert essences_text(A.gain(action)) in said
                    return
            else:
                s.apply(action)
    pytest.fail("no Collect choice followed by fixed collects in 40 random games")


def _rival_choosing_uses(seeds: range) -> list[tuple[amigos.GameState, amigos.Action, amigos.GameState]]:
    """Uses of a power that chooses a rival (Treant's kind) met in random games: (before, use, after)."""
    import random

    from amigos import actions as A

    found = []
    for seed in seeds:
        s, rng = amigos.new_game(seed), random.Random(seed)
        while not s.is_terminal():
            uses = [a for a in s.legal_actions() if A.kind(a) == A.POWER and A.rival(a) >= 0]
            action = rng.choice(uses or s.legal_actions())
            before = s.clone()
            s.apply(action)
            if uses:
                found.append((before, action, s.clone()))
    return found


def test_a_chosen_rival_is_named_and_a_gain_of_nothing_is_said():
    """The log names the rival a power chose as the reader knows them ("choosing Bob", not a seat
    number), and a gain that came to nothing says so rather than ending the line with no outcome."""
    from amigos import actions as A
    from amigos_cli.views.log import step_line
    from matches.session import make_step

    names = ["Ann", "Bob"]
    uses = _rival_choosing_uses(range(60))
    assert uses, "no power choosing a rival was used in 60 random games"
    nothing = 0
    for before, action, after in uses:
        p = A.player(action)
        line = step_line(make_step(p, action, amigos.action_text(before, action), 1, None, before, after),
                         p, names)
        assert f"choosing {names[A.rival(action)]}" in line and "player" not in line, line
        if after.pool_of(p) == before.pool_of(p):
            nothing += 1
            assert line.endswith("-> gained nothing"), line
    assert nothing, "no use gained nothing: the case is not covered"


def test_a_menu_and_a_hint_name_the_chosen_rival_as_the_reader_knows_them():
    """A choice of a power that chooses a rival says "choosing Bob" in every screen's menu (the words
    `group_text` gives the line prompt, the full screen and the web board) and in a hint; without names
    it falls back to the seat ("player 2")."""
    from amigos import actions as A
    from amigos_cli.views.choices import group_text, menu_groups
    from amigos_cli.views.hints import hint_text

    names = ["Ann", "Bob"]
    uses = _rival_choosing_uses(range(20))
    assert uses, "no power choosing a rival was used in 20 random games"
    for before, action, _after in uses:
        rival = names[A.rival(action)]
        group = next(g for g in menu_groups(before) if action in g)
        assert f"choosing {rival}" in group_text(before, group, names), group_text(before, group, names)
        assert f"choosing player {A.rival(action) + 1}" in group_text(before, group)
        assert f"choosing {rival}" in hint_text(before, action, {}, names)
