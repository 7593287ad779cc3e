"""The terminal screens and the prompt for people.

* Golden renders (100 columns, no colour) of the board, the redraft, the draft and the result, compared
  with ``tests/golden/*.txt``; rewrite those with ``python tests/regen_golden.py`` (never from here).
* The `Human` controller through its ``ask`` callback: mistyped answers, the "how?" question, help,
  card text, quit, undo, end of input.
* Whole games through the real ``amigos play`` / ``amigos resume`` in a pseudo-terminal, and undo
  through a `Session`.
"""

from __future__ import annotations

import copy
import difflib
import fcntl
import functools
import io
import json
import os
import pty
import random
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

import amigos
from amigos import actions as A
from amigos.codes import ACTIONS
from amigos.config import GameConfig
from amigos.observe import SPECTATOR
from amigos_cli.human import HELP, Human, discard_typeahead
from amigos_cli.session import PromptSession
from amigos_cli.views.board import board, result_text
from amigos_cli.views.choices import menu_groups, ordered_variants
from amigos_cli.views.seen import Seen
from matches.match import Match
from matches.record import load
from matches.session import QuitRequested, UndoRequested
from tests import regen_golden as G

# -- golden screens ----------------------------------------------------------------------------------------

@functools.cache
def screens() -> dict[str, str]:
    return G.screens()


@pytest.mark.parametrize("name", G.FILES)
def test_golden_screen(name):
    path = G.GOLDEN / name
    assert path.exists(), f"{path} is missing: run 'python tests/regen_golden.py'"
    expected = path.read_text()
    actual = screens()[name]
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            f"golden/{name}", "rendered now"))
        pytest.fail(f"{name} differs from its golden (if intended, run 'python tests/regen_golden.py'):\n{diff}")


def test_screens_fit_100_columns():
    assert sorted(screens()) == sorted(G.FILES)
    for name, text in screens().items():
        for line in text.splitlines():
            assert cell_len(line) <= G.WIDTH, (name, line)


def test_board_hides_the_rivals_hand():
    state, log = G.action_position()
    mine = G.render(board(state, 0, G.NAMES, [], "Game 1"))
    theirs = G.render(board(state, 1, G.NAMES, [], "Game 1"))
    hands = [[c.name for e, c in enumerate(state.cards[:state.n_art])
              if state.loc[e] == amigos.codes.HAND and state.owner[e] == p] for p in range(2)]
    assert hands[0] and hands[1]
    for name in hands[1]:
        assert name not in mine and name in theirs
    for name in hands[0]:
        assert name in mine and name not in theirs


def test_redraft_screen_shows_the_picks():
    state = G.redraft_position()
    text = G.render(board(state, state.current_player(), G.NAMES, [], "Game 2"))
    assert "(16 left)" in text
    for e in range(state.n_art):
        assert state.cards[e].name in text
    picks = []
    for _ in range(3):
        action = state.legal_actions()[0]
        picks.append((state.current_player(), amigos.action_text(state, action)))
        state.apply(action)
    text = G.render(board(state, state.current_player(), G.NAMES, [], "Game 2"))
    assert "(13 left)" in text and "nothing yet" not in text


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_board_fits_a_100x30_terminal_in_rounds_1_to_3(seed):
    state, rng, log = amigos.new_game(seed), random.Random(seed), []
    checked = 0
    while not state.is_terminal() and state.round <= 3:
        if state.phase == ACTIONS and rng.random() < 0.3:
            for viewer in (0, 1):
                text = G.render(board(state, viewer, G.NAMES, log, "Game 1 of a best of 3"))
                lines = text.splitlines()
                assert len(lines) <= 30, text
                assert all(cell_len(line) <= 100 for line in lines)
                checked += 1
        action = G.policy(rng, state)
        log.append(f"{G.NAMES[state.current_player()]}: {amigos.action_text(state, action)}")
        state.apply(action)
    assert checked > 4


def _finished(vp, winners, round_=9, pool=(0,) * 10):
    """Just what `result_text` reads of a finished game: a spectator's view of it (`Seen`)."""
    return Seen({"player": SPECTATOR, "phase": "GAME_OVER", "round": round_, "current_player": 0,
                 "winners": list(winners),
                 "players": [{"vp": vp[p], "pool": list(pool[5 * p:5 * p + 5])} for p in range(2)]})


def test_result_text_for_a_win_and_a_shared_victory():
    assert G.render(result_text(_finished([10, 7], [0]), ["Ann", "Bob"])) == "Ann wins  (Ann 10 VP, Bob 7 VP, round 9)\n"
    shared = G.render(result_text(_finished([11, 11], [0, 1], pool=(1, 0, 0, 0, 1) * 2), ["Ann", "Bob"]))
    assert shared.startswith("Shared victory: Ann and Bob  (Ann 11 VP, Bob 11 VP, round 9)")
    assert "pools decide (Gold counts 2): Ann 3, Bob 3" in " ".join(shared.split())


def test_result_text_names_the_tie_break():
    """Equal points: the pools decide, and the result says so (a player read 11-11 as a bug)."""
    text = G.render(result_text(_finished([11, 11], [1], pool=(2, 0, 0, 0, 0, 1, 0, 0, 0, 1)), ["You", "AI"]))
    assert "pools decide (Gold counts 2): You 2, AI 3" in " ".join(text.split())


def test_result_text_speaks_to_you():
    assert "You wins" not in G.render(result_text(_finished([10, 7], [0]), ["You", "AI (random)"]))


# -- the Human controller ------------------------------------------------------------------------------------

class Script:
    """An ``ask`` that answers from a list and remembers the prompts; EOFError when the list runs out."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer


def _human(answers, state=None):
    state = state or G.action_position()[0]
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    ask = Script(answers)
    human = Human(state.current_player(), G.NAMES, console, ask=ask, log=["You: Pass"], title="Game 1")
    return human, state, ask, out


@pytest.fixture(scope="module")
def position():
    state, _ = G.action_position()
    groups = menu_groups(state)  # (the menu's, numbered as listed)
    single = next(i for i, g in enumerate(groups, 1) if len(g) == 1 and A.kind(g[0]) != A.PASS)
    several = next(i for i, g in enumerate(groups, 1) if len(g) > 1)
    return state, groups, single, several


def test_human_sees_the_board_and_a_numbered_menu(position):
    state, groups, single, _ = position
    human, state, ask, out = _human([str(single)], state.clone())
    assert human.select(state) == groups[single - 1][0]
    text = out.getvalue()
    assert "round 3" in text and "Your hand:" in text
    assert f"{len(groups):>3}. " in text and "  1. " in text
    assert ask.prompts == ["Your choice: "]


def test_invalid_answers_are_explained_and_asked_again(position):
    state, groups, single, _ = position
    human, state, ask, out = _human(["", "x", "999", "0", str(single)], state.clone())
    assert human.select(state) == groups[single - 1][0]
    text = out.getvalue()
    assert "Type a number (or ? for help)." in text
    assert f"'x' is not a choice: type a number from 1 to {len(groups)}" in text
    assert "'999' is not a choice" in text and "'0' is not a choice" in text
    assert ask.prompts == ["Your choice: "] * 5


def test_several_ways_ask_how_and_zero_goes_back(position):
    state, groups, single, several = position
    human, state, ask, out = _human([str(several), "9999", "0", str(several), "2"], state.clone())
    assert human.select(state) == ordered_variants(groups[several - 1])[1]  # (the second way as listed)
    assert ask.prompts == ["Your choice: ", "Which way: ", "Which way: ", "Your choice: ", "Which way: "]
    text = out.getvalue()
    assert ": how?" in text and "0. back" in text
    assert (f"Type a number from 1 to {len(groups[several - 1])}, words of a way or its essences (2E 1G), "
            "or 0 to go back.") in " ".join(text.split())
    assert f"({len(groups[several - 1])} ways)" in text
    # after going back the menu is shown again
    assert text.count(f"{several:>3}. ") >= 2


def _index(state, groups, start):
    """The 1-based number of the only choice whose line starts with ``start``."""
    from amigos_cli.views.choices import group_text
    found = [i for i, g in enumerate(groups, 1) if group_text(state, g).startswith(start)]
    assert len(found) == 1, found
    return found[0]


def test_what_was_typed_ahead_is_dropped_once_a_decision_is_shown(position):
    """A line typed while the AI moved answered the list before its move: each decision drops the
    terminal's type-ahead once, before its menu, and asks again without dropping after a mistake."""
    state, groups, single, _ = position
    flushed = []
    out = io.StringIO()
    human = Human(state.current_player(), G.NAMES, Console(file=out, width=100), ask=Script(["zzz", str(single)]),
                  flush=lambda: flushed.append(out.getvalue().count("Your choice")))
    human.select(state)
    assert flushed == [0]  # once, before the first question


def test_the_terminal_s_type_ahead_is_discarded():
    master, slave = os.openpty()
    try:
        with open(slave, "r", closefd=False) as stream:
            os.write(master, b"7\n")
            assert select.select([slave], [], [], 1.0)[0]  # the line waits to be read
            discard_typeahead(stream)
            assert not select.select([slave], [], [], 0.2)[0]
        discard_typeahead(io.StringIO("7\n"))  # not a terminal: left alone, no error
    finally:
        os.close(master)
        os.close(slave)


def test_words_of_a_line_choose_it(position):
    state, groups, _, _ = position
    passes = [g for g in groups if amigos.actions.kind(g[0]) == amigos.actions.PASS]
    assert len(passes) > 2  # the position offers several magic items to pass to
    divination = _index(state, groups, "Pass, taking Divination")
    human, state, ask, out = _human(["Pass div", "y"], state.clone())  # (y: pass, with powers usable)
    assert human.select(state) == groups[divination - 1][0]
    assert ask.prompts[0] == "Your choice: " and "still usable this round" in ask.prompts[1]


def test_words_that_fit_several_lines_list_them(position):
    state, groups, _, _ = position
    alchemy = _index(state, groups, "Pass, taking Alchemy")
    human, state, ask, out = _human(["pass", "zzz", "pass alch", "y"], state.clone())
    assert human.select(state) == groups[alchemy - 1][0]
    text = out.getvalue()
    passes = sum(1 for g in groups if amigos.actions.kind(g[0]) == amigos.actions.PASS)
    assert f"'pass' fits {passes} choices: type a number, or more words." in text
    assert f"{alchemy:>3}. Pass, taking Alchemy" in text
    assert "'zzz' is not a choice" in text and "or words of a choice" in text
    assert ask.prompts[:3] == ["Your choice: "] * 3 and len(ask.prompts) == 4


def test_words_choose_the_way_too(position):
    state, groups, _, several = position
    discard = _index(state, groups, "Discard ")
    assert len(groups[discard - 1]) > 1
    human, state, ask, out = _human(["discard", "elan", "2 elan"], state.clone())
    action = human.select(state)
    from amigos_cli.views.choices import variant_text
    assert action in groups[discard - 1] and variant_text(state, action) == "gain 2 elan"
    assert ask.prompts == ["Your choice: ", "Which way: ", "Which way: "]
    assert "'elan' fits " in out.getvalue()


def test_the_essences_as_the_board_writes_them_choose_the_way(position):
    state, groups, _, _ = position
    discard = _index(state, groups, "Discard ")
    human, state, ask, out = _human(["discard", "3C", "1E 1c"], state.clone())
    action = human.select(state)
    from amigos_cli.views.choices import vectors
    assert action in groups[discard - 1] and vectors(action)[1] == (1, 0, 1, 0, 0)
    assert ask.prompts == ["Your choice: ", "Which way: ", "Which way: "]
    assert "'3C' is not a choice" not in out.getvalue()  # 3 Calm is no way of a discard: asked again


def _transmutation():
    """A position where Transmutation can be used in 680 ways: (state, its menu's groups, Transmutation's
    number)."""
    from amigos.position import build_position
    state = build_position(players=[
        {"mage": "witch", "item": "transmutation", "pool": {"elan": 3, "life": 3, "calm": 3, "death": 3, "gold": 3}},
        {"mage": "healer", "item": "protection"}])
    groups = menu_groups(state)
    return state, groups, _index(state, groups, "Use Transmutation")


def test_the_essences_choose_each_of_two_steps():
    from amigos_cli.views.choices import vectors
    state, groups, use = _transmutation()
    human, state, ask, out = _human([str(use), "2e 1d", "3L"], state)
    assert vectors(human.select(state)) == ((2, 0, 0, 1, 0), (0, 3, 0, 0, 0))
    assert ask.prompts == ["Your choice: ", "Which way: ", "Which way: "]


def test_matching_prefers_an_exact_line():
    from amigos_cli.human import matching
    lines = ["gain 2 elan", "gain 2 elan, 1 life", "Pass, taking Calm / Elan"]
    assert matching("gain 2 elan", lines) == [0]
    assert matching("GAIN 2 el", lines) == [0, 1]
    assert matching("calm/elan", lines) == [2]
    assert matching("  ", lines) == [] and matching("x", lines) == []
    powers = ["Use Alchemist power 1: paying 4 elan, gaining 2 gold",
              "Use Alchemist power 2 (pay 2 life: gain 1 gold)", "Pass, taking Alchemy"]
    assert matching("use alchemist power 1", powers) == [0]  # the words in a row, not "gain 1"
    assert matching("alch", powers) == [0, 1, 2] and matching("power gold", powers) == [0, 1]


def test_question_mark_prints_help(position):
    state, groups, single, _ = position
    human, state, ask, out = _human(["?", str(single)], state.clone())
    human.select(state)
    assert " ".join(HELP.split()) in " ".join(out.getvalue().split())


def test_card_text_on_request(position):
    state, groups, single, _ = position
    human, state, ask, out = _human(["c fire dragon", "c no such card", str(single)], state.clone())
    human.select(state)
    text = " ".join(out.getvalue().split())
    assert "Fire Dragon: " + " ".join(amigos.cards.BY_NAME["Fire Dragon"].text.split()) in text
    assert "No card named 'no such card'." in text


def test_typed_markup_is_echoed_as_typed(position):
    state, groups, single, _ = position
    human, state, ask, out = _human(["[/]", "c [bold]x[/bold]", str(single)], state.clone())
    assert human.select(state) == groups[single - 1][0]
    text = " ".join(out.getvalue().split())
    assert "'[/]' is not a choice" in text
    assert "No card named '[bold]x[/bold]'." in text


@pytest.mark.parametrize("answers, error", [
    (["q"], QuitRequested),
    (["u"], UndoRequested),
    ([EOFError()], QuitRequested),
    ([], QuitRequested),                     # end of input
    (["x", EOFError()], QuitRequested),
])
def test_quit_undo_and_end_of_input(position, answers, error):
    state = position[0]
    human, state, ask, out = _human(answers, state.clone())
    with pytest.raises(error):
        human.select(state)


def test_quit_and_end_of_input_while_asking_how(position):
    state, groups, single, several = position
    for answers in ([str(several), "q"], [str(several), EOFError()]):
        human, s, ask, out = _human(answers, state.clone())
        with pytest.raises(QuitRequested):
            human.select(s)
        assert ask.prompts[-1] == "Which way: "


def test_save_and_hint_answers(position):
    state, groups, single, _ = position
    saved = []
    human, s, ask, out = _human(["s", "h", str(single)], state.clone())
    human.on_save = lambda: saved.append(1)
    human.hinter = lambda st: "HINT-TEXT"
    human.select(s)
    assert saved == [1] and "Saved." in out.getvalue() and "HINT-TEXT" in out.getvalue()
    human, s, ask, out = _human(["h", str(single)], state.clone())
    human.select(s)
    assert "No hint available." in out.getvalue()


# -- undo through a Session ------------------------------------------------------------------------------------

def _session(tmp_path, answer_for, seed=5):
    match = Match.new(seed, ["human", "random"], fmt="game", names=["You", "AI (random)"])
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    holder = {}

    def ask(prompt):
        return answer_for(holder["session"], prompt)

    session = PromptSession(match, tmp_path / "undo.amigos", console, ask=ask)
    holder["session"] = session
    return session, out


def _decisions(session):
    return copy.deepcopy(session.match.record["games"][-1]["decisions"])


def test_undo_returns_to_the_humans_previous_decision(tmp_path):
    seen = []  # (decisions, digest) at each "Your choice" prompt
    plan = {}

    def answer(session, prompt):
        if prompt != "Your choice: ":
            return "1"
        decisions = _decisions(session)
        seen.append((decisions, session.match.state.digest()))
        if "undone_at" in plan:
            plan["after"] = (decisions, session.match.state.digest())
            return "q"
        # undo once the AI has replied to one of our decisions
        if decisions and decisions[-1][0] == 1 and any(d[0] == 0 for d in decisions):
            plan["undone_at"] = decisions
            return "u"
        return "1"

    session, out = _session(tmp_path, answer)
    with pytest.raises(QuitRequested):
        session.run()
    before = plan["undone_at"]
    last_mine = max(i for i, d in enumerate(before) if d[0] == 0)
    # back at the prompt of our last decision: the same decisions and the same position
    expected = next(s for s in seen if len(s[0]) == last_mine)
    assert plan["after"][0] == before[:last_mine] == expected[0]
    assert plan["after"][1] == expected[1]
    assert "Undone." in out.getvalue()
    # the file lost the decision and the AI's reply
    assert load(tmp_path / "undo.amigos").record["games"][-1]["decisions"] == before[:last_mine]


def test_undo_with_nothing_to_undo(tmp_path):
    calls = []

    def answer(session, prompt):
        calls.append(prompt)
        return {1: "u", 2: "q"}.get(len(calls), "1")

    session, out = _session(tmp_path, answer)
    with pytest.raises(QuitRequested):
        session.run()
    assert "Nothing of yours to undo" in out.getvalue()
    assert load(tmp_path / "undo.amigos").record["games"][-1]["decisions"] == []


# -- secret setup decisions: what each person at the table sees ---------------------------------------------

def _prompts(folder, specs, names, quit_at, variant="standard", seed=0):
    """A game of ``specs`` through a `Session`, a person answering 1 at every prompt until prompt
    ``quit_at`` (1-based), answered q; returns (the match, the output printed before each prompt)."""
    match = Match.new(seed, specs, GameConfig.parse(variant), fmt="game", names=names)
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    before = []

    def ask(prompt):
        before.append(out.getvalue())
        return "q" if len(before) == quit_at else "1"

    session = PromptSession(match, folder / "secret.amigos", console, ask=ask)
    with pytest.raises(QuitRequested):
        session.run()
    return session.match, before


def _decisions_of(match):
    return [d[:2] for d in match.record["games"][0]["decisions"]]


def test_the_rivals_mage_stays_secret_until_both_are_chosen(tmp_path):
    match, before = _prompts(tmp_path, ["random", "human"], ["Player 1 (random)", "You"], quit_at=1)
    (actor, step), = _decisions_of(match)
    assert actor == 0 and step["__type__"] == "ChooseMage"
    screen = before[0]
    assert step["mage_name"] not in screen
    assert "Player 1 (random) chose a mage" in screen
    assert "Last: Player 1 (random) chose a mage" in screen


def test_the_rivals_draft_picks_stay_secret(tmp_path):
    match, before = _prompts(tmp_path, ["random", "human"], ["Player 1 (random)", "You"], quit_at=12, variant="draft")
    decisions = _decisions_of(match)
    picks = [step["artifact_name"] for actor, step in decisions if actor == 0 and step["__type__"] == "DraftPick"]
    assert len(picks) >= 6
    # before your first pick nothing says which card the rival kept from their own packet
    assert picks[0] not in before[0] and "Player 1 (random) drafted a card" in before[0]
    # and no pick of theirs is ever told, neither printed nor in the last actions
    screen = before[-1]
    assert "Player 1 (random): Draft" not in screen
    assert screen.count("Player 1 (random) drafted a card") >= len(picks)
    assert "You: Draft" in screen  # your own picks are yours to see


def test_hot_seat_players_each_see_only_their_own_secrets(tmp_path):
    """(The second prompt hands the screen over to Player 2: `Human.hand_over_to`.)"""
    match, before = _prompts(tmp_path, ["human", "human"], ["Player 1", "Player 2"], quit_at=3)
    (actor, step), = _decisions_of(match)
    assert actor == 0 and step["__type__"] == "ChooseMage"
    assert before[1][len(before[0]):].rstrip().endswith("Player 2: your turn. Everyone else, look away.")
    second_screen = before[2][len(before[1]):]  # what Player 2 is shown
    assert step["mage_name"] not in second_screen
    assert "Last: Player 1 chose a mage" in second_screen


def test_a_spectator_sees_every_decision(tmp_path):
    match = Match.new(0, ["random", "random"], GameConfig("draft"), fmt="game",
                      names=["Player 1 (random)", "Player 2 (random)"])
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    PromptSession(match, tmp_path / "watched.amigos", console).run()
    text = out.getvalue()
    decisions = _decisions_of(match)
    mages = [(actor, step["mage_name"]) for actor, step in decisions if step["__type__"] == "ChooseMage"]
    picks = [(actor, step["artifact_name"]) for actor, step in decisions if step["__type__"] == "DraftPick"]
    # the watched game had a mage chosen by each player and a draft by both (else nothing is checked)
    assert sorted(actor for actor, _ in mages) == [0, 1], decisions
    for player in (0, 1):
        assert sum(actor == player for actor, _ in picks) >= 6, picks
    for actor, mage in mages:
        assert f"Player {actor + 1} (random): Choose {mage} as mage" in text
    for actor, artifact in picks:
        assert f"Player {actor + 1} (random): Draft {artifact}" in text


# -- the real command in a pseudo-terminal --------------------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\r")
PROMPT = re.compile(r"(Your choice|Which way): $")
# Seed 5 makes a short game when "you" always answer 1 (about 140 decisions); seed 11 takes ~1750 and
# over half a minute in a terminal, too slow for the test suite.
PTY_SEED = 5


def _amigos() -> list[str]:
    script = Path(sys.executable).parent / "amigos"
    return [str(script)] if script.exists() else [sys.executable, "-m", "amigos_cli"]


def _spawn_in_pty(args, cwd=None):
    """``amigos ARGS`` started in a 100x30 pseudo-terminal: (the process, the terminal's master end)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="30")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(_amigos() + list(args), stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                            close_fds=True, start_new_session=True)
    os.close(slave)
    return proc, master


def _reap(proc, master) -> int:
    """Wait for ``proc`` (killed if it is still running), close the terminal; its exit code."""
    if proc.poll() is None:
        proc.kill()
    code = proc.wait(timeout=30)
    os.close(master)
    return code


def run_in_pty(args, answer, timeout=120, cwd=None):
    """Run ``amigos ARGS`` in a 100x30 pseudo-terminal, answering each prompt with ``answer(kind, n)``;
    returns (exit code, output without escape codes, number of prompts)."""
    proc, master = _spawn_in_pty(args, cwd)
    raw, start, prompts = b"", 0, 0
    deadline = time.monotonic() + timeout
    try:
        while True:
            if time.monotonic() > deadline:
                raise AssertionError(f"amigos {' '.join(args)} did not finish in {timeout} s; last output:\n"
                                     + ANSI.sub("", raw[-3000:].decode("utf-8", "replace")))
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            raw += chunk
            m = PROMPT.search(ANSI.sub("", raw[start:].decode("utf-8", "replace")))
            if m:
                start = len(raw)
                os.write(master, (answer(m.group(1), prompts) + "\n").encode())
                prompts += 1
        proc.wait(timeout=30)
    finally:
        code = _reap(proc, master)
    return code, ANSI.sub("", raw.decode("utf-8", "replace")), prompts


def _show(path) -> dict:
    proc = subprocess.run(_amigos() + ["show", str(path), "--json"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _ended(text: str) -> bool:
    return re.search(r"\b(wins|You win)\b", text) is not None or "Shared victory" in text


@pytest.mark.slow  # in a pseudo-terminal
def test_whole_game_in_a_terminal(tmp_path):
    path = tmp_path / "F.amigos"
    code, text, prompts = run_in_pty(["play", "--plain", "--p1", "human", "--p2", "random", "--seed", str(PTY_SEED),
                                      "--save", str(path)], lambda kind, n: "1")
    assert code == 0, text[-3000:]
    assert prompts > 10
    assert "Your choice:" in text and "Traceback" not in text
    assert _ended(text), text[-3000:]
    assert "End of game 1" in text
    data = _show(path)
    assert data["status"] == "finished" and data["result"] is not None
    assert data["players"][0]["spec"] == "human"


@pytest.mark.slow  # in a pseudo-terminal
def test_quit_in_a_terminal_then_resume_to_the_end(tmp_path):
    path = tmp_path / "F.amigos"
    name = path.name  # (named in the working folder: the terminal folds a long path, even mid-word)
    code, text, prompts = run_in_pty(["play", "--plain", "--p1", "human", "--p2", "random", "--seed", str(PTY_SEED),
                                      "--save", name], lambda kind, n: "q", cwd=tmp_path)
    assert code == 0, text[-3000:]
    assert prompts == 1
    assert f"amigos resume {name}" in " ".join(text.split())
    assert not _ended(text)
    assert _show(path)["status"] == "unfinished"

    code, text, prompts = run_in_pty(["resume", "--plain", name], lambda kind, n: "1", cwd=tmp_path)
    assert code == 0, text[-3000:]
    assert text.lstrip().startswith(f"Resuming {name}")
    assert prompts > 10 and _ended(text), text[-3000:]
    data = _show(path)
    assert data["status"] == "finished"
    # a finished match does not resume
    code, text, _ = run_in_pty(["resume", "--plain", name], lambda kind, n: "q", timeout=60, cwd=tmp_path)
    assert code == 2 and "finished" in text


# -- the usability audit's findings (/tmp/ux/REPORT.md, 2024): each test failed before its fix ------------------

def test_undo_rewinds_the_last_moves(tmp_path):
    """After ``u`` the log of the last moves is the one of the position undone to, not the undone moves."""
    seen = {}  # number of decisions -> your log at that prompt
    plan = {}

    def answer(session, prompt):
        if prompt != "Your choice: ":
            return "1"
        decisions = _decisions(session)
        log = list(session.seen[0])
        if "undone_at" in plan:
            plan["after"] = (len(decisions), log)
            return "q"
        seen.setdefault(len(decisions), log)
        mine = [i for i, d in enumerate(decisions) if d[0] == 0]
        if len(mine) >= 3 and decisions[-1][0] == 1:  # the AI has replied to our third decision
            plan["undone_at"] = len(decisions)
            return "u"
        return "1"

    session, out = _session(tmp_path, answer)
    with pytest.raises(QuitRequested):
        session.run()
    count, log = plan["after"]
    assert count < plan["undone_at"]
    assert log == seen[count], "the log is back where it was at that decision"
    assert len(log) == count
    after = " ".join(out.getvalue().split("Undone.")[1].split())  # the screen shown after the undo
    assert "Last: " + " / ".join(seen[count][-3:]) + " " in after


def test_resume_shows_the_last_moves_as_the_person_knew_them(tmp_path):
    """A resumed session's logs are rebuilt from the file: the person's (with the rival's secret draft
    picks hidden) and the full one."""
    match, before = _prompts(tmp_path, ["random", "human"], ["Player 1 (random)", "You"], quit_at=6, variant="draft")
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    resumed = PromptSession(load(tmp_path / "secret.amigos"), tmp_path / "secret.amigos", console,
                      ask=lambda prompt: "q")
    decisions = _decisions_of(match)
    assert len(resumed.seen[1]) == len(resumed.log) == len(decisions)
    picks = 0
    for (actor, step), line, full in zip(decisions, resumed.seen[1], resumed.log):
        if step["__type__"] == "DraftPick":
            picks += 1
            who = "Player 1 (random)" if actor == 0 else "You"
            assert full == f"{who}: Draft {step['artifact_name']}"
            assert line == (f"{who} drafted a card" if actor == 0 else full)
    assert picks >= 4
    with pytest.raises(QuitRequested):
        resumed.run()
    screen = " ".join(out.getvalue().split())
    assert "Last: " + " / ".join(resumed.seen[1][-3:]) in screen
    assert "Player 1 (random): Draft" not in screen and "Player 1 (random): Choose" not in screen
    # the screen before quitting showed the same last moves
    assert " / ".join(resumed.seen[1][-3:]) in " ".join(before[-1].split())


def test_the_draft_screen_lists_your_drafted_cards_only():
    state = G.draft_position()
    viewer = state.current_player()
    mine = [c.name for e, c in enumerate(state.cards[:state.n_art])
            if state.loc[e] == amigos.codes.DECK and state.owner[e] == viewer]
    theirs = [c.name for e, c in enumerate(state.cards[:state.n_art])
              if state.loc[e] == amigos.codes.DECK and state.owner[e] != viewer]
    assert mine and theirs
    text = G.render(board(state, viewer, G.NAMES, [], "Game 1"))
    assert "Your drafted cards: " + ", ".join(mine) in text
    for name in theirs:
        assert name not in text


def _choose_first_position(seed: int = 7):
    first = amigos.new_game(seed)
    artifacts = [c.id for c in first.cards[:first.n_art]]
    state = amigos.next_game(seed + 1, [amigos.cards.MAGES[0].id, amigos.cards.MAGES[1].id], artifacts, 0, True)
    assert state.phase == amigos.codes.SETUP_CHOOSE_FIRST
    return state


def test_nobody_is_first_player_before_the_choice_and_piles_carry_names():
    state = _choose_first_position()
    text = G.render(board(state, state.current_player(), G.NAMES, [], "Game 2 of a best of 3"))
    assert "[first player]" not in text
    assert "You took: nothing yet" in text and "AI (random) took: nothing yet" in text
    assert "taken by player" not in text
    state.apply(state.legal_actions()[0])
    text = G.render(board(state, state.current_player(), G.NAMES, [], "Game 2 of a best of 3"))
    assert text.count("[first player]") == 1


def test_card_text_names_every_match(position):
    state, groups, single, _ = position
    human, state, ask, out = _human(["c dragon", "c", str(single)], state.clone())
    human.select(state)
    text = " ".join(out.getvalue().split())
    dragons = [c.name for c in amigos.cards.CARDS if "dragon" in c.name.lower() and c.set in state.sets]
    assert len(dragons) > 4
    for name in dragons:
        assert name in text
    assert f"(and {len(dragons) - 4} more: " in text and "be more specific" in text
    assert "Type c and a card's name" in text and "'c' is not a choice" not in text


def test_card_text_finds_only_the_game_s_cards(position):
    """``c prism`` in a base game tells Prism, not the expansion's Prismatic Dragon (issue 54)."""
    state, groups, single, _ = position
    assert state.sets == ("base",)
    human, state, ask, out = _human(["c prism", "c prismatic", str(single)], state.clone())
    human.select(state)
    text = " ".join(out.getvalue().split())
    assert "Prism: " in text and "Prismatic Dragon" not in text and "No card named 'prismatic'" in text


def test_card_text_puts_an_exact_name_first(position):
    state, groups, single, _ = position
    human, state, ask, out = _human(["c hawk", str(single)], state.clone())
    human.select(state)
    assert "Hawk: " in out.getvalue()


def test_one_choice_is_not_a_range(position):
    state, groups, single, _ = position
    human, state, ask, out = _human([], state.clone())
    assert human._interpret(state, groups[:1], "2") is None
    text = " ".join(out.getvalue().split())
    assert "from 1 to 1" not in text and "'2' is not a choice: type 1, the only choice here" in text


# -- the full screen, as a terminal runs it ----------------------------------------------------------------

def _screen_session(args, keys, wait_for="Your choice", timeout=90):
    """Run ``amigos ARGS`` in a 100x30 pseudo-terminal (so that it opens the full screen); once
    ``wait_for`` shows, send each of ``keys`` (bytes) half a second apart.  (exit code, plain output)."""
    proc, master = _spawn_in_pty(args)
    raw = b""
    pending = list(keys)
    deadline = time.monotonic() + timeout
    next_key = None
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 1 << 16)
                except OSError:
                    break
                if not chunk:
                    break
                raw += chunk
            elif proc.poll() is not None:
                break
            if next_key is None and wait_for in ANSI.sub("", raw.decode("utf-8", "replace")):
                next_key = time.monotonic() + 1.0
            if next_key is not None and pending and time.monotonic() > next_key:
                os.write(master, pending.pop(0))
                next_key = time.monotonic() + 0.5
        proc.wait(timeout=30)
    finally:
        code = _reap(proc, master)
    return code, ANSI.sub("", raw.decode("utf-8", "replace"))


@pytest.mark.slow  # in a pseudo-terminal
def test_the_full_screen_in_a_terminal_saves_quits_and_resumes(tmp_path):
    path = tmp_path / "screen.amigos"
    code, text = _screen_session(["play", "--p2", "random", "--seed", str(PTY_SEED), "--save", str(path)],
                                 [b"\r", b"\r", b"\r", b"q"])
    assert code == 0, text[-2000:]
    assert re.search(rf"Resume with: (\S*/)?amigos resume {re.escape(str(path))}", " ".join(text.split()))
    assert _show(path)["status"] == "unfinished"
    first = [d for g in load(path).record["games"] for d in g["decisions"]]
    assert sum(1 for d in first if d[0] == 0) >= 2
    code, text = _screen_session(["resume", str(path)], [b"\r", b"\r", b"\x03"])  # Enter (perhaps a way to pay too), Ctrl-C
    assert code == 130, text[-2000:]
    assert "Resume with" in text
    again = [d for g in load(path).record["games"] for d in g["decisions"]]
    assert len(again) > len(first) and again[:len(first)] == first


def test_an_action_of_hundreds_of_ways_is_asked_as_a_payment_then_a_gain():
    from amigos_cli.views.choices import vectors
    state, groups, use = _transmutation()
    # 35 payments of 3 essences, 20 gains of 3 non-Gold essences, less the 20 that gain what they pay
    assert len(groups[use - 1]) == 680
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    answers = [str(use), "pay 3 gold", "0", "pay 2 elan 1 death", "zzz", "gain 3 calm"]
    ask = Script(answers)
    human = Human(0, G.NAMES, console, ask=ask)
    action = human.select(state)
    assert vectors(action) == ((2, 0, 0, 1, 0), (0, 0, 3, 0, 0))
    assert ask.prompts == ["Your choice: "] + ["Which way: "] * 5
    text = out.getvalue()
    flat = " ".join(text.split())
    assert "Use Transmutation (turn and pay 3 essences" in flat and "what do you pay? (680 ways in all)" in flat
    assert "of your choice), paying 3 gold: what do you gain?" in flat
    assert "0. back to the payments" in text
    assert "'zzz' is not a choice" not in text
    assert "its essences (2E 1G), or 0 to go back to the payments" in " ".join(text.split())
    assert len(text.splitlines()) < 200  # not the 700 ways, one per line
