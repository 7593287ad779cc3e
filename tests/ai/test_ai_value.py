"""The MCTS leaf value (`ai.value`): what it counts beyond the reference evaluation."""

from __future__ import annotations

import pytest

from ai.value import _WORTH, ESSENCE, GOLD, heuristic_value, player_values, power_income
from amigos import cards as C
from amigos.position import build_position


def _powers(name):
    return C.BY_NAME[name].powers


@pytest.mark.parametrize("name, incomes", [
    ("Magical Shard", [1]),            # free: 1 essence
    ("Horn of Plenty", [3, 1]),        # free: 3 essences, or 1 Gold
    ("Hand of Glory", [1]),            # 2 Death, but each rival gains 1
    ("Corrupt Altar", [1, 0]),         # pay 2 Life, 3 on the card; the destroying power makes nothing
    ("Transmutation", [0]),            # 3 for 3: converts, makes nothing
    ("Dwarven Pickaxe", [0]),          # 1 Elan for 1 Gold
    ("Sacrificial Dagger", [2, 0]),    # pay 1 Life, 3 Death on it; destroying itself is no income
])
def test_power_income_is_what_an_action_power_makes_beyond_its_cost(name, incomes):
    assert [power_income(p) for p in _powers(name)] == incomes


def test_a_free_producer_is_worth_more_in_play_than_a_plain_power():
    shard, scholar = C.BY_NAME["Magical Shard"], C.BY_NAME["Scholar"]
    assert _WORTH[shard.idx] == pytest.approx(_WORTH[scholar.idx] + 0.35)


def _position(on_vault=None, on_catacombs=None, pool=None):
    mine = {"mage": "witch", "item": "alchemy", "in_play": ["vault"], "places": ["catacombs_of_the_dead"],
            "pool": pool or {}, "essences_on": {}}
    if on_vault:
        mine["essences_on"]["vault"] = on_vault
    if on_catacombs:
        mine["essences_on"]["catacombs_of_the_dead"] = on_catacombs
    return build_position([mine, {"mage": "healer", "item": "protection"}], first_player=1)


def test_essences_on_components_count_like_the_pool():
    bare = heuristic_value(_position(), 0)
    on_card = heuristic_value(_position(on_vault={"gold": 1, "death": 2}), 0)
    in_pool = heuristic_value(_position(pool={"gold": 1, "death": 2}), 0)
    assert on_card == pytest.approx(bare + GOLD + 2 * ESSENCE)
    assert on_card == pytest.approx(in_pool)


def test_essences_on_a_place_that_scores_them_count_only_as_points():
    bare = _position()
    scored = _position(on_catacombs={"death": 3})
    assert scored.victory_points()[0] == bare.victory_points()[0] + 3
    # Same points, hand and horizon: the three Death add nothing more.
    assert player_values(scored, [5, 5], [0, 0], 0.5) == pytest.approx(player_values(bare, [5, 5], [0, 0], 0.5))


def test_the_first_player_token_is_worth_its_tempo_until_someone_is_near_a_win():
    from ai.value import FIRST_PLAYER_EARLY

    def value_with_token(holder, monuments=()):
        players = [{"mage": "witch", "item": "alchemy", "monuments": list(monuments)},
                   {"mage": "healer", "item": "protection"}]
        return heuristic_value(build_position(players, first_player=holder), 0)

    # Held by me rather than by the rival: twice its worth, far less than a whole point each way.
    assert value_with_token(0) - value_with_token(1) == pytest.approx(2 * FIRST_PLAYER_EARLY)
    assert FIRST_PLAYER_EARLY < 0.5
    # With 9 points on the table the token's point can decide the next check: it counts in full (a
    # whole point each way, less a little since the horizon of future income moves with the points).
    near = ("great_pyramid", "colossus", "temple", "mausoleum")
    assert 1.8 < value_with_token(0, near) - value_with_token(1, near) <= 2.0
