"""What a player knows of the others' hidden cards follows each card (rules.md §1.9, §9.4: discard piles
and play are public): a card that goes from a public place into a hand or deck is known to every
other player as its holder's while it stays hidden, and a card that leaves its holder's hidden places
is known held by them no longer (`amigos.flow.move`).  One scenario per way a card travels, a
property over random games of 2-5 players, and the protocol's player count.
"""

from __future__ import annotations

import ast
import os
import random
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import amigos
from amigos import actions as A
from amigos import cards as C
from amigos.bridge import Bridge
from amigos.codes import ACTIONS, DECK, DISCARD, DRAFTING, FACE_UP, HAND, IN_PLAY
from amigos.config import GameConfig
from amigos.determinize import determinize
from amigos.errors import SetupError
from amigos.observe import unseen_deck
from amigos.protocol import state_from_setup

ZONES = (("hand", HAND), ("deck", DECK), ("discard", DISCARD), ("in_play", IN_PLAY))


def _table(players: list[dict[str, Any]], turn: int, lux: bool = False) -> amigos.GameState:
    """A game in the action phase of round 1, ``turn`` to act: player ``p`` has the mage
    ``players[p]["mage"]``, the artifacts (or scrolls, places of power) of each zone of `ZONES` named
    there by id, and ``"pool"`` (five counts).  Nobody knows anything of anyone's cards."""
    decks = [[C.BY_ID[cid] for zone, _ in ZONES for cid in spec.get(zone, ()) if C.BY_ID[cid].kind == C.ARTIFACT]
             for spec in players]
    places = [C.BY_ID[cid] for spec in players for cid in spec.get("in_play", ())
              if C.BY_ID[cid].kind == C.PLACE_OF_POWER]
    s = amigos.build_state(len(players), decks, [[C.BY_ID[spec["mage"]]] for spec in players], [], [], places,
                           starting_essences=[spec.get("pool", (0, 0, 0, 0, 0)) for spec in players],
                           expansions=("lux",) if lux else ())
    for p, spec in enumerate(players):
        for zone, where in ZONES:
            for cid in spec.get(zone, ()):
                e = s.find(cid)
                s.loc[e], s.owner[e] = where, p
        s.loc[s.find(spec["mage"])] = IN_PLAY
        s.mage_chosen[p] = True
    s.phase, s.round, s.item_picks, s.turn = ACTIONS, 1, len(players), turn
    s._legal = s._groups = None
    return s


def _give_turn(s: amigos.GameState, p: int) -> None:
    """``p`` acts next, even if they passed (a scenario's way to let one player act several times)."""
    s.passed[p] = False
    s.turn = p
    s._legal = s._groups = None


def _do(s: amigos.GameState, test: Callable[[tuple[Any, ...]], bool]) -> None:
    """Apply the first legal action that passes ``test``."""
    s.apply(next(a for a in s.legal_actions() if test(a)))


def _power(s: amigos.GameState, card: str, index: int, target: str | None = None) -> None:
    e, t = s.find(card), -1 if target is None else s.find(target)
    _do(s, lambda a: A.kind(a) == A.POWER and A.subject(a) == e and A.power_index(a) == index
        and (target is None or A.target(a) == t))


def _place(s: amigos.GameState, card: str) -> None:
    e = s.find(card)
    _do(s, lambda a: A.kind(a) == A.PLACE and A.subject(a) == e)


def _draw_back(s: amigos.GameState, p: int) -> None:
    """``p`` passes with an empty deck, so draws from their discard pile shuffled into it (in view)."""
    assert not s.deck(p) and s.discard_pile(p)
    _give_turn(s, p)
    _do(s, lambda a: A.kind(a) == A.PASS)


def _known(s: amigos.GameState, viewer: int, holder: int) -> list[str]:
    """What ``viewer``'s observation says ``holder`` is known to hold."""
    return s.observation(viewer)["players"][holder]["known_artifacts"]


def _hidden_of(world: amigos.GameState, p: int) -> set[str]:
    return {world.cards[e].id for e in range(world.n_art)
            if world.owner[e] == p and world.loc[e] in (HAND, DECK, DRAFTING)}


def _worlds_deal(s: amigos.GameState, viewer: int, card: str, holder: int, seeds: int = 30) -> None:
    """Every determinisation for ``viewer`` deals ``card`` among ``holder``'s hidden cards, no other's,
    and keeps the viewer's observation."""
    for seed in range(seeds):
        world = determinize(s, viewer, seed)
        assert world.observation(viewer) == s.observation(viewer)
        assert card in _hidden_of(world, holder), seed
        assert not any(card in _hidden_of(world, q) for q in range(s.n_players) if q != holder), seed


# -- taking a card back from a discard pile -------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("power", ["demonologist", "revivify"])
def test_a_card_taken_back_from_a_discard_pile_is_known_to_every_other_player(power, players):
    """Demonologist or Revivify takes Prism from player 0's discard pile, in everyone's view, to their
    hand: each rival knows player 0 holds it, and their determinisations deal it to player 0."""
    mage = "demonologist" if power == "demonologist" else "healer"
    spec = {"mage": mage, "discard": ["prism", "hawk"], "hand": ["vault"], "deck": ["crypt", "treant"],
            "in_play": ["revivify"] if power == "revivify" else [], "pool": (0, 1, 0, 1, 0)}
    rivals = [{"mage": m, "hand": [a], "deck": [b, c]} for m, a, b, c in (
        ("witch", "guard_dog", "dancing_sword", "elvish_bow"),
        ("seer", "fire_dragon", "mermaid", "chalice_of_fire"),
        ("druid", "cursed_skull", "dragon_egg", "windup_man"),
        ("alchemist", "fiery_whip", "horn_of_plenty", "jeweled_statuette"))]
    s = _table([spec] + rivals[:players - 1], turn=0, lux=True)
    _power(s, power, 0, "prism")
    assert s.loc[s.find("prism")] == HAND
    for q in range(1, players):
        assert "prism" in _known(s, q, 0)
        assert "hawk" not in _known(s, q, 0)  # (still in the discard pile)
        _worlds_deal(s, q, "prism", 0)


# -- a card that changes hands ----------------------------------------------------------------------------

def test_a_known_card_placed_and_destroyed_is_no_longer_believed_held():
    """Player 1's Fire Dragon is shuffled back into their deck and drawn (everyone knows they hold it),
    then placed and destroyed: nobody believes it held by them any more."""
    s = _table([
        {"mage": "seer", "hand": ["hawk"]},
        {"mage": "healer", "discard": ["fire_dragon"], "in_play": ["fiery_whip"], "pool": (6, 0, 0, 0, 0)},
        {"mage": "witch", "hand": ["guard_dog"]},
    ], turn=1)
    _draw_back(s, 1)
    assert _known(s, 0, 1) == _known(s, 2, 1) == ["fire_dragon"]
    _give_turn(s, 1)
    _place(s, "fire_dragon")
    assert _known(s, 0, 1) == _known(s, 2, 1) == []
    _give_turn(s, 1)
    _power(s, "fiery_whip", 1, "fire_dragon")
    assert s.loc[s.find("fire_dragon")] == DISCARD
    assert _known(s, 0, 1) == _known(s, 2, 1) == []
    assert not any(row[1] for row in s.known_held)


def test_a_dragon_taken_with_sorcerer_s_bestiary_is_known_only_as_its_new_holder_s():
    """Player 1 draws their Water Dragon back from their discard pile (in view) and discards it; player 2
    places it from there with Sorcerer's Bestiary, destroys it and shuffles it back into their deck:
    player 0 knows player 2 holds it, not player 1, and deals it to player 2 alone."""
    s = _table([
        {"mage": "seer", "hand": ["hawk"]},
        {"mage": "healer", "discard": ["water_dragon"], "hand": ["vault"]},
        {"mage": "witch", "in_play": ["sorcerers_bestiary", "fiery_whip"], "discard": ["treant"],
         "pool": (0, 0, 10, 0, 0)},
    ], turn=1)
    _draw_back(s, 1)
    assert _known(s, 0, 1) == _known(s, 2, 1) == ["water_dragon"]
    _give_turn(s, 1)
    _do(s, lambda a: A.kind(a) == A.DISCARD and A.subject(a) == s.find("water_dragon"))
    assert _known(s, 0, 1) == _known(s, 2, 1) == []
    _give_turn(s, 2)
    _power(s, "sorcerers_bestiary", 1)
    _place(s, "water_dragon")
    assert s.owner[s.find("water_dragon")] == 2 and s.loc[s.find("water_dragon")] == IN_PLAY
    assert not any(_known(s, q, r) for q in range(3) for r in range(3) if q != r)
    _give_turn(s, 2)
    _power(s, "fiery_whip", 1, "water_dragon")
    _draw_back(s, 2)  # (Treant and the Dragon: either may be drawn)
    assert _known(s, 0, 2) == _known(s, 1, 2) == ["treant", "water_dragon"]
    assert _known(s, 0, 1) == []
    _worlds_deal(s, 0, "water_dragon", 2)


def test_a_dragon_reshuffled_by_its_new_holder_is_not_also_believed_with_its_old_one():
    """Five players (the reported case): Wind Dragon goes from player 4's discard pile into their hand,
    is placed and destroyed; player 1 takes it with Sorcerer's Bestiary, destroys it and shuffles
    their discard pile into their deck.  Every observation names it under player 1 only."""
    s = _table([
        {"mage": "seer"},
        {"mage": "healer", "in_play": ["sorcerers_bestiary", "fiery_whip"], "discard": ["prism"],
         "pool": (0, 0, 12, 0, 0)},
        {"mage": "witch"},
        {"mage": "druid"},
        {"mage": "alchemist", "discard": ["wind_dragon"], "in_play": ["corrupt_altar"], "pool": (0, 0, 8, 0, 0)},
    ], turn=4, lux=True)
    _draw_back(s, 4)
    assert all(_known(s, q, 4) == ["wind_dragon"] for q in range(4))
    _give_turn(s, 4)
    _place(s, "wind_dragon")
    _give_turn(s, 4)
    _power(s, "corrupt_altar", 1, "wind_dragon")
    _give_turn(s, 1)
    _power(s, "sorcerers_bestiary", 1)
    _place(s, "wind_dragon")
    _give_turn(s, 1)
    _power(s, "fiery_whip", 1, "wind_dragon")
    _draw_back(s, 1)  # (Prism and the Dragon: either may be drawn, the other stays in the deck)
    assert s.loc[s.find("wind_dragon")] in (HAND, DECK) and s.owner[s.find("wind_dragon")] == 1
    for q in (0, 2, 3, 4):
        holders = [r for r in range(5) if r != q and "wind_dragon" in _known(s, q, r)]
        assert holders == [1], q
    _worlds_deal(s, 0, "wind_dragon", 1, seeds=10)


def test_a_card_stolen_from_a_rival_leaves_its_new_holder_s_record_of_their_cards():
    """Two players: player 1's Water Dragon is shuffled into their deck (player 0 now records it) and
    discarded; player 0 places it with Sorcerer's Bestiary.  It is player 0's own now: player 0 still
    sees their whole deck (a recorded own card would mark their deal as a First Game's face-down one)."""
    s = _table([
        {"mage": "seer", "in_play": ["sorcerers_bestiary"], "hand": ["hawk"], "deck": ["crypt", "treant"],
         "pool": (0, 0, 10, 0, 0)},
        {"mage": "healer", "discard": ["water_dragon"], "hand": ["vault"]},
    ], turn=1)
    _draw_back(s, 1)
    assert "water_dragon" in _known(s, 0, 1)
    _give_turn(s, 1)
    _do(s, lambda a: A.kind(a) == A.DISCARD and A.subject(a) == s.find("water_dragon"))
    assert "water_dragon" not in _known(s, 0, 1)
    _give_turn(s, 0)
    _power(s, "sorcerers_bestiary", 1)
    _place(s, "water_dragon")
    assert unseen_deck(s, 0) == []
    assert s.observation(0)["players"][0]["deck"] == ["crypt", "treant"]


def test_a_redraft_pick_is_known_to_the_rival_as_it_is_taken():
    """Game 2 of a match: an artifact taken from the face-up sixteen is known to be the taker's."""
    first = amigos.new_game(3)
    artifacts = [c.id for c in first.cards[:first.n_art]]
    s = amigos.next_game(5, ["seer", "healer"], artifacts, chooser=0, redraft=True)
    _do(s, lambda a: A.kind(a) == A.CHOOSE_FIRST and A.subject(a) == 0)
    e = next(A.subject(a) for a in s.legal_actions() if A.kind(a) == A.REDRAFT_PICK)
    s.apply((A.REDRAFT_PICK, 0, e))
    assert s.loc[e] == DECK and s.cards[e].id in _known(s, 1, 0)
    assert s.cards[e].id not in s.observation(1)["face_up_artifacts"]


def test_every_move_of_a_card_in_play_goes_through_move():
    """The modules of play change a component's place or owner only in `amigos.flow.move` (its helper
    `_place`), so that no move escapes what the players learn of it."""
    root = Path(amigos.__file__).resolve().parent
    writes = []
    for name in ("apply.py", "flow.py", "draft.py", "steps.py", "state.py"):
        tree = ast.parse((root / name).read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef) or (name, func.name) == ("flow.py", "_place"):
                continue
            for node in ast.walk(func):
                targets = node.targets if isinstance(node, ast.Assign) else (
                    [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
                for target in targets:
                    for part in target.elts if isinstance(target, ast.Tuple) else [target]:
                        if isinstance(part, ast.Subscript) and ast.unparse(part.value).split(".")[-1] in ("loc", "owner"):
                            writes.append(f"{name}:{node.lineno} {func.name}")
    assert not writes, writes


# -- the protocol's player count -------------------------------------------------------------------------

def _setup(players: int) -> dict[str, Any]:
    artifacts = [c.ref_name for c in C.set_cards(C.ARTIFACT, (C.BASE_SET,))]
    mages = [c.ref_name for c in C.set_cards(C.MAGE, (C.BASE_SET,))]
    return {"__type__": "ResolveGameSetup", "places_of_power": [], "monument_display": [], "monument_deck": [],
            "mage_options": [[mages[p]] for p in range(players)],
            "artifact_decks": [artifacts[3 * p:3 * p + 3] for p in range(players)]}


def test_the_protocol_refuses_five_players_without_the_expansion():
    reply = Bridge(ruleset="reference").handle({"cmd": "new_game_from_setup", "setup": _setup(5), "num_players": 5})
    assert "error" in reply and "5 with Lux et Tenebrae" in reply["error"]
    for bad in (5, 0, 6, "3", True, None):
        with pytest.raises(SetupError, match="players"):
            state_from_setup(_setup(4), num_players=bad)
    assert state_from_setup(_setup(5), num_players=5, expansions=("lux",)).n_players == 5
    assert state_from_setup(_setup(1), num_players=1).n_players == 1  # (the rule scenarios' solo games)
    with pytest.raises(SetupError, match="2 to 4 players"):
        GameConfig(players=5)


# -- the property -----------------------------------------------------------------------------------------

#: (variant, expansions, players): base and Lux et Tenebrae, draft and First Game, 2 to 5 players.
CONFIGS = [(v, (), n) for v in ("standard", "draft", "first_game") for n in (2, 3, 4)] + [
    ("standard", ("lux",), 2), ("standard", ("lux",), 5), ("draft", ("lux",), 3), ("draft", ("lux",), 5),
    ("first_game", ("lux",), 2), ("first_game", ("lux",), 4)]
MAX_DECISIONS = 400  # (of a game's first decisions; a random game takes a few hundred)
PUBLIC = (IN_PLAY, DISCARD, FACE_UP)
HELD = (HAND, DECK, DRAFTING)  # a player's hidden cards: hand, deck, the draft packet they hold


def check_knowledge(s: amigos.GameState, taken_back: dict[int, int], ctx: str) -> None:
    """Every card an observation names as known held by a rival is among that rival's hidden cards, and
    every card in ``taken_back`` (entity: holder) is named under its holder for every other player."""
    held = [{s.cards[e].id for e in range(s.n_art) if s.owner[e] == r and s.loc[e] in HELD}
            for r in range(s.n_players)]
    for q in range(s.n_players):
        seen = s.observation(q)["players"]
        for r in range(s.n_players):
            if r != q:
                wrong = set(seen[r]["known_artifacts"]) - held[r]
                assert not wrong, f"{ctx}: player {q} believes player {r} holds {sorted(wrong)}"
        for e, holder in taken_back.items():
            if q != holder:
                assert s.cards[e].id in seen[holder]["known_artifacts"], (
                    f"{ctx}: player {q} forgot that player {holder} took {s.cards[e].id} back")


def check_worlds(s: amigos.GameState, rng: random.Random, ctx: str) -> None:
    """A determinisation for each player deals every card they know a rival holds to that rival."""
    for q in range(s.n_players):
        world = determinize(s, q, rng.getrandbits(64))
        seen = s.observation(q)["players"]
        for r in range(s.n_players):
            if r != q:
                missing = set(seen[r]["known_artifacts"]) - _hidden_of(world, r)
                assert not missing, f"{ctx}: player {q}'s world does not deal {sorted(missing)} to player {r}"


@settings(max_examples=int(os.environ.get("AMIGOS_KNOWLEDGE_EXAMPLES", "40")), deadline=None,
          derandomize=False, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**32))
def test_what_an_observation_says_a_rival_holds_they_hold(config, seed, choice_seed):
    """Random play (the first `MAX_DECISIONS` decisions): after every decision `check_knowledge` holds,
    every card that went from a public place (play, a discard pile, face up) into a hand or deck being
    followed while it stays there with its holder; at about one decision in 25, `check_worlds`."""
    variant, expansions, players = config
    s = amigos.deal(seed, GameConfig.parse(variant, "official", expansions, players))
    rng, side = random.Random(choice_seed), random.Random(choice_seed ^ 0x5A5A)
    taken_back: dict[int, int] = {}
    for step in range(MAX_DECISIONS):
        ctx = f"{config} seed={seed} choice_seed={choice_seed} step={step}"
        check_knowledge(s, taken_back, ctx)
        if s.is_terminal():
            break
        if side.randrange(25) == 0:
            check_worlds(s, side, ctx)
        before = s.loc[:s.n_art]
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
        for e, where in enumerate(before):
            if where in PUBLIC and s.loc[e] in (HAND, DECK):
                taken_back[e] = s.owner[e]
        for e, holder in list(taken_back.items()):
            if s.owner[e] != holder or s.loc[e] not in (HAND, DECK):
                del taken_back[e]
