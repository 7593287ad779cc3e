"""The compiled card table: complete, in the protocol's power order, and nothing left unmodelled."""


from amigos import cards as C
from amigos import rng as R
from amigos.carddata import load_packaged


def test_counts_and_ids():
    assert len(C.ARTIFACTS) == 40 and len(C.MAGES) == 10 and len(C.MAGIC_ITEMS) == 8
    assert len(C.MONUMENTS) == 10 and len(C.PLACES_OF_POWER) == 10 and len(C.TILES) == 5
    assert len({c.id for c in C.CARDS if c.set == "base"}) == 78
    lux = ("base", "lux")
    assert len(C.set_cards(C.ARTIFACT, lux)) == 52 and len(C.set_cards(C.MAGE, lux)) == 14
    assert len(C.set_cards(C.MAGIC_ITEM, lux)) == 10 and len(C.set_cards(C.MONUMENT, lux)) == 14
    assert len(C.set_tiles(lux)) == 7 and len(C.set_cards(C.SCROLL, lux)) == 8
    assert len({c.id for c in C.CARDS}) == 78 + 34


def test_every_ability_is_modelled():
    """Every effect compiles into the vocabulary, and every power of base.json has a protocol index."""
    for card in C.CARDS:
        raw = card.raw
        listed = len(raw["powers"]) + len(raw["reactions"]) + len(raw.get("on_claim") or ())
        assert len(card.powers) == listed, card.id
        assert [p.index for p in card.powers] == list(range(listed))
        for power in card.powers:
            for effect in power.effects:
                assert effect[0] in C.EFFECT_OPS, (card.id, effect)
        for ability in raw["collect"]:
            assert ability["kind"] in {"gain", "gain_one_of", "gain_mix", "conditional_gain_mix", "windup",
                                       "collect_cost"}
        for passive in raw["passives"]:
            assert passive["kind"] == "placement_discount"


def test_power_order_is_the_reference_order():
    reference = load_packaged("reference_cards.json")
    kinds = {"ACTION": C.ACTION, "REACT": C.REACT}
    for section in reference.values():
        for entry in section:
            card = C.card_by_name(entry["name"])
            assert card.ref_name == entry["name"]
            for i, power in enumerate(entry.get("powers", [])):
                ours = card.powers[i]
                if power["power_type"] in kinds:
                    assert ours.kind == kinds[power["power_type"]], (card.id, i)
                assert ours.turn_self == bool(power.get("requires_turn")), (card.id, i)


def test_costs_and_points_as_printed():
    fire = C.BY_ID["fire_dragon"]
    assert fire.cost == (6, 0, 0, 0, 0) and fire.cost_any == 0 and fire.points == 1
    assert fire.is_dragon and not fire.is_creature
    serpent = C.BY_ID["sea_serpent"]
    assert serpent.is_dragon and serpent.is_creature
    wind = C.BY_ID["wind_dragon"]
    assert wind.cost_any == 4 and wind.cost_total == 8
    assert all(m.cost == (0, 0, 0, 0, 4) for m in C.MONUMENTS)
    assert C.BY_ID["sorcerers_bestiary"].vp_per_dragon == 2 and C.BY_ID["sorcerers_bestiary"].vp_per_creature == 1


def test_rng_golden_outputs():
    """SplitMix64 from seed 0; changing these changes every dealt game."""
    out = []
    state = 0
    for _ in range(3):
        value, state = R.next_u64(state)
        out.append(value)
    assert out == [16294208416658607535, 7960286522194355700, 487617019471545679]
    assert R.derive_seed(7, "game", 2) == 16213936490732396144


def test_rng_helpers():
    items = list(range(10))
    state = R.shuffle(5, items)
    assert sorted(items) == list(range(10)) and items != list(range(10))
    picked, _ = R.sample(5, list(range(10)), 4)
    assert len(set(picked)) == 4
    assert all(0 <= R.below(s, 3)[0] < 3 for s in range(50))
    assert state != 5
