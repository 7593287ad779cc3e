"""The model of a player's choices: its move inputs, its file, that it sees only the mover's view, and
that its training (the gradient, the fit) does what it says."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import amigos
from ai import policy as P
from ai.network import NetError, ValueNet
from amigos import actions as A
from amigos.config import GameConfig
from amigos.determinize import determinize
from tests.helpers import random_positions
from training import cli
from training import policy as T


def test_every_move_has_inputs_in_range_naming_its_kind_and_card():
    seen = set()
    for state in random_positions(3, GameConfig(expansions=("lux",))):
        for move in P.moves_of(state):
            inputs = P.move_inputs(state, move)
            assert inputs[0] == A.kind(move) and all(0 <= i < P.N_MOVE_INPUTS for i in inputs)
            assert len(set(inputs)) == len(inputs)
            if A.kind(move) == A.PLACE:
                card = state.cards[A.subject(move)].id
                assert P.SUBJECT_AT + A.PLACE * P.E.N_CARDS + P.E.CARD_INDEX[card] in inputs
            seen.add(A.kind(move))
    assert {A.PLACE, A.DISCARD, A.PASS, A.POWER} <= seen


def test_the_model_sees_what_its_player_sees_and_no_more():
    """A player's move chances are the same in every world dealt for that player (their rival's
    hidden cards and the decks' order change nothing)."""
    net = P.PolicyNet.initial(16, 2)
    net.u[:] = np.random.default_rng(1).normal(0, 1, P.N_MOVE_INPUTS)
    checked = 0
    for k, state in enumerate(random_positions(5)):
        if k % 7 or len(P.moves_of(state)) < 2:
            continue
        p = state.current_player()
        moves = P.moves_of(state)
        chances = net.probabilities(state, moves)
        assert chances.sum() == pytest.approx(1.0)
        for seed in range(3):
            world = determinize(state, p, seed)
            assert np.allclose(net.probabilities(world, moves), chances)
        checked += 1
    assert checked > 5


def test_a_model_file_round_trips_and_another_file_is_refused(tmp_path):
    net = P.PolicyNet.initial(8, 3)
    net.info["games"] = 12
    net.save(tmp_path / "p.npz")
    back = P.PolicyNet.load(tmp_path / "p.npz")
    assert back.info["games"] == 12 and np.allclose(back.v, net.v) and np.allclose(back.w1, net.w1, atol=1e-6)
    ValueNet.initial(8, 3).save(tmp_path / "v.npz")
    with pytest.raises(NetError, match="not a policy network"):
        P.PolicyNet.load(tmp_path / "v.npz")
    with pytest.raises(NetError, match="missing.npz: no such file"):
        P.PolicyNet.load(tmp_path / "missing.npz")


def _records(games: int, rule) -> list[dict]:
    """Games in which every decision follows ``rule(state, legal) -> index``."""
    out = []
    for seed in range(games):
        state = amigos.deal(seed, GameConfig())
        choices = []
        while not state.is_terminal() and len(choices) < 400:
            legal = state.legal_actions()
            choices.append(rule(state, legal))
            state.apply(legal[choices[-1]])
        out.append({"seed": seed, "expansions": [], "choices": choices})
    return out


def _passes_when_it_can(state, legal):
    kinds = [A.kind(a) for a in legal]
    return kinds.index(A.PASS) if A.PASS in kinds else random.Random(len(kinds)).randrange(len(legal))


def test_the_gradient_is_the_loss_s():
    """One Adam step's gradients, checked against finite differences of the loss."""
    d = T.decisions(_records(1, _passes_when_it_can)[:1])
    net = P.PolicyNet.initial(4, 1)
    rows = np.arange(min(len(d), 20))

    def loss() -> float:
        x, feats, feat_move, move_ex, chosen, _ = T._batch(d, rows)
        _, p = T._forward(net, x, feats, feat_move, move_ex)
        return float(-np.log(p[chosen]).sum() / len(rows))

    grads = {}

    class Spy:
        def step(self, params, g):
            grads.update(zip(("w1", "b1", "u", "v"), g))
    x, feats, *_ = T._batch(d, rows)
    original = T.Adam
    T.Adam = lambda shapes, rate: Spy()  # type: ignore[assignment,misc]
    try:
        T.train(net, T.Decisions(d.view_ptr[:len(rows) + 1], d.view_idx, d.view_val, d.move_ptr[:len(rows) + 1],
                                 d.feat_ptr, d.feat, d.chosen[:len(rows)], d.target), 1, 0.0, len(rows),
                np.random.default_rng(0))
    finally:
        T.Adam = original
    _agrees(net, grads, loss, (("u", int(feats[0])), ("u", int(feats[-1])), ("v", (int(feats[1]), 2)),
                               ("b1", 1), ("w1", (int(d.view_idx[0]), 3))))


def _agrees(net, grads, loss, weights) -> None:
    """Each of ``weights`` (name, index) moved a small step each way changes ``loss()`` as ``grads`` says."""
    for name, index in weights:
        array = getattr(net, name)
        keep = array[index]
        array[index] = keep + 1e-6
        up = loss()
        array[index] = keep - 1e-6
        down = loss()
        array[index] = keep
        assert grads[name][index] == pytest.approx((up - down) / 2e-6, rel=1e-3, abs=1e-7)


@pytest.mark.slow  # (a training run: the pure build runs it; the compiled build, not again)
def test_training_learns_a_habit_and_the_command_keeps_the_model(tmp_path, capsys):
    records = _records(40, _passes_when_it_can)
    (tmp_path / "games-0.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    assert cli.main(["policy", "--games", str(tmp_path), "--out", str(tmp_path / "p.npz"), "--epochs", "3", "--hidden", "8"]) == 0
    net = P.PolicyNet.load(tmp_path / "p.npz")
    figures = net.info["held_out"]
    assert figures["log_loss"] < 0.8 * figures["uniform_log_loss"] and net.info["games"] == 40
    assert "epoch 3" in capsys.readouterr().out
    assert cli.main(["policy", "--games", str(tmp_path / "nothing"), "--out", str(tmp_path / "q.npz")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def _first_choice_of_three(record: dict) -> tuple[int, list, list]:
    """The first decision of ``record`` among three moves or more: (its number, legal actions, moves)."""
    from amigos.actions import macro_key
    state = amigos.deal(record["seed"], GameConfig())
    for k, index in enumerate(record["choices"]):
        legal = state.legal_actions()
        moves = list(dict.fromkeys(macro_key(a) for a in legal))
        if len(moves) > 2:
            return k, legal, moves
        state.apply(legal[index])
    raise AssertionError("no decision among three moves")


def test_a_searched_decision_s_target_is_the_share_of_the_root_s_visits():
    """Where a record keeps a decision's search, its target is each move's share of the root's visits
    (a move's ways together) and the record's other decisions give no example; a record without
    searches gives the move made at each decision."""
    from amigos.actions import macro_key
    record = _records(1, _passes_when_it_can)[0]
    plain = T.decisions([record])
    assert all(plain.target[plain.move_ptr[e] + plain.chosen[e]] == 1.0 for e in range(len(plain)))
    k, legal, moves = _first_choice_of_three(record)
    firsts = [legal.index(next(a for a in legal if macro_key(a) == m)) for m in moves[:3]]
    record["searches"] = [[k, [[firsts[0], 30, 0.6], [firsts[1], 10, 0.4], [firsts[2], 60, 0.5]]]]
    d = T.decisions([record])
    assert len(d) == 1 and list(d.target[:3]) == pytest.approx([0.3, 0.1, 0.6]) and d.target.sum() == pytest.approx(1)


def test_the_gradient_of_a_soft_target_is_its_loss_s():
    """With visit shares as the target, the step's gradient at the scores is p - target: a weight moved
    by a small step changes the loss as the gradient says."""
    from amigos.actions import macro_key
    record = _records(1, _passes_when_it_can)[0]
    k, legal, moves = _first_choice_of_three(record)
    record["searches"] = [[k, [[legal.index(next(a for a in legal if macro_key(a) == m)), n, 0.5]
                               for m, n in zip(moves, range(1, len(moves) + 1))]]]
    d = T.decisions([record])
    net = P.PolicyNet.initial(4, 2)
    rows = np.arange(len(d))

    def loss() -> float:
        x, feats, feat_move, move_ex, _, target = T._batch(d, rows)
        _, p = T._forward(net, x, feats, feat_move, move_ex)
        return float(-(target * np.log(p)).sum() / len(rows))
    grads = {}

    class Spy:
        def step(self, params, g):
            grads.update(zip(("w1", "b1", "u", "v"), g))
    original = T.Adam
    T.Adam = lambda shapes, rate: Spy()  # type: ignore[assignment,misc]
    try:
        T.train(net, d, 1, 0.0, len(rows), np.random.default_rng(0))
    finally:
        T.Adam = original
    _, feats, *_ = T._batch(d, rows)
    _agrees(net, grads, loss, (("u", int(feats[0])), ("b1", 1), ("w1", (int(d.view_idx[0]), 3))))
