"""The match flow (`matches.match`, rules.md §2.5): best of three with the face-up redraft, the loser
choosing the first player, game 3 without a redraft, shared victories, single games, determinism and
rebuilding a match from its record.

Agents are the cheap ones (random, greedy; mcts only with 10 iterations).  They are seeded as the CLI
seeds them (`derive_seed(match seed, "seat", seat)`), so every match here is reproducible.
"""

from __future__ import annotations

import copy
from collections import Counter

import msgpack
import pytest

import amigos
import amigos.apply as engine_apply
from ai.agents import make_agent
from amigos import cards as C
from amigos.codes import GAME_OVER, IN_PLAY, SETUP_CHOOSE_FIRST, SETUP_REDRAFT
from amigos.config import GameConfig
from amigos.rng import derive_seed
from amigos.state import GameState
from matches.match import Match, play

# Seeds checked to give the shapes the tests need (asserted in the tests, so a change shows up).
THREE_GAMES = [(["greedy", "random"], 0), (["random", "random"], 1), (["random", "random"], 5)]
TWO_GAMES = [(["greedy", "random"], 2), (["random", "random"], 0)]
NATURAL_SHARED_GAME_1 = (["random", "random"], 89)   # game 1 ends in a real shared victory
BESTIARY_STEAL = (["random", "random"], 10)          # Sorcerer's Bestiary takes a rival's dragon in game 2


def agents(seed: int, specs: list[str]):
    return [make_agent(s, seed=derive_seed(seed, "seat", i)) for i, s in enumerate(specs)]


class Trace:
    """A match played decision by decision, keeping what the tests look at."""

    def __init__(self, seed: int, specs: list[str], fmt: str = "match", max_decisions: int = 20000,
                 stop_at_game: int | None = None, catch: bool = False):
        self.match = Match.new(seed, specs, fmt=fmt)
        self.error = None
        self.finals: dict[int, GameState] = {}      # game -> its final position
        self.dealt: dict[int, GameState] = {}       # game -> a copy right after the hands are dealt
        self.decisions = 0
        try:
            self._run(agents(seed, specs), max_decisions, stop_at_game)
        except amigos.AmigosError as exc:
            if not catch:
                raise
            self.error = exc

    def _run(self, controllers, max_decisions, stop_at_game):
        m = self.match
        while not m.is_over() and self.decisions < max_decisions:
            p = m.to_act()
            if m.is_over():
                break
            g = m.game_number
            if stop_at_game is not None and g >= stop_at_game:
                break
            if g not in self.dealt and m.state.phase not in (SETUP_CHOOSE_FIRST, SETUP_REDRAFT) and g > 1:
                self.dealt[g] = m.state.clone()
            action = controllers[p].select(m.state)
            m.decide(action, info=getattr(controllers[p], "info", None))
            self.decisions += 1
            if m.game_number != g:
                self.finals[g] = m.previous_state
        if m.is_over():
            self.finals[m.game_number] = m.state


def mage_of(state, p: int) -> str:
    mages = [c.id for e, c in enumerate(state.cards)
             if c.kind == C.MAGE and state.owner[e] == p and state.loc[e] == IN_PLAY]
    assert len(mages) == 1
    return mages[0]


def artifacts_of(state, p: int) -> Counter:
    return Counter(c.id for e, c in enumerate(state.cards[:state.n_art]) if state.owner[e] == p)


def steps(game: dict) -> list:
    """A game's decisions without the think times (which vary from run to run)."""
    return [[d[0], d[1]] + list(d[3:]) for d in game["decisions"]]


@pytest.fixture
def redraft_log(monkeypatch):
    """Every redraft pick the engine makes, forced ones included: ``log(state)`` lists the picks made in
    ``state`` as (player, card id, first player) (agents' lookahead copies make picks too)."""
    if amigos.COMPILED:
        pytest.skip("hooks a function the compiled engine calls directly")
    calls = []
    original = engine_apply.redraft_pick

    def logged(s, p, e):
        calls.append((s, (p, s.cards[e].id, s.first_player)))
        return original(s, p, e)

    monkeypatch.setattr(engine_apply, "redraft_pick", logged)
    return lambda state: [pick for s, pick in calls if s is state]


# -- best of three ---------------------------------------------------------------------------------


@pytest.mark.parametrize("specs,seed", THREE_GAMES + TWO_GAMES)
def test_best_of_three_runs_to_the_end_consistently(specs, seed):
    t = Trace(seed, specs)
    m, record = t.match, t.match.record
    assert m.is_over() and record["status"] == "finished"
    assert record["best_of"] == 3 and 2 <= len(record["games"]) <= 3
    wins = [0, 0]
    for i, game in enumerate(record["games"], 1):
        final = t.finals[i]
        assert final.phase == GAME_OVER
        assert game["index"] == i
        assert game["result"]["winners"] == final.winners()
        assert game["result"]["vp"] == final.victory_points()
        assert game["result"]["rounds"] == final.round
        assert game["final_digest"] == final.digest()
        if len(final.winners()) == 1:
            wins[final.winners()[0]] += 1
        if i < len(record["games"]):
            assert max(wins) < 2, "the match went on after someone had won two games"
    assert m.score() == wins == record["result"]["score"]
    assert max(wins) == 2, "these seeds have no shared game: someone must reach two wins"
    assert record["result"] == {"score": wins, "winner": wins.index(2), "shared": False}
    if len(record["games"]) == 3:
        assert sorted(wins) == [1, 2]


def test_seed_shapes_are_as_expected():
    for specs, seed in THREE_GAMES:
        assert len(Trace(seed, specs).match.record["games"]) == 3
    for specs, seed in TWO_GAMES:
        assert len(Trace(seed, specs).match.record["games"]) == 2


@pytest.mark.parametrize("specs,seed", THREE_GAMES + TWO_GAMES[:1])
def test_game_2_loser_chooses_then_the_face_up_redraft(specs, seed, redraft_log):
    t = Trace(seed, specs)
    record = t.match.record
    g1, g2 = t.finals[1], t.finals[2]
    picks = redraft_log(g2)
    loser = 1 - g1.winners()[0]

    # the first decision of game 2 is the loser's ChooseFirstPlayer
    first = record["games"][1]["decisions"][0]
    assert first[0] == loser
    assert first[1]["__type__"] == "ChooseFirstPlayer" and first[1]["player_id"] == loser
    fp = first[1]["first_player"]
    assert fp in (0, 1) and g2.first_player in (0, 1)
    assert t.match.first_players[1] == fp, "the chosen player starts round 1 of game 2"

    # the redraft: FP 1, other 2, FP 2, other 2, FP 2, other 2, FP 2, other 2, FP 1
    assert len(picks) == 16
    assert all(f == fp for _, _, f in picks)
    runs = []
    for p, _, _ in picks:
        if runs and runs[-1][0] == p:
            runs[-1][1] += 1
        else:
            runs.append([p, 1])
    other = 1 - fp
    assert runs == [[fp, 1], [other, 2], [fp, 2], [other, 2], [fp, 2], [other, 2], [fp, 2], [other, 2], [fp, 1]]

    # all 16 artifacts of game 1 are taken, 8 each
    game1_artifacts = Counter(c.id for c in g1.cards[:g1.n_art])
    assert sum(game1_artifacts.values()) == 16
    assert Counter(card for _, card, _ in picks) == game1_artifacts
    taken = [Counter(card for p, card, _ in picks if p == q) for q in range(2)]
    assert [sum(c.values()) for c in taken] == [8, 8]
    dealt = t.dealt[2]
    assert [artifacts_of(dealt, p) for p in range(2)] == taken

    # the recorded picks are the engine's picks (the last one is forced, so not recorded)
    recorded = [(d[0], d[1]["artifact_name"]) for d in record["games"][1]["decisions"]
                if d[1]["__type__"] == "RedraftPick"]
    assert len(recorded) == 15
    names = [(p, C.BY_ID[card].name) for p, card, _ in picks]
    assert recorded == names[:15]
    assert [p["card"] for p in t.match.redraft_picks()] == [n for _, n in names[:15]]

    # both keep their mages; each knows the rival's 8
    for p in range(2):
        assert mage_of(dealt, p) == mage_of(g1, p) == mage_of(g2, p)
        assert dealt.known_decks[p] == frozenset(taken[1 - p])

    # both know who won game 1 and the artifacts each had in play at its end
    in_play = [frozenset(g1.cards[e].id for e in g1.in_play(p) if e < g1.n_art) for p in range(2)]
    assert dealt.previous_game == (tuple(g1.winners()), tuple(in_play))


@pytest.mark.parametrize("specs,seed", THREE_GAMES)
def test_game_3_keeps_mages_and_drafted_decks_and_the_loser_of_game_2_chooses(specs, seed, redraft_log):
    t = Trace(seed, specs)
    record = t.match.record
    assert len(record["games"]) == 3
    assert t.match.score() in ([2, 1], [1, 2])
    g2 = t.finals[2]
    assert [r["result"]["winners"] for r in record["games"][:2]] in ([[0], [1]], [[1], [0]])
    loser = 1 - g2.winners()[0]
    first = record["games"][2]["decisions"][0]
    assert first[0] == loser and first[1]["__type__"] == "ChooseFirstPlayer"
    assert t.match.first_players[2] == first[1]["first_player"]
    assert len(redraft_log(t.finals[2])) == 16
    assert redraft_log(t.finals[3]) == [], "no second redraft before game 3"
    assert not any(d[1]["__type__"] == "RedraftPick" for d in record["games"][2]["decisions"])
    drafted = [t.dealt[2], t.dealt[3]]
    for p in range(2):
        assert mage_of(t.dealt[3], p) == mage_of(t.finals[1], p)
        assert artifacts_of(drafted[1], p) == artifacts_of(drafted[0], p)
        assert sum(artifacts_of(drafted[1], p).values()) == 8
        assert drafted[1].known_decks[p] == frozenset(artifacts_of(drafted[1], 1 - p))


def test_game_3_uses_the_redrafted_decks_even_after_a_dragon_changed_hands():
    specs, seed = BESTIARY_STEAL
    t = Trace(seed, specs)   # raises amigos.SetupError when game 3 starts
    assert t.match.is_over()
    for p in range(2):
        assert artifacts_of(t.dealt[3], p) == artifacts_of(t.dealt[2], p)


def test_bestiary_steal_seed_really_moves_a_dragon():
    """The precondition of the test above: in game 2 of this match a dragon changes owner, and the
    match still plays to its end (game 3 is set up; any error raises)."""
    specs, seed = BESTIARY_STEAL
    t = Trace(seed, specs)
    assert t.match.is_over() and len(t.match.record["games"]) == 3
    final, dealt = t.finals[2], t.dealt[2]
    assert final.phase == GAME_OVER
    moved = [artifacts_of(final, p) - artifacts_of(dealt, p) for p in range(2)]  # gained in game 2
    lost = [artifacts_of(dealt, p) - artifacts_of(final, p) for p in range(2)]
    assert sum(moved, Counter()) == sum(lost, Counter()), "artifacts change hands, none appear or vanish"
    for p in range(2):
        assert moved[p] == lost[1 - p]
    assert any(C.BY_ID[card].is_dragon for gained in moved for card in gained), moved


def test_different_seeds_give_different_matches():
    a = Trace(0, ["greedy", "random"]).match.record
    b = Trace(2, ["greedy", "random"]).match.record
    assert steps(a["games"][0]) != steps(b["games"][0])


# -- shared victories ------------------------------------------------------------------------------


def _record_with(results: list[list[int]], best_of: int = 3) -> dict:
    m = Match.new(0, ["random", "random"], fmt="match" if best_of == 3 else "game")
    record = copy.deepcopy(m.record)
    record["games"] = [{"index": i + 1, "seed": 0, "decisions": [], "result": {"winners": w, "vp": [0, 0],
                                                                              "rounds": 1}}
                       for i, w in enumerate(results)]
    return record


@pytest.mark.parametrize("results,expected", [
    ([[0], [0]], {"score": [2, 0], "winner": 0, "shared": False}),
    ([[1], [0], [1]], {"score": [1, 2], "winner": 1, "shared": False}),
    ([[0, 1], [1], [1]], {"score": [0, 2], "winner": 1, "shared": False}),
    ([[0, 1], [0], [1]], {"score": [1, 1], "winner": None, "shared": True}),
    ([[0, 1], [0, 1], [0]], {"score": [1, 0], "winner": 0, "shared": False}),
    ([[1], [0, 1], [0, 1]], {"score": [0, 1], "winner": 1, "shared": False}),
    ([[0, 1], [0, 1], [0, 1]], {"score": [0, 0], "winner": None, "shared": True}),
])
def test_score_and_finish_with_shared_games(results, expected):
    m = Match(_record_with(results))
    assert m.score() == expected["score"]
    m._finish(m.score())
    assert m.record["result"] == expected and m.record["status"] == "finished" and m.is_over()


def test_single_shared_game_is_a_shared_result():
    m = Match(_record_with([[0, 1]], best_of=1))
    m._finish(m.score())
    assert m.record["result"] == {"score": [0, 0], "winner": None, "shared": True}


@pytest.fixture
def forced_shared(monkeypatch):
    """Make the games whose numbers are in the returned set end in a shared victory."""
    shared: set[int] = set()
    current = {}
    original = GameState.winners

    def winners(self):
        m = current.get("match")
        if self.phase == GAME_OVER and m is not None and m.game_number in shared:
            return [0, 1]
        return original(self)

    monkeypatch.setattr(GameState, "winners", winners)
    return shared, current


def _play_with(current, seed, specs, fmt="match"):
    m = Match.new(seed, specs, fmt=fmt)
    current["match"] = m
    play(m, agents(seed, specs))
    return m


def test_every_game_shared_plays_three_and_draws(forced_shared):
    shared, current = forced_shared
    shared.update({1, 2, 3})
    m = _play_with(current, 5, ["random", "random"])
    games = m.record["games"]
    assert len(games) == 3 and all(g["result"]["winners"] == [0, 1] for g in games)
    assert m.record["result"] == {"score": [0, 0], "winner": None, "shared": True}
    # after a shared game the player who went second in it chooses
    for k in (1, 2):
        chooser = games[k]["decisions"][0]
        assert chooser[1]["__type__"] == "ChooseFirstPlayer"
        assert chooser[0] == 1 - m.first_players[k - 1]
    rebuilt = Match.from_record(copy.deepcopy(m.record))
    assert rebuilt.is_over() and rebuilt.record["result"] == m.record["result"]


def test_shared_game_1_means_a_third_game_and_more_wins_decide(forced_shared):
    shared, current = forced_shared
    shared.add(1)
    m = _play_with(current, 1, ["random", "random"])
    winners = [g["result"]["winners"] for g in m.record["games"]]
    assert winners[0] == [0, 1] and len(winners) in (2, 3)
    # nobody has two wins after a shared game 1 and one more game: a third game is always played
    assert len(winners) == 3
    wins = m.score()
    assert m.record["result"]["score"] == wins
    if wins[0] == wins[1]:
        assert m.record["result"] == {"score": wins, "winner": None, "shared": True}
    else:
        assert m.record["result"] == {"score": wins, "winner": wins.index(max(wins)), "shared": False}


def test_a_single_shared_game_ends_the_game_format(forced_shared):
    shared, current = forced_shared
    shared.add(1)
    m = _play_with(current, 3, ["greedy", "random"], fmt="game")
    assert len(m.record["games"]) == 1 and m.is_over()
    assert m.record["result"] == {"score": [0, 0], "winner": None, "shared": True}


def test_a_natural_shared_game_1_lets_the_second_player_choose():
    specs, seed = NATURAL_SHARED_GAME_1
    t = Trace(seed, specs, stop_at_game=3, catch=True)
    record = t.match.record
    assert record["games"][0]["result"]["winners"] == [0, 1]
    assert t.match.score()[0] + t.match.score()[1] <= 1, "a shared game scores for nobody"
    choose = record["games"][1]["decisions"][0]
    assert choose[1]["__type__"] == "ChooseFirstPlayer"
    assert choose[0] == 1 - t.match.first_players[0]
    assert len(record["games"]) >= 2 and record["games"][1]["result"] is not None


# -- single game, determinism, rebuilding ----------------------------------------------------------


@pytest.mark.parametrize("specs,seed", [(["random", "greedy"], 3), (["greedy", "random"], 4)])
def test_single_game_ends_after_one_game(specs, seed):
    t = Trace(seed, specs, fmt="game")
    record = t.match.record
    assert record["best_of"] == 1 and record["status"] == "finished"
    assert len(record["games"]) == 1
    w = t.finals[1].winners()
    assert record["games"][0]["result"]["winners"] == w
    if len(w) == 1:
        assert record["result"] == {"score": [int(w[0] == 0), int(w[0] == 1)], "winner": w[0], "shared": False}
    else:
        assert record["result"]["shared"]
    assert t.match.state.is_terminal()


@pytest.mark.parametrize("specs,seed,fmt", [
    (["greedy", "random"], 0, "match"),
    (["random", "random"], 5, "match"),
    (["mcts:iters=10", "greedy"], 2, "game"),
])
def test_same_seed_and_agents_give_the_same_record(specs, seed, fmt):
    a = Trace(seed, specs, fmt=fmt).match
    b = Trace(seed, specs, fmt=fmt).match
    ra, rb = a.record, b.record
    assert [steps(g) for g in ra["games"]] == [steps(g) for g in rb["games"]]
    assert [g["result"] for g in ra["games"]] == [g["result"] for g in rb["games"]]
    assert [g["final_digest"] for g in ra["games"]] == [g["final_digest"] for g in rb["games"]]
    assert [g["seed"] for g in ra["games"]] == [g["seed"] for g in rb["games"]]
    assert ra["result"] == rb["result"]
    assert a.state.digest() == b.state.digest()
    if specs[0].startswith("mcts"):
        assert any(len(d) == 5 and d[3] == 10 for d in ra["games"][0]["decisions"]), \
            "search details (iterations, value) are recorded"


@pytest.mark.parametrize("specs,seed", [(["greedy", "random"], 0), (["random", "random"], 0)])
def test_from_record_reproduces_the_match(specs, seed):
    m = Trace(seed, specs).match
    for record in (copy.deepcopy(m.record), msgpack.unpackb(msgpack.packb(m.record), raw=False)):
        rebuilt = Match.from_record(record)
        assert rebuilt.is_over()
        assert rebuilt.state.digest() == m.state.digest()
        assert rebuilt.record["games"] == m.record["games"]
        assert rebuilt.record["result"] == m.record["result"]
        assert rebuilt.first_players == m.first_players


def test_from_record_of_an_unfinished_match_continues_identically():
    specs, seed = ["greedy", "random"], 0
    full = Trace(seed, specs).match
    record = copy.deepcopy(full.record)
    # cut in the middle of game 2
    record["games"] = record["games"][:2]
    record["games"][1]["decisions"] = record["games"][1]["decisions"][:40]
    record["games"][1]["result"] = None
    record["games"][1].pop("final_digest", None)
    record["status"], record["result"] = "unfinished", None
    m = Match.from_record(record)
    assert not m.is_over() and m.game_number == 2
    # feeding the rest of the recorded decisions reaches the same end
    rest = [d for d in full.record["games"][1]["decisions"][40:]]
    rest += [d for g in full.record["games"][2:] for d in g["decisions"]]
    for actor, step, *_ in rest:
        assert m.to_act() == actor
        m.decide(amigos.action_from_json(m.state, step))
    assert m.is_over() and m.state.digest() == full.state.digest()
    assert m.record["result"] == full.record["result"]


def test_new_rejects_a_bad_format_or_variant():
    with pytest.raises(amigos.AmigosError, match="format"):
        Match.new(1, ["random", "random"], fmt="bo5")
    with pytest.raises(amigos.AmigosError, match="variant"):
        Match.new(1, ["random", "random"], GameConfig.parse("chaos"))


@pytest.mark.parametrize("variant", ["first_game", "draft"])
def test_other_variants_play_a_best_of_three(variant):
    seed, specs = 1, ["greedy", "random"]
    m = Match.new(seed, specs, GameConfig.parse(variant))
    play(m, agents(seed, specs))
    assert m.is_over() and m.record["variant"] == variant
    rebuilt = Match.from_record(copy.deepcopy(m.record))
    assert rebuilt.state.digest() == m.state.digest()


def test_greedy_vs_greedy_match_ends():
    t = Trace(1, ["greedy", "greedy"], max_decisions=2500)
    assert t.match.is_over()
