"""Starting a game: from the protocol's dictated setup, or dealt from a seed in one of three variants.

Variants (`new_game`):
- ``standard``: 2 mages and 8 artifacts each (3 in hand), 5 places of power on random sides,
  2 face-up monuments over a deck of 8, first player drawn from the seed.
- ``first_game``: two of the four preset hands with their mages, and each player's deck of 5 more
  artifacts dealt face down (unseen by its owner too) from the artifacts no preset hand uses
  (`PRESET_ARTIFACTS`); places of power on their first-game sides.
- ``draft``: 2 mages each; artifacts drafted (4 dealt, keep 1 and pass left until none are left, then
  4 more passed right), each pick a decision; then shuffle, draw 3, choose mage and magic items.

Rulesets: ``official`` (default) plays by the rulebook; ``reference`` reproduces the public reference
engine behind the protocol where it differs (cards/DIFFERENCES.md rows 1-5).
"""

from __future__ import annotations

from typing import Any, Sequence

from . import cards as C
from . import rng as R
from .adjudicate import ROUND_LIMIT
from .carddata import load_lux
from .codes import (
    AVAILABLE,
    BEING_CHOSEN,
    DECK,
    FACE_UP,
    HAND,
    IN_PLAY,
    MONUMENT_DECK,
    NO_CHECK,
    NOBODY,
    SETUP_CHOOSE_FIRST,
    SETUP_CHOOSE_MAGES,
)
from .config import FEWEST_PLAYERS_SETUP, Expansion, GameConfig, Ruleset, Variant, check_players
from .draft import start_draft
from .errors import SetupError
from .state import GameState

EXPANSION_NAMES = {C.BASE_SET: "base game", C.LUX: "Lux et Tenebrae"}

# The artifacts of the four First Game preset hands: a First Game deals its face-down decks from the
# other artifacts (rules.md §2.2), so a player knows an unseen card of such a deck is none of these.
PRESET_ARTIFACTS: frozenset[str] = frozenset(
    a for hand in C.FIRST_GAME["preset_hands"] for a in hand["artifacts"])


def build_state(num_players: int, artifact_decks: list[list[C.Card]], mage_options: list[list[C.Card]],
                monument_display: list[C.Card], monument_deck: list[C.Card], places_of_power: list[C.Card],
                first_player: int = 0, starting_essences: Sequence[Sequence[int]] | None = None,
                ruleset: str = "official",
                auto_chance: bool = True, round_limit: int = 0,
                expansions: Sequence[str] = ()) -> GameState:
    """A game at mage choice from explicit card lists (the protocol's ``ResolveGameSetup``).

    ``artifact_decks[p]``: the first three cards are ``p``'s hand, the rest the deck (order unknown).
    ``starting_essences[p]`` (5-tuples) replaces the default one of each essence.  ``round_limit``:
    the round whose victory check ends the game in any case (`amigos.adjudicate`); 0 for none.
    ``expansions``: ``("lux",)`` puts all ten magic items and the eight scrolls in the supply.
    ``num_players``: 1 to 4, 5 with the expansion (`amigos.config.check_players`); `SetupError` else.
    """
    sets = GameConfig.parse(ruleset=ruleset, expansions=expansions).card_sets  # (checks both)
    check_players(num_players, expansions, FEWEST_PLAYERS_SETUP)
    if len(mage_options) < num_players:
        raise SetupError("every player needs mage options")
    entities, loc, owner, n_art, item_first = _lay_out(artifact_decks, mage_options, monument_display,
                                                       monument_deck, places_of_power, num_players, sets)
    if not 0 <= first_player < num_players:
        raise SetupError("first player out of range")
    s = GameState.__new__(GameState)
    s.n_players = num_players
    s.cards = tuple(entities)
    s.n_art = n_art
    names = {}
    for e, c in enumerate(entities):
        names[c.name] = e
        names[c.ref_name] = e
        names[c.id] = e
    s.names = names
    s.reference = ruleset == "reference"
    s.item_first = item_first
    s.sets = sets
    s.memo = {}
    n = len(entities)
    s.loc = loc
    s.owner = owner
    s.turned = [0] * n
    s.ess = [0] * (5 * n)
    s.order = [-1] * n
    s.pool = _starting_pools(num_players, starting_essences)
    s.passed = [False] * num_players
    s.temp_vp = [0] * num_players
    s.first_player = first_player
    s.mage_chosen = [False] * num_players
    s.draft_picked = [False] * num_players
    s.phase = SETUP_CHOOSE_MAGES
    s.round = 0
    s.round_limit = round_limit
    s.turn = first_player
    s.stack = []
    s.won = ()
    s.turn_done = False
    s.victory_check = NO_CHECK
    s.check_caller = -1
    s.collect_player = s.collect_done = s.collect_next = 0
    s.item_picks = 0
    s.draft_stage = 0
    s.rng = 0
    s.auto_chance = auto_chance
    s.known_decks = tuple(frozenset() for _ in range(num_players))
    s.known_held = tuple(tuple(frozenset() for _ in range(num_players)) for _ in range(num_players))
    s.passed_packet = tuple(frozenset() for _ in range(num_players))
    s.previous_game = None
    s.mon_seer = -1
    s._legal = s._groups = None
    return s


def _lay_out(artifact_decks: list[list[C.Card]], mage_options: list[list[C.Card]], monument_display: list[C.Card],
             monument_deck: list[C.Card], places_of_power: list[C.Card], num_players: int, sets: tuple[str, ...]
             ) -> tuple[list[C.Card], list[int], list[int], int, int]:
    """The game's entities in entity order with their locations and owners, the number of artifacts
    and the first magic item's entity; a card of the wrong kind, of a set not in the game or given
    twice is a `SetupError`."""
    entities = []
    loc = []
    owner = []
    for p in range(num_players):
        for i, card in enumerate(artifact_decks[p] if p < len(artifact_decks) else ()):
            _expect(card, C.ARTIFACT)
            entities.append(card)
            loc.append(HAND if i < 3 else DECK)
            owner.append(p)
    n_art = len(entities)
    for p in range(num_players):
        for card in mage_options[p]:
            _expect(card, C.MAGE)
            entities.append(card)
            loc.append(BEING_CHOSEN)
            owner.append(p)
    item_first = len(entities)
    for card in C.set_cards(C.MAGIC_ITEM, sets):
        entities.append(card)
        loc.append(AVAILABLE)
        owner.append(NOBODY)
    for group, where in ((monument_display, AVAILABLE), (monument_deck, MONUMENT_DECK)):
        for card in group:
            _expect(card, C.MONUMENT)
            entities.append(card)
            loc.append(where)
            owner.append(NOBODY)
    for card in places_of_power:
        _expect(card, C.PLACE_OF_POWER)
        entities.append(card)
        loc.append(AVAILABLE)
        owner.append(NOBODY)
    for card in C.set_cards(C.SCROLL, sets):  # face up in the centre
        entities.append(card)
        loc.append(AVAILABLE)
        owner.append(NOBODY)
    for card in entities:
        if card.set not in sets:
            raise SetupError(f"{card.name} is a card of the {EXPANSION_NAMES[card.set]} expansion, "
                             "not in this game")
    ids = [c.id for c in entities]
    if len(set(ids)) != len(ids):
        raise SetupError("a card appears twice in the setup")
    return entities, loc, owner, n_art, item_first


def _starting_pools(num_players: int, starting_essences: Sequence[Sequence[int]] | None) -> list[int]:
    """The players' pools, five counts each: ``starting_essences[p]`` where given, else one of each."""
    pool: list[int] = []
    for p in range(num_players):
        if starting_essences is not None and p < len(starting_essences) and starting_essences[p] is not None:
            pool.extend(starting_essences[p])
        else:
            pool.extend((1, 1, 1, 1, 1))
    return pool


def _expect(card: object, kind: int) -> None:
    if not isinstance(card, C.Card) or card.kind != kind:
        raise SetupError(f"{getattr(card, 'name', card)!r} is not a {C.KIND_NAMES[kind].lower()}")


def card_sets(expansions: Sequence[str]) -> tuple[str, ...]:
    """The card sets of a game with these expansions (`EXPANSIONS`): the base game's, then theirs;
    `SetupError` for one it does not know (`GameConfig`'s check)."""
    return GameConfig.parse(expansions=expansions).card_sets


def new_game(seed: int, variant: Variant = "standard", ruleset: Ruleset = "official",
             expansions: Sequence[Expansion] = ()) -> GameState:
    """`deal`'s game for the `GameConfig` of these words (`SetupError` for one it does not know)."""
    return deal(seed, GameConfig(variant, ruleset, tuple(expansions)))


def deal(seed: int, config: GameConfig) -> GameState:
    """A game of ``config`` dealt from ``seed``; chance is resolved from the state's own RNG.  It ends at
    the latest at the victory check of round `ROUND_LIMIT` (`amigos.adjudicate`).  Each player gets 2
    mages and 8 artifacts (a First Game: a preset hand and 5 face down); the base game uses every
    monument and place of power whatever the number of players.  With *Lux et Tenebrae* (rules.md
    §2.3) all its cards join the base game's, and the table's number of monuments and place-of-power
    tiles are in the game (2 players: 7 and 4).  A two-player game is dealt exactly as it always was."""
    variant, ruleset, expansions, n = config.variant, config.ruleset, config.expansions, config.players
    sets = config.card_sets
    rng = R.derive_seed(seed, "deal")
    fp, rng = R.below(rng, n)
    if len(sets) > 1:
        tiles, monuments, rng = _deal_expansion_centre(rng, variant == "first_game", sets, n)
    else:
        tiles, monuments, rng = _deal_centre(rng, variant == "first_game")
    mages = list(C.set_cards(C.MAGE, sets))
    artifacts = list(C.set_cards(C.ARTIFACT, sets))
    if variant == "first_game":
        presets = list(C.FIRST_GAME["preset_hands"])
        chosen, rng = R.sample(rng, presets, n)
        rest = [c for c in artifacts if c.id not in PRESET_ARTIFACTS]
        rng = R.shuffle(rng, rest)
        decks = []
        mage_options = []
        for p, hand in enumerate(chosen):
            deck = [C.BY_ID[a] for a in hand["artifacts"]] + rest[5 * p:5 * p + 5]
            decks.append(deck)
            mage_options.append([C.BY_ID[hand["mage"]]])
    else:
        rng = R.shuffle(rng, mages)
        rng = R.shuffle(rng, artifacts)
        mage_options = [mages[2 * p:2 * p + 2] for p in range(n)]
        decks = [artifacts[8 * p:8 * p + 8] for p in range(n)]
    s = build_state(n, decks, mage_options, monuments[:2], monuments[2:], tiles, first_player=fp,
                    ruleset=ruleset, round_limit=ROUND_LIMIT, expansions=expansions)
    s.rng = R.derive_seed(seed, "chance")
    if variant == "first_game":
        # Each player has seen their preset hand, not the five cards dealt face down as their deck.
        # Every other deal shows a player all of their artifacts; this one records the own cards they
        # saw in their `known_decks`, which is what marks the rest of their deal as unseen
        # (`amigos.observe.unseen_deck`).
        s.known_decks = tuple(frozenset(hand["artifacts"]) for hand in chosen)
    elif variant == "draft":
        start_draft(s)
    elif variant == "standard":
        # The dealt hand is three random cards of the eight: the deck is shuffled, order unknown.
        pass
    return s


def _deal_centre(rng: int, first_game_sides: bool) -> tuple[list[C.Card], list[C.Card], int]:
    """The places of power (each tile on a random side, or its first-game side) and the shuffled
    monuments (the first two go face up); returns ``(tiles, monuments, rng)``."""
    tiles = []
    for first_side, other_side in C.TILES:
        if first_game_sides:
            tiles.append(first_side)
        else:
            flip, rng = R.below(rng, 2)
            tiles.append(other_side if flip else first_side)
    monuments = list(C.MONUMENTS)
    rng = R.shuffle(rng, monuments)
    return tiles, monuments, rng


def expansion_counts(n_players: int) -> tuple[int, int]:
    """The monuments and places of power in a game with the expansion, by player count (rules.md
    §2.3, from the expansion's data: 2 players 7 and 4)."""
    counts = load_lux()["setup"]["by_player_count"][str(n_players)]
    return counts["monuments"], counts["places_of_power"]


def _deal_expansion_centre(rng: int, first_game_sides: bool, sets: tuple[str, ...],
                           n_players: int) -> tuple[list[C.Card], list[C.Card], int]:
    """`_deal_centre` with an expansion: the table's number of tiles (`expansion_counts`), shuffled
    unseen, each on a random side (in a First Game a base tile on its first-game side: the
    expansion's tiles have none), and the table's number of the shuffled monuments, the rest going
    back to the box unseen."""
    n_monuments, n_places = expansion_counts(n_players)
    all_tiles = list(C.set_tiles(sets))
    rng = R.shuffle(rng, all_tiles)
    tiles = []
    for first_side, other_side in all_tiles[:n_places]:
        if first_game_sides and first_side.set == C.BASE_SET:
            tiles.append(first_side)
        else:
            flip, rng = R.below(rng, 2)
            tiles.append(other_side if flip else first_side)
    monuments = list(C.set_cards(C.MONUMENT, sets))
    rng = R.shuffle(rng, monuments)
    return tiles, monuments[:n_monuments], rng


# -- games 2 and 3 of a match ---------------------------------------------------------------------------

def next_game(seed: int, mages: Sequence[C.Card | str], artifacts: Sequence[Any], chooser: int, redraft: bool,
              config: GameConfig = GameConfig(), first_game_sides: bool = False,
              previous: GameState | None = None) -> GameState:
    """Game 2 or 3 of a two-player match (rules.md §2.5).

    ``mages[p]``: the mage ``p`` keeps (a card or card id).  With ``redraft`` (game 2), ``artifacts`` is
    the 16 artifacts of game 1, laid face up; otherwise (game 3) ``artifacts[p]`` is the 8 that ``p``
    drafted.  ``chooser`` (the loser of the previous game) first chooses who starts; then, in game 2,
    the first player takes 1 face-up artifact, the players alternate taking 2, and the first player
    takes the last; each shuffles their 8 and draws 3; magic items are chosen as usual.  ``previous``
    (the final state of the game before) tells both players who won it and which artifacts each had
    in play at its end (`GameState.previous_game`); it changes nothing else."""
    card = lambda c: c if isinstance(c, C.Card) else C.BY_ID[c]  # noqa: E731
    ruleset, expansions = config.ruleset, config.expansions
    sets = config.card_sets
    if len(sets) > 1:
        tiles, monuments, rng = _deal_expansion_centre(R.derive_seed(seed, "deal"), first_game_sides, sets, 2)
    else:
        tiles, monuments, rng = _deal_centre(R.derive_seed(seed, "deal"), first_game_sides)
    if redraft:
        pool = [card(c) for c in artifacts]
        if len(pool) != 16:
            raise SetupError("the redraft needs the 16 artifacts of game 1")
        decks = [pool[:8], pool[8:]]
    else:
        decks = [[card(c) for c in artifacts[p]] for p in range(2)]
        if any(len(d) != 8 for d in decks):
            raise SetupError("each player keeps the 8 artifacts they drafted")
    s = build_state(2, decks, [[card(mages[0])], [card(mages[1])]], monuments[:2], monuments[2:], tiles,
                    first_player=chooser, ruleset=ruleset, round_limit=ROUND_LIMIT, expansions=expansions)
    s.rng = R.derive_seed(seed, "chance")
    for e in range(len(s.loc)):
        if s.loc[e] == BEING_CHOSEN:
            s.loc[e] = IN_PLAY
    s.mage_chosen = [True, True]
    for e in range(s.n_art):
        if redraft:
            s.loc[e] = FACE_UP
            s.owner[e] = NOBODY
        else:
            s.loc[e] = DECK
    if previous is not None:
        s.previous_game = (tuple(previous.winners()), tuple(
            frozenset(previous.cards[e].id for e in range(previous.n_art)
                      if previous.loc[e] == IN_PLAY and previous.owner[e] == p) for p in range(2)))
    s.phase = SETUP_CHOOSE_FIRST
    s.turn = chooser
    return s
