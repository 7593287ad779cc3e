"""Determinised Monte Carlo tree search: single-observer information-set MCTS.

Every iteration samples a determinisation of what the searching player cannot see
(`amigos.determinize.Determinizer`, prepared once a search: the rival's hand and deck, deck orders,
the monument deck, unopened draft packets; the rival's known cards after a face-up redraft), then
walks one shared tree keyed by macro actions (an action without its payment and gain, see
`ai.heuristics`; a rival's hidden cards by the entity a world dealt them to, see `group`), choosing
children by UCB1 with availability counts (a child is only eligible where it is legal in this
determinisation).  A new leaf is valued by the search's `ai.evaluator.Evaluator`: by default the
probability of winning from there, by the neural value (`ai.network`) with two players and the linear
learned value (`ai.learned`) with more unless the evaluator has a network for that count, both of
which see past the round (places and monuments within
reach, the engine's income, essences with no use); or, with ``value=hand``, by a rollout to the end of
the round (at most ``rollout`` decisions) and the hand-tuned value of `ai.value` squashed to [0, 1].
A finished game is worth 1 to its winner, a little less for a narrow win
(`ai.rewards.final_rewards`), so that a won prefers more points.  The payment and gain of a chosen
action are the evaluator's choice.  Chance is resolved inside each determinisation by its own reseeded
generator.

Root parallelism: ``workers`` processes search with their own seeds and their root statistics are
summed.  With an iteration budget and a seed the choice is reproducible.
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple, cast

from amigos import actions as A
from amigos.actions import CHOOSE_FIRST, DRAFT_PICK, PASS, REDRAFT_PICK, macro_key
from amigos.adjudicate import WINNING_POINTS
from amigos.codes import ACTIONS
from amigos.config import Action, Macro
from amigos.determinize import Determinizer
from amigos.flow import pool_score

from .draft import network_picks, pick_scores
from .evaluator import NET, WAYS, Evaluator, Rewards, default_evaluator
from .futile import useful
from .halving import Halving
from .heuristics import enabled_purchases, purchases
from .rewards import chance_of_reward, final_rewards
from .value import NEAR_WIN

Groups = dict[Macro, Sequence[Action]]  # a state's legal actions by macro (`group`)
Stats = dict[Macro, tuple[int, float]]  # a root's children: visits and value sum (`search`)

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.context import BaseContext

    from amigos.state import GameState

# A game whose every move keeps a chance of winning below this (or above 1 minus it), the moves' chances
# this close together, is decided: the move is then the one that scores most (`decided`, `standing`).
DECIDED: Final = 0.02
# The rest of a round a player plays alone (`MCTSAgent.plan`): the determinisations it is planned in,
# and the share of a move's time it may take before the search takes over.
SOLO_WORLDS: Final = 4
SOLO_SHARE: Final = 0.5
# How often a search asks whether to stop (`grow`'s ``stop``), in iterations; how long a ponder may go on
# at most (`MCTSAgent.ponder`), in seconds: a person away from the screen does not keep the cores busy.
STOP_EVERY: Final = 16
PONDER_LIMIT: Final = 120.0
# The share of a move's time the search takes (`MCTSAgent.seconds_for`) where the round may end the
# game (someone within 2 points of winning) and where the choice is between two moves.
LAST_ROUND_TIME: Final = 1.5
TWO_MOVES_TIME: Final = 0.5
# The least spread over which a node's move values are stretched to [0, 1] before UCB1 weighs them
# (`search`'s ``norm``): the moves of a position are often valued a few hundredths apart.
NORM: Final = 0.02
# Whether the root's move is chosen by sequential halving (`search`'s ``halving``, `Halving`): kept by
# an SPRT at equal time against UCB1 at the root (lab/DECISIONS.md).
HALVING: Final = 1
# A move's ways widened progressively (`search`'s ``widen``): its child's key with ``(WAY, r)`` added
# is its way r in the evaluator's ranking (`ai.evaluator.Evaluator.ranked`: 0 is the evaluator's own
# choice, which the move's key plays; a world with fewer ways plays its last); a child with
# n visits offers 1 + isqrt(n // WIDEN_AT) ways (a second at WIDEN_AT visits, a third at 4 times as
# many, ...), at most ``widen``.  WIDEN: the default, one way (the evaluator's choice).
WAY: Final = "way"
WIDEN_AT: Final = 16
WIDEN: Final = 1
# How the draft's and the redraft's picks are made (``draft=``): by the search, by each card's learned
# worth and fit (`ai.draft.pick_scores`), or by the network's chance after each pick, averaged over
# DRAFT_WORLDS determinisations (`ai.draft.network_picks`).
DRAFT_SEARCH: Final = 0
DRAFT_WORTH: Final = 1
DRAFT_NET: Final = 2
DRAFT_WORLDS: Final = 8


# What a node's move is known to lead to (`Node.proof`, from its mover's view): not known; a win (the
# game ended right after it, the forced steps played, with the mover the only winner, in each of at
# least PROOF_VISITS visits, every one a world of its own; or the mover moves again and has a proven
# win); a loss (the game ended so with the mover not among the winners; or, with two players, the
# rival moves next and has a proven win).
UNPROVEN: Final = 0
PROVEN_WIN: Final = 1
PROVEN_LOSS: Final = -1
PROOF_VISITS: Final = 4


class Node:
    """A tree node: reached by ``player``'s macro action; statistics from that player's view."""

    __slots__ = ("player", "n", "w", "avail", "children", "pool", "action", "ends", "won", "lost", "proof")

    player: int
    n: int
    w: float
    avail: int
    ends: int   # visits whose world ended the game right after this move (and the forced steps after it)
    won: int    # of those, the mover the only winner
    lost: int   # of those, the mover not among the winners
    proof: int  # `UNPROVEN`, `PROVEN_WIN` or `PROVEN_LOSS`

    def __init__(self, player: int) -> None:
        self.player = player
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.ends = self.won = self.lost = 0
        self.proof = UNPROVEN
        self.children: dict[Macro, Node] = {}
        # The variant last played to reach this node, and the mover's pool it was chosen for.
        self.pool: tuple[int, ...] | None = None
        self.action: Action | None = None


def group(state: GameState, merge_passes: bool = False, cache: dict[Any, Any] | None = None) -> Groups:
    """The state's legal actions by macro: {macro: variants}, in the canonical order.  With
    ``merge_passes`` the passes (one per magic item to take) are one macro, ``(PASS, player)``: the tree
    decides whether to pass, and the item is chosen like a payment (`ai.evaluator.pass_variant`); six pass children
    split the visits a pass needs, and in the last round the item does not matter at all.

    A macro whose variants gain different essences (a discard, a Collect choice, a power) also gets a
    child for each purchase some of its variants make affordable at once (a place of power, a
    monument, an artifact in hand: `ai.heuristics.enabled_purchases`), keyed by the macro and the
    purchase: the tree can then try "discard for the Death that completes Dragon's Lair" beside the
    variant the learned value prefers on its own.

    A macro names its cards by entity.  In a rival's turn that is the place a determinisation dealt a
    hidden card to, so "the rival places entity 5" is another card in every world: the tree models the
    rival's unknown cards by slot.  Keyed by card, a rival node would get a child for every card any
    world deals and most visits would expand one: what the tree gained in telling the rival's cards
    apart it would lose in depth (measured: lab/README.md, "Design notes from experiments")."""
    if not merge_passes:
        return {macro_key(g[0]): g for g in state.legal_groups()}
    out: Groups = {}
    passes = None
    targets = None
    for g in state.legal_groups():
        a = g[0]
        if A.kind(a) == PASS:
            if passes is None:
                passes = out[tree_key(a, True)] = []
            passes.append(a)
            continue
        key = macro_key(a)
        out[key] = g
        if len(g) > 1 and A.kind(a) in GAINS:
            if targets is None:
                targets = tuple(purchases(state, A.player(a)))
            if targets:
                for target, enabling in enabled_purchases(state, g, targets, cache).items():
                    out[key + (target,)] = enabling
    return out


GAINS = frozenset((A.DISCARD, A.GAIN, A.POWER))  # macros whose variants gain different essences


class Settings(NamedTuple):
    """How a search runs, besides its budget and seed (the agent's parameters, `MCTSAgent`).

    ``c``: UCB1's exploration constant.  ``rollout``: the decisions a rollout plays before the leaf
    is valued (0: none, the learned values' way; the hand-tuned value wants about 30).  What values
    the leaves and chooses payments and gains is the search's `ai.evaluator.Evaluator`, not a
    setting.  ``norm`` > 0 spreads each node's child
    values over [0, 1] before UCB1 weighs them (as MuZero normalises its values), over a spread of at
    least ``norm``: the exploration term then weighs against how far apart the moves are, not against
    the whole range of rewards (0: off).  ``halving`` 1 chooses the root's move by sequential halving
    (`ai.halving.Halving`) instead of UCB1 (0: UCB1).  ``widen`` > 1: a move's ways are its own
    children, up to ``widen`` of them, more as the move is visited (`WIDEN_AT`); at the root the
    agent gives each of its moves its ``widen`` best ways from the start (`MCTSAgent.widened`)."""

    c: float = 0.7
    rollout: int = 0
    norm: float = NORM
    halving: int = HALVING
    widen: int = WIDEN


DEFAULT_SETTINGS: Final = Settings()


class Tree:
    """What one search keeps besides its nodes: the settings' constants, the evaluator and the
    purchases each gain macro enables (`group`'s cache)."""

    __slots__ = ("c", "norm", "widen", "evaluator", "merge", "splits", "rng")

    c: float
    norm: float
    widen: int  # `Settings.widen`
    evaluator: Evaluator
    merge: bool  # `group`'s ``merge_passes``: the evaluator chooses a pass's magic item
    splits: dict[Any, Any]  # `group`'s cache
    rng: random.Random

    def __init__(self, settings: Settings, evaluator: Evaluator, rng: random.Random) -> None:
        self.c = settings.c
        self.norm = settings.norm
        self.widen = settings.widen if evaluator.learned else 1  # (the hand-tuned value ranks no ways)
        self.evaluator = evaluator
        self.merge = evaluator.learned
        self.splits = {}
        self.rng = rng


def search(state: GameState, player: int, iters: int | None, seconds: float | None, seed: int,
           settings: Settings = DEFAULT_SETTINGS, progress: Callable[[int], None] | None = None,
           root_groups: Groups | None = None, evaluator: Evaluator | None = None) -> tuple[Stats, int]:
    """Run ISMCTS from ``state`` for ``player`` with ``settings`` and ``evaluator`` (None: the default,
    `ai.evaluator.default_evaluator`); returns ({macro: (visits, value sum)}, iterations).
    ``progress(iterations)`` is called every 64 iterations.  Each iteration deals a world for
    ``player`` (`amigos.determinize`).  ``root_groups``: the searching player's moves here as the agent
    worked them out (`group`, then `useful`), when it decides now."""
    root, done = grow(state, player, iters, seconds, seed, settings, progress, root_groups, evaluator)
    return {key: (child.n, child.w) for key, child in root.children.items()}, done


def grow(state: GameState, player: int, iters: int | None, seconds: float | None, seed: int,
         settings: Settings = DEFAULT_SETTINGS, progress: Callable[[int], None] | None = None,
         root_groups: Groups | None = None, evaluator: Evaluator | None = None,
         stop: Callable[[], bool] | None = None) -> tuple[Node, int]:
    """`search`'s tree: its root and the iterations run.  ``stop()``, asked every `STOP_EVERY`
    iterations, ends the search early when it says so (a ponder, `MCTSAgent.ponder`)."""
    if evaluator is None:
        evaluator = default_evaluator()
    leaf: Rewards = evaluator.leaf(state.n_players, player)
    rng = random.Random(seed)
    tree = Tree(settings, evaluator, rng)
    root = Node(-1)
    start = _time.perf_counter()
    deadline = None if seconds is None else start + seconds
    # The searching player's own legal actions are the same in every determinisation; those that only
    # spend are left out (`ai.futile`).
    if root_groups is None and state.current_player() == player:
        root_groups = useful(state, group(state, tree.merge, tree.splits))
    deal: Callable[[int], GameState] = Determinizer(state, player).deal
    halver = None
    if settings.halving and root_groups is not None and len(root_groups) > 1:
        halver = Halving(list(root_groups), iters, seconds, start)
    done = 0
    first = None
    while True:
        if halver is not None:  # (it keeps the budget: its last phase ends with it)
            first = halver.next_key(root.children, done)
            if first is None:
                break
        elif _spent(root, done, iters, start, deadline):
            break
        if stop is not None and done % STOP_EVERY == 0 and stop():
            break
        if progress is not None and (done & 63) == 0 and done:
            progress(done)
        s = deal(rng.getrandbits(64))
        path = _descend(tree, root, s, root_groups, first)
        if settings.rollout:
            _rollout(s, settings.rollout, rng)
        r = leaf(s)
        if not s.is_terminal():  # (where the mover may end the game by passing, that end is a floor)
            end = round_end(s)
            if end is not None:
                mover = s.current_player()
                if end[mover] > r[mover]:
                    r = end
        for child in path:
            child.n += 1
            child.w += r[child.player]
        if path and s.is_terminal():
            _prove(path, s.winners(), state.n_players)
        root.n += 1
        root.w += r[player]  # (the searching player's: the root's value, every move through it)
        done += 1
    return root, done


def _prove(path: list[Node], winners: list[int], players: int) -> None:
    """The game ended right after the last move of ``path`` (the nodes walked, just counted): count the
    end for it, mark it proven once its every visit (at least `PROOF_VISITS`) ended so alike, and carry a
    proven win up the path: to the mover's own move before (the same player moves again), or as a loss
    to the rival's move before it (two players)."""
    last = path[-1]
    last.ends += 1
    if winners == [last.player]:
        last.won += 1
    elif last.player not in winners:
        last.lost += 1
    if last.proof != UNPROVEN or last.ends != last.n or last.n < PROOF_VISITS:
        return
    if last.won == last.n:
        last.proof = PROVEN_WIN
    elif last.lost == last.n:
        last.proof = PROVEN_LOSS
    for i in range(len(path) - 2, -1, -1):
        child, parent = path[i + 1], path[i]
        if child.proof != PROVEN_WIN or parent.proof != UNPROVEN:
            return
        if parent.player == child.player:
            parent.proof = PROVEN_WIN
        elif players == 2:
            parent.proof = PROVEN_LOSS
            return
        else:
            return


def round_end(s: GameState) -> list[float] | None:
    """The rewards of the game's end (`ai.rewards.final_rewards`) where the player to move may end the
    round now by passing (every rival has passed) and the round's victory check then ends the game; else
    None.  A leaf's value for the mover is at least that: the victory check decides it, not the value."""
    if s.phase != ACTIONS or s.stack:
        return None
    p = s.current_player()
    passed = s.passed
    if passed[p] or not all(passed[q] for q in range(s.n_players) if q != p):
        return None
    if max(s.victory_points()) < WINNING_POINTS:  # (nobody wins at this check: the game goes on)
        return None
    end = s.clone()
    end.apply_unchecked(next(a for a in end.legal_actions() if A.kind(a) == PASS))
    while not end.is_terminal() and end.round == s.round:
        legal = end.legal_actions()
        if len(legal) != 1:
            return None
        end.apply_unchecked(legal[0])
    return final_rewards(end) if end.is_terminal() else None


def replies(root: Node, seat: int) -> dict[Macro, Stats]:
    """From a tree grown at a rival's decision: for each of the rival's moves, ``seat``'s next decision
    right after it as the tree saw it, {rival's macro: {seat's macro: (visits, value sum)}} (a move whose
    next decision in the tree is not ``seat``'s is left out)."""
    out: dict[Macro, Stats] = {}
    for key, child in root.children.items():
        stats = {k: (g.n, g.w) for k, g in child.children.items() if g.player == seat}
        if stats:
            out[key] = stats
    return out


def _spent(root: Node, done: int, iters: int | None, start: float, deadline: float | None) -> bool:
    """Whether a UCB1 root's budget is spent, or no other move can overtake the most visited one in
    what is left (`_settled`)."""
    if iters is not None and done >= iters:
        return True
    if deadline is not None and (done & 7) == 0 and done > 0 and _time.perf_counter() >= deadline:
        return True
    return (done & 31) == 0 and done > 0 and _settled(root, done, iters, start, deadline)


def _descend(tree: Tree, root: Node, s: GameState, groups: Groups | None, first: Macro | None = None) -> list[Node]:
    """Walk world ``s`` down the tree from ``root`` (its macros ``groups`` when known), choosing by UCB1
    with availability counts, and expand one new child (a random untried macro).  Plays the moves on
    ``s``; returns the nodes walked through, the new one last.  ``first``: the root's macro to take
    (`ai.halving.Halving`'s), instead of UCB1's."""
    node = root
    path = []
    evaluator = tree.evaluator
    if first is not None:
        assert groups is not None  # the root is the searching player's decision
        child = root.children.get(first)
        if child is None:
            return [_expand(root, first, s, groups, evaluator)]
        child.avail += 1
        s.apply_unchecked(_move(s, groups, first, child, evaluator))
        path.append(child)
        node, groups = child, None
    while not s.is_terminal():
        if groups is None:
            groups = group(s, tree.merge, tree.splits)
        if len(groups) == 1:
            only = next(iter(groups.values()))
            if len(only) == 1:
                s.apply_unchecked(only[0])
                groups = None
                continue
        key, untried = _choose(tree, node, groups)
        if untried:
            path.append(_expand(node, key, s, groups, evaluator))
            return path
        node = node.children[key]
        s.apply_unchecked(_move(s, groups, key, node, evaluator))
        path.append(node)
        groups = None
    return path


def _choose(tree: Tree, node: Node, groups: Groups) -> tuple[Macro, bool]:
    """(macro, untried): a proven win (`_prove`) if there is one; else a random macro legal here
    without a child yet, else UCB1's choice among the children (each legal one becoming available
    once more).  With ``tree.widen`` > 1 a macro's further ways count as macros (`WAY`) once its child
    has been visited enough."""
    children = node.children
    c = tree.c
    widen = tree.widen
    log, sqrt = math.log, math.sqrt
    untried = None
    best_key, best_u = None, -1.0
    low, scale = 0.0, 1.0
    if tree.norm and len(children) > 1:
        low, high = _spread(children)
        scale = 1.0 / max(high - low, tree.norm)
    # One pass: every child legal here becomes available once more; UCB1 picks among them
    # unless some legal macro has no child yet (then it is expanded instead).  A macro's further ways
    # (`WAY`) join in once its child has been visited enough.
    lost = tried = 0  # the legal children, and those proven lost to their mover (left aside unless all are)
    for key in groups:
        child = children.get(key)
        if child is not None:
            tried += 1
            if child.proof == PROVEN_WIN:  # (nothing beats a proven win: `_prove`)
                return key, False
            lost += child.proof == PROVEN_LOSS
    for key in groups:
        child = children.get(key)
        keys: Sequence[Macro] = (key,)
        if widen > 1 and child is not None and child.n >= WIDEN_AT and len(groups[key]) > 1 \
                and groups[key][0][0] != PASS:
            keys = [key] + [key + (WAY, r) for r in range(1, min(widen, 1 + math.isqrt(child.n // WIDEN_AT)))]
        for k in keys:
            child = children.get(k)
            if child is None:
                if untried is None:
                    untried = [k]
                else:
                    untried.append(k)
                continue
            n = child.n
            avail = child.avail = child.avail + 1
            if untried is None and (child.proof != PROVEN_LOSS or lost == tried):
                u = (child.w / n - low) * scale + c * sqrt(log(avail) / n)
                if u > best_u:
                    best_key, best_u = k, u
    if untried is not None:
        return untried[tree.rng.randrange(len(untried))], True
    assert best_key is not None  # (every legal macro has a child here)
    return best_key, False


def _expand(node: Node, key: Macro, s: GameState, groups: Groups, evaluator: Evaluator) -> Node:
    """Add ``node``'s child for macro ``key`` (available once) and play its variant on ``s``."""
    child = node.children[key] = Node(s.current_player())
    child.avail = 1
    s.apply_unchecked(_move(s, groups, key, child, evaluator))
    return child


def _move(s: GameState, groups: Groups, key: Macro, child: Node, evaluator: Evaluator) -> Action:
    """The action of ``key`` (a macro of ``groups``, or one of its ways: `WAY`) to play into ``child``."""
    variants = groups.get(key)
    if variants is not None:
        return _variant(s, variants, child, evaluator)
    return _way(s, groups[key[:-2]], key[-1], child, evaluator)


def _way(s: GameState, variants: Sequence[Action], rank: int, child: Node, evaluator: Evaluator) -> Action:
    """Way ``rank`` of a macro's ``variants`` by the evaluator's ranking (its last where it has fewer in
    this world), remembered in ``child`` for the mover's pool as `_variant` does."""
    p = A.player(variants[0])
    pool = tuple(s.pool[5 * p:5 * p + 5])
    if child.pool == pool and child.action in variants:
        assert child.action is not None  # set with child.pool, below
        return child.action
    ways = evaluator.ranked(s, variants, rank + 1)
    action = ways[min(rank, len(ways) - 1)]
    child.pool, child.action = pool, action
    return action


def _spread(children: dict[Macro, Node]) -> tuple[float, float]:
    """The lowest and highest mean value of ``children``."""
    low, high = 2.0, -1.0
    for child in children.values():
        q = child.w / child.n
        if q < low:
            low = q
        if q > high:
            high = q
    return low, high


def _variant(s: GameState, variants: Sequence[Action], child: Node, evaluator: Evaluator) -> Action:
    """The variant of a macro to play into ``child``, the evaluator's; remembered in the child for the
    mover's pool (the same in most worlds)."""
    if len(variants) == 1:
        return variants[0]
    p = A.player(variants[0])
    pool = tuple(s.pool[5 * p:5 * p + 5])
    # The variant chosen in another world with the same pool is kept if it is legal in this one: what a
    # variant may pay or gain also depends on the rest of the position (essences on cards, turned
    # components), which another world's moves may have left otherwise.
    if child.pool == pool and child.action in variants:
        assert child.action is not None  # set with child.pool, below
        return child.action
    action = evaluator.variant(s, variants)
    child.pool, child.action = pool, action
    return action


def _settled(root: Node, done: int, iters: int | None, start: float, deadline: float | None) -> bool:
    """True when no other root child can overtake the most visited one in the budget left, so searching
    on cannot change the choice (the agent plays the most visited child)."""
    if len(root.children) < 2:
        return False
    first = second = 0
    for child in root.children.values():
        n = child.n
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    if iters is not None:
        left = float(iters - done)
    else:  # a time budget: the iterations it still buys at the rate so far
        now = _time.perf_counter()
        left = done * (cast(float, deadline) - now) / max(now - start, 1e-9)
    return first - second > left


# Rollout preferences by action kind: building beats discarding; all passes together weigh 1.
_WEIGHT = {A.PLACE: 4.0, A.CLAIM_MONUMENT: 5.0, A.CLAIM_TOP: 3.0, A.CLAIM_POP: 5.0, A.DISCARD: 0.3, A.POWER: 2.0}
_WEIGHTS = tuple(_WEIGHT.get(kind, 1.0) for kind in range(64))  # by kind, for the rollout's inner loop


def _rollout(s: GameState, steps: int, rng: random.Random) -> None:
    """Play on to the end of the round (at most ``steps`` decisions): a macro drawn by kind weights,
    then a random variant of it.

    The leaf is then the next round's Collect as far as it goes without a choice: some income may be
    in and some not.  The rollout stops there rather than play the Collect's choices at random, which
    plays worse (lab/README.md, "Design notes from experiments")."""
    start_round = s.round
    weights_of = _WEIGHTS
    for _ in range(steps):
        if s.is_terminal() or s.round != start_round:
            return
        groups = s.legal_groups()
        if len(groups) == 1:
            variants = groups[0]
        else:
            kinds = [A.kind(g[0]) for g in groups]
            passes = kinds.count(PASS)
            each_pass = 1.0 / passes if passes else 0.0
            weights = [each_pass if kind == PASS else weights_of[kind] for kind in kinds]
            x = rng.random() * sum(weights)
            i = 0
            for i, w in enumerate(weights):  # noqa: B007 - ``i`` is read after the loop
                x -= w
                if x < 0:
                    break
            variants = groups[i]
        s.apply_unchecked(variants[rng.randrange(len(variants))])


def decided(stats: Stats, players: int = 2) -> bool:
    """Whether a search's root moves all keep the same chance of winning, below `DECIDED` (the game is
    lost whatever the move) or above 1 - `DECIDED` (won), within `DECIDED` of each other, in a game of
    ``players`` (whose rewards are shared out among them: `ai.rewards.unfinished_rewards`)."""
    chances = [chance_of_reward(w / n, players) for n, w in stats.values() if n]
    if len(chances) < 2 or max(chances) - min(chances) > DECIDED:
        return False
    return max(chances) < DECIDED or min(chances) > 1.0 - DECIDED


def standing(world: GameState, action: Action, player: int) -> tuple[int, int]:
    """What ``action`` leaves ``player`` in ``world`` (a determinisation: its chance is no peek) by the
    game's own measures: points ahead of the best rival, then the tie-break's essences (Gold double)."""
    after = world.clone()
    after.apply_unchecked(action)
    vp = after.victory_points()
    return vp[player] - max(vp[q] for q in range(after.n_players) if q != player), pool_score(after, player)


def worker_context() -> BaseContext:
    """How the search's worker processes start: forked while this process runs one thread, else from a
    fork server (a fork while other threads run copies the locks they hold, held forever: a worker
    forked while a terminal's reader thread held standard input's lock hung before its first search)."""
    import multiprocessing
    import threading
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    _start_fork_server()
    return multiprocessing.get_context("forkserver")


def _start_fork_server() -> None:
    """Start the fork server (if it is not running) with the search's modules loaded from where this
    process loaded them, so that every worker runs this process's code.  The server is a fresh
    interpreter: its path would begin with the current folder, which may be a checkout beside an
    installed, compiled build (whose objects the checkout's pure modules cannot unpickle); it is
    started with that build's folder first on its path instead (PYTHONPATH, and PYTHONSAFEPATH so that
    the current folder is not put before it)."""
    import os
    import sys
    from multiprocessing import forkserver
    from pathlib import Path

    import amigos
    home = str(Path(amigos.__file__ or ".").resolve().parents[1])
    forkserver.set_forkserver_preload(["amigos.state", "ai.mcts"])
    kept = {name: os.environ.get(name) for name in ("PYTHONPATH", "PYTHONSAFEPATH")}
    os.environ["PYTHONPATH"] = os.pathsep.join([home] + [p for p in [kept["PYTHONPATH"]] if p])
    os.environ["PYTHONSAFEPATH"] = "1"
    # (the resource tracker the server starts is handed standard error's descriptor: a full screen
    # that captures standard error has none, and the start would fail; it then writes nowhere)
    stderr = sys.stderr
    if _descriptor(stderr) < 0:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - closed below
    try:
        forkserver.ensure_running()
    finally:
        if sys.stderr is not stderr:
            sys.stderr.close()
            sys.stderr = stderr
        for name, value in kept.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _descriptor(stream: object) -> int:
    """The file descriptor behind ``stream``, or -1 if it has none."""
    try:
        return int(stream.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return -1


# What a worker process keeps from its agent, handed to it once when it starts (`_started`): the event
# that ends a ponder (`_ponder`) and the evaluator (a network's weights: too large to send with every job).
_AGENT: list[Any] = []


def _started(stop: Any, evaluator: Evaluator) -> None:
    """A worker process starts: keep its agent's event that ends a ponder and its evaluator."""
    _AGENT[:] = [stop, evaluator]


def _worker(args: tuple[Any, ...]) -> tuple[Stats, int]:
    state, player, iters, seconds, seed, settings, groups = args
    return search(state, player, iters, seconds, seed, Settings(*settings), root_groups=groups, evaluator=_AGENT[1])


def _ponder(args: tuple[Any, ...]) -> tuple[dict[Macro, Stats], int]:
    """A worker's ponder: a search at a rival's decision for ``seat``, until the agent's event is set or
    `PONDER_LIMIT` passes; `replies` of its tree and the iterations run."""
    state, seat, seed, settings = args
    stop, evaluator = _AGENT
    root, done = grow(state, seat, None, PONDER_LIMIT, seed, Settings(*settings), evaluator=evaluator,
                      stop=stop.is_set)
    return replies(root, seat), done


def add_stats(into: Stats, more: Stats) -> None:
    """Add ``more``'s visits and value sums to ``into``'s, move by move (workers' roots, a ponder's)."""
    for key, (n, w) in more.items():
        m = into.get(key, (0, 0.0))
        into[key] = (m[0] + n, m[1] + w)


def tree_key(action: Action, merge_passes: bool) -> Macro:
    """The key of ``action``'s child in a search's tree (`group`'s, without a purchase)."""
    if merge_passes and A.kind(action) == PASS:
        return (PASS, A.player(action))
    return macro_key(action)


class Ponder:
    """A ponder under way (`MCTSAgent.ponder`): the seat it thinks for, its workers' jobs, and the
    decisions made since it began (by whom, the tree's key of each)."""

    __slots__ = ("seat", "jobs", "seen")

    seat: int
    jobs: list[Any]  # concurrent.futures.Future of `_ponder`'s results
    seen: list[tuple[int, Macro]]

    def __init__(self, seat: int, jobs: list[Any]) -> None:
        self.seat = seat
        self.jobs = jobs
        self.seen = []


class MCTSAgent:
    """``mcts:time=1.0`` or ``mcts:iters=2000,workers=2,seed=7,c=0.7,rollout=8,norm=0.02``: an `ai.agent.Agent`
    (its methods its own rather than `ai.agent.BaseAgent`'s, so that the compiled build keeps it a
    native class).  ``value``, ``model`` and ``net`` make its `ai.evaluator.Evaluator` (files read
    here: a bad one is refused at once, `ai.checkpoint.NetError`).  ``ponder=1``: think on while a
    person decides (`ponder`), given a time budget."""

    seconds: float | None
    iters: int | None
    workers: int
    rng: random.Random
    settings: Settings
    evaluator: Evaluator
    draft: int  # `DRAFT_SEARCH`, `DRAFT_WORTH` or `DRAFT_NET`
    solo: bool
    pondering: bool
    temper: float
    info: dict[str, Any]
    _pool: ProcessPoolExecutor | None
    _stop: Any  # the workers' event that ends a ponder (a multiprocessing Event, made with the pool)
    _ponder: Ponder | None
    _closed: bool  # `close`d: a search may start the workers again, never a ponder (the game is ending)

    def __init__(self, time: float | None = None, iters: int | None = None, workers: int = 1, seed: int = 0,
                 c: float = 0.7, rollout: int = 0, draft: int = 1, value: str = NET, norm: float = NORM,
                 halving: int = HALVING, solo: int = 1, model: str | None = None, net: str | None = None,
                 ways: int = WAYS, ponder: int = 0, widen: int = WIDEN, temper: float = 0.0) -> None:
        # (what `close` reads first: set before anything here may fail, since the compiled class reads
        # an attribute without checking that it was set, and `__del__` closes a half-made agent too)
        self._pool = None
        self._stop = None
        self._ponder = None
        self._closed = False
        self.seconds = time
        self.iters = iters
        self.workers = max(1, int(workers))
        self.rng = random.Random(seed)
        self.settings = Settings(c=float(c), rollout=int(rollout), norm=float(norm), halving=int(halving),
                                 widen=max(1, int(widen)))
        recipe = (value, model, net, int(ways))
        # (the packaged files are read once a process; named files each time, so that a rewritten one is read)
        self.evaluator = default_evaluator(value, int(ways)) if model is None and net is None \
            else Evaluator.from_recipe(recipe)
        # draft=1 (default): draft and redraft picks by card value, and the chooser of games 2 and 3
        # makes itself first player; draft=2: the picks by the network (`network_picks`), where there
        # is one for the game's count; draft=0: search those too.  The search cannot see from these
        # setup decisions to a result (its rollouts stop within the first round), so its choice there
        # is mostly noise.  Going first brings the First Player token and, in game 2, the first redraft
        # pick (the records: lab/README.md, "Design notes from experiments").
        self.draft = int(draft)
        # solo=1 (default): once every rival has passed, the rest of the round is planned (`plan`).
        self.solo = bool(solo)
        # ponder=1: search on while a person decides (an iteration budget is kept reproducible: never).
        self.pondering = bool(ponder) and time is not None
        # temper > 0: the move sampled by the searched chances with that temperature (`tempered`)
        self.temper = float(temper)
        self.info = {}

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        pondered = self.pondered(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.info = {"choices": 1, "iterations": 0}
            return legal[0]
        player = state.current_player()
        if self.draft == DRAFT_NET and A.kind(legal[0]) in (DRAFT_PICK, REDRAFT_PICK) \
                and state.n_players in self.evaluator.nets:
            chances = network_picks(state, self.evaluator.leaf(state.n_players, player), DRAFT_WORLDS,
                                    self.rng.getrandbits(64))
            self.info = {"choices": len(legal), "iterations": 0,
                         "picks": [{"card": state.cards[A.subject(a)].name, "chance": chance}
                                   for chance, a in chances[:3]]}
            return chances[0][1]
        if self.draft != DRAFT_SEARCH and A.kind(legal[0]) in (DRAFT_PICK, REDRAFT_PICK):
            ranked = pick_scores(state, self.evaluator.model)
            self.info = {"choices": len(legal), "iterations": 0,
                         "picks": [dict(parts, card=state.cards[A.subject(a)].name, score=score)
                                   for score, a, parts in ranked[:3]]}
            return ranked[0][1]
        if self.draft != DRAFT_SEARCH and A.kind(legal[0]) == CHOOSE_FIRST:
            self.info = {"choices": len(legal), "iterations": 0}
            return next(a for a in legal if A.subject(a) == player)
        groups = useful(state, group(state, self.evaluator.learned))
        if len(groups) == 1:  # one action, several payments: no search can tell them apart better
            self.info = {"choices": len(legal), "iterations": 0}
            return self.variant(state, next(iter(groups.values())))
        seconds = self.seconds_for(state, groups)  # (by the moves there are, before their ways are split)
        planned = self.plan(state, player, seconds) if self.solo else None
        if planned is not None:
            return planned
        if self.settings.widen > 1 and self.evaluator.learned:
            groups = self.widened(state, groups, player)
        stats, done = self.root_stats(state, player, progress, groups, seconds)
        before = sum(n for n, _ in stats.values())
        if pondered is not None:
            add_stats(stats, {key: kept for key, kept in pondered.items() if key in groups})
        best_key = self.best_of(state, groups, stats, player)
        if self.temper > 0.0:
            best_key = self.tempered(groups, stats, best_key)
        visits, value = stats.get(best_key, (0, 0.0))
        self.info = {"choices": len(legal), "iterations": done,
                     "value": value / visits if visits else None, "visits": visits,
                     # (each root child's move, its visits and mean reward: a training target)
                     "root": [(groups[k][0], n, w / n) for k, (n, w) in stats.items() if n and k in groups]}
        if pondered is not None:
            self.info["pondered"] = sum(n for n, _ in stats.values()) - before
        best_macro = macro_key(groups[best_key][0])  # (a purchase's key plays the same move: not "another")
        second = max((k for k in groups if stats.get(k, (0, 0.0))[0] and macro_key(groups[k][0]) != best_macro),
                     key=lambda k: stats[k][0], default=None)
        if second is not None:  # (what a hint compares the move with)
            n, w = stats[second]
            self.info["runner_up"] = {"action": groups[second][0], "visits": n, "value": w / n}
        return self.variant(state, groups[best_key])

    def widened(self, state: GameState, groups: Groups, player: int) -> Groups:
        """``groups`` (the player's moves at the root) with each move of several ways split into its
        ``widen`` best ways (`ai.evaluator.Evaluator.ranked`, judged in a determinisation), each a
        move of one way keyed by the move and `WAY` (the first keeps the move's key): the search then
        weighs the ways as it weighs the moves.  A pass and a purchase's move keep their ways."""
        world = Determinizer(state, player).deal(self.rng.getrandbits(64))
        out: Groups = {}
        for key, variants in groups.items():
            if len(variants) == 1 or A.kind(variants[0]) == PASS or macro_key(variants[0]) != key:
                out[key] = variants
                continue
            ways = self.evaluator.ranked(world, variants, self.settings.widen)
            out[key] = ways[:1]
            for r in range(1, len(ways)):
                out[key + (WAY, r)] = ways[r:r + 1]
        return out

    def seconds_for(self, state: GameState, groups: Groups) -> float | None:
        """The search's time for this move (None: an iteration budget): ``time``, `LAST_ROUND_TIME` of it
        where the round may end the game, `TWO_MOVES_TIME` of it for a choice of two moves."""
        if self.seconds is None:
            return None
        share = LAST_ROUND_TIME if max(state.scores()[0]) >= NEAR_WIN else 1.0
        if len(groups) == 2:
            share *= TWO_MOVES_TIME
        return self.seconds * share

    def ponder(self, state: GameState, seat: int) -> None:
        """A rival (a person) decides now in ``state``: with ``ponder=1`` and a time budget, search
        ``seat``'s next decision meanwhile on the workers, from ``seat``'s view only, until `select` uses
        what it found (if the rival made one decision and ``seat`` decides next) or `close` ends it."""
        if not self.pondering or self._closed or state.is_terminal() or state.current_player() == seat:
            return
        self.end_ponder()
        pool = self._executor()
        settings = tuple(self.settings)
        self._ponder = Ponder(seat, [pool.submit(_ponder, (state, seat, self.rng.getrandbits(64), settings))
                                     for _ in range(self.workers)])

    def pondered(self, state: GameState) -> Stats | None:
        """End a ponder under way; what it found for this decision, summed over the workers, if it
        pondered this very decision: the rival made one decision since it began and the seat it
        pondered for decides now (None otherwise)."""
        ponder = self.end_ponder()
        if ponder is None or len(ponder.seen) != 1 or state.current_player() != ponder.seat:
            return None
        actor, key = ponder.seen[0]
        if actor == ponder.seat:
            return None
        found: Stats = {}
        for job in ponder.jobs:
            try:
                tree, _ = job.result()
            except Exception:  # noqa: BLE001 - a worker ended by `close`: nothing pondered
                return None
            add_stats(found, tree.get(key, {}))
        return found

    def end_ponder(self) -> Ponder | None:
        """Stop a ponder under way (its workers finish within `STOP_EVERY` iterations) and return it."""
        ponder, self._ponder = self._ponder, None
        if ponder is not None:
            self._stop.set()
            for job in ponder.jobs:
                try:
                    job.result()
                except Exception:  # noqa: BLE001, S110 - a worker ended by `close`: nothing to wait for
                    pass
            self._stop.clear()
        return ponder

    def tempered(self, groups: Groups, stats: Stats, best: Macro) -> Macro:
        """A move sampled among the root's searched moves (``stats``) with weights exp(chance / temper):
        a weaker player's choice, which errs among close moves and seldom takes a far worse one; ``best``
        when nothing was searched."""
        searched = [(k, w / n) for k, (n, w) in stats.items() if n and k in groups]
        if not searched:
            return best
        top = max(q for _, q in searched)
        weights = [math.exp((q - top) / self.temper) for _, q in searched]
        return self.rng.choices([k for k, _ in searched], weights=weights)[0]

    def best_of(self, state: GameState, groups: Groups, stats: Stats, player: int) -> Macro:
        """The root's move after a search's ``stats``: the most visited (then the best valued); in a
        `decided` game, the one that scores most (`standing`, in a determinisation), then the most
        visited."""
        if decided(stats, state.n_players):  # (every move keeps the same chance: play for points, then the tie-break)
            world = Determinizer(state, player).deal(self.rng.getrandbits(64))
            return max(groups, key=lambda k: (standing(world, self.variant(state, groups[k], world), player),
                                              stats.get(k, (0, 0.0))[0]))
        return max(groups, key=lambda k: (stats.get(k, (0, 0.0))[0], stats.get(k, (0, 0.0))[1]))

    def plan(self, state: GameState, player: int, seconds: float | None = None) -> Action | None:
        """Every rival has passed: the rest of the round planned to its end (`ai.planner`) in `SOLO_WORLDS`
        determinisations, within `SOLO_SHARE` of the move's time ``seconds`` (`seconds_for`; None: an
        iteration budget); None where the plan gave up (or the round is not the player's alone, or the
        value is the hand-tuned one)."""
        from .planner import NODE_BUDGET, TIMED_BUDGET, alone, plan_round  # (it plays moves as `group` makes them)
        if not self.evaluator.learned or not alone(state, player):
            return None
        leaf = self.evaluator.leaf(state.n_players, player)
        start = _time.perf_counter()
        deadline = None if seconds is None else start + SOLO_SHARE * seconds
        dealer = Determinizer(state, player)
        worlds = [dealer.deal(self.rng.getrandbits(64)) for _ in range(SOLO_WORLDS)]
        # (timed: the clock limits the plan; with iterations, its positions at most the search's, a
        # planned position costing about what an iteration does)
        budget = TIMED_BUDGET if deadline is not None else max(NODE_BUDGET, (self.iters or 0) // SOLO_WORLDS)
        planned = plan_round(worlds, player, lambda s: leaf(s)[player], self.evaluator, budget, deadline)
        if planned is None:
            return None
        best = max(planned, key=lambda k: planned[k][1])  # (the first of equals: the moves' order)
        if decided({k: (1, v) for k, (_, v) in planned.items()}, state.n_players):
            best = max(planned, key=lambda k: standing(worlds[0], planned[k][0], player))
        action, v = planned[best]
        if action not in state.legal_actions():
            return None
        self.info = {"choices": len(state.legal_actions()), "iterations": 0, "value": v,
                     "planned": round(_time.perf_counter() - start, 3)}
        return action

    def variant(self, state: GameState, variants: Sequence[Action], world: GameState | None = None) -> Action:
        """The payment and gain of the chosen action (the magic item of a pass): the evaluator's, judged
        in ``world``, a determinisation of ``state`` for the mover (None: one is dealt), never in the
        true state."""
        if len(variants) == 1:
            return variants[0]
        if world is None:
            world = Determinizer(state, A.player(variants[0])).deal(self.rng.getrandbits(64))
        return self.evaluator.variant(world, variants)

    def reseed(self, seed: int) -> None:
        """Restart the search's random stream (see `ai.agent.Agent.reseed`)."""
        self.rng = random.Random(seed)

    def observe(self, state: GameState, action: Action) -> None:
        """Told of each decision of the game (see `ai.agent.Agent.observe`): while pondering, who made
        it and its key in the tree (what `pondered` looks up)."""
        if self._ponder is not None and len(state.legal_actions()) > 1:  # (a forced one has no node)
            self._ponder.seen.append((state.current_player(), tree_key(action, self.evaluator.learned)))

    def root_stats(self, state: GameState, player: int, progress: Callable[[int], None] | None = None,
                   groups: Groups | None = None, seconds: float | None = None) -> tuple[Stats, int]:
        """Search and merge the workers' root statistics: ({macro: (visits, value)}, iterations);
        ``groups``: the player's moves here, if worked out already (`search`'s ``root_groups``);
        ``seconds``: the time to take (None: the agent's budget)."""
        seeds = [self.rng.getrandbits(64) for _ in range(self.workers)]
        if seconds is None:
            seconds = self.seconds
        if self.workers == 1:
            return search(state, player, self.iters, seconds, seeds[0], self.settings, progress, groups,
                          self.evaluator)
        iters = None if self.iters is None else -(-self.iters // self.workers)
        settings = tuple(self.settings)  # (a plain tuple crosses to the worker processes as it is)
        jobs = [(state, player, iters, seconds, s, settings, groups) for s in seeds]
        results = self._executor().map(_worker, jobs)
        merged: Stats = {}
        total = 0
        for stats, done in results:
            total += done
            add_stats(merged, stats)
        return merged, total

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            from concurrent.futures import ProcessPoolExecutor
            context = worker_context()
            self._stop = context.Event()
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context, initializer=_started,
                                             initargs=(self._stop, self.evaluator))
        return self._pool

    def close(self) -> None:
        """Stop the worker processes at once, a search or a ponder under way in them too (it then fails
        with `concurrent.futures.process.BrokenProcessPool`); a later search starts them again, not a
        ponder."""
        self._ponder = None
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            # (the executor has no public way to end a busy worker: its processes are ended directly)
            processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
            workers = list(processes.values())
            for process in workers:
                process.terminate()
            for process in workers:
                process.join(timeout=2)
            pool.shutdown(wait=True, cancel_futures=True)  # (its queues closed: nothing leaks)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass
