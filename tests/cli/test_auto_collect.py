"""Auto-collect: a setting remembered between games (a small file of the person's), that takes the
essences stored on a card at Collect without asking where the choice does not matter, and that undo
goes back past."""

from __future__ import annotations

import io
import json

from rich.console import Console

from ai.collect import automatic_collect
from amigos import actions as A
from amigos import cards as C
from amigos.apply import settle
from amigos.codes import COLLECT
from amigos.flow import start_round
from amigos.position import build_position
from amigos_cli.settings import Settings, load_settings, save_settings, settings_path
from matches.match import Match
from tests.helpers import at_collect


def test_the_setting_is_remembered_and_a_damaged_file_gives_the_defaults():
    assert load_settings() == Settings()  # (a folder of the test's own: nothing saved yet)
    assert save_settings(Settings(auto_collect=True))
    assert load_settings().auto_collect is True
    assert json.loads(settings_path().read_text()) == {"auto_collect": True}
    for text in ("{not json", '{"auto_collect": "yes"}', "[1, 2]", "[" * 100_000):
        settings_path().write_text(text)
        assert load_settings() == Settings()


def test_only_a_choice_that_does_not_matter_is_made_without_asking():
    s, e = at_collect("vault", {"calm": 2})  # (no Gold on it: no interest to lose)
    assert automatic_collect(s) == (A.TAKE, 0, e, A.TAKE_STORED)
    s, _ = at_collect("vault", {"gold": 1})  # leaving it earns the interest: asked
    assert automatic_collect(s) is None
    s, _ = at_collect("windup_man", {"elan": 1})
    assert automatic_collect(s) is None
    s, e = at_collect("sunken_reef", {"calm": 2}, "places")  # (its points are the essences on it)
    assert automatic_collect(s) == (A.TAKE, 0, e, A.LEAVE_STORED)  # left: taking them costs 2 points
    s, _ = at_collect("athanor", {"elan": 2})  # (its power spends them: asked)
    assert automatic_collect(s) is None
    before = build_position([{"mage": "seer", "item": "research"}])
    assert automatic_collect(before) is None  # (not at Collect)


def test_a_person_with_auto_collect_is_not_asked_and_undo_goes_back_past_it(tmp_path):
    """A person's seat with the setting on makes the Take that does not matter without a prompt (and
    asks it with the setting off); an undo counts only the decisions the person was asked."""
    from amigos_cli.session import PromptSession
    from matches.session import asked_decisions
    match = Match.new(7, ["human", "random"], fmt="game", names=["You", "AI"])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return "1"
    console = Console(file=io.StringIO(), width=100, color_system=None, force_terminal=False)
    session = PromptSession(match, tmp_path / "auto.amigos", console, ask=ask)
    seat = session.session.controllers[0]
    s, e = at_collect("vault", {"calm": 2})
    take = (A.TAKE, 0, e, A.TAKE_STORED)
    session.settings.auto_collect = True
    assert seat.select(s.clone()) == take and not asked
    session.settings.auto_collect = False
    assert seat.select(s.clone()) in s.legal_actions() and asked
    other = build_position([{"mage": "seer", "item": "research"}])
    told = [(other, other.legal_actions()[0]), (s, take)]
    decisions = [[0, None, 0], [0, None, 0]]
    assert asked_decisions(decisions, told, [0], auto_collect=lambda seat: True) == [0]
    assert asked_decisions(decisions, told, [0], auto_collect=lambda seat: False) == [0, 1]


def _at_item_collect(hand: list[str], pool: dict[str, int], item: str = "calm_elan"):
    """A position at the Collect choice of ``item`` (a magic item that collects one kind or another),
    with no Place of Power on offer (Alchemist collects nothing)."""
    s = build_position([{"mage": "alchemist", "item": item, "hand": hand, "pool": pool}, {"mage": "seer"}])
    start_round(s)
    settle(s)
    s._legal = s._groups = None
    while s.phase == COLLECT and A.kind(s.legal_actions()[0]) != A.GAIN:
        s.apply(s.legal_actions()[0])
    assert s.phase == COLLECT and all(A.kind(a) == A.GAIN for a in s.legal_actions())
    return s


def test_a_choice_of_kinds_is_made_only_when_one_kind_alone_is_still_wanted():
    """Calm / Elan collects 1 Calm or 1 Elan: with a hand that asks for Calm and nothing for Elan, the
    Calm is taken; once the pool covers the Calm it asks for, or when the hand asks for both, it is
    asked."""
    s = _at_item_collect(["hawk"], {})  # Hawk costs 1 Life 1 Calm
    made = automatic_collect(s)
    assert made is not None and A.gain(made)[C.CALM] == 1
    assert automatic_collect(_at_item_collect(["hawk"], {"calm": 1})) is None  # nothing lacking
    assert automatic_collect(_at_item_collect(["hawk", "fire_dragon"], {})) is None  # Fire Dragon: 6 Elan
    s = _at_item_collect(["fire_dragon"], {})
    made = automatic_collect(s)
    assert made is not None and A.gain(made)[C.ELAN] == 1
    s = build_position([{"mage": "alchemist", "item": "calm_elan", "hand": ["hawk"]}, {"mage": "seer"}],
                       places_of_power=["coral_castle"])  # (5 Elan 5 Life 5 Calm: both kinds wanted)
    start_round(s)
    settle(s)
    s._legal = s._groups = None
    assert automatic_collect(s) is None
