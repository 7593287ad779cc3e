"""*Lux et Tenebrae* outside the engine: ``--expansion lux`` on ``amigos play``, ``match`` and
``tournament``; the ``expansions`` key of match files (recorded, replayed, validated; a file without it is
a base game) and of ``tournament.json``; ``show`` and ``replay`` naming the expansion; the card digest
of each game; card statistics with the new cards and the scrolls; the scrolls on the board and in the
card panel; the new decisions (Bank, Illusion's and Dark Cathedral's victory-check Reacts, Vial of
Light's Gain, the Shield scroll) in words and chosen by a person at the prompt and on the full screen.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import msgpack
import pytest
from rich.console import Console

import amigos
from ai.agents import make_agent
from amigos import actions as A
from amigos import cards as C
from amigos.codes import IN_PLAY
from amigos.config import GameConfig
from amigos.rng import derive_seed
from amigos_cli.human import Human
from amigos_cli.views.board import board
from amigos_cli.views.choices import group_text, variant_text
from matches import cardstats as CS
from matches import report as R
from matches import tournament as T
from matches.match import Match, card_digest, play
from matches.record import MatchFileError, load, pack, save
from tests.cli.test_match_cli import assert_one_line_error, run_main
from tests.helpers import DATA, ROOT

LUX = ("lux",)
SCROLLS = {c.id for c in C.CARDS if c.kind == C.SCROLL}
ENV = dict(os.environ, COLUMNS="200", NO_COLOR="1", PYTHONPATH=str(ROOT))


@pytest.fixture
def folder():
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    path = Path(tempfile.mkdtemp(prefix="amigos-lux-", dir=base))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def played(seed: int, specs: list[str], fmt: str = "match", expansions=LUX) -> Match:
    m = Match.new(seed, specs, GameConfig.parse(expansions=expansions), fmt=fmt)
    play(m, [make_agent(s, seed=derive_seed(seed, "seat", i)) for i, s in enumerate(specs)])
    return m


@pytest.fixture(scope="module")
def lux_match() -> Match:
    """A finished best of three with the expansion that goes to at least two games."""
    for seed in range(1, 20):
        m = played(seed, ["greedy", "random"])
        if len(m.record["games"]) >= 2:
            return m
    raise AssertionError("no lux match of two games or more in 19 seeds")


def render(renderable, width: int = 120) -> str:
    console = Console(width=width, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.file.getvalue()


# -- match files -------------------------------------------------------------------------------------------

def test_a_lux_match_file_records_its_expansions_and_replays_with_them(lux_match, tmp_path):
    record = lux_match.record
    assert record["expansions"] == ["lux"] and lux_match.expansions == LUX
    assert record["card_digest"] == card_digest(LUX) != card_digest()
    path = tmp_path / "lux.amigos"
    save(lux_match, path)
    raw = msgpack.unpackb(path.read_bytes(), raw=False)
    assert raw["expansions"] == ["lux"]
    loaded = load(path)
    assert loaded.expansions == LUX and loaded.record["result"] == record["result"]
    assert [g["result"] for g in loaded.record["games"]] == [g["result"] for g in record["games"]]
    # Every game of the match is dealt with the expansion: games 2 and 3 too (`next_game`).
    assert loaded.state.sets == ("base", "lux")
    assert loaded.previous_state is not None and loaded.previous_state.sets == ("base", "lux")
    kinds = Counter(c.kind for c in loaded.state.cards)
    assert kinds[C.SCROLL] == 8 and kinds[C.MAGIC_ITEM] == 10 and kinds[C.MONUMENT] == 7


def test_the_expansion_is_part_of_what_a_file_replays(lux_match, tmp_path):
    """A lux file whose key is taken away is a base game's header over a lux game's decisions: it does
    not replay, and says so in one line."""
    record = dict(lux_match.record)
    del record["expansions"]
    path = tmp_path / "stripped.amigos"
    path.write_bytes(pack(record))
    with pytest.raises(MatchFileError) as info:
        load(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_a_base_file_has_no_expansions_key_and_still_loads():
    old = msgpack.unpackb((DATA / "match_v2.amigos").read_bytes(), raw=False)
    assert "expansions" not in old
    match = load(DATA / "match_v2.amigos")  # written before expansions: still loads, a base game
    assert match.expansions == () and match.state.sets == ("base",)
    new = Match.new(1, ["random", "random"], fmt="game")
    assert "expansions" not in new.record
    assert new.record["card_digest"] == card_digest() != card_digest(("lux",))


@pytest.mark.parametrize("value,fragment", [
    (["chaos"], "unknown expansion 'chaos'"),
    ("lux", "'expansions' must be a list"),
    (["lux", "lux"], "names an expansion twice"),
    ([3], "'expansions' must be text"),
    (["x" * 1500], "'expansions' must be text"),
    (["lux"] * 9, "'expansions' must be a list of at most"),
    ([["lux"]], "'expansions' must be text"),
    (None, "'expansions' must be a list"),
])
def test_hostile_expansions_are_one_line_and_the_file_untouched(value, fragment, lux_match, tmp_path, capsys):
    record = dict(lux_match.record, expansions=value)
    path = tmp_path / "bad.amigos"
    path.write_bytes(pack(record))
    before = path.read_bytes(), path.stat().st_mtime_ns
    with pytest.raises(MatchFileError) as info:
        load(path)
    assert fragment in str(info.value) and "\n" not in str(info.value)
    code, out, err = run_main(["show", str(path)], capsys)
    assert_one_line_error(code, err, fragment)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_match_new_refuses_an_unknown_expansion():
    with pytest.raises(amigos.AmigosError, match="unknown expansion"):
        Match.new(1, ["random", "random"], GameConfig.parse(expansions=("chaos",)))


# -- the command line ------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["play", "match"])
def test_play_and_match_with_the_expansion(command, folder, capsys):
    path = folder / "lux.amigos"
    code, out, err = run_main([command, "--p1", "random", "--p2", "random", "--seed", "4", "--expansion", "lux",
                               "--save", str(path)], capsys)
    assert code == 0, err
    assert "with Lux et Tenebrae" in out
    match = load(path)
    assert match.record["expansions"] == ["lux"] and match.is_over()
    assert match.state.sets == ("base", "lux")


def test_the_expansion_may_be_named_in_full(folder, capsys):
    path = folder / "full.amigos"
    code, _, err = run_main(["play", "--p1", "random", "--p2", "random", "--seed", "4", "--expansion",
                             "Lux-et-Tenebrae", "--save", str(path)], capsys)
    assert code == 0, err
    assert load(path).expansions == LUX


def test_without_the_option_it_is_the_base_game(folder, capsys):
    path = folder / "base.amigos"
    code, _, err = run_main(["play", "--p1", "random", "--p2", "random", "--seed", "4", "--save", str(path)], capsys)
    assert code == 0, err
    match = load(path)
    assert "expansions" not in match.record and match.state.sets == ("base",)
    code, out, _ = run_main(["show", str(path)], capsys)
    assert code == 0 and "Expansion" not in out


@pytest.mark.parametrize("command", ["play", "match", "tournament"])
def test_a_bad_expansion_is_one_line_exit_2_and_writes_nothing(command, folder, capsys):
    if command == "tournament":
        args = ["tournament", "--agent", "random", "--agent", "greedy", "--games", "2",
                "--out", str(folder / "t"), "--expansion", "foo"]
    else:
        args = [command, "--p1", "random", "--p2", "random", "--seed", "1", "--expansion", "foo",
                "--save", str(folder / "x.amigos")]
    code, out, err = run_main(args, capsys)
    assert_one_line_error(code, err, "unknown expansion 'foo'", "lux")
    assert os.listdir(folder) == []


def test_a_bad_expansion_in_a_real_process(folder):
    result = subprocess.run([sys.executable, "-m", "amigos_cli", "play", "--p1", "random", "--p2", "random",
                             "--expansion", "foo", "--save", "x.amigos"], cwd=folder, env=ENV,
                            capture_output=True, text=True, timeout=60)
    assert_one_line_error(result.returncode, result.stderr, "unknown expansion 'foo'")
    assert os.listdir(folder) == []


def test_show_and_replay_name_the_expansion(lux_match, folder, capsys):
    path = folder / "lux.amigos"
    save(lux_match, path)
    code, out, err = run_main(["show", str(path)], capsys)
    assert code == 0, err
    assert "Expansion: Lux et Tenebrae" in out
    code, out, err = run_main(["show", str(path), "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["expansions"] == ["lux"]
    code, out, err = run_main(["replay", str(path), "--plain", "--game", "1", "--to", "0"], capsys)
    assert code == 0, err
    assert "Expansion: Lux et Tenebrae" in out
    assert "Scrolls: Augury, Destruction, Disjunction, Projection, Revivify, Shield, Transform, Vitality" in \
        " ".join(out.split())


# -- tournaments ---------------------------------------------------------------------------------------------

def test_tournament_json_records_the_expansion_and_every_game_plays_it(tmp_path):
    out = tmp_path / "t"
    T.run(out, T.TournamentSpec(["random", "greedy"], 2, 3, config=GameConfig(expansions=LUX)))
    settings = json.loads((out / T.MANIFEST).read_text())
    assert settings["expansions"] == ["lux"]
    for job in settings["schedule"]:
        match = load(T.game_path(out, job, settings))
        assert match.record["expansions"] == ["lux"] and match.state.sets == ("base", "lux")
    R.write_summary(out)
    assert json.loads((out / "summary.json").read_text())["expansions"] == ["lux"]
    # Resuming keeps them: the same settings resume; the base game's are another tournament.
    assert T.run(out, T.TournamentSpec(["random", "greedy"], 2, 3, config=GameConfig(expansions=LUX)), resume=True) == []
    with pytest.raises(T.TournamentError, match="different tournament"):
        T.run(out, T.TournamentSpec(["random", "greedy"], 2, 3), resume=True)


def test_a_base_tournament_manifest_has_no_expansions_key():
    assert "expansions" not in T.manifest(T.TournamentSpec(["random", "greedy"], 2, 1))
    assert T.manifest(T.TournamentSpec(["random", "greedy"], 2, 1, config=GameConfig(expansions=LUX)))["expansions"] == ["lux"]
    with pytest.raises(amigos.SetupError, match="unknown expansion"):
        GameConfig.parse(expansions=("chaos",))


def test_a_game_file_of_the_base_game_does_not_count_in_a_lux_tournament(tmp_path):
    out = tmp_path / "t"
    T.run(out, T.TournamentSpec(["random", "random"], 2, 3, config=GameConfig(expansions=LUX)))
    settings = json.loads((out / T.MANIFEST).read_text())
    job = settings["schedule"][0]
    base = Match.new(job["seed"], ["random", "random"], fmt="game")
    play(base, [make_agent("random", seed=1), make_agent("random", seed=2)])
    save(base, T.game_path(out, job, settings))
    _, problem = T.scheduled_match(T.game_path(out, job, settings), job, settings)
    assert problem is not None and "expansions" in problem


def _scrolls_claimed(match: Match) -> list[list[set[str]]]:
    """Per game, per player: the scrolls held at some point, from a replay decision by decision."""
    record = match.record
    assert record["best_of"] == 1  # (single games here)
    again = Match.new(record["seed"], [p["spec"] for p in record["players"]], match.config, fmt="game")
    held: list[set[str]] = [set(), set()]

    def look(state) -> None:
        for e, c in enumerate(state.cards):
            if c.kind == C.SCROLL and state.loc[e] == IN_PLAY:
                held[state.owner[e]].add(c.id)

    for d in record["games"][0]["decisions"]:
        again.to_act()
        look(again.state)
        again.decide(amigos.action_from_json(again.state, d[1]), stamp=False)
        look(again.state)
    return [held]


def test_card_stats_count_the_new_cards_and_every_scroll_claimed(tmp_path):
    out = tmp_path / "t"
    T.run(out, T.TournamentSpec(["random", "random"], 6, 11, config=GameConfig(expansions=LUX)))
    rows = CS.card_stats(out)
    by_id = {r["card"]: r for r in rows}
    lux_ids = {c.id for c in C.CARDS if c.set == "lux"}
    assert any(r["card"] in lux_ids and r["drafted"]["games"] for r in rows), "no expansion artifact counted"
    settings = json.loads((out / T.MANIFEST).read_text())
    expected: Counter = Counter()
    for job in settings["schedule"]:
        match = load(T.game_path(out, job, settings))
        for per_player in _scrolls_claimed(match):
            for held in per_player:
                expected.update(held)
    assert sum(expected.values()) > 0, "no scroll claimed in six random games"
    for cid in SCROLLS:
        counted = by_id[cid]["claimed"]["games"] if cid in by_id else 0
        assert counted == expected[cid], cid
        if cid in by_id:
            assert by_id[cid]["drafted"]["games"] == by_id[cid]["played"]["games"] == 0
    assert sum(r["drafted"]["games"] for r in rows) == 16 * len(settings["schedule"])


def test_cli_tournament_with_the_expansion_and_card_stats(tmp_path):
    out = tmp_path / "t"
    env = dict(os.environ, COLUMNS="200", TERM="dumb")
    proc = subprocess.run([sys.executable, "-m", "amigos_cli", "tournament", "--agent", "random", "--agent", "greedy",
                           "--games", "2", "--expansion", "lux", "--card-stats", "--out", str(out)],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads((out / T.MANIFEST).read_text())["expansions"] == ["lux"]
    assert "--expansion lux" in " ".join(proc.stdout.split())  # in the resume command
    stats = CS.card_stats(out)
    assert stats and all(r["name"] in proc.stdout for r in stats)
    assert any(C.BY_ID[r["card"]].set == "lux" for r in stats)


# -- the board and the card panel ----------------------------------------------------------------------------

def _claim_a_scroll(seed: int = 5) -> tuple[amigos.GameState, int, int]:
    """A lux game played until a player has claimed a scroll with Inscription: (state, scroll, owner)."""
    state = amigos.new_game(seed, expansions=LUX)
    rng = random.Random(seed)
    while not state.is_terminal():
        for e, c in enumerate(state.cards):
            if c.kind == C.SCROLL and state.loc[e] == IN_PLAY:
                return state, e, state.owner[e]
        legal = state.legal_actions()
        claims = [a for a in legal if A.kind(a) == A.POWER and state.cards[A.subject(a)].id == "inscription"]
        state.apply(claims[0] if claims else rng.choice(legal))
    raise AssertionError("no scroll claimed")


def test_the_board_shows_the_scrolls_in_the_centre_and_the_claimed_ones():
    from amigos_cli.tui.board import middle, tableau
    start = amigos.new_game(3, expansions=LUX)
    text = " ".join(render(board(start, 0, ["Ann", "Bob"])).split())
    names = sorted(c.name for c in start.cards if c.kind == C.SCROLL)
    assert "Scrolls: " + ", ".join(names) in text
    assert "Scrolls:" not in render(board(amigos.new_game(3), 0, ["Ann", "Bob"]))
    state, scroll, owner = _claim_a_scroll()
    name = state.cards[scroll].name
    for viewer in (0, 1):
        text = render(board(state, viewer, ["Ann", "Bob"]))
        centre_line = next(line for line in text.splitlines() if line.startswith("Scrolls:"))
        assert name not in centre_line and "1 held" in centre_line
        assert f"scrolls: {name}" in text  # the owner's line, seen by both players (scrolls are public)
    panel = " ".join(render(tableau(state, owner, owner, ["Ann", "Bob"])).split())
    assert f"scrolls: {name}" in panel
    assert f"scrolls: {name}" not in render(tableau(state, 1 - owner, owner, ["Ann", "Bob"]))
    assert "Scrolls:" in render(middle(state, ["Ann", "Bob"], owner))


def test_the_card_panel_describes_scrolls_and_the_new_cards():
    from amigos_cli.tui.cards import card_text, on_table
    from amigos_cli.views.seen import Seen
    state = amigos.new_game(3, expansions=LUX)
    seen = {card for _, card in on_table(Seen.of(state, 0))}
    assert SCROLLS <= seen
    for c in state.cards:
        if c.set == "lux":
            text = card_text(c.id, 70).plain
            assert c.name in text and "Lux et Tenebrae" in text
    text = " ".join(card_text("shield", 70).plain.split())
    assert "React to a Life loss" in text and "claimed only with Inscription" in text


# -- the new decisions ---------------------------------------------------------------------------------------

def _kind(state, group) -> str | None:
    a = group[0]
    if A.kind(a) == A.BANK:
        return "bank"
    if A.other(a) is not None:
        return "illusion" if state.cards[A.subject(a)].id == "illusion" else "cathedral"
    if A.kind(a) == A.GAIN and state.cards[A.subject(a)].id == "vial_of_light":
        return "vial"
    if A.kind(a) == A.LL_REACT and state.cards[A.subject(a)].id == "shield":
        return "shield"
    return None


KINDS = ("bank", "illusion", "cathedral", "vial", "shield")


def _find(kind: str) -> tuple[Match, int, int]:
    """A lux game (random moves, seat by seat) stopped where a player is to choose, among others, a
    decision of ``kind``: (match with that player as the person, player, index of the group)."""
    for seed in range(400):
        specs = ["random", "random"]
        m = Match.new(seed, specs, GameConfig.parse(expansions=LUX), fmt="game")
        rng = random.Random(seed)
        moves = []
        while not m.is_over():
            p = m.to_act()
            if m.is_over():
                break
            groups = m.state.legal_groups()
            hits = [i for i, g in enumerate(groups) if _kind(m.state, g) == kind]
            if hits:
                specs[p] = "human"
                again = Match.new(seed, specs, GameConfig.parse(expansions=LUX), fmt="game",
                                  names=["You" if s == "human" else "AI (random)" for s in specs])
                for action in moves:
                    again.to_act()
                    again.decide(action)
                again.to_act()
                return again, p, hits[0]
            action = rng.choice(m.state.legal_actions())
            moves.append(action)
            m.decide(action)
    raise AssertionError(f"no {kind} decision in 400 random lux games")


@pytest.fixture(scope="module")
def positions() -> dict:
    return {kind: _find(kind) for kind in KINDS}


WORDS = {"bank": "on Infernal Engine", "illusion": "Turn Illusion to count as a", "cathedral": "Use Dark Cathedral",
         "vial": "from Vial of Light", "shield": "React with Shield"}
TYPES = {"bank": "Bank", "illusion": "VictoryReact", "cathedral": "VictoryReact", "vial": "Gain",
         "shield": "LifeLossReact"}


@pytest.mark.parametrize("kind", KINDS)
def test_the_new_decisions_read_as_words(kind, positions):
    match, p, index = positions[kind]
    state = match.state
    group = state.legal_groups()[index]
    text = group_text(state, group)
    assert WORDS[kind] in text, text
    assert "paying" not in text or len(group) == 1
    for a in group:
        assert variant_text(state, a).strip()
    if kind == "vial":
        assert text.startswith("Gain") and all(variant_text(state, a).startswith("gain ") for a in group)
    if kind == "bank":
        assert all(group_text(state, [a]) for a in (g[0] for g in state.legal_groups()))
        zero = [g for g in state.legal_groups() if A.kind(g[0]) == A.BANK and A.banked(g[0])[1] == 0]
        assert zero and "Put no" in group_text(state, zero[0])


@pytest.mark.parametrize("kind", KINDS)
def test_a_person_at_the_prompt_chooses_the_new_decisions(kind, positions):
    match, p, index = positions[kind]
    state = match.state
    group = state.legal_groups()[index]
    answers = iter([str(index + 1), "1"])
    console = Console(file=io.StringIO(), width=120, color_system=None)
    human = Human(p, ["You", "AI"] if p == 0 else ["AI", "You"], console, ask=lambda prompt: next(answers))
    chosen = human.select(state)
    assert chosen in group
    menu = console.file.getvalue()
    assert f"{index + 1:>3}. {group_text(state, group)}" in menu
    state.clone().apply(chosen)


async def _until(pilot, condition, timeout: float = 60.0) -> None:
    import time
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the screen")
        await pilot.pause(0.02)


@pytest.mark.parametrize("kind", KINDS)
def test_a_person_on_the_full_screen_chooses_the_new_decisions(kind, positions, tmp_path):
    from amigos_cli.tui.game import GameApp
    from amigos_cli.tui.picker import VariantPicker
    match, p, index = positions[kind]
    made = sum(len(g["decisions"]) for g in match.record["games"])
    path = tmp_path / "screen.amigos"
    group = match.state.legal_groups()[index]

    async def run() -> GameApp:
        app = GameApp(match, path)
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.asking is not None)
            texts = [str(o.prompt) for o in app.query_one("#choices").options]
            assert any(group_text(app.asking[1], group) in t for t in texts)
            if len(app.groups) > 1 or len(group) == 1:
                for digit in str(index + 1):
                    await pilot.press(digit)
                await pilot.press("enter")
            # (a single choice of several ways opens its picker at once)
            if len(group) > 1:
                await _until(pilot, lambda: isinstance(app.screen, VariantPicker))
                await pilot.press("enter")
            await _until(pilot, lambda: sum(len(g["decisions"]) for g in app.session.match.record["games"]) > made)
            await pilot.press("q")
            await _until(pilot, lambda: app.return_value is not None)
        return app

    asyncio.run(run())
    decisions = [d for g in load(path).record["games"] for d in g["decisions"]]
    assert len(decisions) > made
    chosen = decisions[made]
    assert chosen[0] == p and chosen[1]["__type__"] == TYPES[kind]
