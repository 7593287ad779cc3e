"""The full screen with three to five players (issue 38): every rival on the board (a line each, one in
full, which ``>`` and a click change) at 120x40 and 100x30; several people at one screen, handed over
between their decisions without seeing each other's hands; the replay and the end of a game with every
player.  Snapshots of a five-player board (``pytest --snapshot-update`` rewrites them)."""

from __future__ import annotations

import asyncio
import html
import io
import random
import re

import pytest
import typer
from rich.console import Console
from textual.app import App
from textual.widgets import Static

from ai.agents import make_agent
from ai.collect import automatic_collect
from amigos import cards as C
from amigos.codes import DECK, HAND
from amigos.config import GameConfig
from amigos.state import GameState
from amigos_cli.tui.board import expanded_rival, rivals_of
from amigos_cli.tui.confirm import PassConfirm
from amigos_cli.tui.ending import GameEnd
from amigos_cli.tui.game import GameApp
from amigos_cli.tui.handover import HandOver
from amigos_cli.tui.picker import VariantPicker
from amigos_cli.tui.replay import ReplayApp
from amigos_cli.views.log import step_line
from matches.match import Match, play
from matches.record import load, save
from tests.cli.test_screen import asked, text_of, until

SMALL, MIDDLE = (100, 30), (120, 40)
NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve"]


def _table(seed: int, players: int, expansions: tuple[str, ...] = (), round_: int = 3) -> Match:
    """A game of ``players`` (Ann in seat 0 a person, the others random agents), played at random
    until Ann is to decide among several actions (no picker opens at once) in round ``round_`` or later."""
    specs = ["human"] + ["random"] * (players - 1)
    match = Match.new(seed, specs, GameConfig(players=players, expansions=expansions), fmt="game",
                      names=[n if s == "human" else f"{n} (random)" for n, s in zip(NAMES, specs)])
    rng = random.Random(seed)
    agents = [make_agent("random", seed=seed + p) for p in range(players)]
    while not (match.to_act() == 0 and match.state.round >= round_ and len(match.state.legal_groups()) > 1):
        p = match.to_act()
        match.decide(rng.choice(match.state.legal_actions()) if p == 0 else agents[p].select(match.state))
    return match


def _lines(app: App, selector: str) -> list[str]:
    """The lines a Static shows, as plain text at its width."""
    static = app.query_one(selector, Static)
    console = Console(width=static.size.width, color_system=None, force_terminal=False, file=io.StringIO())
    console.print(static.content)
    return console.file.getvalue().rstrip("\n").split("\n")


def _expanded(app: App, names: list[str], others: list[int]) -> int:
    """The rival shown in full, read from the screen: the one of ``others`` whose lines on the board
    (from its name to the next rival's) hold the breakdown of its points."""
    lines = _lines(app, "#rival")
    starts = [next(i for i, line in enumerate(lines) if line.startswith(names[p])) for p in others]
    assert starts == sorted(starts), lines  # (in the order of play after the viewer)
    ends = starts[1:] + [len(lines)]
    full = [p for p, a, b in zip(others, starts, ends) if any("points:" in line for line in lines[a:b])]
    assert len(full) == 1, lines
    return full[0]


TABLES = {"3 players": (31, 3, ()), "5 players, Lux": (4, 5, ("lux",))}


@pytest.mark.parametrize("size", [MIDDLE, SMALL], ids=["120x40", "100x30"])
@pytest.mark.parametrize("table", TABLES, ids=list(TABLES))
def test_every_rival_is_on_the_board_and_the_key_shows_the_next_in_full(tmp_path, table, size):
    """Every rival's name is on the board, one of them in full (its points broken down) and the others
    a line each, cut with "…" at the board's width; '>' shows the next rival in full, then the next,
    back to the first; the viewer's tableau, the centre and the choices stay on the screen."""
    seed, players, expansions = TABLES[table]
    match = _table(seed, players, expansions)

    async def run():
        app = GameApp(match, tmp_path / "table.amigos")
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.pause(0.2)
            board = app.board
            others = rivals_of(app.seen)
            assert len(others) == players - 1
            rows = _lines(app, "#rival")
            assert all(any(line.startswith(NAMES[p]) for line in rows) for p in others), rows
            assert all(len(line) <= board.scrollable_content_region.width for line in rows)
            assert sum("points:" in line for line in rows) <= 1
            seen = [_expanded(app, NAMES, others)]
            assert seen[0] == others[0] == expanded_rival(app.seen, board.chosen)
            for _ in others:
                await pilot.press(">")
                await pilot.pause(0.05)
                seen.append(_expanded(app, NAMES, others))
            assert seen == others + [others[0]]
            # the viewer's own tableau, the centre and the choices: all on the screen, nothing scrolled away
            assert board.virtual_size.height <= board.size.height and board.scroll_y == 0
            assert _lines(app, "#mine")[0].startswith("Ann") and "Monuments:" in text_of(app.query_one("#centre"))
            assert app.query_one("#choices").size.height >= 3
            footer = _screen_text(app)
            assert "> rivals" in footer and "^a auto-collect" in footer
            await pilot.press("q")
        return app

    assert asyncio.run(run()).return_value == "quit"


def test_a_click_on_a_rival_s_line_shows_it_in_full(tmp_path):
    match = _table(4, 5, ("lux",))

    async def run():
        app = GameApp(match, tmp_path / "click.amigos")
        async with app.run_test(size=MIDDLE) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.pause(0.2)
            last = rivals_of(app.seen)[-1]
            row = next(i for i, line in enumerate(_lines(app, "#rival")) if line.startswith(NAMES[last]))
            await pilot.click("#rival", offset=(1, row))
            await pilot.pause(0.1)
            assert _expanded(app, NAMES, rivals_of(app.seen)) == last
            await pilot.press("q")

    asyncio.run(run())


def test_a_click_on_a_card_s_name_shows_its_text(tmp_path):
    """A card's name on the board names the card by its id (what the viewer sees): a click on it shows
    its text in the card panel."""
    match = _table(4, 5, ("lux",))

    async def run():
        app = GameApp(match, tmp_path / "card.amigos")
        async with app.run_test(size=MIDDLE) as pilot:
            await until(pilot, lambda: asked(app))
            await pilot.pause(0.2)
            monument = app.seen.monuments()[-1]
            row, line = next((i, line) for i, line in enumerate(_lines(app, "#centre")) if monument.name in line)
            assert app.card_panel.card != monument.id
            await pilot.click("#centre", offset=(line.index(monument.name) + 1, row))
            await pilot.pause(0.1)
            assert app.card_panel.card == monument.id
            assert monument.name in app.query_one("#card-text").content.plain
            await pilot.press("q")

    asyncio.run(run())


@pytest.mark.parametrize("size", [MIDDLE, SMALL], ids=["120x40", "100x30"])
def test_five_player_board_snapshot(snap_compare, tmp_path, size):
    app = GameApp(_table(4, 5, ("lux",)), tmp_path / "snap.amigos")

    async def ready(pilot):
        await until(pilot, lambda: asked(app))
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=size, run_before=ready)


# -- several people at one screen -------------------------------------------------------------------------

def _hidden_from(state: GameState, viewer: int) -> set[str]:
    """The names of the artifacts in another player's hand or deck: hidden from ``viewer``."""
    return {state.cards[e].name for e in range(state.n_art)
            if state.owner[e] != viewer and state.loc[e] in (HAND, DECK)}


def _screen_text(app: GameApp) -> str:
    """Everything the screen shows (its whole picture, as a screenshot has it)."""
    svg = app.export_screenshot()
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", svg[svg.index("<g"):])).split())


def _shown_to_the_viewer(app: GameApp) -> str:
    """The board, the hand and every line of the log, as plain text (the card panel's card is checked
    apart: a card's text names other cards, Artificer's rulings Dragon Bridle)."""
    hand = app.hand
    parts = [text_of(app.query_one(s)) for s in ("#rival", "#centre", "#mine")]
    parts += [str(hand.get_option_at_index(i).prompt) for i in range(hand.option_count)]
    parts += [strip.text for strip in app.game_log.lines]
    return "\n".join(parts)


@pytest.mark.slow
def test_people_at_one_screen_hand_it_over_and_never_see_each_other_s_hands(tmp_path):
    """Ann and Bob and an AI: before each decision of one after the other's, the hand-over screen
    covers everything (no artifact of either hand on it) until Enter, before the first person's first
    decision too (nobody's hand nor log shown until then); then the board, the hand, the
    card panel and the log name no artifact hidden from the person at the screen (the log is written
    again for them: the other's drawn cards are named only in the other's).  Undo goes back to the
    last person's decision, handed over again; q quits from the hand-over screen.  The banner names
    whose view it is; a Collect that auto-collect decides is not asked (on with several people)."""
    path = tmp_path / "hot.amigos"
    match = Match.new(21, ["human", "random", "human"], GameConfig(players=3), fmt="game",
                      names=["Ann", "AI (random)", "Bob"])
    rng = random.Random(3)
    seen = {"asked": [], "switches": 0, "leaks_possible": 0}

    async def handed_over(pilot, app: GameApp) -> bool:
        """Wait for the next decision (a way of paying asked meanwhile: the suggested one); True if the
        hand-over screen came first (checked, then Enter)."""
        while True:
            await until(pilot, lambda: asked(app) or isinstance(app.screen, (HandOver, VariantPicker)))
            if not isinstance(app.screen, VariantPicker):
                break
            await pilot.press("enter")
        if not isinstance(app.screen, HandOver):
            return False
        await until(pilot, lambda: "your turn" in _screen_text(app))  # (drawn once the screen is up)
        shown = _screen_text(app)
        assert "look away" in shown
        state = app.session.match.state
        assert not [n for n in _hidden_from(state, 0) | _hidden_from(state, 2) if n in shown]
        if seen.get("undone"):
            pass  # (under it, the view before the undo: it may name a card drawn in the moves undone)
        elif seen["asked"]:  # under it, nothing drawn yet for the next person: still the last one's view
            last = seen["asked"][-1]
            assert app.viewer == last and not [n for n in _hidden_from(state, last) if n in _shown_to_the_viewer(app)]
        else:  # before the first hand-over, nobody's hand and no log
            assert app.hand.option_count == 0 and not app.game_log.lines
        await pilot.press("enter")
        await until(pilot, lambda: app.asking is not None)  # (its choices, or at once its ways of paying)
        assert f"{app.names[app.asking[0]]}'s view" in text_of(app.query_one("#banner"))
        return True

    async def answer(pilot, app: GameApp) -> None:
        await pilot.press(*(["down"] * rng.randrange(min(3, len(app.shown)))), "enter")
        await pilot.pause()
        if isinstance(app.screen, PassConfirm):  # (a pass leaving powers usable: yes, pass)
            await pilot.press("y")

    async def run():
        app = GameApp(match, path)
        async with app.run_test(size=MIDDLE) as pilot:
            while len(seen["asked"]) < 40:
                handed = await handed_over(pilot, app)
                seat, state = app.asking
                assert automatic_collect(state) is None  # (auto-collect is on with several people)
                switched = bool(seen["asked"]) and seen["asked"][-1] != seat
                assert handed == (switched or not seen["asked"])  # (the first person's first decision too)
                if switched:
                    seen["switches"] += 1
                    hidden = _hidden_from(state, seat)
                    mine = _shown_to_the_viewer(app)
                    assert not [n for n in hidden if n in mine], (seat, [n for n in hidden if n in mine])
                    card = app.card_panel.card
                    assert card is None or C.BY_ID[card].name not in hidden
                    # what the other person's log tells of their own moves: counted, so that the check
                    # above is known to have had something to catch
                    theirs = [step_line(s, 2 - seat, app.names) for s in app.session.steps if s.actor == 2 - seat]
                    seen["leaks_possible"] += any(n in line for line in theirs for n in hidden)
                seen["asked"].append(seat)
                await answer(pilot, app)
            # undo: back to the last decision of a person, handed over if it was the other person's
            await handed_over(pilot, app)
            now = app.asking[0]
            seen["asked"].append(now)  # (the screen is now's: the view under the next hand-over)
            decisions = load(path).record["games"][0]["decisions"]
            last = max(i for i, d in enumerate(decisions) if d[0] in (0, 2))
            await pilot.press("u")
            seen["undone"] = True
            await until(pilot, lambda: len(load(path).record["games"][0]["decisions"]) == last)
            assert await handed_over(pilot, app) == (decisions[last][0] != now)
            assert app.asking[0] == decisions[last][0]
            # q from the hand-over screen saves and quits
            while True:
                await answer(pilot, app)
                await until(pilot, lambda: asked(app) or isinstance(app.screen, (HandOver, VariantPicker)))
                while isinstance(app.screen, VariantPicker):  # (a way of paying: the suggested one)
                    await pilot.press("enter")
                    await until(pilot, lambda: asked(app) or isinstance(app.screen, (HandOver, GameEnd, VariantPicker)))
                assert not isinstance(app.screen, GameEnd), "the game ended before a hand-over"
                if isinstance(app.screen, HandOver):
                    break
            await pilot.press("q")
            await until(pilot, lambda: app.return_value is not None)
        return app

    app = asyncio.run(run())
    assert app.return_value == "quit" and load(path).record["status"] == "unfinished"
    assert {0, 2} <= set(seen["asked"]) and seen["switches"] >= 4
    assert seen["leaks_possible"] > 0, "no hidden card was ever named in the other person's log: a longer game"


def test_two_people_are_given_the_full_screen(tmp_path, monkeypatch):
    """`amigos play --p2 human` at a terminal opens the full screen for both (no line prompt in its place)."""
    from amigos_cli.commands import match as command
    opened = []
    monkeypatch.setattr(command, "run_screen", lambda match, path, delay=0.0: opened.append(path) or "quit")
    out = io.StringIO()
    match = Match.new(1, ["human", "human", "random"], GameConfig(players=3), fmt="game")
    with pytest.raises(typer.Exit):
        command.run_session(match, tmp_path / "two.amigos", Console(file=out), screen=True)
    assert opened == [tmp_path / "two.amigos"] and "prompt" not in out.getvalue()


# -- the replay and the end of a game ----------------------------------------------------------------------

def test_the_replay_of_a_four_player_game_shows_every_player(tmp_path):
    path = tmp_path / "four.amigos"
    names = ["Ann (random)", "Bob (random)", "Cleo (random)", "Dan (random)"]
    match = Match.new(6, ["random"] * 4, GameConfig(players=4), fmt="game", names=names)
    play(match, [make_agent("random", seed=k) for k in range(4)])
    save(match, path)
    loaded = load(path)

    async def run():
        app = ReplayApp(loaded, path.name, 0, False, game=1)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            await pilot.press("end")
            await pilot.pause(0.1)
            assert _expanded(app, names, [1, 2, 3]) == 1
            banner = text_of(app.query_one("#banner"))
            assert all(f"{n} " in banner for n in names) and "VP" in banner  # the result, every player's points
            await pilot.press(">")
            await pilot.pause(0.1)
            assert _expanded(app, names, [1, 2, 3]) == 2
            assert text_of(app.query_one("#mine")).startswith("Ann")
            await pilot.press("q")

    asyncio.run(run())


def test_the_end_of_a_five_player_game_shows_every_player_and_their_points(tmp_path):
    match = Match.new(3, ["random"] * 5, GameConfig(players=5, expansions=("lux",)), fmt="game", names=NAMES)
    play(match, [make_agent("random", seed=k) for k in range(5)])
    final = match.state
    from amigos_cli.views.board import result_text
    from amigos_cli.views.seen import Seen

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(GameEnd(Seen.of(final, 0), NAMES, result_text(final, NAMES), True))

    async def run():
        app = Host()
        async with app.run_test(size=MIDDLE) as pilot:
            await pilot.pause(0.2)
            shown = text_of(app.screen.query_one(Static))
            vp = final.victory_points()
            assert all(f"{n} {vp[p]} VP" in shown for p, n in enumerate(NAMES))
            assert shown.count("points:") == 5 and "Press any key to close" in shown

    asyncio.run(run())
