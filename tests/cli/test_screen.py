"""The full-screen game (`amigos_cli.tui`), driven by Textual's pilot: whole games against an agent,
the payment picker, the hint, undo, save and quit, resume, the redraft and the end-of-game screens;
snapshots of the main screens at 100x30 and 160x50 (``pytest --snapshot-update`` rewrites them).
"""

from __future__ import annotations

import asyncio
import io
import random
import tempfile
import time
from pathlib import Path

import pytest
from rich.console import Console

import amigos
from amigos import actions as A
from amigos.codes import SETUP_REDRAFT
from amigos_cli.tui import keys
from amigos_cli.tui.confirm import PassConfirm
from amigos_cli.tui.ending import GameEnd
from amigos_cli.tui.game import GameApp
from amigos_cli.tui.picker import VariantPicker
from amigos_cli.views.choices import menu_groups, ordered_variants, parse_essences, typed_variant, vectors
from matches.match import Match
from matches.record import load

SMALL, LARGE = (100, 30), (160, 50)


async def until(pilot, condition, timeout: float = 60.0) -> None:
    """Let the app run until ``condition()`` holds (the match runs in a thread of its own)."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the screen")
        await pilot.pause(0.02)


def asked(app: GameApp) -> bool:
    return app.asking is not None and not isinstance(app.screen, (VariantPicker, GameEnd, PassConfirm))


async def play_on(pilot, app: GameApp, rng: random.Random, decisions: int | None = None) -> int:
    """Answer with the arrows and Enter (a random choice among the first few, the suggested way of
    paying) until the match ends or ``decisions`` are made; the number made."""
    made = 0
    while app.return_value is None and app.is_running and (decisions is None or made < decisions):
        await until(pilot, lambda: asked(app) or isinstance(app.screen, (VariantPicker, GameEnd, PassConfirm))
                    or app.return_value is not None)
        if isinstance(app.screen, VariantPicker):
            await pilot.press("enter")
        elif isinstance(app.screen, PassConfirm):  # (a pass leaving powers usable: yes, pass)
            await pilot.press("y")
        elif isinstance(app.screen, GameEnd):
            await pilot.press("space")
        elif asked(app):
            await pilot.press(*(["down"] * rng.randrange(min(3, len(app.shown)))), "enter")
            await pilot.pause()
            if isinstance(app.screen, PassConfirm):
                await pilot.press("y")
            made += 1
    while isinstance(app.screen, VariantPicker):  # the last choice wants its way of paying
        await pilot.press("enter")
    return made


def text_of(static) -> str:
    """The plain text a Static shows."""
    console = Console(width=200, color_system=None, force_terminal=False, file=io.StringIO())
    console.print(static.content)
    return " ".join(console.file.getvalue().split())


def decisions_of(path: Path) -> list:
    return [d for g in load(path).record["games"] for d in g["decisions"]]


@pytest.fixture(autouse=True)
def patient_digits(monkeypatch):
    """Digits pressed by a test make one number however busy the machine (a second apart they would
    make two)."""
    monkeypatch.setattr(keys, "DIGIT_PAUSE", 60.0)


def test_digits_a_pause_apart_make_two_numbers(monkeypatch):
    clock = iter([100.0, 100.5, 102.0])
    monkeypatch.setattr(keys, "DIGIT_PAUSE", 1.0)
    typed = keys.NumberKeys(lambda: next(clock))
    assert [typed.add("1"), typed.add("2"), typed.add("3")] == [1, 12, 3]


# The seeds of the whole games below make short ones with their choices (73 decisions in game 92 with
# random.Random(1)'s; seed 5 took 315, a minute of the suite): each decision on the screen costs ~0.2 s.
@pytest.mark.slow
def test_a_whole_game_against_an_agent(tmp_path):
    path = tmp_path / "game.amigos"
    match = Match.new(92, ["human", "random"], fmt="game", names=["You", "AI (random)"])

    async def run():
        app = GameApp(match, path)
        async with app.run_test(size=SMALL) as pilot:
            made = await play_on(pilot, app, random.Random(1))
            await until(pilot, lambda: app.return_value is not None)
        return app, made

    app, made = asyncio.run(run())
    assert app.return_value == "finished" and made > 10
    finished = load(path)
    assert finished.is_over() and finished.record["games"][0]["result"]["winners"]


@pytest.mark.slow
def test_a_match_with_the_redraft_and_the_end_screens(tmp_path):
    path = tmp_path / "match.amigos"
    match = Match.new(55, ["human", "random"], fmt="match", names=["You", "AI (random)"])  # 231 decisions (7: 311)
    seen = {"redraft": False, "ends": 0}

    async def run():
        app = GameApp(match, path)
        rng = random.Random(2)
        async with app.run_test(size=LARGE) as pilot:
            while app.return_value is None:
                await until(pilot, lambda: asked(app) or isinstance(app.screen, (VariantPicker, GameEnd, PassConfirm))
                            or app.return_value is not None)
                if isinstance(app.screen, GameEnd):
                    seen["ends"] += 1
                    assert "Press any key" in text_of(app.screen.query_one("Static"))
                if asked(app) and app.asking[1].phase == SETUP_REDRAFT and not seen["redraft"]:
                    seen["redraft"] = True
                    centre = text_of(app.query_one("#centre"))
                    assert "Face up for the redraft" in centre and "first player takes 1" in centre
                    assert all(group_text.startswith("Take ") for group_text in _choice_texts(app))
                await play_on(pilot, app, rng, 1)
        return app

    app = asyncio.run(run())
    assert app.return_value == "finished"
    final = load(path)
    assert final.is_over() and len(final.record["games"]) >= 2
    assert seen["redraft"] and seen["ends"] == len(final.record["games"])


def _choice_texts(app: GameApp) -> list[str]:
    from amigos_cli.views.choices import group_text
    state = app.asking[1]
    return [group_text(state, app.groups[i]) for i in app.shown]


def _drive(match: Match, seed: int, agent_seed: int, done) -> Match:
    """Play ``match`` (the person in seat 0 choosing at random from ``seed``, a random agent in seat 1)
    until the person is to decide in a position where ``done(match)``."""
    from ai.agents import make_agent
    rng = random.Random(seed)
    agent = make_agent("random", seed=agent_seed)
    while not (match.to_act() == 0 and done(match)):
        p = match.to_act()
        match.decide(rng.choice(match.state.legal_actions()) if p == 0 else agent.select(match.state))
    return match


def _many_ways(match: Match) -> bool:
    return match.state.round >= 1 and any(len(g) > 3 for g in match.state.legal_groups())


def _to_many_ways(seed: int = 3) -> tuple[Match, int]:
    """A match where the human (seat 0) faces a choice with several ways to pay or gain."""
    match = _drive(Match.new(seed, ["human", "random"], fmt="game", names=["You", "AI"]), seed, 1, _many_ways)
    return match, next(i for i, g in enumerate(match.state.legal_groups()) if len(g) > 3)


def test_the_payment_picker_takes_the_typed_essences(tmp_path):
    match, index = _to_many_ways()
    state = match.state
    group = state.legal_groups()[index]
    target = group[-1]
    before = len(match.record["games"][0]["decisions"])

    async def run():
        app = GameApp(match, tmp_path / "pay.amigos")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: asked(app))
            for digit in str(index + 1):
                await pilot.press(digit)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, VariantPicker))
            picker = app.screen
            assert sorted(picker.variants) == sorted(group) and picker.preferred in group
            pay, gain = vectors(target)
            typed = _typed(pay, gain)
            await pilot.press("tab", *typed, "enter")
            await until(pilot, lambda: not isinstance(app.screen, VariantPicker))
            await pilot.press("q")
        return app

    asyncio.run(run())
    last = load(tmp_path / "pay.amigos")
    made = last.record["games"][0]["decisions"][before]
    assert made[0] == 0 and amigos.action_from_json(state, made[1]) == target


def _typed(pay, gain) -> list[str]:
    def words(v):
        return " ".join(f"{n}{'elcdg'[k]}" for k, n in enumerate(v) if n) or "0e"
    if pay is not None and gain is not None and any(pay) and any(gain):
        text = f"{words(pay)} / {words(gain)}"
    else:
        text = words(pay if pay is not None and any(pay) else gain)
    return ["space" if c == " " else "slash" if c == "/" else c for c in text]


def test_typed_essences():
    assert parse_essences("4E 2d") == (4, 0, 0, 2, 0)
    assert parse_essences("2E, 1G") == (2, 0, 0, 0, 1)
    assert parse_essences("two elan") is None
    pay = (A.PLACE, 0, 3, (1, 0, 0, 0, 1))
    other = (A.PLACE, 0, 3, (2, 0, 0, 0, 0))
    assert typed_variant([pay, other], "2e") == other and typed_variant([pay, other], "1E 1G") == pay
    assert typed_variant([pay, other], "3C") is None


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), SMALL, LARGE, (70, 20)])
def test_the_choices_keep_five_rows_at_any_size_and_a_small_window_is_told(tmp_path, size):
    """Issue 54, point 2: at 80x24 the board gives way and the choices show at least five rows, with the
    hint shown too; a window smaller than 80x24 gets a word."""
    match = Match.new(108, ["human", "random"], fmt="game", names=["You", "AI"])

    async def session(at):
        app = GameApp(match, tmp_path / f"fit{at[0]}.amigos")
        async with app.run_test(size=at) as pilot:
            await play_on(pilot, app, random.Random(4), 6)
            await until(pilot, lambda: asked(app))
            await pilot.pause()
            rows = app.query_one("#choices").scrollable_content_region.height
            told = app.small  # (the size the screen said was too small: it says so once a size)
            await pilot.press("h")  # (the hint's lines come from the board too)
            await until(pilot, lambda: app.suggested is not None)
            await pilot.pause(0.2)
            hinted = app.query_one("#choices").scrollable_content_region.height
            await pilot.press("q")
        return rows, hinted, told

    rows, hinted, told = asyncio.run(session(size))
    if size < (80, 24):
        assert told == size
    else:
        assert rows >= 5 and hinted >= 5 and told is None, (rows, hinted, told)


def test_h_then_enter_at_once_plays_the_hint_not_the_line_highlighted_before_it(tmp_path):
    """Enter pressed while the hint is still thought of waits for it, and plays the hint's move (issue 54)."""
    path = tmp_path / "quick.amigos"
    match = Match.new(108, ["human", "random"], fmt="game", names=["You", "AI"])

    async def session():
        app = GameApp(match, path)
        async with app.run_test(size=SMALL) as pilot:
            await play_on(pilot, app, random.Random(4), 6)
            await until(pilot, lambda: asked(app))
            state = app.asking[1]
            hinted, _ = app.session.suggest(state.clone())  # (the hint's search is seeded: the same move)
            options = app.query_one("#choices")
            for _ in range(len(app.shown)):  # (the line highlighted is another move than the hint's)
                if hinted not in app.groups[app.shown[options.highlighted]]:
                    break
                await pilot.press("down")
            assert hinted not in app.groups[app.shown[options.highlighted]]
            thinking = app.session.suggest

            def slow(position):  # (a hint that takes its time, as on a slow machine)
                time.sleep(1.0)
                return thinking(position)

            app.session.suggest = slow
            before = len(decisions_of(path))
            await pilot.press("h", "enter")  # (at once: the hint takes a moment to think)
            await until(pilot, lambda: len(decisions_of(path)) > before or isinstance(app.screen, VariantPicker))
            assert not isinstance(app.screen, VariantPicker)
            made = decisions_of(path)[before]
            assert made[0] == 0 and amigos.action_from_json(state, made[1]) == hinted
            await pilot.press("q")

    asyncio.run(session())


def test_hint_undo_save_quit_and_resume(tmp_path):
    path = tmp_path / "hint.amigos"
    match = Match.new(108, ["human", "random"], fmt="game", names=["You", "AI"])  # a short game (11: ~130 decisions)

    async def first_session():
        app = GameApp(match, path)
        async with app.run_test(size=SMALL) as pilot:
            await play_on(pilot, app, random.Random(4), 6)
            await until(pilot, lambda: asked(app))
            await pilot.press("h")
            await until(pilot, lambda: app.suggested is not None)
            state, suggested = app.asking[1], app.suggested
            chosen = app.groups[app.shown[app.query_one("#choices").highlighted]]
            assert suggested in chosen
            before = len(decisions_of(path))
            await pilot.press("enter")
            if len(chosen) > 1:
                await until(pilot, lambda: isinstance(app.screen, VariantPicker))
                assert app.screen.preferred == app.suggested
                await pilot.press("enter")
            await until(pilot, lambda: len(decisions_of(path)) > before)
            hinted = decisions_of(path)[before]
            assert hinted[0] == 0 and amigos.action_from_json(state, hinted[1]) == suggested
            await until(pilot, lambda: asked(app))
            mine = [i for i, d in enumerate(decisions_of(path)) if d[0] == 0]
            await pilot.press("u")
            await until(pilot, lambda: asked(app) and len(decisions_of(path)) == mine[-1])
            assert len(app.session.steps) == mine[-1]
            await pilot.press("s")
            await pilot.press("q")
        return app

    app = asyncio.run(first_session())
    assert app.return_value == "quit"
    kept = decisions_of(path)
    assert load(path).record["status"] == "unfinished"

    async def resumed():
        app = GameApp(load(path), path)
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: asked(app))
            assert len(app.session.steps) == len(kept)
            await play_on(pilot, app, random.Random(5))
            await until(pilot, lambda: app.return_value is not None)
        return app

    app = asyncio.run(resumed())
    assert app.return_value == "finished"
    assert decisions_of(path)[:len(kept)] == kept and load(path).is_over()


def test_digits_jump_and_letters_filter(tmp_path):
    match, _ = _to_many_ways(5)
    groups = match.state.legal_groups()

    async def run():
        app = GameApp(match, tmp_path / "keys.amigos")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: asked(app))
            choices = app.query_one("#choices")
            await pilot.press(*str(len(groups)))
            assert app.shown[choices.highlighted] == len(groups) - 1
            await pilot.press("p", "a")  # "pa": Pass, Place ... whatever names hold it
            await pilot.pause(0.1)
            assert 0 < len(app.shown) < len(groups)
            assert all("pa" in t.lower() for t in _choice_texts(app))
            await pilot.press("escape")
            await pilot.pause(0.1)
            assert len(app.shown) == len(groups)
            await pilot.press("q")

    asyncio.run(run())


def _position(seed: int, decisions: int) -> Match:
    return _drive(Match.new(seed, ["human", "random"], fmt="game", names=["You", "AI (random)"]), seed, 2,
                  lambda m: len(m.record["games"][0]["decisions"]) >= decisions)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["100x30", "160x50"])
def test_board_snapshot(snap_compare, tmp_path, size):
    app = GameApp(_position(5, 40), tmp_path / "snap.amigos")

    async def ready(pilot):
        await until(pilot, lambda: asked(app))
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=size, run_before=ready)


def test_replay_steps_through_the_decisions(tmp_path):
    from amigos_cli.tui.replay import ReplayApp
    path = tmp_path / "done.amigos"
    match = Match.new(5, ["random", "random"], fmt="match", names=["Ann (random)", "Bob (random)"])
    from ai.agents import make_agent
    from matches.match import play
    play(match, [make_agent("random", seed=1), make_agent("random", seed=2)])
    from matches.record import save
    save(match, path)
    loaded = load(path)
    games = len(loaded.record["games"])
    first = loaded.record["games"][0]["decisions"]

    async def run():
        app = ReplayApp(loaded, path.name, 0, False, game=1)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            assert app.at == 0  # (a step-through viewer opens at the deal)
            moves = app.query_one("#moves")
            lines = [str(moves.get_option_at_index(i).prompt) for i in range(moves.option_count)]
            assert "Ann (random) against Bob (random)" in lines[0]
            assert all("(random)" not in line for line in lines[1:]) and any("Ann" in line for line in lines[1:])
            await pilot.press("end")
            assert app.at == len(first)
            await pilot.press("home")
            assert app.at == 0
            await pilot.press("right", "right", "right")
            assert app.at == 3
            banner = text_of(app.query_one("#banner"))
            assert "decision 3 of" in banner
            await pilot.press("left")
            assert app.at == 2
            await pilot.press("end")
            assert app.at == len(first)
            await pilot.press("g")
            assert app.game == (2 if games > 1 else 1) and app.at == 0
            await pilot.press("q")

    asyncio.run(run())


def test_every_card_on_the_table_has_its_text(tmp_path):
    from amigos_cli.tui.cards import TableCards
    match = _position(5, 40)
    state = match.state
    in_play = {state.cards[e].name for e in range(len(state.loc)) if state.loc[e] == amigos.codes.IN_PLAY}

    async def run():
        app = GameApp(match, tmp_path / "table.amigos")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, TableCards))
            listed = {amigos.cards.BY_ID[card].name for _, card in app.screen.listed}
            assert in_play <= listed
            await pilot.press("down")
            await pilot.pause(0.1)
            shown = text_of(app.screen.query_one("#text"))
            assert any(name in shown for name in listed)
            await pilot.press("escape")
            await until(pilot, lambda: asked(app))
            await pilot.press("q")

    asyncio.run(run())


def _redraft_position() -> Match:
    """A match of a person (random moves) against random, at the person's first redraft pick."""
    return _drive(Match.new(7, ["human", "random"], fmt="match", names=["You", "AI (random)"]), 7, 3,
                  lambda m: m.state.phase == SETUP_REDRAFT)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["100x30", "160x50"])
def test_redraft_snapshot(snap_compare, tmp_path, size):
    app = GameApp(_redraft_position(), tmp_path / "redraft.amigos")

    async def ready(pilot):
        await until(pilot, lambda: asked(app))
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=size, run_before=ready)


def test_picker_snapshot(snap_compare, tmp_path):
    match, index = _to_many_ways()
    app = GameApp(match, tmp_path / "picker.amigos")

    async def ready(pilot):
        await until(pilot, lambda: asked(app))
        await pilot.press(*str(index + 1), "enter")
        await until(pilot, lambda: isinstance(app.screen, VariantPicker))
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=SMALL, run_before=ready)


# -- what a new user's trial found ----------------------------------------------------------------------------

def test_the_blind_monument_claim_does_not_tell_the_hidden_points():
    from ai.collect import points_change
    from amigos.position import build_position
    from amigos_cli.views.choices import group_text
    state = build_position([{"mage": "seer", "pool": {"gold": 4}}, {"mage": "druid"}],
                           monuments_face_up=["library"], monument_deck=["great_pyramid", "obelisk"])
    blind = [g for g in state.legal_groups() if A.kind(g[0]) == A.CLAIM_TOP]
    seen = [g for g in state.legal_groups() if A.kind(g[0]) == A.CLAIM_MONUMENT]
    assert blind and seen
    assert points_change(state, blind[0][0]) == 0 and "VP" not in group_text(state, blind[0])
    assert "(+" in group_text(state, seen[0])  # a face-up monument's points are public


def test_a_move_that_ends_the_round_is_not_credited_with_the_collects(tmp_path):
    from amigos_cli.views.log import step_line
    from amigos_cli.views.outcome import collects
    from matches.session import history
    match = _position(5, 40)
    names = ["You", "AI"]
    ended = [s for s in history(match.record) if s.after.round == s.before.round + 1 and s.before.round >= 1]
    assert ended
    for step in ended:
        assert "pool" not in step_line(step, None, names)
        assert collects(step.before, step.after, names).startswith(f"Round {step.after.round} collects: You ")


def test_hint_reasons_stay_and_fast_letters_go_to_the_filter(tmp_path):
    match, _ = _to_many_ways(5)
    decisions = len(match.record["games"][0]["decisions"])

    async def run():
        app = GameApp(match, tmp_path / "fast.amigos")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.press("h")
            await until(pilot, lambda: app.suggested is not None)
            await pilot.press("down", "up")  # the card panel follows the highlight; the reasons stay
            assert text_of(app.query_one("#hint")).startswith("Hint: ")
            app.action_filter("d")  # 'd' opened the filter, 'u' arrives before the focus moved there
            app.action_undo()
            await pilot.pause(0.1)
            assert app.query_one("#filter").value == "du"
            await pilot.press("escape", "q")

    asyncio.run(run())
    assert len(load(tmp_path / "fast.amigos").record["games"][0]["decisions"]) == decisions  # nothing undone


def test_quitting_twice_in_a_row_does_not_freeze(tmp_path):
    """``q`` then ``q`` (or ``s``, or Ctrl-C) typed fast: the screen closes, the file saved."""
    match = Match.new(5, ["human", "random"], fmt="game", names=["You", "AI"])

    async def run():
        app = GameApp(match, tmp_path / "qq.amigos")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: asked(app))
            app.action_quit_game()
            app.action_save()
            app.action_quit_game()
            app.action_interrupt()
            await pilot.pause(0.2)
        return app

    app = asyncio.run(asyncio.wait_for(run(), timeout=30))
    assert app.return_value == "quit"
    assert load(tmp_path / "qq.amigos").record["status"] == "unfinished"


def test_the_picker_asks_for_the_payment_then_the_gain_when_the_ways_are_hundreds():
    from textual.app import App

    from amigos.position import build_position
    from amigos_cli.views.choices import group_text, menu_groups
    state = build_position(players=[
        {"mage": "witch", "item": "transmutation", "pool": {"elan": 3, "life": 1, "death": 3, "gold": 1}},
        {"mage": "healer", "item": "protection"}])
    group = next(g for g in menu_groups(state) if group_text(state, g).startswith("Use Transmutation"))
    preferred = next(v for v in group if vectors(v) == ((1, 0, 0, 2, 0), (0, 1, 2, 0, 0)))
    chosen = []

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(VariantPicker(state, "Use Transmutation", group, preferred), chosen.append)

    async def run():
        app = Host()
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, VariantPicker))
            picker = app.screen
            ways = picker.query_one("#ways")
            assert len(picker.listed) == 12 and ways.option_count == 12  # the payments of 3 of 1E 1L 3D 1G
            assert vectors(picker.listed[ways.highlighted])[0] == (1, 0, 0, 2, 0)  # the suggested payment
            await pilot.press("enter")
            await pilot.pause(0.1)
            assert picker.paying == (1, 0, 0, 2, 0) and ways.option_count == 19  # its gains (not 1E 2D, its payment back)
            assert picker.listed[ways.highlighted] == preferred
            await pilot.press("escape")  # back to the payments, not out of the picker
            await pilot.pause(0.1)
            assert picker.paying is None and ways.option_count == 12 and not chosen
            await pilot.press("down", "enter", "down", "enter")
            await until(pilot, lambda: bool(chosen))
    asyncio.run(run())
    pay, gain = vectors(chosen[0])
    assert chosen[0] in group and sum(pay) == 3 and sum(gain) == 3 and pay != (1, 0, 0, 2, 0)


def test_a_resize_lays_the_board_and_the_log_out_again_at_once(tmp_path):
    """After the terminal shrinks (or grows), the board and the log fit the new width before any move."""
    match = _position(5, 40)

    async def run():
        app = GameApp(match, tmp_path / "resize.amigos")
        async with app.run_test(size=LARGE) as pilot:
            await until(pilot, lambda: asked(app))

            def fits() -> bool:
                board_width = app.board.scrollable_content_region.width
                board = max(len(line) for line in app.query_one("#mine").content.plain.splitlines())
                log = max((line.cell_length for line in app.game_log.lines), default=0)
                return board <= board_width and log <= app.game_log.size.width

            assert fits()
            wide = max(line.cell_length for line in app.game_log.lines)
            await pilot.resize_terminal(*SMALL)
            await pilot.pause(0.3)
            assert fits()
            await pilot.resize_terminal(*LARGE)
            await pilot.pause(0.3)
            assert fits() and max(line.cell_length for line in app.game_log.lines) == wide
            await pilot.press("q")

    asyncio.run(run())


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["100x30", "160x50"])
def test_help_opens_on_a_screen_of_its_own_and_a_card_text_shows_whole(tmp_path, size):
    """``?`` shows every key on a screen of its own (Esc closes it); the card panel shows the text of the
    highlighted choice's card whole, its head in one line, even at 100x30."""
    from textual.widgets import Static

    from amigos_cli.tui.cards import _DETAILS
    from amigos_cli.tui.help import KEYS, HelpScreen
    match = _position(5, 40)

    async def run():
        app = GameApp(match, tmp_path / "help.amigos")
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            shown = text_of(app.screen.query_one(Static))
            assert all(what.split(";")[0].split("(")[0].strip() in shown for _, what in KEYS)
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
            panel = app.card_panel
            card = panel.card
            assert card is not None
            lines = app.query_one("#card-text").content.plain.split("\n")
            last_word = _DETAILS[card]["text"].split()[-1]
            end = next(i for i, line in enumerate(lines) if i and last_word in line)  # (where its text ends)
            assert end < panel.scrollable_content_region.height, lines[:end + 1]
            await pilot.press("q")

    asyncio.run(run())


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["100x30", "160x50"])
def test_the_picker_shows_its_title_and_instructions_whole_and_uses_the_width(tmp_path, size):
    match, index = _to_many_ways()

    async def run():
        app = GameApp(match, tmp_path / "picker.amigos")
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.press(*str(index + 1), "enter")
            await until(pilot, lambda: isinstance(app.screen, VariantPicker))
            await pilot.pause(0.2)
            box = app.screen.query_one("Vertical")
            heading = app.screen.query_one("#heading")
            shown = " ".join(line.text for line in (heading.render_line(y) for y in range(heading.size.height)))
            words = heading.content.plain.split()
            assert " ".join(shown.split()) == " ".join(words)  # (every word of the title on the screen)
            assert heading.size.height >= 1 and box.size.width >= 0.65 * size[0]
            await pilot.press("escape")
            await pilot.press("q")

    asyncio.run(run())


def screen_lines(app) -> list[str]:
    """The text of the screen as the terminal shows it, one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["100x30", "160x50"])
def test_the_log_and_the_card_panel_are_framed_on_the_screen(tmp_path, size):
    """The right column's two panels have their four corners on the screen (the log's top line ran to
    the last column with no corner)."""
    match = _position(5, 40)

    async def run():
        app = GameApp(match, tmp_path / "frame.amigos")
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.pause(0.2)
            rows = screen_lines(app)
            for panel in (app.game_log, app.card_panel):
                r = panel.region
                assert r.right <= size[0]
                assert rows[r.y][r.x] == "╭" and rows[r.y][r.right - 1] == "╮", rows[r.y]
                assert rows[r.bottom - 1][r.x] == "╰" and rows[r.bottom - 1][r.right - 1] == "╯", rows[r.bottom - 1]
            await pilot.press("q")

    asyncio.run(run())


def _card(name: str) -> str:
    """The id of the card called ``name``."""
    return amigos.cards.BY_NAME[name].id


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["100x30", "160x50"])
def test_r_reads_the_card_whole_and_the_panel_scrolls_only_a_text_too_tall(tmp_path, size):
    """``r`` shows the card panel's card on a screen of its own, whole (the longest text, Sorcerer's
    Bestiary's, at 100x30 too), any other key closes it; the panel has no scrollbar for a text that
    fits, and one for a text that does not."""
    from amigos_cli.tui.cards import CardText, WholeCard, card_text
    match = _position(5, 40)

    async def run():
        app = GameApp(match, tmp_path / "read.amigos")
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.pause(0.3)  # (the highlighted choice's card shown first)
            panel = app.card_panel
            app.action_show_card(_card("Research"))
            await pilot.pause(0.2)
            assert not panel.show_vertical_scrollbar and panel.max_scroll_y == 0
            bestiary = _card("Sorcerer's Bestiary")
            app.action_show_card(bestiary)
            await pilot.pause(0.2)
            if size == SMALL:
                assert panel.show_vertical_scrollbar
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, CardText))
            await pilot.pause(0.2)
            box = app.screen.query_one(WholeCard)
            assert box.max_scroll_y == 0  # (all of it on the screen)
            r = box.content_region
            inside = [row[r.x:r.right] for row in screen_lines(app)[r.y:r.bottom]]
            whole = card_text(bestiary, 200).plain
            assert " ".join(" ".join(inside).split()) == " ".join(whole.split())
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, CardText))
            await pilot.press("q")

    asyncio.run(run())


def test_a_resize_lays_the_card_panel_out_again(tmp_path):
    """After the terminal shrinks from 160x50 to 100x30, the card shown is wrapped at the panel's new
    width (it kept its lines of the wide panel, ragged)."""
    from amigos_cli.tui.cards import card_text
    match = _position(5, 40)

    async def run():
        app = GameApp(match, tmp_path / "resize-card.amigos")
        async with app.run_test(size=LARGE) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.pause(0.3)  # (the highlighted choice's card shown first)
            card = _card("Dragon Teeth")
            app.action_show_card(card)
            await pilot.pause(0.2)
            await pilot.resize_terminal(*SMALL)
            await pilot.pause(0.3)
            panel = app.card_panel
            shown = app.query_one("#card-text").content.plain
            width = panel.scrollable_content_region.width
            assert max(len(line) for line in shown.splitlines()) <= width
            assert shown.rstrip("\n") == card_text(card, width).plain
            await pilot.press("q")

    asyncio.run(run())


def _notices(app) -> list[str]:
    return [n.message for n in app._notifications]


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["100x30", "160x50"])
def test_keys_typed_in_the_picker_stay_in_it(tmp_path, size):
    """Tab goes between the picker's list and its typing box and no further: letters typed after it
    do not reach the choices' filter under the picker (one Esc leaves the picker); on the list, digits
    and an essence's letter begin the typed way."""
    match, index = _to_many_ways()

    async def run():
        app = GameApp(match, tmp_path / "tab.amigos")
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.press(*str(index + 1), "enter")
            await until(pilot, lambda: isinstance(app.screen, VariantPicker))
            picker = app.screen
            await pilot.press("tab", "tab", "p", "a")
            await pilot.pause(0.1)
            assert app.screen is picker and picker.focused is picker.query_one("#ways")
            assert not app.choices.filtering and app.choices.filter_box.value == ""
            await pilot.press("2", "e")
            await pilot.pause(0.1)
            typed = picker.query_one("#typed")
            assert picker.focused is typed and typed.value == "2e"
            await pilot.press("escape")
            await until(pilot, lambda: asked(app))
            assert not app.choices.filtering and len(app.shown) == len(app.groups)
            await pilot.press("q")

    asyncio.run(run())


@pytest.mark.parametrize("box", [False, True], ids=["list", "typing box"])
def test_q_quits_and_ctrl_a_answers_inside_the_picker(tmp_path, box):
    match, index = _to_many_ways()

    async def run():
        app = GameApp(match, tmp_path / "q.amigos")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.press(*str(index + 1), "enter")
            await until(pilot, lambda: isinstance(app.screen, VariantPicker))
            if box:
                await pilot.press("tab")
            await pilot.press("ctrl+a")
            await pilot.pause(0.1)
            assert any(n.startswith("Auto-collect on") for n in _notices(app))
            await pilot.press("q")
            await until(pilot, lambda: app.return_value is not None)
        return app

    assert asyncio.run(run()).return_value == "quit"
    assert load(tmp_path / "q.amigos").record["status"] == "unfinished"


def test_digits_jump_while_the_filter_is_open(tmp_path):
    """A digit typed in the filter's box is no letter of the filter: it jumps to that choice (clearing a
    filter that hides it)."""
    match, _ = _to_many_ways(5)
    groups = match.state.legal_groups()
    from amigos_cli.views.choices import group_text
    passing = next(i for i, g in enumerate(groups) if group_text(match.state, g).startswith("Pass"))
    hidden = next(i for i, g in enumerate(groups) if "pass" not in group_text(match.state, g).lower())

    async def run():
        app = GameApp(match, tmp_path / "digits.amigos")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: asked(app))
            choices = app.query_one("#choices")
            await pilot.press("p", "a", "s", "s", *str(passing + 1))
            await pilot.pause(0.1)
            assert app.choices.filter_box.value == "pass" and app.shown[choices.highlighted] == passing
            app.choices.number.digits = ""  # (a new number)
            app.choices.open_filter()
            await pilot.press(*str(hidden + 1))
            await pilot.pause(0.1)
            assert not app.choices.filtering and app.shown[choices.highlighted] == hidden
            await pilot.press("q")

    asyncio.run(run())


def _long_labels():
    """A position whose choices have long words: Prism's two powers, Athanor's, discards of 11 ways."""
    from amigos.position import build_position
    return build_position([{"mage": "witch", "item": "research", "in_play": ["prism", "athanor"],
                            "hand": ["chalice_of_life", "sacrificial_dagger", "elvish_bow"],
                            "pool": {"elan": 3, "life": 2, "calm": 2, "death": 1}},
                           {"mage": "healer", "item": "protection"}])


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["100x30", "160x50"])
def test_choice_labels_wrap_and_keep_every_word(size):
    """A long choice is never cut (no "…", no lost end such as "(11" without "ways)"): it wraps under its
    text, in the width there is."""
    from textual.app import App
    from textual.containers import Horizontal
    from textual.widgets import Static

    from amigos_cli.tui.choosing import Choices
    from amigos_cli.views.choices import group_text, menu_groups
    state = _long_labels()

    class Host(App):
        CSS = "Choices { width: 3fr; } #right { width: 2fr; } #choices { height: 1fr; }"

        def compose(self):
            with Horizontal():
                yield Choices(id="choosing")
                yield Static(id="right")

        def on_mount(self) -> None:
            self.query_one(Choices).offer(state)

    async def run():
        app = Host()
        async with app.run_test(size=size) as pilot:
            await pilot.pause(0.3)
            options = app.query_one("#choices")
            r = options.scrollable_content_region
            shown = " ".join(" ".join(row[r.x:r.right] for row in screen_lines(app)[r.y:r.bottom]).split())
            for i, g in enumerate(menu_groups(state), 1):
                words = f"{i}. {group_text(state, g)}" + (f" ({len(g)} ways)" if len(g) > 1 else "")
                assert "…" not in words and " ".join(words.split()) in shown, words

    asyncio.run(run())


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["100x30", "160x50"])
def test_the_picker_title_carries_the_whole_action(size):
    """The picker's title is the action's whole words, wrapped, never cut with "…"."""
    from textual.app import App

    from amigos_cli.views.choices import group_text, power_words
    state = _long_labels()
    group = next(g for g in state.legal_groups() if group_text(state, g).startswith("Use Prism power 2"))
    prism = A.subject(group[0])

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(VariantPicker(state, group_text(state, group), group, None))

    async def run():
        app = Host()
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, VariantPicker))
            await pilot.pause(0.2)
            heading = app.screen.query_one("#heading")
            shown = " ".join(" ".join(heading.render_line(y).text for y in range(heading.size.height)).split())
            whole = power_words(state.cards[prism], 1).rstrip(".")
            summary = whole[0].lower() + whole[1:]
            assert "…" not in shown and " ".join(summary.split()) in shown, shown

    asyncio.run(run())


def _transmutation():
    from amigos.position import build_position
    from amigos_cli.views.choices import group_text, menu_groups
    state = build_position(players=[
        {"mage": "witch", "item": "transmutation", "pool": {"elan": 3, "life": 1, "death": 3, "gold": 1}},
        {"mage": "healer", "item": "protection"}])
    return state, next(g for g in menu_groups(state) if group_text(state, g).startswith("Use Transmutation"))


def test_typed_essences_name_a_way_when_they_fit_one_only():
    from amigos.position import build_position
    from amigos_cli.views.choices import group_text
    state, group = _transmutation()
    pay = (1, 0, 0, 2, 0)
    ways = [v for v in group if vectors(v)[0] == pay]
    three_elan = next(v for v in ways if vectors(v)[1] == (3, 0, 0, 0, 0))
    assert typed_variant(ways, "3E", gain_only=True) == three_elan  # (the gains' step: typed is the gain)
    assert typed_variant(ways, "/ 3E", gain_only=True) == three_elan
    assert typed_variant(group, "1E 2D / 3E") == three_elan
    assert typed_variant(group, "/ 3E") is None and typed_variant(group, "1E 2D") is None  # (several fit)
    alchemy = build_position([{"mage": "witch", "item": "alchemy", "pool": {"elan": 4, "life": 2}},
                              {"mage": "healer", "item": "protection"}])
    group = next(g for g in alchemy.legal_groups() if group_text(alchemy, g).startswith("Use Alchemy"))
    four_elan = next(v for v in group if vectors(v)[0] == (4, 0, 0, 0, 0))
    assert typed_variant(group, "4E") == four_elan and typed_variant(group, "4E / 2G") == four_elan
    assert typed_variant(group, "4E / 1G") is None


def _picker_app(state, group, chosen: list):
    """An app showing Transmutation's picker of ``group`` at ``state``, its answer appended to ``chosen``."""
    from textual.app import App

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(VariantPicker(state, "Use Transmutation", group, None), chosen.append)

    return Host()


def test_the_picker_takes_a_typed_payment_then_a_typed_gain():
    state, group = _transmutation()
    chosen: list = []

    async def run():
        app = _picker_app(state, group, chosen)
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, VariantPicker))
            picker = app.screen
            await pilot.press("tab", *_typed((1, 0, 0, 2, 0), None), "enter")
            await pilot.pause(0.1)
            assert picker.paying == (1, 0, 0, 2, 0) and not chosen  # (its gains listed)
            await pilot.press("3", "e", "enter")
            await until(pilot, lambda: bool(chosen))

    asyncio.run(run())
    assert vectors(chosen[0]) == ((1, 0, 0, 2, 0), (3, 0, 0, 0, 0))


def test_essences_typed_on_the_list_go_on_whole_in_the_typing_box():
    """"1e 2d / 3e" typed key after key with the list focused: the first letter moves the focus to the
    box, and nothing typed after it replaces what is there (the box does not select its text on focus)."""
    state, group = _transmutation()
    chosen: list = []

    async def run():
        app = _picker_app(state, group, chosen)
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, VariantPicker))
            await pilot.press("1", "e", "space", "2", "d", "space", "slash", "space", "3", "e")
            assert app.screen.query_one("#typed").value == "1e 2d / 3e"
            await pilot.press("enter")
            await until(pilot, lambda: bool(chosen))

    asyncio.run(run())
    assert vectors(chosen[0]) == ((1, 0, 0, 2, 0), (3, 0, 0, 0, 0))


def test_enter_on_the_hinted_choice_plays_the_hint_s_way_without_the_picker(tmp_path):
    """The hint names a way of a choice of several ("Discard ... for 1 gold"): Enter on it plays that
    way, as the README says, rather than asking the way again."""
    match, index = _to_many_ways()
    path = tmp_path / "h.amigos"
    group = menu_groups(match.state)[next(i for i, g in enumerate(menu_groups(match.state)) if len(g) > 3)]
    way = ordered_variants(group)[-1]  # (a way the picker would not highlight first)

    async def session():
        app = GameApp(match, path)
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: asked(app))
            state = app.asking[1]
            thinking = app.session.suggest
            app.session.suggest = lambda position: (way, thinking(position)[1])
            before = len(decisions_of(path))
            await pilot.press("h")
            await until(pilot, lambda: app.suggested == way)
            await pilot.press("enter")
            await until(pilot, lambda: len(decisions_of(path)) > before or isinstance(app.screen, VariantPicker))
            assert not isinstance(app.screen, VariantPicker)
            assert amigos.action_from_json(state, decisions_of(path)[before][1]) == way
            await pilot.press("q")

    asyncio.run(session())


def test_agents_playing_each_other_offer_no_person_s_keys_to_the_end(tmp_path):
    """Watching agents play each other, the footer offers pausing and stepping, never a hint, undo, the
    filter or auto-collect: during the game and on its end's screen (issue 54)."""
    match = Match.new(6, ["random", "random"], fmt="game", names=["Ann (random)", "Bob (random)"])
    persons = {"hint", "undo", "filter", "auto_collect"}

    async def run():
        app = GameApp(match, tmp_path / "watched.amigos")
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause(0.2)
            shown = {b.binding.action for b in app.active_bindings.values()}
            assert "pause" in shown and not shown & persons, shown
            await until(pilot, lambda: isinstance(app.screen, GameEnd), timeout=120)
            ended = {b.binding.action for b in app.active_bindings.values()}
            assert not ended & persons, ended

    asyncio.run(run())


def test_a_pass_that_leaves_usable_powers_is_asked_first_on_the_full_screen(tmp_path):
    """Enter on a pass while a power could still do something asks first (as the line prompt does):
    Enter or n goes back to the choices with nothing played, y passes (issue 54)."""
    from amigos_cli.views.choices import usable_powers
    match = Match.new(21, ["human", "random"], fmt="game", names=["You", "AI"])
    path = tmp_path / "pass.amigos"

    async def run():
        app = GameApp(match, path)
        async with app.run_test(size=LARGE) as pilot:
            rng = random.Random(5)
            for _ in range(400):  # (until a pass is offered beside a usable power)
                await until(pilot, lambda: asked(app) or isinstance(app.screen, (VariantPicker, PassConfirm)))
                if isinstance(app.screen, VariantPicker):
                    await pilot.press("enter")
                    continue
                state = app.asking[1]
                passes = [k for k, i in enumerate(app.shown) if A.kind(app.groups[i][0]) == A.PASS]
                if passes and usable_powers(state, app.groups):
                    break
                await play_on(pilot, app, rng, 1)
            else:
                pytest.fail("no pass was offered beside a usable power")
            before = len(decisions_of(path))
            app.query_one("#choices").highlighted = passes[0]
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, PassConfirm))
            assert "still usable this round?" in text_of(app.screen.query_one("Static"))
            await pilot.press("enter")  # (the key pressed by accident: no)
            await until(pilot, lambda: asked(app))
            assert len(decisions_of(path)) == before and app.asking[1] is state
            app.query_one("#choices").highlighted = passes[0]
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, PassConfirm))
            await pilot.press("y")
            await until(pilot, lambda: len(decisions_of(path)) > before)
            assert decisions_of(path)[before][1]["__type__"] == "Pass"

    asyncio.run(run())


def test_the_hinted_choice_is_scrolled_into_the_rows_left_beside_the_hint():
    """At 80x24 the hint's lines take rows from the choices: the hinted line, however far down the list,
    is scrolled to where it is seen (issue 54)."""
    match = Match.new(108, ["human", "random"], fmt="game", names=["You", "AI"])

    async def run():
        app = GameApp(match, Path(tempfile.mkdtemp()) / "hinted.amigos")
        async with app.run_test(size=(80, 24)) as pilot:
            rng = random.Random(4)
            while True:
                await until(pilot, lambda: asked(app))
                if len(app.shown) >= 9:
                    break
                await play_on(pilot, app, rng, 1)
            state, last = app.asking[1], app.groups[app.shown[-1]]
            app.choices.show_hint(state, last[0], "Hint: " + "a reason that takes some room. " * 6)
            await pilot.pause(0.3)
            options = app.query_one("#choices")
            top, rows = options.scroll_offset.y, options.scrollable_content_region.height
            line = options._index_to_line[options.highlighted]
            assert options.highlighted == len(app.shown) - 1 and top <= line < top + rows, (top, rows, line)

    asyncio.run(run())


def test_at_100x30_the_hand_takes_the_rows_the_board_leaves_and_the_board_keeps_your_line():
    """At 100x30 the hand grows into the board's unused rows (all its cards and the deck's line show),
    and the board, shorter, keeps the viewer's own line on the screen (issue 54)."""
    match = Match.new(108, ["human", "random"], fmt="game", names=["You", "AI"])

    async def run():
        app = GameApp(match, Path(tempfile.mkdtemp()) / "hand.amigos")
        async with app.run_test(size=SMALL) as pilot:
            await play_on(pilot, app, random.Random(4), 3)
            await until(pilot, lambda: asked(app))
            await pilot.pause(0.3)
            hand, board = app.query_one("#hand"), app.query_one("#board")
            assert hand.option_count >= 3  # (two cards and the deck's line, at least)
            assert hand.virtual_size.height <= hand.scrollable_content_region.height
            assert board.virtual_size.height <= board.size.height and "You " in text_of(board.query_one("#mine"))
            assert app.query_one("#choices").scrollable_content_region.height >= 5

    asyncio.run(run())
