"""The fit behind the learned value (``amigos-train fit`` (`training.train`)): logistic regression by Newton's method,
TD(lambda) targets, held-out scores, and a small pipeline from self-play games to a model file."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ai.learned import ValueModel
from training.selfplay import selfplay_game
from training.train import fit, lambda_returns, scores, train_model


def test_fit_recovers_the_weights_of_a_logistic_model():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(20000, 3))
    true = np.array([1.5, -0.8, 0.0])
    y = (rng.random(20000) < 1 / (1 + np.exp(-x @ true))).astype(float)
    w = fit(x, y, 1e-6)
    assert np.allclose(w, true, atol=0.08)
    shrunk = fit(x, y, 1.0)
    assert np.linalg.norm(shrunk) < np.linalg.norm(w)  # the L2 term pulls toward the prior (0)
    toward = fit(x, y, 10.0, prior=np.array([3.0, 3.0, 3.0]))
    assert toward.mean() > w.mean()


def test_lambda_returns_walk_back_from_each_game_s_result():
    # One game of three positions, both sides interleaved (side 0 then side 1 per position).
    x = np.zeros((6, 1))
    y = np.array([1.0, 0.0] * 3)
    gi = np.zeros(6, dtype=int)
    w = np.zeros(1)  # every prediction is 0.5
    g = lambda_returns(x, y, gi, w, 0.5)
    assert g[4] == 1.0 and g[5] == 0.0  # the last position takes the result
    assert g[2] == pytest.approx(0.5 * 0.5 + 0.5 * 1.0) and g[0] == pytest.approx(0.5 * 0.5 + 0.5 * g[2])
    assert np.allclose(lambda_returns(x, y, gi, w, 1.0), y)  # lambda 1: the result itself


def test_scores_reward_confident_right_answers():
    y = np.array([1.0, 0.0, 1.0, 0.5])
    good = scores(np.array([0.9, 0.1, 0.8, 0.5]), y)
    bad = scores(np.array([0.2, 0.7, 0.4, 0.5]), y)
    assert good["log_loss"] < bad["log_loss"] and good["accuracy"] > bad["accuracy"]


def test_a_model_is_fitted_to_self_play_games_and_written(tmp_path):
    games = [selfplay_game(seed, "mcts:iters=15") for seed in range(6)]
    model = train_model(games, 1e-2, log=lambda line: None, lam=0.7)
    assert isinstance(model, ValueModel) and model.info["games"] == 6
    assert set(model.cards) >= {"hawk", "witch"} and model.synergy >= 0
    path = tmp_path / "value.json"
    path.write_text(json.dumps(model.to_json()))
    assert ValueModel.load(path).base == pytest.approx(model.base, abs=1e-6)


def test_a_prior_model_holds_the_fit_near_its_weights_and_card_worths():
    """``prior``: the new games refine a model instead of replacing it; the stronger ``l2``, the
    nearer the fit stays to the prior's weights; the card worths are pulled toward the prior's."""
    games = [selfplay_game(seed, "mcts:iters=15") for seed in range(6)]
    prior = ValueModel.load(None)  # the packaged model
    quiet = dict(log=lambda line: None, lam=0.7)
    free = train_model(games, 1e-2, **quiet)
    held = train_model(games, 1e-2, prior=prior, **quiet)
    tight = train_model(games, 1e3, prior=prior, **quiet)

    def distance(model: ValueModel) -> float:
        return float(np.linalg.norm(np.array(model.base + model.late + model.final)
                                    - np.array(prior.base + prior.late + prior.final)))

    assert distance(tight) < distance(held) < distance(free)
    assert distance(tight) < 0.01
    assert tight.info["prior"] == prior.info

    def card_distance(model: ValueModel) -> float:  # the card worths are held by their own L2 (CARD_L2)
        return sum(abs(model.cards[c] - prior.cards[c]) for c in prior.cards)

    assert card_distance(held) < card_distance(free)


def test_the_pipeline_plays_each_later_generation_with_the_model_before_it(tmp_path):
    """``--pipeline``: generation 0 is the hand-tuned agent; generation 1 plays the linear value with
    generation 0's model, named in its spec (``model=FILE``, no process-wide setting); a stopped run
    goes on from its files without playing their games again."""
    from ai.agents import make_agent, parse_spec
    from ai.evaluator import HAND, LINEAR, packaged_model
    from training.play import read_games
    from training.train import pipeline
    work, out = tmp_path / "work", tmp_path / "value.json"
    lines: list[str] = []
    model = pipeline(work, out, 1, [3, 1], 5, 1, 1e-2, log=lines.append)
    first, second = (read_games(work / f"gen{g}.jsonl") for g in (0, 1))
    assert len(first) == 3 and len(second) == 1
    assert parse_spec(first[0]["spec"])[1]["value"] == HAND and "model" not in parse_spec(first[0]["spec"])[1]
    params = parse_spec(second[0]["spec"])[1]
    assert params["value"] == LINEAR and params["model"] == str(work / "model0.json")
    played = make_agent(second[0]["spec"]).evaluator
    assert played.model.digest() == ValueModel.load(work / "model0.json").digest() != packaged_model().digest()
    assert ValueModel.load(out).to_json() == model.to_json()
    again: list[str] = []
    pipeline(work, out, 1, [3, 1], 5, 1, 1e-2, log=again.append)

    def progress(log: list[str]) -> list[str]:  # (`training.play.play`'s lines as games are played)
        return [line for line in log if "games," in line and line.endswith(" s")]
    assert progress(lines) and not progress(again)  # (no game played again)
    assert read_games(work / "gen1.jsonl") == second
