"""The neural value: its encoding sees only what its viewer may see, its file is refused when it is not
one for today's inputs, and its training (TD(lambda) targets, a step of Adam) does what it says."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest

import amigos
from ai import encoding as E
from ai.evaluator import packaged_model
from ai.network import NetError, ValueNet, encoding_key
from amigos.codes import IN_PLAY, SETUP_DRAFT
from amigos.config import GameConfig
from amigos.determinize import determinize
from tests.helpers import random_positions
from training import cli
from training import neural as N
from training.records import RecordError
from training.views import Views

#: A generation's games in the runs of these tests: the first is held out (`training.neural.HOLD_OUT`),
#: the others trained on.
GAMES = 8


@pytest.mark.parametrize("config", [GameConfig(), GameConfig("draft"), GameConfig("first_game"),
                                    GameConfig(expansions=("lux",)), GameConfig("draft", expansions=("lux",)),
                                    GameConfig(players=3), GameConfig("draft", players=4),
                                    GameConfig(expansions=("lux",), players=5)],
                         ids=["standard", "draft", "first_game", "lux", "lux-draft", "3p", "draft-4p", "lux-5p"])
def test_the_encoding_of_a_position_and_of_its_determinisations_are_the_same(config):
    """No peeking: whatever a world deals the viewer's unseen cards, the viewer's input is the same."""
    checked = 0
    for seed in range(3):
        for state in random_positions(seed, config, 250):
            for viewer in range(config.players):
                seen = sorted(E.encode(state, viewer))
                world = determinize(state, viewer, seed * 1000 + checked)
                assert sorted(E.encode(world, viewer)) == seen
                checked += 1
    assert checked > 500


def test_a_rival_s_hidden_card_changes_nothing_but_a_known_one_shows():
    for state in random_positions(4, GameConfig(), 400):
        if len(state.hand(1)) >= 2:
            break
    e = state.hand(1)[0]
    card = state.cards[e].id
    seen = dict(E.encode(state, 0))
    assert E.card_input(card, E.RIVAL_KNOWN) not in seen  # the rival's hand is not shown
    assert dict(E.encode(state, 1)).get(E.card_input(card, E.MY_HAND)) == 1.0  # but its owner sees it
    state.known_decks = tuple(k | {card} if p == 0 else k for p, k in enumerate(state.known_decks))
    assert dict(E.encode(state, 0)).get(E.card_input(card, E.RIVAL_KNOWN)) == 1.0


def test_with_more_players_every_rival_s_cards_show_and_the_rival_ahead_s_pools_and_points():
    state = next(s for s in random_positions(2, GameConfig(players=3), 400)
                 if s.round >= 2 and all(any(s.loc[e] == IN_PLAY and s.owner[e] == p for e in range(s.n_art))
                                         for p in range(3)))
    for viewer in range(3):
        seen = dict(E.encode(state, viewer))
        rival = E.rival_of(state, viewer)
        points = state.victory_points()
        others = [q for q in range(3) if q != viewer]
        assert rival in others and points[rival] == max(points[q] for q in others)
        shown = 0
        for e in range(state.n_art):
            if state.loc[e] == IN_PLAY and state.owner[e] != viewer:
                slot = E.RIVAL_TURNED if state.turned[e] else E.RIVAL
                assert seen.get(E.card_input(state.cards[e].id, slot)) == 1.0
                shown += state.owner[e] != rival
        assert shown >= 1  # (the other rival's cards too, not only the one ahead's)
        assert seen.get(E.G["rival_points"], 0.0) == pytest.approx(points[rival] * E.POINTS_SCALE)
        pool = state.pool[5 * rival:5 * rival + 5]
        assert [seen.get(E.G["rival_elan"] + k, 0.0) for k in range(5)] == pytest.approx([x * E.POOL_SCALE for x in pool])
    two = next(iter(random_positions(1, GameConfig(), 5)))
    assert [E.rival_of(two, v) for v in (0, 1)] == [1, 0]
    level = state.clone()  # (equal points: the rival with more essences, Gold counted twice, is ahead)
    level.pool[5:15] = [0] * 10
    level.pool[5 * 2 + 4] = 1
    if level.victory_points()[1] == level.victory_points()[2]:
        assert E.rival_of(level, 0) == 2
        level.pool[5 * 1:5 * 1 + 4] = [1, 1, 1, 0]
        assert E.rival_of(level, 0) == 1
    else:
        ahead = max((1, 2), key=lambda q: level.victory_points()[q])
        assert E.rival_of(level, 0) == ahead


def test_inputs_are_distinct_and_in_range():
    for state in random_positions(7, GameConfig(expansions=("lux",)), 120):
        pairs = E.encode(state, 0)
        inputs = [i for i, _ in pairs]
        assert len(inputs) == len(set(inputs)) and all(0 <= i < E.N_INPUTS for i in inputs)
        assert all(v != 0 for _, v in pairs)


# -- the file --------------------------------------------------------------------------------------------

def test_a_network_file_round_trips(tmp_path):
    net = ValueNet.initial(16, 3)
    net.w2[:] = np.linspace(-1, 1, 16)
    net.info["games"] = 12
    net.save(tmp_path / "n.npz")
    again = ValueNet.load(tmp_path / "n.npz", packaged_model())
    state = next(random_positions(1, GameConfig(), 30))
    assert again.probability(state, 0) == pytest.approx(net.probability(state, 0), abs=1e-5)
    assert again.info["games"] == 12


def _rewrite(tmp_path: Path, **changes) -> Path:
    net = ValueNet.initial(8, 1)
    net.save(tmp_path / "n.npz")
    with np.load(tmp_path / "n.npz") as data:
        arrays = {k: data[k] for k in data.files}
    header = json.loads(str(arrays["header"]))
    header.update(changes.pop("header", {}))
    arrays["header"] = np.array(json.dumps(header))
    arrays.update(changes)
    path = tmp_path / "changed.npz"
    np.savez(path, **arrays)
    return path


@pytest.mark.parametrize("change, fragment", [
    ({"header": {"encoding": "0123456789abcdef"}}, "for other inputs"),
    ({"header": {"version": 99}}, "version 99"),
    ({"header": {"format": "something else"}}, "no 'amigos.valuenet' header"),
    ({"b2": np.array([np.nan])}, "not finite"),
    ({"w1": np.zeros((3, 8))}, "inputs"),
])
def test_a_file_that_is_no_network_for_today_s_inputs_is_refused_in_one_line(tmp_path, change, fragment):
    with pytest.raises(NetError, match=fragment) as refused:
        ValueNet.load(_rewrite(tmp_path, **change), packaged_model())
    assert "\n" not in str(refused.value)


def test_bytes_that_are_no_network_are_refused(tmp_path):
    path = tmp_path / "x.npz"
    path.write_bytes(b"not a zip file at all")
    with pytest.raises(NetError, match="not a value network"):
        ValueNet.load(path, packaged_model())


def test_the_encoding_key_names_the_inputs():
    assert len(encoding_key()) == 16 and encoding_key() == encoding_key()


# -- training --------------------------------------------------------------------------------------------

def _game(result: list[float], views: int) -> dict:
    """A made-up game of ``views`` decisions: each view holds the round, and the First Player token for
    player 0 only (and a linear log-odds of 0.5 for player 0, -0.5 for player 1, and its decision)."""
    return {"views": Views.of([[[E.G["bias"], E.G["round"]] + ([E.G["my_token"]] if viewer == 0 else []),
                                [1.0, 0.1 * (t + 1)] + ([1.0] if viewer == 0 else []), viewer, 0.5 - viewer, t]
                               for t in range(views) for viewer in (0, 1)]), "result": result, "rounds": 3}


def test_td_lambda_targets_end_with_the_result_and_bootstrap_before_it():
    net = ValueNet.initial(8, 2)
    game = _game([1.0, 0.0], 4)
    for lam in (0.0, 0.5, 1.0):
        views, y = N.targets(net, [game], lam)
        mine = list(y[views.viewers_rows(0)])
        assert mine[-1] == 1.0
        _, _, p = N.forward(net, views, views.viewers_rows(0))
        if lam == 1.0:
            assert all(t == 1.0 for t in mine)
        if lam == 0.0:
            assert mine[:-1] == pytest.approx([float(x) for x in p[1:]])
        if lam == 0.5:
            assert mine[-2] == pytest.approx(0.5 * float(p[-1]) + 0.5 * 1.0)


def test_the_targets_of_several_games_are_each_game_s_in_turn():
    net = ValueNet.initial(8, 2)
    a, b = _game([1.0, 0.0], 3), _game([0.0, 1.0], 5)
    b["values"] = [0.2, None, 0.9, 0.4, None]
    views, both = N.targets(net, [a, b], 0.6, searched=0.5)
    assert list(both) == pytest.approx(list(N.targets(net, [a], 0.6, 0.5)[1]) + list(N.targets(net, [b], 0.6, 0.5)[1]))
    assert len(views) == 16 and list(views.decision) == [t for t in range(3) for _ in (0, 1)] + \
        [t for t in range(5) for _ in (0, 1)]


def test_a_searched_target_blends_the_search_s_chance_into_the_return():
    """``searched``: a view whose decision the record gives a searched chance (player 0's) gets
    (1 - S) return + S chance (1 - chance for player 1); a view without one keeps the return."""
    net = ValueNet.initial(8, 2)
    game = _game([1.0, 0.0], 3)
    game["values"] = [0.8, None, 0.3]
    views, plain = N.targets(net, [game], 0.5)
    _, blended = N.targets(net, [game], 0.5, searched=0.25)
    for r, (a, b) in enumerate(zip(plain, blended)):
        q = game["values"][views.decision[r]]
        if q is None:
            assert b == a
        else:
            assert b == pytest.approx(0.75 * a + 0.25 * (q if views.viewer[r] == 0 else 1 - q))
    assert N._searched_chance({"iterations": 0, "value": 0.7}, 0) is None
    assert N._searched_chance({"iterations": 50, "value": 0.5}, 1) == 0.5
    assert N._searched_chance({"iterations": 50, "value": 0.9}, 0) == 1.0
    assert N._searched_chance({"iterations": 50, "value": 0.1}, 1) == 1.0


def test_training_lowers_the_loss_on_what_it_learns():
    net = ValueNet.initial(8, 5)
    games = [_game([1.0, 0.0], 5) for _ in range(20)]
    first = N.train(net, games, 1.0, 1, 1e-2, 32, np.random.default_rng(0))
    last = N.train(net, games, 1.0, 5, 1e-2, 32, np.random.default_rng(0))
    assert last < first
    assert N.held_out(net, games)["log_loss"] < 0.69


def test_a_network_trained_in_place_values_positions_by_its_new_weights():
    """`N.train` changes the weights in place; the matrix a leaf gathers from (`ValueNet.refresh`: the
    hidden bias folded into the bias input's row) follows them, so a position's chance is the
    network's formula by its trained weights, not the ones it had."""
    net = ValueNet.initial(8, 5)
    N.train(net, [_game([1.0, 0.0], 5) for _ in range(20)], 1.0, 2, 1e-2, 32, np.random.default_rng(0))
    assert np.any(net.b1 != 0.0)  # (trained: the hidden bias moved, and is read from the bias input's row)
    for world in [determinize(s, 1, k) for k, s in enumerate(random_positions(6, GameConfig(), 90)) if k % 30 == 5]:
        pairs = E.encode(world, 1)
        x = np.zeros(E.N_INPUTS)
        x[[i for i, _ in pairs]] = [v for _, v in pairs]
        z = np.maximum(x @ net.w1 + net.b1, 0) @ net.w2 + net.b2
        assert net.probability(world, 1) == pytest.approx(1 / (1 + math.exp(-z)), rel=1e-9)


def test_a_self_play_game_is_a_function_of_its_seed_and_network(tmp_path):
    ValueNet.initial(16, 1).save(tmp_path / "n.npz")
    one = N.play_game(3, str(tmp_path / "n.npz"), GameConfig(), 0.1)
    again = N.play_game(3, str(tmp_path / "n.npz"), GameConfig(), 0.1)
    assert one == again
    assert one["result"] in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5]) and one["views"]


def test_the_command_refuses_bad_settings(capsys):
    assert cli.main(["neural", "--work", "/nonexistent", "--lux", "2"]) == 2
    assert "Invalid value for '--lux': Input should be less than or equal to 1" in capsys.readouterr().err


def _two_player_position():
    return next(s for s in random_positions(2, GameConfig(), 200) if len(s.legal_actions()) > 3)


def test_the_search_values_leaves_by_the_network_a_spec_names(tmp_path):
    """``mcts:...,value=net,net=FILE`` searches with that file's network (read when the agent is made),
    from the searcher's view: the same search as an evaluator over that network, not the packaged one's."""
    from ai import mcts as M
    from ai.agents import make_agent, parse_spec
    from ai.evaluator import NET, Evaluator, default_evaluator
    net = ValueNet.initial(16, 4)
    net.w2[:] = 0.5
    net.save(tmp_path / "n.npz")
    spec = f"mcts:iters=120,value=net,seed=3,net={tmp_path / 'n.npz'}"
    assert parse_spec(spec)[1]["value"] == NET and parse_spec(spec)[1]["net"] == str(tmp_path / "n.npz")
    agent = make_agent(spec)
    assert agent.evaluator.value == NET and agent.evaluator.model is packaged_model()
    assert agent.evaluator.net is not None and np.allclose(agent.evaluator.net.w1, net.w1, atol=1e-6)
    state = _two_player_position()
    p = state.current_player()
    stats = M.search(state, p, 120, None, 3, evaluator=agent.evaluator)
    again = ValueNet.load(tmp_path / "n.npz", packaged_model())  # (the file's: its w1 stored as float32)
    assert stats == M.search(state, p, 120, None, 3, evaluator=Evaluator(NET, packaged_model(), again))
    assert stats != M.search(state, p, 120, None, 3, evaluator=default_evaluator())
    assert agent.select(state.clone()) in state.legal_actions() and agent.info["iterations"] == 120
    assert make_agent(spec).select(state.clone()) == make_agent(spec).select(state.clone())


def _other_linear_model(tmp_path: Path) -> Path:
    """The packaged linear model with one weight changed (another digest), as a file."""
    data = packaged_model().to_json()
    data["weights"]["base"] = [w + 0.25 for w in data["weights"]["base"]]
    path = tmp_path / "other.json"
    path.write_text(json.dumps(data))
    return path


def test_a_bad_network_or_model_file_in_a_spec_is_refused_when_the_agent_is_made(tmp_path):
    """``net=FILE`` and ``model=FILE`` are read by `make_agent`, not at the first decision: a file that is
    not one (or is missing, or a network over another linear value) is one line naming it."""
    from ai.agents import make_agent
    (tmp_path / "bad.npz").write_bytes(b"not a zip file at all")
    base = ValueNet.initial(8, 1, base=True, linear=packaged_model())
    base.save(tmp_path / "base.npz")
    other = _other_linear_model(tmp_path)
    cases = [(f"net={tmp_path / 'bad.npz'}", tmp_path / "bad.npz", "not a value network"),
             (f"value=net,net={tmp_path / 'missing.npz'}", tmp_path / "missing.npz", "no such file"),
             (f"model={tmp_path / 'bad.npz'}", tmp_path / "bad.npz", "not a value model"),
             (f"model={other},net={tmp_path / 'base.npz'}", tmp_path / "base.npz",
              "trained over another linear value")]
    for params, path, fragment in cases:
        with pytest.raises(NetError, match=fragment) as refused:
            make_agent(f"mcts:iters=5,{params}")
        assert "\n" not in str(refused.value) and str(refused.value).startswith(f"{path}: "), str(refused.value)
    linear = make_agent(f"mcts:iters=5,value=linear,model={other}").evaluator  # (a good file is taken)
    assert linear.net is None and linear.model.digest() != packaged_model().digest()


def test_the_packaged_network_carries_its_record_and_is_the_default_agent_s_value():
    """The packaged file loads for today's inputs with where it comes from (run, generation, games,
    held-out loss, commit); the default search values leaves by it with two players, the same as
    ``value=net`` and not as ``value=linear``; with three players by the packaged network for three, with
    four and five by that network packaged for each: no player count falls back to the linear value."""
    from importlib import resources

    from ai import mcts as M
    from ai import network as NW
    from ai.agents import make_agent
    from ai.evaluator import LINEAR, NET, default_evaluator, packaged_net
    assert ValueNet.packaged_path() == Path(str(resources.files("ai") / "data" / NW.NET_FILE))
    packaged = ValueNet.load(ValueNet.packaged_path(), packaged_model())
    assert {"run", "generation", "games", "held_out", "commit", "played_by"} <= set(packaged.info)
    assert packaged.features and packaged.base and packaged.info["held_out"]["log_loss"] < 0.69
    assert packaged_net().info == packaged.info and packaged_net().linear is packaged_model()
    default = make_agent("mcts:iters=5").evaluator
    assert default.value == NET and default.net is packaged_net() and default.model is packaged_model()
    assert make_agent("mcts:iters=5,value=linear").evaluator.net is None
    state = _two_player_position()
    p = state.current_player()

    def stats(evaluator=None):
        return M.search(state, p, 200, None, 5, evaluator=evaluator)
    assert stats() == stats(default_evaluator(NET)) == stats(default) != stats(default_evaluator(LINEAR))
    # Three players: the packaged network for three (`value_net_3p.npz`); four: the linear learned value.
    assert default.nets[3].players == 3 and default.nets[3].info["run"].endswith("neural-3p")
    assert ValueNet.packaged_path(3) == Path(str(resources.files("ai") / "data" / NW.net_file(3)))
    three = next(s for s in random_positions(2, GameConfig(players=3), 200) if len(s.legal_actions()) > 3)
    q = three.current_player()
    assert M.search(three, q, 150, None, 5) != M.search(three, q, 150, None, 5, evaluator=default_evaluator(LINEAR))
    # Four and five players: the network for three, packaged for each (`value_net_4p.npz`, `value_net_5p.npz`).
    assert default.nets[4].players == 4 and default.nets[4].info["run"].endswith("neural-4p")
    assert default.nets[4].info["note"].startswith("The network for three players")
    four = next(s for s in random_positions(2, GameConfig(players=4), 200) if len(s.legal_actions()) > 3)
    q = four.current_player()
    assert M.search(four, q, 150, None, 5) != M.search(four, q, 150, None, 5, evaluator=default_evaluator(LINEAR))
    assert default.nets[5].players == 5 and default.nets[5].info["note"].startswith("The network for three players")
    five = next(s for s in random_positions(2, GameConfig(players=5, expansions=("lux",)), 200)
                if len(s.legal_actions()) > 3)
    q = five.current_player()
    assert M.search(five, q, 150, None, 5) != M.search(five, q, 150, None, 5, evaluator=default_evaluator(LINEAR))
    assert set(default.nets) == set(NW.PLAYER_COUNTS)  # (a network for every count: no linear fallback)


def test_the_value_is_one_of_three_words():
    """``value=`` takes net, linear or hand, kept as those words; the numbers and the word ``learned`` of
    before are refused, naming the words."""
    from ai.agents import SpecError, make_agent, parse_spec
    from ai.evaluator import HAND, LINEAR, NET, VALUES
    assert VALUES == (NET, LINEAR, HAND) == ("net", "linear", "hand")
    for word in VALUES:
        assert parse_spec(f"mcts:iters=5,value={word}") == ("mcts", {"iters": 5, "value": word})
        agent = make_agent(f"mcts:iters=5,value={word}")
        assert agent.evaluator.value == word and agent.evaluator.learned == (word != HAND)
        assert (agent.evaluator.net is not None) == (word == NET)
    for old in ("0", "1", "2", "3", "learned", ""):
        with pytest.raises(SpecError, match="agent parameter value") as refused:
            parse_spec(f"mcts:iters=5,value={old}")
        if old:
            assert all(word in str(refused.value) for word in VALUES) and repr(old) in str(refused.value)
        with pytest.raises(SpecError):
            make_agent(f"mcts:iters=5,value={old}")


def test_an_evaluator_over_copies_of_the_packaged_files_searches_as_the_default(tmp_path):
    """`Evaluator.load` with explicit files reads them afresh; over byte-for-byte copies of the packaged
    model and network its search is the default evaluator's, and over another network it is not."""
    import shutil
    from importlib import resources

    from ai import learned as L
    from ai import mcts as M
    from ai.agents import make_agent
    from ai.evaluator import NET, Evaluator, default_evaluator, packaged_net
    model, net = tmp_path / "model.json", tmp_path / "net.npz"
    shutil.copyfile(Path(str(resources.files("ai") / "data" / L.MODEL_FILE)), model)
    shutil.copyfile(ValueNet.packaged_path(), net)
    loaded = Evaluator.load(NET, model=model, net=net)
    assert loaded.value == NET and loaded.model is not packaged_model() and loaded.net is not packaged_net()
    assert loaded.net is not None and loaded.net.linear is loaded.model
    assert loaded.model.digest() == packaged_model().digest() and loaded.net.info == packaged_net().info
    state = _two_player_position()
    p = state.current_player()
    stats = M.search(state, p, 150, None, 9, evaluator=loaded)
    assert stats[1] == 150 and stats == M.search(state, p, 150, None, 9, evaluator=default_evaluator())
    spec = make_agent(f"mcts:iters=150,model={model},net={net}").evaluator
    assert stats == M.search(state, p, 150, None, 9, evaluator=spec)
    other = Evaluator(NET, loaded.model, ValueNet.initial(16, 4, base=True, features=True, linear=loaded.model))
    assert stats != M.search(state, p, 150, None, 9, evaluator=other)


@pytest.mark.slow  # (a training run: the pure build runs it; the compiled build, not again)
def test_searched_self_play_plays_the_spec_on_the_network_and_a_run_starts_from_a_given_network(tmp_path):
    """``--play``: each decision is the search's, with the generation's network as its value (so a
    game is a function of its seed, spec and network, and another network plays another game);
    ``--start`` copies network 0; ``--bootstrap`` plays generation 0 with the linear learned value."""
    ValueNet.initial(16, 1).save(tmp_path / "a.npz")
    other = ValueNet.initial(16, 2)
    other.w2[:] = 1.0
    other.save(tmp_path / "b.npz")
    one = N.play_game(5, str(tmp_path / "a.npz"), GameConfig(), 0.0, "mcts:iters=10,value=net")
    assert one == N.play_game(5, str(tmp_path / "a.npz"), GameConfig(), 0.0, "mcts:iters=10,value=net")
    assert len(one["values"]) == len(one["choices"])  # (each searched decision's chance, None elsewhere)
    searched = [q for q in one["values"] if q is not None]
    assert searched and all(0.0 <= q <= 1.0 for q in searched) and None in one["values"]
    assert one["views"] != N.play_game(5, str(tmp_path / "b.npz"), GameConfig(), 0.0,
                                       "mcts:iters=10,value=net")["views"]
    work = tmp_path / "run"
    N.run(work, 1, GAMES, 1, 1, epochs=1, play="mcts:iters=6", bootstrap=True, start=tmp_path / "b.npz",
          log=lambda line: None)
    assert (work / "net-0.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    record = ValueNet.load(work / "net-1.npz", packaged_model()).info
    assert record["played_by"] == "mcts:iters=6,value=linear" and record["games"] == GAMES
    assert cli.main(["neural", "--work", str(work), "--play", "mcts:time=1"]) == 2
    assert cli.main(["neural", "--work", str(tmp_path / "new"), "--start", str(tmp_path / "missing.npz")]) == 2


def test_a_generation_s_games_are_kept_compact_and_replay_to_their_views(tmp_path):
    ValueNet.initial(16, 1).save(tmp_path / "n.npz")
    game = N.play_game(7, str(tmp_path / "n.npz"), GameConfig(expansions=("lux",)), 0.2)
    N.write_games(tmp_path, 3, [game])
    packed = (tmp_path / "games-3.jsonl.gz").read_bytes()
    line = gzip.decompress(packed).decode()
    assert "views" not in line and len(line) < len(json.dumps(game)) / 10 and len(packed) < len(line)
    assert N.read_games(tmp_path, 3) == [game]


def test_a_share_of_a_run_s_games_is_dealt_by_the_draft_and_its_picks_are_training_positions(tmp_path):
    recipe = N.Recipe(games=40, seed=1, jobs=1, lux=0.0, draft=0.25)
    configs = [N.dealt_as(seed, recipe) for seed in range(400)]
    assert 70 <= sum(c.variant == "draft" for c in configs) <= 130
    assert configs == [N.dealt_as(seed, recipe) for seed in range(400)]  # (a function of the seed)
    assert all(N.dealt_as(seed, N.Recipe(games=40, seed=1, jobs=1)).variant == "standard" for seed in range(100))
    seed = next(k for k, c in enumerate(configs) if c.variant == "draft")
    ValueNet.initial(16, 1).save(tmp_path / "n.npz")
    game = N.play_game(seed, str(tmp_path / "n.npz"), configs[seed], 0.2)
    assert game["variant"] == "draft"
    N.write_games(tmp_path, 0, [game])
    (kept,) = N.read_games(tmp_path, 0)
    assert kept == game and N.views_of(kept) == game["views"]
    state, picks = amigos.deal(seed, configs[seed]), 0
    for index in game["choices"]:
        legal = state.legal_actions()
        picks += len(legal) > 1 and state.phase == SETUP_DRAFT
        state.apply(legal[index])
    assert picks >= 10 and len(game["views"]) > 2 * picks  # (both players' views of each pick, then play)
    plain = dict(game, variant="standard")
    with pytest.raises(RecordError):
        N.views_of(plain)  # (the same choices do not replay as another setup's game)


@pytest.mark.slow  # (a training run: the pure build runs it; the compiled build, not again)
def test_a_stopped_run_goes_on_as_an_unbroken_one_would(tmp_path):
    unbroken, stopped = tmp_path / "u", tmp_path / "s"
    N.run(unbroken, 2, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, log=lambda line: None)
    N.run(stopped, 1, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, log=lambda line: None)
    N.run(stopped, 2, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, log=lambda line: None)  # (trains on generation 0's games too)
    a, b = (ValueNet.load(run / "net-2.npz", packaged_model()) for run in (unbroken, stopped))
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    assert len((stopped / "progress.jsonl").read_text().splitlines()) == 2


def test_a_network_over_the_linear_value_starts_as_that_value_and_keeps_to_it(tmp_path, monkeypatch):
    """``base``: network 0 is the linear learned value (its log-odds added to a zero output); the file
    keeps which linear value it corrects and is refused over another; training uses each view's
    log-odds."""
    net = ValueNet.initial(16, 1, base=True, linear=packaged_model())
    for k, state in enumerate(random_positions(3, GameConfig(), 120)):
        if k % 20 == 5 and not state.is_terminal():
            world = determinize(state, 1, k)
            assert net.probability(world, 1) == pytest.approx(packaged_model().win_probability(world, 1))
    net.save(tmp_path / "r.npz")
    again = ValueNet.load(tmp_path / "r.npz", packaged_model())
    assert again.base and again.linear is packaged_model()
    assert not ValueNet.load(_saved(tmp_path), packaged_model()).base
    header = json.loads(str(np.load(tmp_path / "r.npz")["header"]))
    header["info"]["linear_model"] = "0" * 16
    arrays = dict(np.load(tmp_path / "r.npz"))
    arrays["header"] = np.array(json.dumps(header))
    np.savez(tmp_path / "other.npz", **arrays)
    with pytest.raises(NetError, match="trained over another linear value"):
        ValueNet.load(tmp_path / "other.npz", packaged_model())
    game = _game([1.0, 0.0], 3)
    _, _, p = N.forward(net, game["views"], np.arange(2))
    assert list(p) == pytest.approx([1 / (1 + math.exp(-0.5)), 1 / (1 + math.exp(0.5))])


def _saved(tmp_path: Path) -> Path:
    ValueNet.initial(8, 2).save(tmp_path / "plain.npz")
    return tmp_path / "plain.npz"


def test_a_network_with_features_reads_both_players_features_and_its_file_keeps_them(tmp_path):
    """``features``: the hidden layer reads the viewer's and the rival's `ai.features` and the progress
    (`feature_inputs`) besides the components; with ``base`` and a zero output it is the linear value;
    training feeds it the same inputs a view records; a file of other features is refused."""
    from ai.features import player_features
    from ai.network import N_FEATURE_INPUTS, feature_inputs
    net = ValueNet.initial(8, 4, base=True, features=True, linear=packaged_model())
    assert net.w1.shape == (E.N_INPUTS + N_FEATURE_INPUTS, 8)
    worlds = [determinize(s, 0, k) for k, s in enumerate(random_positions(5, GameConfig(), 150)) if k % 30 == 7]
    for world in worlds:
        assert net.probability(world, 0) == pytest.approx(packaged_model().win_probability(world, 0))
    net.w2[:] = 0.3
    for world in worlds:  # by hand: the components' inputs and the features' through one hidden layer
        pairs = E.encode(world, 0)
        x = np.zeros(E.N_INPUTS + N_FEATURE_INPUTS)
        x[[i for i, _ in pairs]] = [v for _, v in pairs]
        x[E.N_INPUTS:] = feature_inputs(player_features(world), 0)
        z = np.maximum(x @ net.w1 + net.b1, 0) @ net.w2 + net.b2 + packaged_model().win_log_odds(world, 0)
        assert net.probability(world, 0) == pytest.approx(1 / (1 + math.exp(-z)))
    net.save(tmp_path / "f.npz")
    again = ValueNet.load(tmp_path / "f.npz", packaged_model())
    assert again.features and again.base and np.allclose(again.w1, net.w1, atol=1e-6)
    with np.load(tmp_path / "f.npz") as data:
        arrays = {k: data[k] for k in data.files}
    header = json.loads(str(arrays["header"]))
    header["info"]["feature_key"] = "0" * 16
    arrays["header"] = np.array(json.dumps(header))
    np.savez(tmp_path / "other.npz", **arrays)
    with pytest.raises(NetError, match="for other features"):
        ValueNet.load(tmp_path / "other.npz", packaged_model())
    state = worlds[0]
    (mine, _) = N._views(state, 11, 0)
    x = Views.of([mine]).batch(np.arange(1), features=True)
    assert list(x[0, E.N_INPUTS:]) == pytest.approx(mine[5], abs=1e-6) and len(mine[5]) == N_FEATURE_INPUTS


@pytest.mark.slow  # (a training run: the pure build runs it; the compiled build, not again)
def test_a_new_run_s_network_0_can_be_trained_on_other_runs_games(tmp_path):
    """``--seed-games``: network 0 learns from the games other runs kept before it plays; the run's
    progress says on how many and how well."""
    seed_run = tmp_path / "earlier"
    N.run(seed_run, 1, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, log=lambda line: None)
    work = tmp_path / "new"
    N.run(work, 0, GAMES, 2, 1, hidden=8, epochs=2, residual=True, features=True, seed_games=[seed_run],
          log=lambda line: None)
    net = ValueNet.load(work / "net-0.npz", packaged_model())
    assert net.features and net.info["pretrained_on"] == GAMES
    assert not np.array_equal(net.w2, np.zeros_like(net.w2))  # (trained: the output weights moved)
    (line,) = [json.loads(x) for x in (work / "progress.jsonl").read_text().splitlines()]
    assert line["generation"] == 0 and line["pretrained_on"] == GAMES and line["held_out_after"]["views"] > 0
    (tmp_path / "empty").mkdir()
    with pytest.raises(RecordError, match="no games"):
        N.run(tmp_path / "none", 0, GAMES, 2, 1, hidden=8, seed_games=[tmp_path / "empty"], log=lambda line: None)
    with pytest.raises(RecordError, match="missing: not a folder"):
        N.run(tmp_path / "none", 0, GAMES, 2, 1, hidden=8, seed_games=[tmp_path / "missing"], log=lambda line: None)
    assert not (tmp_path / "none").exists()  # (refused before the run's folder is made)


def test_the_search_with_a_network_of_features_never_reads_hidden_cards(tmp_path):
    """The features a network reads are a dealt world's, never the real position's: two positions
    that differ only in what the searcher cannot see give the same decision."""
    from ai.agents import make_agent
    from tests.helpers import hidden_twin, mid_game
    net = ValueNet.initial(16, 5, base=True, features=True, linear=packaged_model())
    net.w2[:] = 0.4
    net.save(tmp_path / "f.npz")
    spec = f"mcts:iters=150,seed=2,value=net,net={tmp_path / 'f.npz'}"
    used = make_agent(spec).evaluator.net
    assert used is not None and used.features and np.array_equal(used.w2, net.w2)  # (the file's network)
    for seed in (4, 6):
        state = mid_game(seed)
        twin = hidden_twin(state)
        assert make_agent(spec).select(state.clone()) == make_agent(spec).select(twin.clone())


# -- the data a run keeps ----------------------------------------------------------------------------------

def test_views_kept_as_arrays_give_the_rows_a_layer_reads():
    """`Views.of` keeps a game's views compactly; `batch` gives the dense rows (inputs, then features)
    the lists would give; `joined` is the views one after another."""
    from ai.network import N_FEATURE_INPUTS
    state = next(s for s in random_positions(4, GameConfig(), 60) if len(s.legal_actions()) > 2)
    rows = N._views(state, 3, 7) + N._views(state, 5, 8)
    views = Views.of(rows)
    x = views.batch(np.array([2, 0]), features=True)
    for out, row in zip(x, [rows[2], rows[0]]):
        want = np.zeros(E.N_INPUTS + N_FEATURE_INPUTS)
        want[row[0]] = row[1]
        want[E.N_INPUTS:] = row[5]
        assert out == pytest.approx(want, abs=1e-6)
    assert list(views.viewer) == [0, 1, 0, 1] and list(views.decision) == [7, 7, 8, 8]
    assert list(views.linear) == pytest.approx([row[3] for row in rows], abs=1e-6)
    both = Views.joined([Views.of(rows[:1]), Views.of(rows[1:])])
    assert np.array_equal(both.batch(np.arange(4), True), views.batch(np.arange(4), True))


def test_the_window_keeps_the_newest_games_up_to_its_positions():
    games = [_game([1.0, 0.0], n) for n in (3, 4, 5)]  # (6, 8 and 10 views)
    assert N.window(games, 18) == games[1:]
    assert N.window(games, 17) == games[2:]
    assert N.window(games, 1) == games[2:]  # (the newest game at least)
    assert N.window(games, 100) == games


@pytest.mark.slow  # (a training run: the pure build runs it; the compiled build, not again)
def test_a_run_trains_on_every_generation_s_games_within_its_window(tmp_path):
    """The data accumulates: generation 2's network learns from generations 0 and 1's training games
    (not the last generation's alone), and no more positions than ``size``."""
    work = tmp_path / "run"
    told: list[tuple[str, int, int]] = []
    N.run(work, 3, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, log=lambda line: None,
          progress=lambda *report: told.append(report))
    assert told[GAMES - 1::GAMES] == [(f"network {n}'s games", GAMES, GAMES) for n in range(3)]
    lines = [json.loads(x) for x in (work / "progress.jsonl").read_text().splitlines()]
    part = [sum(len(g["views"]) for k, g in enumerate(N.read_games(work, n)) if k % N.HOLD_OUT) for n in range(3)]
    assert [line["trained_on"] for line in lines] == [part[0], part[0] + part[1], sum(part)]
    small = tmp_path / "small"
    N.run(small, 2, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, size=part[1] + 1, log=lambda line: None)
    lines = [json.loads(x) for x in (small / "progress.jsonl").read_text().splitlines()]
    assert lines[1]["trained_on"] == part[1]  # (the same games: random moves whatever the network)


@pytest.mark.slow  # (a training run: the pure build runs it; the compiled build, not again)
def test_a_generation_stopped_while_playing_goes_on_with_the_games_it_had_not_finished(tmp_path, monkeypatch):
    """A generation's games are added to ``playing-G.jsonl`` as they end: a run stopped then goes on with
    the rest, to the network an unbroken run trains; the file goes once the games file is kept."""
    unbroken, stopped = tmp_path / "u", tmp_path / "s"
    N.run(unbroken, 1, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, log=lambda line: None)
    N.run(stopped, 0, GAMES, 1, 1, hidden=8, log=lambda line: None)  # (network 0 only)
    finished = [dict(g, k=k) for k, g in enumerate(N.read_games(unbroken, 0)) if k in (0, 3, GAMES - 1)]
    (stopped / "playing-0.jsonl").write_text("".join(json.dumps({x: v for x, v in g.items() if x != "views"}) + "\n"
                                                     for g in finished))
    played: list[int] = []
    play = N.play_game
    monkeypatch.setattr(N, "play_game", lambda seed, *rest: played.append(seed) or play(seed, *rest))
    N.run(stopped, 1, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, log=lambda line: None)
    assert len(played) == GAMES - 3 and {g["seed"] for g in finished}.isdisjoint(played)  # (the three: not again)
    a, b = (ValueNet.load(run / "net-1.npz", packaged_model()) for run in (unbroken, stopped))
    assert np.array_equal(a.w1, b.w1) and not (stopped / "playing-0.jsonl").exists()
    cut = tmp_path / "cut"
    N.run(cut, 0, GAMES, 1, 1, hidden=8, log=lambda line: None)
    lines = [json.dumps({x: v for x, v in g.items() if x != "views"}) for g in finished]
    (cut / "playing-0.jsonl").write_text("\n".join(lines)[:-7])  # (the last line cut short by a stop)
    played.clear()
    N.run(cut, 1, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, log=lambda line: None)
    assert len(played) == GAMES - 2  # (the two whole games kept, the cut one played again)
    assert (cut / "net-1.npz").read_bytes() == (unbroken / "net-1.npz").read_bytes()
    other = tmp_path / "o"
    N.run(other, 0, GAMES, 2, 1, hidden=8, log=lambda line: None)
    (other / "playing-0.jsonl").write_text(json.dumps({x: v for x, v in finished[0].items() if x != "views"}) + "\n")
    with pytest.raises(RecordError, match="games of another run or generation"):
        N.run(other, 1, GAMES, 2, 1, hidden=8, epsilon=1.0, epochs=1, log=lambda line: None)


def test_capped_playouts_keep_the_deep_searches_with_their_root_visits(tmp_path):
    """``fast``: a ``deep`` share of the searched decisions keeps its value and its root (each move's
    index, visits and chance, most visited first); the others have neither; the game is a function of
    its seed; the record reads back and is checked."""
    from training.records import game as checked
    ValueNet.initial(16, 1).save(tmp_path / "n.npz")
    net = str(tmp_path / "n.npz")
    one = N.play_game(5, net, GameConfig(), 0.0, "mcts:iters=40,value=net", deep=0.3, fast=8)
    assert one == N.play_game(5, net, GameConfig(), 0.0, "mcts:iters=40,value=net", deep=0.3, fast=8)
    deep = {k for k, q in enumerate(one["values"]) if q is not None}
    assert deep and {k for k, _ in one["searches"]} == deep
    state = amigos.deal(one["seed"], GameConfig())
    many = 0  # (decisions among two moves or more: a deep or a fast search)
    for k, index in enumerate(one["choices"]):
        legal = state.legal_actions()
        many += len(legal) > 1
        root = dict(one["searches"]).get(k)
        if root is not None:
            visits = [n for _, n, _ in root]
            assert visits == sorted(visits, reverse=True) and sum(visits) <= 40
            assert all(0 <= i < len(legal) and 0.0 <= q <= 1.0 for i, _, q in root)
        state.apply(legal[index])
    assert 0.1 * many < len(deep) < 0.5 * many  # (about 30% searched deeply, the rest fast)
    assert checked(json.loads(json.dumps({k: v for k, v in one.items() if k != "views"})), "here")
    everything = N.play_game(5, net, GameConfig(), 0.0, "mcts:iters=40,value=net")
    assert {k for k, _ in everything["searches"]} == {k for k, q in enumerate(everything["values"]) if q is not None}
    assert cli.main(["neural", "--work", str(tmp_path / "x"), "--fast-iters", "10"]) == 2


@pytest.mark.slow  # (a training run: the pure build runs it; the compiled build, not again)
def test_a_run_from_a_given_network_trains_on_the_seed_games_too(tmp_path):
    """``--start`` with ``--seed-games``: network 0 is the file, byte for byte, and the earlier run's
    training games join the window of every generation, a resumed run's too."""
    earlier = tmp_path / "earlier"
    N.run(earlier, 1, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, log=lambda line: None)
    theirs = sum(len(g["views"]) for k, g in enumerate(N.read_games(earlier, 0)) if k % N.HOLD_OUT)
    ValueNet.initial(8, 3).save(tmp_path / "start.npz")
    work = tmp_path / "run"
    N.run(work, 1, GAMES, 2, 1, epsilon=1.0, epochs=1, start=tmp_path / "start.npz", seed_games=[earlier],
          log=lambda line: None)
    N.run(work, 2, GAMES, 2, 1, epsilon=1.0, epochs=1, log=lambda line: None)  # (resumed: no --seed-games given)
    assert (work / "net-0.npz").read_bytes() == (tmp_path / "start.npz").read_bytes()
    ours = [sum(len(g["views"]) for k, g in enumerate(N.read_games(work, n)) if k % N.HOLD_OUT) for n in (0, 1)]
    lines = [json.loads(x) for x in (work / "progress.jsonl").read_text().splitlines()]
    assert [line["trained_on"] for line in lines] == [theirs + ours[0], theirs + sum(ours)]
    assert N.seed_folders(work) == [earlier.resolve()]
    assert json.loads((work / N.GAMES_FROM).read_text()) == ["../earlier"]  # (the run goes on wherever it is moved)
    trained = ValueNet.load(earlier / "net-1.npz", packaged_model())
    trained.info["pretrained_from"] = [str(earlier)]  # (a copy of a network carries its own run's record)
    trained.save(tmp_path / "trained.npz")
    own = tmp_path / "own"
    N.run(own, 1, GAMES, 2, 1, epsilon=1.0, epochs=1, start=tmp_path / "trained.npz", log=lambda line: None)
    N.run(own, 2, GAMES, 2, 1, epsilon=1.0, epochs=1, log=lambda line: None)
    lines = [json.loads(x) for x in (own / "progress.jsonl").read_text().splitlines()]
    assert N.seed_folders(own) == [] and [line["trained_on"] for line in lines] == [ours[0], sum(ours)]


@pytest.mark.slow  # (a training run: the pure build runs it; the compiled build, not again)
def test_each_new_network_can_be_measured_against_the_one_before(tmp_path, monkeypatch):
    """``measure``: before network g is kept, it plays that many games against network g - 1 (each
    searching with its own file); the score goes into its progress line; a run stopped while measuring
    leaves only a candidate, never a network it did not measure."""
    work = tmp_path / "run"
    N.run(work, 1, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, measure=4, measure_iters=4, log=lambda line: None)
    (line,) = [json.loads(x) for x in (work / "progress.jsonl").read_text().splitlines()]
    measured = line["against_previous"]
    assert measured["games"] == 4 and 0 <= measured["points"] <= 4 and measured["iters"] == 4
    assert measured["interval"][0] <= measured["share"] <= measured["interval"][1]
    assert sorted(p.name for p in work.glob("*.npz")) == ["net-0.npz", "net-1.npz"]
    stopped = tmp_path / "stopped"

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    measure, play = N.strength, N.play_game
    monkeypatch.setattr(N, "strength", interrupted)
    with pytest.raises(KeyboardInterrupt):
        N.run(stopped, 1, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, measure=4, measure_iters=4, log=lambda line: None)
    assert sorted(p.name for p in stopped.glob("*.npz")) == ["candidate-1.npz", "net-0.npz"]
    monkeypatch.setattr(N, "strength", measure)
    played: list[int] = []
    monkeypatch.setattr(N, "play_game", lambda seed, *rest: played.append(seed) or play(seed, *rest))
    N.run(stopped, 1, GAMES, 1, 1, hidden=8, epsilon=1.0, epochs=1, measure=4, measure_iters=4, log=lambda line: None)
    assert (stopped / "net-1.npz").read_bytes() == (work / "net-1.npz").read_bytes()
    assert [json.loads(x)["against_previous"] for x in (stopped / "progress.jsonl").read_text().splitlines()] \
        == [measured]
    assert played == []  # (the games were kept before the stop: not played again)


def test_with_more_players_each_view_s_chance_is_the_same_from_features_read_once():
    """At three players or more a leaf reads every player's chance: the players' features, the same for
    every view, are read once and handed to each (`ValueNet.probability`'s ``rows``)."""
    from ai.features import player_features
    from ai.rewards import net_rewards, unfinished_rewards
    net = ValueNet.load(ValueNet.packaged_path(3), packaged_model())
    checked = 0
    for k, state in enumerate(random_positions(5, GameConfig(players=3), limit=120)):
        if state.is_terminal() or k % 10:
            continue
        checked += 1
        alone = [net.probability(state, q) for q in range(3)]
        rows = player_features(state)
        assert [net.probability(state, q, rows) for q in range(3)] == alone
        assert net_rewards(state, net, 0) == unfinished_rewards([x / sum(alone) for x in alone])
    assert checked > 5
