"""The game state: flat, mutable, cheap to clone.

Every card in a game is an *entity* with an index.  Entities are laid out as the protocol's "entity
order": all artifacts (player 0's, then player 1's), all mages, the eight magic items, the monuments,
the places of power.  Because of that layout, "component order" (artifacts, mage, magic item,
monuments, places of power) is simply ascending entity index.

Per-entity data lives in parallel lists (``loc``, ``owner``, ``turned``, ``order``) plus one flat list
``ess`` holding five essence counts per entity.  Per-player data: ``pool`` (five counts per player),
``passed``, ``temp_vp``.  Pending decisions are tuples on ``stack`` (top = last).  The chance RNG is
one int.  `clone` copies the lists with ``[:]`` and shares the immutable card data; no deepcopy.
"""

from __future__ import annotations

import hashlib
from itertools import chain as _chain_it
from typing import Any, Sequence

from . import cards as C
from .apply import apply_action as _apply_action
from .apply import apply_checked as _apply_checked
from .apply import checked as _checked
from .apply import resolve as _resolve
from .codes import DECK, DISCARD, GAME_OVER, HAND, IN_PLAY, SETUP_CHOOSE_FIRST, SETUP_REDRAFT, TEMPORARY, TOKEN
from .draft import redraft_picks_made
from .legal import legal_actions as _legal_actions
from .legal import legal_groups as _legal_groups
from .observe import observation as _observation

_chain = _chain_it.from_iterable


def component_points(c: C.Card, ess: list[int], e: int, dragons: int, creatures: int, demons: int = 0,
                     artifacts: int = 0) -> int:
    """The points component ``c`` (entity ``e``) in play gives its owner, who has ``dragons`` Dragons,
    ``creatures`` Creatures, ``demons`` Demons and ``artifacts`` artifacts in play: its printed points,
    the essences on it that it scores (a place of power's points per essence, ``ess`` holding five
    counts per entity), its points per own Dragon, Creature, Demon or artifacts.  The one formula of a
    component's points (`GameState.scores`, `GameState.points_breakdown`)."""
    b = 5 * e
    return (c.points + c.essence_points(ess[b], ess[b + 1], ess[b + 2], ess[b + 3], ess[b + 4])
            + c.type_points(dragons, creatures, demons, artifacts))


class GameState:
    """A Res Arcana game in progress.  Drive it only through the public methods:
    `current_player`, `legal_actions`, `apply`, `clone`, `is_terminal`, `victory_points`, `winners`,
    `observation`, `digest`."""

    __slots__ = (
        # shared, immutable for the whole game
        "n_players", "cards", "n_art", "names", "reference", "item_first", "sets",
        # entities
        "loc", "owner", "turned", "ess", "order",
        # players
        "pool", "passed", "temp_vp", "first_player", "mage_chosen", "draft_picked",
        # flow
        "phase", "round", "round_limit", "turn", "stack", "won", "turn_done", "victory_check", "check_caller",
        "collect_player", "collect_done", "collect_next", "item_picks", "draft_stage",
        # chance
        "rng", "auto_chance",
        # knowledge: per player, the artifacts they know of beyond their own deal (the rival's seen in
        # a draft packet they passed on, a face-up redraft, any card of another's seen going from a
        # public place into a hand or deck: a reshuffled discard pile, a card retrieved; in a draft
        # every card they held; in a First Game the preset hand they saw, which marks the rest of
        # their deal as face down: `amigos.observe.unseen_deck`); and the ids of the draft packet each
        # player last passed on (what the rival now picks from), empty outside a draft's passing;
        # ``known_held[q][p]``: the artifacts ``q`` knows to be among ``p``'s hidden cards now (each
        # that went from a public place into ``p``'s hand or deck, the last card of a draft packet
        # passed to ``p``), each until it leaves them (`amigos.flow.move`), which a game of three or
        # more players needs apart from the rest of what ``q`` has seen
        "known_decks", "passed_packet", "known_held",
        # the player who knows the order of the monument deck's known top cards (by scrying), or -1
        "mon_seer",
        # games 2 and 3 of a match: (winners of the game before, the artifacts each player had in play
        # at its end), public to both; None in a first game
        "previous_game",
        # caches: this state's legal actions; a memo shared by every copy of the game (see `supply_of`)
        "_legal", "_groups", "memo",
    )

    # The attributes, typed (``__slots__`` above lists them for speed; these declarations are for
    # the type checker and create no class attribute).  The compiled modules write an action or a
    # pending choice as ``tuple[Any, ...]``, not `amigos.config.Action`: an Any that comes through a
    # type alias is no Any to mypy when it picks an overload, so the first that fits wins
    # (``combinations(hand, top[2])`` would yield pairs), and mypyc checks that type at run time.
    n_players: int                   # the number of players
    cards: tuple[C.Card, ...]        # every entity's card, in entity order
    n_art: int                       # the artifacts (entities 0 .. n_art - 1)
    names: dict[str, int] | None     # card name, protocol name or id -> entity (None: rebuilt on demand)
    reference: bool                  # the reference engine's ruleset (else the official one)
    item_first: int                  # the first magic item's entity
    sets: tuple[str, ...]            # the card sets in the game: ("base",) or ("base", "lux")
    loc: list[int]                   # each entity's location (OUT_OF_GAME ... FACE_UP)
    owner: list[int]                 # each entity's owner (NOBODY for the supply)
    turned: list[int]                # 1 for a turned component
    ess: list[int]                   # five essence counts per entity (on the component)
    order: list[int]                 # a deck's order where it is known, else -1
    pool: list[int]                  # five essence counts per player
    passed: list[bool]
    temp_vp: list[int]               # points lasting one victory check (Golden Statue)
    first_player: int                # the First Player token's holder
    mage_chosen: list[bool]          # per player: chose their mage
    draft_picked: list[bool]         # per player: picked a card in this stage of the draft
    phase: int                       # SETUP_GAME ... SETUP_REDRAFT
    round: int
    round_limit: int                 # the round whose victory check ends the game (0: none)
    turn: int                        # the player whose turn it is
    stack: list[tuple[Any, ...]]     # pending choices (P_GAIN ...), the last on top
    won: tuple[int, ...]             # the winners once the game is over
    turn_done: bool
    victory_check: int               # NO_CHECK, CHECK_MID_ROUND, CHECK_END_OF_ROUND
    check_caller: int                # the entity that called a mid-round check, or -1
    collect_player: int              # the Collect phase: whose collects are being resolved
    collect_done: int                # ... how many players have finished collecting
    collect_next: int                # ... the next component to collect from
    item_picks: int                  # magic items chosen so far at setup
    draft_stage: int                 # the draft's stage: 0-2 the first packets, 3-5 the second, 6 done
    rng: int                         # the chance generator's state
    auto_chance: bool                # chance is resolved by the engine (not offered as actions)
    known_decks: tuple[frozenset[str], ...]  # card ids
    passed_packet: tuple[frozenset[str], ...]
    known_held: tuple[tuple[frozenset[str], ...], ...]  # [observer][holder]: card ids
    mon_seer: int
    previous_game: tuple[tuple[int, ...], tuple[frozenset[str], ...]] | None  # winners; card ids in play
    _legal: list[tuple[Any, ...]] | None
    _groups: list[Sequence[tuple[Any, ...]]] | None
    # (what `supply_of` remembers: by the supply's locations and owners, what it offers a player)
    memo: dict[tuple[int, tuple[int, ...], tuple[int, ...]],
               tuple[tuple[tuple[tuple[Any, ...], ...], ...],
                     tuple[tuple[tuple[int, ...], tuple[tuple[Any, ...], ...]], ...],
                     tuple[tuple[tuple[Any, ...], ...], ...], tuple[int, ...]]]

    # -- construction ---------------------------------------------------------------------------

    def clone(self) -> "GameState":
        """An independent copy: mutating either never changes the other."""
        s = GameState.__new__(GameState)
        s.n_players = self.n_players
        s.cards = self.cards
        s.n_art = self.n_art
        s.names = self.names
        s.reference = self.reference
        s.item_first = self.item_first
        s.sets = self.sets
        s.memo = self.memo
        s.loc = self.loc[:]
        s.owner = self.owner[:]
        s.turned = self.turned[:]
        s.ess = self.ess[:]
        s.order = self.order[:]
        s.pool = self.pool[:]
        s.passed = self.passed[:]
        s.temp_vp = self.temp_vp[:]
        s.first_player = self.first_player
        s.mage_chosen = self.mage_chosen[:]
        s.draft_picked = self.draft_picked[:]
        s.phase = self.phase
        s.round = self.round
        s.round_limit = self.round_limit
        s.turn = self.turn
        s.stack = self.stack[:]
        s.won = self.won
        s.turn_done = self.turn_done
        s.victory_check = self.victory_check
        s.check_caller = self.check_caller
        s.collect_player = self.collect_player
        s.collect_done = self.collect_done
        s.collect_next = self.collect_next
        s.item_picks = self.item_picks
        s.draft_stage = self.draft_stage
        s.rng = self.rng
        s.auto_chance = self.auto_chance
        s.known_decks = self.known_decks
        s.passed_packet = self.passed_packet
        s.known_held = self.known_held
        s.mon_seer = self.mon_seer
        s.previous_game = self.previous_game
        s._legal = self._legal
        s._groups = self._groups
        return s

    # -- the interface --------------------------------------------------------------------------

    def current_player(self) -> int:
        """The acting player: the player of the top pending choice, else the turn pointer."""
        if self.stack:
            return self.stack[-1][1]
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def winners(self) -> list[int]:
        """The winners in ascending seat order (several on a shared victory); empty until the end."""
        return list(self.winners_t())

    def winners_t(self) -> tuple[int, ...]:
        return self.won

    def legal_actions(self) -> list[tuple[Any, ...]]:
        """Every distinct legal action of the acting player, in the protocol's canonical order.
        Empty only when the game is over.  The list is cached until the next `apply`; don't mutate it."""
        if self._legal is None:
            groups = self._groups
            self._legal = _legal_actions(self) if groups is None else list(_chain(groups))
        return self._legal

    def legal_groups(self) -> list[Sequence[tuple[Any, ...]]]:
        """The legal actions grouped: each group holds the variants (payments, gains) of one action
        (`amigos.actions.macro_key`), groups in the canonical order.  Don't mutate."""
        if self._groups is None:
            self._groups = _legal_groups(self)
        return self._groups

    def apply(self, action: tuple[Any, ...]) -> None:
        """Apply a legal action; raises `IllegalAction` (state unchanged) for anything else."""
        _apply_checked(self, action)

    def apply_unchecked(self, action: tuple[Any, ...]) -> None:
        """Fast path for agents: apply an action taken from `legal_actions()` of this very state,
        without checking it.  Anything else may corrupt the state."""
        _apply_action(self, action)

    def after_alone(self, action: tuple[Any, ...]) -> "GameState":
        """A copy of the position after the legal ``action`` alone, before the game runs on (the fixed
        collects of a Collect that follow a choice, the turn passing on): what a decision did, told
        apart from what followed it.  For logs, not a position to play on.  Raises `IllegalAction`."""
        after = self.clone()
        _resolve(after, _checked(self, action))
        return after

    def clone_offering_chance(self) -> "GameState":
        """An independent copy on which the engine no longer resolves chance itself: each chance
        point (a draw, a reveal) becomes the acting player's choice among its outcomes, offered by
        `legal_actions` and taken with `apply`, as the bridge does (for searches that enumerate
        chance).  The copy works its legal actions out afresh; this state is unchanged."""
        s = self.clone()
        s.auto_chance = False
        s._legal = s._groups = None
        return s

    def victory_points(self) -> list[int]:
        """Each player's victory points now (First Player token and temporary points included)."""
        return [self.vp(p) for p in range(self.n_players)]

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see; see `amigos.observe`."""
        return _observation(self, player)

    def digest(self) -> str:
        """A stable hash of the whole state (not of caches, nor of the round limit, which every game
        dealt the same way shares), equal for equal states on any Python.  Match files keep the digest
        of each game's end, so its form never changes: see `_digest_picks`."""
        picked, stage = self._digest_picks()
        parts = (self.n_players, self.reference, self.loc, self.owner, self.turned, self.ess, self.order,
                 self.pool, self.passed, self.temp_vp, self.first_player, picked, self.phase, self.round,
                 self.turn, self.stack, self.won, self.turn_done, self.victory_check, self.check_caller,
                 self.collect_player, self.collect_done, self.collect_next, self.item_picks, stage, self.rng,
                 self.auto_chance, self.mon_seer, [c.id for c in self.cards])
        return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()

    def _digest_picks(self) -> tuple[list[bool], int]:
        """The two values the digest has always hashed where one field once told both who chose a mage
        and who picked in the draft's stage (never both at once), and one field both the draft's stage
        and, in games 2 and 3, whether a redraft follows (1) and the redraft's picks made so far."""
        picked = [m or d for m, d in zip(self.mage_chosen, self.draft_picked)]
        stage = self.draft_stage
        if self.phase == SETUP_CHOOSE_FIRST or self.phase == SETUP_REDRAFT:
            made = redraft_picks_made(self)
            if made is not None:
                stage = 1 if self.phase == SETUP_CHOOSE_FIRST else made
        return picked, stage

    # -- queries used by the rules ----------------------------------------------------------------

    def hand(self, p: int) -> list[int]:
        loc, owner = self.loc, self.owner
        return [e for e in range(self.n_art) if loc[e] == HAND and owner[e] == p]

    def deck(self, p: int) -> list[int]:
        loc, owner = self.loc, self.owner
        return [e for e in range(self.n_art) if loc[e] == DECK and owner[e] == p]

    def discard_pile(self, p: int) -> list[int]:
        loc, owner = self.loc, self.owner
        return [e for e in range(self.n_art) if loc[e] == DISCARD and owner[e] == p]

    def in_play(self, p: int) -> list[int]:
        """``p``'s components in play, in component order."""
        loc, owner = self.loc, self.owner
        return [e for e in range(len(loc)) if loc[e] == IN_PLAY and owner[e] == p]

    def pool_of(self, p: int) -> tuple[int, ...]:
        b = 5 * p
        return tuple(self.pool[b:b + 5])

    def essences_on(self, e: int) -> tuple[int, ...]:
        b = 5 * e
        return tuple(self.ess[b:b + 5])

    def scores(self) -> tuple[list[int], list[int]]:
        """Victory points (as `vp`) and hand sizes of every player, in one pass (for evaluations)."""
        n = self.n_players
        vp = self.temp_vp[:]
        vp[self.first_player] += 1
        hand = [0] * n
        dragons = [0] * n
        creatures = [0] * n
        demons = [0] * n
        artifacts = [0] * n
        loc, owner, cards, ess = self.loc, self.owner, self.cards, self.ess
        n_art = self.n_art
        # (entity order puts every artifact before the places of power that count them)
        for e in range(len(loc)):
            where = loc[e]
            if where == IN_PLAY:
                c = cards[e]
                p = owner[e]
                if e < n_art:
                    dragons[p] += c.is_dragon
                    creatures[p] += c.is_creature
                    demons[p] += c.is_demon
                    artifacts[p] += 1
                vp[p] += component_points(c, ess, e, dragons[p], creatures[p], demons[p], artifacts[p])
            elif where == HAND:
                hand[owner[e]] += 1
        return vp, hand

    def vp(self, p: int) -> int:
        """Victory points of ``p`` (protocol §3.11): the sum of `points_breakdown`."""
        return sum(points for _, points in self.points_breakdown(p))

    def points_breakdown(self, p: int) -> list[tuple[int, int]]:
        """Where ``p``'s victory points come from, as ``(source, points)`` for every source that gives
        some: `TOKEN` (the First Player token), each component in play by entity (its printed points, the
        essences on a place of power that scores them, its points per own Dragon or Creature), and
        `TEMPORARY` points."""
        out = [(TOKEN, 1)] if self.first_player == p else []
        loc, owner, cards, ess = self.loc, self.owner, self.cards, self.ess
        dragons = creatures = demons = artifacts = 0
        for e in range(len(loc)):
            if loc[e] == IN_PLAY and owner[e] == p:
                c = cards[e]
                if e < self.n_art:
                    dragons += c.is_dragon
                    creatures += c.is_creature
                    demons += c.is_demon
                    artifacts += 1
                out.append((e, component_points(c, ess, e, dragons, creatures, demons, artifacts)))
        if self.temp_vp[p]:
            out.append((TEMPORARY, self.temp_vp[p]))
        return [(source, points) for source, points in out if points]

    # The names three fields had before they were renamed, read-only: the agents of earlier commits
    # that lab/against_commit.py plays against on this engine still read them.

    @property
    def np(self) -> int:
        return self.n_players

    @property
    def fp(self) -> int:
        return self.first_player

    @property
    def vcheck(self) -> int:
        return self.victory_check

    def find(self, name: str) -> int:
        """The entity index of the card with this (printed or protocol) name; -1 if not in the game."""
        names = self.names
        if names is None:  # a determinisation re-dealt cards and left the index to be rebuilt on demand
            names = self.names = {}
            for e, c in enumerate(self.cards):
                names[c.name] = names[c.ref_name] = names[c.id] = e
        return names.get(name, -1)
