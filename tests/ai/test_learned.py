"""The learned value (`ai.features`, `ai.learned`), the choice of payments and gains by it
(`ai.heuristics.learned_variant`), finished games valued by margin (`ai.rewards.final_rewards`), draft
picks (`ai.draft`) and self-play records (`training.selfplay`)."""

from __future__ import annotations

import json
import math
import random

import pytest

import amigos
from ai import learned as L
from ai.agents import make_agent
from ai.checkpoint import NetError
from ai.draft import fit, pick_scores, plan_of
from ai.evaluator import LINEAR, Evaluator, packaged_model
from ai.features import FEATURES, N_FEATURES, player_features
from ai.heuristics import learned_variant
from ai.mcts import search
from ai.rewards import WIN_MARGIN, final_rewards, learned_rewards
from amigos import actions as A
from amigos.codes import GAME_OVER
from amigos.position import build_position
from training.selfplay import outcome_for, positions, searched_positions, selfplay_game

F = {name: i for i, name in enumerate(FEATURES)}


def _model(**weights) -> L.ValueModel:
    """A model with the given base weights by feature name (late weights 0)."""
    base = [0.0] * N_FEATURES
    for name, w in weights.items():
        base[F[name]] = w
    return L.ValueModel(base, [0.0] * N_FEATURES, base)


def _me(**kw) -> dict:
    spec = {"mage": "artificer", "item": "protection"}
    spec.update(kw)
    return spec


RIVAL = {"mage": "healer", "item": "research"}


# -- features ---------------------------------------------------------------------------------------------

def test_a_place_of_power_the_pool_pays_for_is_within_reach_now_until_one_passes():
    s = build_position([_me(pool={"death": 9}), RIVAL], places_of_power=["catacombs_of_the_dead"])
    row = player_features(s)[0]
    assert row[F["place_now"]] > 0 and row[F["place_next"]] == row[F["place_now"]]
    s.passed[0] = True
    assert player_features(s)[0][F["place_now"]] == 0
    short = build_position([_me(pool={"death": 6}), RIVAL], places_of_power=["catacombs_of_the_dead"])
    assert player_features(short)[0][F["place_next"]] == pytest.approx(row[F["place_next"]] / 4)  # 3 lacking


def test_monuments_within_reach_need_four_gold_now_and_count_gold_income_next():
    now = player_features(build_position([_me(pool={"gold": 4}), RIVAL], monuments_face_up=["temple"]))[0]
    assert now[F["monument_now"]] == 1 and now[F["monument_next"]] == 1
    poor = player_features(build_position([_me(pool={"gold": 2}), RIVAL], monuments_face_up=["temple"]))[0]
    assert poor[F["monument_now"]] == 0 and poor[F["monument_next"]] == pytest.approx(1 / 3)
    none = player_features(build_position([_me(pool={"gold": 4}), RIVAL]))[0]
    assert none[F["monument_now"]] == none[F["monument_next"]] == 0


def test_essences_nothing_asks_for_are_spare_and_points_exclude_the_token():
    s = build_position([_me(pool={"calm": 7}, hand=["nightingale"], monuments=["temple"]), RIVAL],
                       first_player=0)
    row = player_features(s)[0]
    assert row[F["useful"]] == 1 and row[F["spare"]] == 6  # Nightingale asks 1 Calm
    assert row[F["points"]] == 2 and row[F["token"]] == 1
    assert row[F["placeable"]] == 0  # no Life for Nightingale


def test_a_scoring_place_makes_points_each_round_as_far_as_essences_allow():
    reef = _me(places=["sunken_reef"], pool={"calm": 4, "life": 2})
    row = player_features(build_position([reef, RIVAL]))[0]
    assert row[F["engine_points"]] >= 2  # 2 Calm and 1 Life a point, twice from this pool
    dry = player_features(build_position([_me(places=["sunken_reef"]), RIVAL]))[0]
    assert dry[F["engine_points"]] < row[F["engine_points"]]


def test_features_read_nothing_the_rival_cannot_see_of_a_determinised_world():
    s = amigos.new_game(3)
    rng = random.Random(3)
    for _ in range(40):
        s.apply(rng.choice(s.legal_actions()))
    p = s.current_player()
    mine = [player_features(amigos.determinize(s, p, seed))[p] for seed in range(5)]
    assert all(row == mine[0] for row in mine)  # the player's own row does not depend on the deal


# -- the model ----------------------------------------------------------------------------------------------

def test_the_packaged_model_loads_and_is_a_probability_for_two_players():
    model = packaged_model()
    assert len(model.base) == len(model.late) == N_FEATURES
    s = amigos.new_game(5)
    rng = random.Random(5)
    for _ in range(60):
        s.apply(rng.choice(s.legal_actions()))
    p0, p1 = model.win_probability(s, 0), model.win_probability(s, 1)
    assert 0 < p0 < 1 and p0 + p1 == pytest.approx(1.0)


def test_model_files_round_trip_and_refuse_other_features(tmp_path):
    model = _model(points=1.0, gold=0.5)
    model.cards = {"hawk": 0.25}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model.to_json()))
    back = L.ValueModel.load(path)
    assert back.base == model.base and back.cards == {"hawk": 0.25}
    data = model.to_json()
    data["features"] = data["features"][:-1]
    path.write_text(json.dumps(data))
    with pytest.raises(NetError, match="m.json: a value model for other features"):
        L.ValueModel.load(path)  # (one line naming the file: see tests/ai/test_model_files.py)
    with pytest.raises(L.ModelError):
        L.ValueModel.from_json({"format": "something else"})


def test_more_points_than_the_rival_is_a_better_chance():
    model = _model(points=0.5)
    ahead = build_position([_me(monuments=["temple", "colossus"]), RIVAL], first_player=1)
    assert model.win_probability(ahead, 0) == pytest.approx(1 / (1 + math.exp(-2.0)))  # 4 points ahead
    assert model.win_probability(ahead, 1) == pytest.approx(1 / (1 + math.exp(2.0)))


# -- payments and gains ----------------------------------------------------------------------------------

def test_the_learned_variant_takes_the_gold_that_completes_a_monument():
    s = build_position([_me(hand=["hawk"], pool={"gold": 3}), RIVAL], monuments_face_up=["temple"])
    discards = next(g for g in s.legal_groups() if A.kind(g[0]) == A.DISCARD)  # 1 Gold or 2 non-Gold
    likes_monuments = _model(monument_now=2.0, useful=0.1, spare=0.1)
    assert A.gain(learned_variant(s, discards, likes_monuments)) == (0, 0, 0, 0, 1)
    likes_essences = _model(useful=1.0, spare=1.0)
    assert A.gain(learned_variant(s, discards, likes_essences))[4] == 0


def _finished(points: list[int]):
    """A finished game won by player 0 with these points."""
    s = build_position([_me(), RIVAL], first_player=1)
    s.temp_vp = [points[0], points[1] - 1]  # the token's point is player 1's
    s.phase = GAME_OVER
    s.won = (0,)
    return s


def test_a_won_game_is_worth_more_by_a_wider_margin():
    narrow, wide = final_rewards(_finished([10, 9])), final_rewards(_finished([13, 6]))
    assert narrow[0] == pytest.approx(1 - WIN_MARGIN + WIN_MARGIN / 4) and wide[0] == 1.0
    assert narrow[0] + narrow[1] == wide[0] + wide[1] == pytest.approx(1.0)
    assert learned_rewards(_finished([13, 6]), packaged_model()) == wide



def test_a_game_won_is_worth_more_than_any_estimate_of_one_still_played(tmp_path):
    sure = _model(points=50.0)  # a model all but certain that four points ahead wins
    path = tmp_path / "sure.json"
    path.write_text(json.dumps(sure.to_json()))
    ahead = build_position([_me(monuments=["temple", "colossus"]), RIVAL], first_player=1)
    estimate = Evaluator.load(LINEAR, model=path).leaf(2, 0)(ahead)  # (the model read from its file)
    assert estimate == learned_rewards(ahead, sure) != learned_rewards(ahead, packaged_model())
    narrow = final_rewards(_finished([10, 9]))
    assert narrow[1] < estimate[1] < estimate[0] < narrow[0]
    assert estimate[0] + estimate[1] == pytest.approx(1.0)


def test_the_search_uses_a_repeatable_power_before_the_one_that_turns_its_component():
    # Catacombs of the Dead: pay 5 Death (repeatable, not while turned) or turn it, each for a Death
    # on it, a point each.  At 8 points against 9 (the rival passed), paying first then turning wins.
    me = _me(mage="necromancer", places=["catacombs_of_the_dead"],
             essences_on={"catacombs_of_the_dead": {"death": 5}}, pool={"death": 5}, turned=["necromancer"],
             monuments=["temple"], in_play=["jeweled_statuette"])
    rival = {"mage": "seer", "item": "calm_elan", "monuments": ["great_pyramid", "oracle", "colossus"],
             "in_play": ["water_dragon"], "passed": True}
    s = build_position([me, rival], first_player=1, turn=0, round_number=6)
    assert s.victory_points() == [8, 9] and s.current_player() == 0
    stats, _ = search(s, 0, 1500, None, 0)
    best = max(stats, key=lambda key: stats[key][0])
    # (the Jeweled Statuette's 3 Death first keeps both of the Catacombs' powers for after: as good)
    assert A.kind(best) == A.POWER and s.cards[A.subject(best)].name in ("Catacombs of the Dead", "Jeweled Statuette"), stats
    assert A.power_index(best) == 0, stats  # (not the turn of the Catacombs first, nor the Statuette's Gold)
    agent = make_agent("mcts:iters=1500,solo=0,seed=0")  # (the search alone, not the plan)
    while not s.is_terminal() and s.round == 6:  # (the search's line, played out: the won round)
        s.apply(agent.select(s))
    assert s.is_terminal() and s.winners() == [0], s.victory_points()


# -- drafts -------------------------------------------------------------------------------------------------

def _redraft(mages: list[str]):
    """Game 2 of a match at its first redraft pick, with these mages kept."""
    artifacts = ["hand_of_glory", "dragon_bridle", "fire_dragon", "hawk", "crypt", "cursed_skull", "athanor",
                 "vault", "prism", "guard_dog", "elvish_bow", "mermaid", "dwarven_pickaxe", "chalice_of_fire",
                 "sacrificial_dagger", "jeweled_statuette"]
    s = amigos.next_game(4, mages, artifacts, 0, True)
    s.apply((A.CHOOSE_FIRST, 0, 0))
    return s


def test_a_card_feeding_a_plan_fits_it_better():
    s = _redraft(["artificer", "necromancer"])
    necromancer, artificer = plan_of(s, 1), plan_of(s, 0)
    hand_of_glory = amigos.cards.BY_ID["hand_of_glory"]  # makes Death; the Necromancer turns Life into Death
    assert fit(hand_of_glory, necromancer) >= fit(hand_of_glory, artificer)
    bridle, dragon = amigos.cards.BY_ID["dragon_bridle"], amigos.cards.BY_ID["fire_dragon"]
    assert fit(bridle, plan_of(_with(s, 0, dragon), 0)) > fit(bridle, artificer)


def _with(s, p, card):
    """``s`` with ``card`` picked by ``p`` (its entity moved to ``p``'s deck)."""
    t = s.clone()
    e = t.find(card.name)
    t.loc[e], t.owner[e] = amigos.codes.DECK, p
    return t


def test_a_pick_weighs_worth_own_fit_and_the_rival_s_fit():
    s = _redraft(["artificer", "necromancer"])
    model = _model()
    model.cards = {c.id: 0.0 for c in amigos.cards.ARTIFACTS}
    model.synergy = 0.2
    ranked = pick_scores(s, model)
    assert {a for _, a, _ in ranked} == set(s.legal_actions())
    for score, a, parts in ranked:
        card = s.cards[A.subject(a)]
        assert parts["fit"] == fit(card, plan_of(s, 0)) and parts["deny"] == fit(card, plan_of(s, 1))
        assert score == pytest.approx(parts["worth"] + 0.2 * (parts["fit"] + parts["deny"]))
    assert [t[0] for t in ranked] == sorted((t[0] for t in ranked), reverse=True)
    # Worth counts: a card the model rates higher than every fit can make up for comes first.
    model.cards["hawk"] = 10.0
    assert s.cards[A.subject(pick_scores(s, model)[0][1])].id == "hawk"


# -- self-play -------------------------------------------------------------------------------------------

def test_a_self_play_record_replays_its_game():
    game = selfplay_game(9, "mcts:iters=20")
    assert game["winners"] and len(game["choices"]) > 20
    counted = 0
    for state in positions(game):
        assert len(state.legal_actions()) > 1
        counted += 1
    assert counted > 10
    again = selfplay_game(9, "mcts:iters=20")
    assert again["choices"] == game["choices"]  # a game is a function of its seed and the spec
    assert outcome_for(game, game["winners"][0]) > 0 and sum(outcome_for(game, p) for p in (0, 1)) == 1.0
    assert again["values"] == game["values"] and len(game["values"]) == len(game["choices"])
    searched = [v for _, v in searched_positions(game)]
    assert len(searched) == counted
    assert sum(v is not None for v in searched) > counted // 2  # most choices were searched
    assert all(0.0 <= v <= 1.0 for v in searched if v is not None)
    # A record from before the values were kept replays the same positions, without values.
    old = {k: v for k, v in game.items() if k != "values"}
    assert [v for _, v in searched_positions(old)] == [None] * counted


def test_the_redraft_knows_the_engine_that_won_and_takes_it_from_the_winner():
    from amigos.codes import IN_PLAY
    game1 = amigos.new_game(8)
    final = game1.clone()
    engine = ["hand_of_glory", "crypt"]
    for e in range(final.n_art):
        if final.cards[e].id in engine:
            final.loc[e], final.owner[e] = IN_PLAY, 1
    final.phase, final.won = GAME_OVER, (1,)
    artifacts = [c.id for c in final.cards[:final.n_art]]
    s = amigos.next_game(4, ["artificer", "necromancer"], artifacts, 0, True, previous=final)
    assert s.observation(0)["previous_game"] == {"winners": [1], "in_play": [[], sorted(engine)]}
    s.apply((A.CHOOSE_FIRST, 0, 0))  # the loser starts the redraft
    model = _model()
    model.cards = {c.id: 0.0 for c in amigos.cards.ARTIFACTS}
    ranked = pick_scores(s, model)
    assert {s.cards[A.subject(a)].id for _, a, _ in ranked[:2]} == set(engine)
    assert all(parts["engine"] > 0 for _, _, parts in ranked[:2])
    assert amigos.new_game(8).observation(0)["previous_game"] is None
