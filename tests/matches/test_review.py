"""Game review (`matches.review`, ``amigos review``): grades by the chance lost, the search from the
seat's information only, the review file kept beside the match and refused when stale or damaged, and
the command's bad inputs."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from ai.agents import make_agent
from amigos.config import GameConfig
from amigos.determinize import determinize
from matches import review as R
from matches.match import Match, play
from matches.record import save

ITERS = 120  # (a small budget: these tests check the mechanics, not the strength)


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> tuple:
    """A finished game of a searching agent against greedy, saved: (path, record)."""
    path = tmp_path_factory.mktemp("review") / "g.amigos"
    match = Match.new(11, ["mcts:iters=60", "greedy"], GameConfig(), fmt="game")
    play(match, [make_agent("mcts:iters=60", seed=1), make_agent("greedy", seed=2)])
    save(match, path)
    return path, match.record


def test_grades_follow_the_chance_lost_and_accuracy_falls_with_it():
    assert [R.grade(x) for x in (0.0, 0.01, 0.03, 0.05, 0.12, 0.19, 0.5)] == \
        ["best", "best", "good", "inaccuracy", "mistake", "blunder", "blunder"]
    sure = R.Graded(1, 0, 0, "x", 0.6, 0.6, "", "best")
    lost = R.Graded(1, 1, 0, "y", 0.6, 0.3, "z", "blunder")
    assert R.accuracy([sure]) == pytest.approx(100.0, abs=0.1)
    assert R.accuracy([sure, lost]) < R.accuracy([sure]) and R.accuracy([]) == 100.0


def test_the_chances_are_the_same_whatever_the_cards_the_seat_cannot_see():
    """The review's search reads only what the reviewed seat sees: a world dealt differently where that
    seat cannot see (the rival's hand, the decks) gives the very same chances."""
    checked = 0
    for seed in range(30):
        state, rng = Match.new(seed, ["random", "random"], GameConfig(), fmt="game").state, random.Random(seed)
        while not state.is_terminal() and state.round < 3:
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal() or len(state.legal_groups()) < 2:
            continue
        seat = state.current_player()
        world = determinize(state, seat, seed + 100)
        if world.loc == state.loc and world.owner == state.owner:
            continue  # (the same hidden cards dealt: no test)
        found = R.chances(state, seat, ITERS, 5)
        assert found == R.chances(world, seat, ITERS, 5)
        rare = min(state.legal_actions(), key=lambda a: found[R.A.macro_key(a)][0])  # (searched again: `judge`)
        assert R.judge(state, seat, [rare], ITERS, 5) == R.judge(world, seat, [rare], ITERS, 5)
        checked += 1
        if checked == 3:
            return
    assert checked, "no position with hidden cards dealt otherwise"


def test_a_review_grades_each_decision_of_the_seats_with_a_choice(finished):
    path, record = finished
    result = R.review(record, [1], ITERS, seed=3)
    assert result.decisions and {d.seat for d in result.decisions} == {1}
    for d in result.decisions:
        assert 0.0 <= d.after <= d.before + 1e-9 <= 1.0 + 1e-9
        assert d.grade == R.grade(d.lost) and (d.preferred == "") == (d.after == d.before or d.preferred == "")
    assert R.review(record, [1], ITERS, seed=3).decisions == result.decisions  # (a function of its inputs)


def test_the_review_file_opens_at_once_and_is_computed_again_when_stale_or_damaged(finished, tmp_path):
    source, record = finished
    path = tmp_path / "g.amigos"
    path.write_bytes(source.read_bytes())
    first, computed = R.review_file(path, record, [1], ITERS, 3)
    assert computed and R.review_path(path).exists()
    again, computed = R.review_file(path, record, [1], ITERS, 3)
    assert not computed and again.decisions == first.decisions
    _, computed = R.review_file(path, record, [1], ITERS + 1, 3)  # (another budget: not that review)
    assert computed
    R.review_path(path).write_bytes(b"\x93 not a review")
    again, computed = R.review_file(path, record, [1], ITERS, 3)
    assert computed and again.decisions == first.decisions
    other = json.loads(json.dumps(record, default=list))
    other["seed"] = record["seed"] + 1  # (another match under the same name: stale)
    assert R.load_review(R.review_path(path), other, [1], ITERS, 3) is None


def _run(args: list[str], cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "amigos_cli", "review", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


def test_the_command_prints_the_review_and_refuses_bad_input_in_one_line(finished, tmp_path):
    source, _ = finished
    (tmp_path / "g.amigos").write_bytes(source.read_bytes())
    done = _run(["g.amigos", "--seat", "2", "--iters", str(ITERS), "--all", "--png", "g.png"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "accuracy" in done.stdout and "chance to win before each decision" in done.stdout
    data = json.loads(_run(["g.amigos", "--seat", "2", "--iters", str(ITERS), "--json"], tmp_path).stdout)
    assert data["seats"] == [2] and all(d["seat"] == 1 for d in data["decisions"])
    for args, words in ((["g.amigos", "--seat", "3"], "seats 1 to 2"), (["missing.amigos"], "no such file"),
                        (["g.amigos", "--game", "4"], "1 game"), (["g.amigos", "--iters", "5"], "--iters")):
        refused = _run(args, tmp_path)
        assert refused.returncode == 2 and words in refused.stderr and "Traceback" not in refused.stderr, refused
    (tmp_path / "bad.amigos").write_bytes(b"not a match")
    refused = _run(["bad.amigos"], tmp_path)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert (tmp_path / "bad.amigos").read_bytes() == b"not a match"


def test_the_replay_marks_the_reviewed_moves_and_n_goes_to_the_next_mistake(finished, tmp_path):
    """With a review kept beside the file, the replay marks each graded move as chess does (?! ? ??),
    tells the grade of the decision shown, and ``n`` steps to each mistake or blunder in turn; without
    one (or with a stale one), no marks and no ``n``."""
    import asyncio

    from amigos_cli.tui.replay import ReplayApp
    from matches.record import load

    source, record = finished
    path = tmp_path / "g.amigos"
    path.write_bytes(source.read_bytes())
    result, _ = R.review_file(path, record, [0, 1], ITERS, 3)
    kept = R.kept_review(R.review_path(path), record)
    assert kept is not None and kept.decisions == result.decisions
    faults = sorted((d.game, d.index) for d in result.decisions if d.grade in R.FAULTS)
    marked = {d.index for d in result.decisions if d.grade in R.MARKS}
    assert faults and marked, "the review found no mistake to jump to: another game is needed"
    match = load(path)

    async def run(review):
        app = ReplayApp(match, "g.amigos", 0, False, review=review)
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.pause()
            moves = app.query_one("#moves")
            lines = [str(moves.get_option_at_index(i).prompt) for i in range(1, moves.option_count)]
            shown = {i for i, line in enumerate(lines) if line.endswith(("?!", "?", "??"))}
            stops = []
            for _ in faults:
                await pilot.press("n")
                stops.append((app.game, app.at - 1))
            banner = str(app.query_one("#banner").render())
            graph = str(app.query_one("#graph").render())
            return shown, stops, banner, app.check_action("next_fault", ()), graph

    shown, stops, banner, can, graph = asyncio.run(run(kept))
    assert shown == marked and stops == faults and can
    bars = [line.split(": ", 1)[1] for line in graph.splitlines()]  # (each seat's, in the game shown)
    assert len(bars) == 2 and [len(b) for b in bars] == [len(result.of(seat, faults[-1][0])) for seat in (0, 1)]
    assert all(set(b) <= set("▁▂▃▄▅▆▇█") for b in bars)
    last = next(d for d in result.decisions if (d.game, d.index) == faults[-1])
    assert last.grade in banner and f"{100 * last.before:.0f}% -> {100 * last.after:.0f}%" in banner
    shown, stops, _, can, graph = asyncio.run(run(None))
    assert not shown and not can and not graph.strip()
    assert R.kept_review(R.review_path(path), {**record, "seed": record["seed"] + 1}) is None


def test_a_review_on_two_processes_is_the_same_review(finished):
    """``jobs`` splits the decisions between processes; each decision's search has its own seed, so the
    review is the same, in the same order, and the progress reaches every decision."""
    _, record = finished
    alone = R.review(record, [0], ITERS, 4)
    seen: list[tuple[int, int]] = []
    together = R.review(record, [0], ITERS, 4, progress=lambda done, total: seen.append((done, total)), jobs=2)
    assert together.decisions == alone.decisions and len(alone.decisions) > 8
    assert seen[-1] == (len(alone.decisions), len(alone.decisions)) and len(seen) > 1


def test_every_move_is_searched_even_on_a_small_budget():
    """A move never tried would have a chance of 0 and be graded a blunder for nothing: the search's budget
    is `LEAST_VISITS` a move at least, so every move of a decision gets a chance of its own."""
    rng = random.Random(3)
    state = Match.new(3, ["random", "random"], GameConfig(), fmt="game").state
    while not (state.round >= 2 and len(state.legal_groups()) > 12):
        state.apply(rng.choice(state.legal_actions()))
    found = R.chances(state, state.current_player(), 10, 1)
    assert set(found) == {R.A.macro_key(g[0]) for g in state.legal_groups()}
    assert min(n for n, _ in found.values()) >= R.LEAST_VISITS


def test_a_move_played_in_another_way_than_the_search_s_is_judged_in_the_way_played():
    """The search plays a move in its best way by the value; a person may play another (discard a card
    for Gold rather than two essences): that way is judged by a search through it alone.  In the puzzle
    where the Gold wins (it pays Golden Statue's React at the check), the discard for Gold is judged a
    likely win, though the discard the search plays (for two essences) loses."""
    import amigos
    from matches.puzzles import load_puzzles, position_of
    from tests.helpers import DATA

    puzzle = next(p for p in load_puzzles(DATA / "puzzles") if p["id"] == "golden-statue-needs-gold-1")
    state = position_of(puzzle, 0)
    gold = next(a for a in state.legal_actions() if amigos.action_json(state, a).get("gain") == {"gold": 1})
    found = R.chances(state, 1, ITERS, 5)
    _, best, (chance,) = R.judge(state, 1, [gold], ITERS, 5)
    assert found[R.A.macro_key(gold)][1] < 0.3 < 0.7 < chance and best < 0.3


def test_a_monument_left_to_a_rival_who_can_pay_for_it_is_told():
    """The reason of a move that leaves the claim the AI preferred: told when a rival's pool pays the
    monument, not when none does."""
    rng = random.Random(8)
    for seed in range(40):
        state = Match.new(seed, ["random", "random"], GameConfig(), fmt="game").state
        while not state.is_terminal() and not any(R.A.kind(a) == R.A.CLAIM_MONUMENT for a in state.legal_actions()):
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        claim = next(a for a in state.legal_actions() if R.A.kind(a) == R.A.CLAIM_MONUMENT)
        other = next((a for a in state.legal_actions() if R.A.kind(a) == R.A.PASS), None)
        if other is None:
            continue
        rival = 1 - state.current_player()
        name = state.cards[R.A.macro_key(claim)[2]].name
        state.pool[5 * rival:5 * rival + 5] = [0, 0, 0, 0, 4]
        assert R.reason(state, other, R.A.macro_key(claim)) == f"left {name} to the rival, who can pay for it"
        state.pool[5 * rival:5 * rival + 5] = [3, 3, 3, 3, 3]
        assert R.reason(state, other, R.A.macro_key(claim)) == "passed with a better move left"
        return
    raise AssertionError("no position with a monument to claim and a pass")


@pytest.mark.parametrize("puzzle_id", ["check-victory-bestiary-1", "rival-passed-one-point-wins-1",
                                       "last-round-find-two-points-1"])
def test_a_pass_that_throws_a_win_away_is_graded_a_blunder(puzzle_id):
    """Positions with a known answer (the puzzles): where the win is there this turn and passing gives it
    away, the pass is graded a blunder, with its reason."""
    import amigos
    from matches.puzzles import load_puzzles, position_of
    from tests.helpers import DATA

    puzzle = next(p for p in load_puzzles(DATA / "puzzles") if p["id"] == puzzle_id)
    state = position_of(puzzle, 0)
    passing = next(a for a in state.legal_actions() if amigos.action_json(state, a)["__type__"] == "Pass")
    preferred, best, (after,) = R.judge(state, state.current_player(), [passing], 600, 3)
    best_key = R.A.macro_key(preferred)
    assert R.grade(best - after) == R.BLUNDER and best_key != R.A.macro_key(passing)
    assert R.reason(state, passing, best_key) == "passed with a better move left"
