"""``amigos play --players N`` (issue 38): seats --p1 to --p5, the AI in the seats not named, a best of
three refused for more than two, and several people at one screen handing it over so that each sees
only their own hand."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest
from rich.console import Console

from amigos.config import GameConfig
from amigos_cli.commands.match import seat_names
from amigos_cli.session import PromptSession
from matches.match import Match
from matches.record import load
from matches.session import QuitRequested

AMIGOS = [sys.executable, "-m", "amigos_cli"]


def _run(args: list[str], tmp_path, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(AMIGOS + args, capture_output=True, text=True, input=stdin, cwd=tmp_path, timeout=300,
                          env=dict(os.environ, COLUMNS="120"))


def test_a_game_of_agents_at_four_seats_plays_to_the_end_and_saves(tmp_path):
    done = _run(["play", "--players", "4", "--p1", "random", "--p2", "greedy", "--p3", "random", "--p4",
                 "expectimax:depth=1", "--seed", "3", "--save", "t.amigos", "--plain"], tmp_path)
    assert done.returncode == 0, done.stderr
    match = load(tmp_path / "t.amigos")
    assert match.is_over() and [p["spec"] for p in match.record["players"]] == \
        ["random", "greedy", "random", "expectimax:depth=1"]
    assert len(match.record["result"]["score"]) == 4
    shown = _run(["show", "t.amigos"], tmp_path)
    assert shown.returncode == 0 and "Player 4" in shown.stdout


def test_seats_not_named_are_the_ai_and_a_seat_beyond_the_table_is_refused(tmp_path):
    assert seat_names(["human", "mcts:time=1.0", "mcts:time=1.0"]) == \
        ["You", "AI 2 (mcts:time=1.0)", "AI 3 (mcts:time=1.0)"]
    assert seat_names(["human", "greedy"]) == ["You", "AI (greedy)"]
    assert seat_names(["human", "human", "random"]) == ["Player 1", "Player 2", "AI (random)"]
    assert seat_names(["human", "human", "random", "greedy"]) == ["Player 1", "Player 2", "AI 3 (random)",
                                                                 "AI 4 (greedy)"]
    assert seat_names(["human", "human", "random"], ["1=Ann", "2=Bob"]) == ["Ann", "Bob", "AI (random)"]
    for args, words in ((["play", "--players", "2", "--p3", "random"], "--p3 names a seat beyond --players 2: give "
                                                                       "--players 3"),
                        (["play", "--players", "5"], "5 with Lux"),
                        (["play", "--players", "5", "--variant", "first-game", "--expansion", "lux"],
                         "at most 4 players"),
                        (["match", "--players", "3"], "a best-of-three match (with the redraft) is for two")):
        refused = _run(args + ["--save", "x.amigos"], tmp_path)
        assert refused.returncode == 2 and words in refused.stderr and "Traceback" not in refused.stderr, refused
        assert not (tmp_path / "x.amigos").exists()


def test_players_named_on_the_command_line_are_named_in_the_file_and_a_bad_name_is_refused(tmp_path):
    """``--name N=NAME`` names a seat of ``play`` (as of a table); a seat not at the game, a seat named
    twice or two seats of one name are refused in one line, with no file made."""
    named = _run(["play", "--p1", "random", "--p2", "random", "--name", "1=Ann", "--name", "2=Bob",
                  "--seed", "4", "--save", "n.amigos"], tmp_path)
    assert named.returncode == 0, named.stderr
    assert [p["name"] for p in load(tmp_path / "n.amigos").record["players"]] == ["Ann", "Bob"]
    assert "Ann vs Bob" in named.stdout
    for names, words in ((["3=Cy"], "no seat 3"), (["1=Ann", "1=Al"], "names seat 1 twice"),
                         (["1=Ann", "2=ann"], "would both be called")):
        refused = _run(["play", "--p1", "random", "--p2", "random", "--save", "x.amigos"]
                       + [arg for n in names for arg in ("--name", n)], tmp_path)
        assert refused.returncode == 2 and words in refused.stderr and "Traceback" not in refused.stderr, refused
        assert not (tmp_path / "x.amigos").exists()


def test_a_seat_named_beyond_two_seats_that_many_unless_players_says_fewer(tmp_path):
    """``--p3`` without ``--players`` seats three (``--p4`` four); with a smaller ``--players`` the one
    line names the ``--players`` needed (issue 53)."""
    done = _run(["play", "--p2", "random", "--p3", "greedy", "--seed", "3", "--save", "t.amigos", "--plain"],
                tmp_path)  # (no input: the game is saved at the first decision of the person's)
    assert done.returncode == 0, done.stderr
    assert [p["spec"] for p in load(tmp_path / "t.amigos").record["players"]] == ["human", "random", "greedy"]
    refused = _run(["play", "--players", "3", "--p4", "random", "--save", "x.amigos"], tmp_path)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "--p4 names a seat beyond --players 3: give --players 4" in refused.stderr
    assert not (tmp_path / "x.amigos").exists()


def test_people_sharing_the_screen_hand_it_over_and_see_only_their_own_hand(tmp_path):
    """Two people and an AI, through the mage and magic item choices: before a person's decision that
    follows the other person's, the screen is cleared and waits for Enter; what is printed for each
    person never names an artifact of the other's (all eight are hidden then)."""
    match = Match.new(21, ["human", "random", "human"], GameConfig(players=3), fmt="game",
                      names=["Ann", "AI", "Bob"])
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if "Press Enter" in prompt:
            return ""
        return "q" if sum("Your choice" in a for a in asked) > 4 else "1"

    with pytest.raises(QuitRequested):
        PromptSession(match, tmp_path / "hot.amigos", console, ask=ask).run()
    handovers = [a for a in asked if "Press Enter" in a]
    assert len(handovers) >= 2
    artifacts = {p: {c.name for e, c in enumerate(match.state.cards[:match.state.n_art]) if match.state.owner[e] == p}
                 for p in (0, 2)}
    seat = {"Ann": 0, "Bob": 2}
    for stretch in re.split(r"\n(?=\w+: your turn\. Everyone else, look away\.)", out.getvalue())[1:]:
        person = seat[stretch.split(":")[0]]
        mine = artifacts[person]
        others = artifacts[2 - person]
        assert any(name in stretch for name in mine)  # (their hand, on their board)
        assert not any(name in stretch for name in others), (person, stretch[:400])
