"""Choices say what they gain or give up when the words alone do not: Vault's interest, Windup Man's
wind-up and Athanor's Elan for its power at Collect (leaving the essences keeps them; the full screen
highlights that choice), and what paying or turning for Cursed Forge's collect cost means."""

from __future__ import annotations

from amigos import actions as A
from amigos.apply import settle
from amigos.codes import COLLECT
from amigos.flow import start_round
from amigos.position import build_position
from amigos_cli.views.choices import consequence, group_text, keeps_a_bonus
from tests.helpers import at_collect


def _at_collect(card: str, essences: dict[str, int], zone: str = "in_play"):
    """The Collect of `at_collect`, with its two choices: take the essences, leave them."""
    s, e = at_collect(card, essences, zone)
    return s, (A.TAKE, 0, e, A.TAKE_STORED), (A.TAKE, 0, e, A.LEAVE_STORED)

def test_leaving_gold_on_the_vault_says_it_earns_the_interest_and_taking_it_says_it_forgoes_it():
    s, take, leave = _at_collect("vault", {"gold": 1})
    assert take in s.legal_actions() and leave in s.legal_actions()
    assert group_text(s, [leave]) == "Leave the essences on Vault  (earns its interest: 2 essences, any kind but Gold)"
    assert group_text(s, [take]) == "Take the essences on Vault  (no interest this round)"
    assert keeps_a_bonus(s, leave) and not keeps_a_bonus(s, take)


def test_a_vault_without_gold_promises_nothing():
    s, take, leave = _at_collect("vault", {"calm": 2})
    assert take in s.legal_actions()
    assert consequence(s, take) == "" and group_text(s, [take]) == "Take the essences on Vault"


def test_windup_man_says_what_leaving_its_essences_does():
    s, take, leave = _at_collect("windup_man", {"elan": 1})
    assert leave in s.legal_actions()
    assert consequence(s, leave) == "it adds 2 more of each kind on it" and keeps_a_bonus(s, leave)
    assert consequence(s, take) == "no wind-up this round"


def test_the_full_screen_highlights_the_choice_that_keeps_the_interest():
    """Enter on the list as offered leaves the Gold on the Vault (the choice listed second)."""
    import asyncio

    from textual.app import App, ComposeResult

    from amigos_cli.tui.choosing import Choices

    s, take, leave = _at_collect("vault", {"gold": 1})

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield Choices(id="c")

    async def run() -> tuple[int | None, list[int]]:
        app = One()
        async with app.run_test(size=(100, 30)) as pilot:
            choices = app.query_one(Choices)
            choices.offer(s)
            await pilot.pause()
            return choices.options.highlighted, choices.shown

    highlighted, shown = asyncio.run(run())
    groups = s.legal_groups()
    assert groups[shown[0]][0] == take  # (the engine lists Take first)
    assert highlighted is not None and groups[shown[highlighted]][0] == leave


def test_athanor_says_leaving_its_elan_keeps_it_for_its_power():
    s, take, leave = _at_collect("athanor", {"elan": 4})
    assert take in s.legal_actions() and leave in s.legal_actions()
    assert group_text(s, [leave]) == "Leave the essences on Athanor  (kept for its power, which takes 6 elan off it)"
    assert group_text(s, [take]) == ("Take the essences on Athanor  (its power, which takes 6 elan off it, waits "
                                     "until they are back on it)")
    assert keeps_a_bonus(s, leave) and not keeps_a_bonus(s, take)


def test_essences_no_power_spends_promise_nothing():
    s, take, leave = _at_collect("dragon_teeth", {"elan": 3})  # (its power pays from the pool)
    assert take in s.legal_actions() and consequence(s, take) == consequence(s, leave) == ""


def test_cursed_forge_s_collect_cost_says_what_paying_and_turning_mean():
    s = build_position([{"mage": "seer", "item": "research", "places": ["cursed_forge"], "pool": {"death": 1}}])
    start_round(s)
    settle(s)
    s._legal = s._groups = None
    assert s.phase == COLLECT
    forge = next(e for e, c in enumerate(s.cards) if c.id == "cursed_forge")
    pay, turn = (A.COLLECT_COST, 0, forge, A.PAY_COST), (A.COLLECT_COST, 0, forge, A.PAY_TURN)
    assert set(s.legal_actions()) == {pay, turn}
    assert group_text(s, [pay]) == "Pay 1 death for Cursed Forge's collect cost  (it stays straight: its power can be used this round)"
    assert group_text(s, [turn]) == ("Turn Cursed Forge for its collect cost instead of paying 1 death  (you keep the "
                                     "1 death, but turned it cannot use its power this round)")


def test_leaving_essences_that_score_where_they_are_is_the_choice_the_full_screen_highlights():
    """Taking the Gold off Alchemist's Tower costs its points, so Enter must not take it unnoticed."""
    s, take, leave = _at_collect("alchemists_tower", {"gold": 3}, zone="places")
    assert take in s.legal_actions() and leave in s.legal_actions()
    assert group_text(s, [take]).endswith("(costs 3 VP)")
    assert keeps_a_bonus(s, leave) and not keeps_a_bonus(s, take)


def test_leaving_essences_that_score_nothing_is_not_highlighted():
    s, take, leave = _at_collect("dragon_teeth", {"elan": 3})
    assert not keeps_a_bonus(s, leave)


def _checking_victory(rival_monuments: list[str], mine: list[str]):
    """Player 0 with Coral Castle (turn it to check victory) and ``mine``, the rival with ``rival_monuments``."""
    s = build_position([{"mage": "seer", "item": "research", "places": ["coral_castle"], "monuments": mine},
                        {"mage": "duelist", "item": "alchemy", "monuments": rival_monuments}])
    check = next(a for a in s.legal_actions() if A.kind(a) == A.POWER and s.cards[A.subject(a)].id == "coral_castle")
    passing = next(a for a in s.legal_actions() if A.kind(a) == A.PASS)
    return s, check, passing


def test_a_victory_check_that_hands_the_rival_the_game_says_so():
    s, check, _ = _checking_victory(["great_pyramid", "colossus", "mausoleum", "oracle", "temple"], [])
    assert s.victory_points()[1] >= 10 > s.victory_points()[0]
    assert group_text(s, [check]).endswith("(ends the game: you lose)")


def test_a_victory_check_that_wins_says_so_and_one_that_changes_nothing_says_nothing():
    s, check, _ = _checking_victory([], ["great_pyramid", "colossus", "mausoleum", "oracle"])
    assert group_text(s, [check]).endswith("(ends the game: you win)")
    s, check, passing = _checking_victory([], ["colossus"])
    assert "ends the game" not in group_text(s, [check]) and "ends the game" not in group_text(s, [passing])


def test_the_last_pass_of_a_round_someone_wins_says_who():
    s, _, _ = _checking_victory(["great_pyramid", "colossus", "mausoleum", "oracle", "temple"], [])
    s.passed[1] = True
    s._legal = s._groups = None
    passing = [a for a in s.legal_actions() if A.kind(a) == A.PASS]
    assert passing and all(group_text(s, [a]).endswith("(ends the game: you lose)") for a in passing)
