"""The value a search is handed: what a position where it stops is worth, and how an action is played.

As OpenSpiel's MCTS takes an ``Evaluator``, the search (`ai.mcts`), the rest-of-round planner
(`ai.planner`) and the draft ask one object, built once from explicit files at the command line's edge
(an agent spec's ``net=PATH`` and ``model=PATH``, else the packaged files), never from process-wide
settings.  Its ``value`` is one of `VALUES`:

- `NET` (the default): the neural value (`ai.network`), a network for each player count it has one
  for (two players always: ``net=PATH`` or the packaged one; three to five where a network for that
  count is packaged, ``value_net_3p.npz`` ..., or named by ``net=PATH``), else the linear learned
  value (`ai.learned`);
- `LINEAR`: the linear learned value with any number of players;
- `HAND`: the hand-tuned value (`ai.value`), best after rollouts to the round's end.

How an action is played (its payment and gain, a pass's magic item) is chosen by the value too: with
`NET`, a network for the game's count and ``ways`` above 1, the network picks among the ``ways`` ways the linear learned
value likes best (judging each after it is played: the linear value's row of features sees the pool,
not what the essences will do); else the linear value picks (`WAYS`: the default); with `HAND` the hand-tuned
pool value (`ai.heuristics.best_variant`), every pass its own move.  Each judges the position it is
given: hand it a world dealt for the mover (`amigos.determinize`), never the true state.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from amigos import actions as A
from amigos.actions import PASS
from amigos.config import Action

from .features import in_play
from .heuristics import best_variant, learned_variant, learned_variants
from .learned import ValueModel, progress_of
from .network import PLAYER_COUNTS, NetError, ValueNet
from .rewards import learned_rewards, net_rewards, rewards

if TYPE_CHECKING:
    from amigos.state import GameState

NET: Final = "net"
LINEAR: Final = "linear"
HAND: Final = "hand"
VALUES: Final = (NET, LINEAR, HAND)
#: The ways of an action (the linear value's best) that the network chooses among by default: one, the
#: linear value's choice.  Three played alike at equal iterations and cost a third of the compiled
#: search's speed (lab/DECISIONS.md, "Search").
WAYS: Final = 1

Rewards = Callable[["GameState"], list[float]]  # every player's reward in [0, 1] (`ai.rewards`)
Recipe = tuple[str, "str | None", "str | None", int]  # `Evaluator.load`'s value, model, net and ways


class Evaluator:
    """A leaf value and a way of playing each action (see the module docstring): ``value`` one of
    `VALUES`, ``model`` the linear learned value, ``net`` the neural value (None unless ``value`` is
    `NET`), ``ways`` how many of the linear value's best ways the network chooses among (1: the
    linear value's choice)."""

    __slots__ = ("value", "model", "net", "nets", "ways", "recipe")

    value: str
    model: ValueModel
    net: ValueNet | None
    nets: dict[int, ValueNet]  # the networks by player count (``net``'s two and any others)
    ways: int
    recipe: Recipe | None  # how `load` made it (what crosses to a worker process), None if not by `load`

    def __init__(self, value: str, model: ValueModel, net: ValueNet | None = None, ways: int = WAYS,
                 more: Sequence[ValueNet] = ()) -> None:
        if value not in VALUES:
            raise ValueError(f"a value is one of {', '.join(VALUES)}, not {value!r}")
        if (net is None) != (value != NET):
            raise ValueError("the neural value, and only it, needs a network")
        if more and net is None:
            raise ValueError("networks for more players are the neural value's (value=net), with its own")
        if net is not None and net.players != 2:
            raise ValueError(f"the neural value's network is for two players, not {net.players}")
        self.value, self.model, self.net, self.ways = value, model, net, max(1, ways)
        self.nets = {} if net is None else {2: net}
        for other in more:  # (``more``: networks for three players or more, the last of a count kept)
            if other.players == 2:
                raise ValueError("a network for two players is the neural value's own (net), not one of more")
            self.nets[other.players] = other
        self.recipe = None

    def __reduce__(self) -> tuple[Any, tuple[Recipe]]:
        """Pickled as its recipe: a worker process reads the same files (once a process, `made`); the
        models themselves may be compiled classes, which do not pickle."""
        if self.recipe is None:
            raise TypeError("an evaluator not made by Evaluator.load cannot cross to another process")
        return made, (self.recipe,)

    @classmethod
    def load(cls, value: str = NET, model: Path | None = None, net: Path | None = None, ways: int = WAYS) -> Evaluator:
        """The evaluator of ``value`` with the linear model in ``model`` and the network in ``net`` (None:
        the packaged ones; a network for three players or more is used in games of its count, beside
        the packaged two-player one), and the packaged networks for more players where there are (not
        over another linear model than theirs); `ai.checkpoint.NetError` (one line naming the file) for
        a file that is not a model for today's inputs, or a network trained over another linear model;
        ValueError (one line) for a network with another value than `NET`."""
        if net is not None and value != NET:
            raise ValueError(f"a network file is for value={NET}, not value={value}")
        linear = packaged_model() if model is None else ValueModel.load(model)
        network = None
        more: list[ValueNet] = []
        if value == NET:
            named = None if net is None else ValueNet.load(net, linear)
            if named is not None and named.players == 2:
                network = named
            elif model is None:
                network = packaged_net()
            else:
                network = ValueNet.load(ValueNet.packaged_path(), linear, mate=model)
            for players in PLAYER_COUNTS[1:]:  # (the packaged networks for more players, where there are)
                path = ValueNet.packaged_path(players)
                if path.is_file() and model is None:
                    more.append(packaged_wide(players))
                elif path.is_file():  # (trained over the packaged linear value: of no use over another)
                    with contextlib.suppress(NetError):
                        more.append(ValueNet.load(path, linear, mate=model))
            if named is not None and named.players != 2:
                more.append(named)
        evaluator = cls(value, linear, network, ways, more)
        evaluator.recipe = (value, None if model is None else str(model), None if net is None else str(net), ways)
        return evaluator

    @classmethod
    def from_recipe(cls, recipe: Recipe) -> Evaluator:
        """`load`'s evaluator of ``recipe`` (value, model file, network file, ways; the files as text)."""
        value, model, net, ways = recipe
        return cls.load(value, None if model is None else Path(model), None if net is None else Path(net), ways)

    @property
    def learned(self) -> bool:
        """Whether the value is learned (not `HAND`): then the passes are one move, their magic item a
        way of it (`ai.mcts.group`'s ``merge_passes``)."""
        return self.value != HAND

    def leaf(self, players: int, player: int) -> Rewards:
        """What values a position where a search or a plan stops, as ``player`` sees it."""
        if self.value == HAND:
            return rewards
        net = self.nets.get(players)
        if net is not None:
            return lambda s: net_rewards(s, net, player)
        model = self.model
        return lambda s: learned_rewards(s, model)

    def variant(self, state: GameState, variants: Sequence[Action]) -> Action:
        """The way to play one macro's ``variants`` (its payment and gain, or a pass's magic item),
        judged on the mover's own cards and the public table only."""
        if len(variants) == 1:
            return variants[0]
        if self.value == HAND:
            return best_variant(state, variants)
        if A.kind(variants[0]) == PASS:
            return pass_variant(state, variants, self.model)
        net = self.nets.get(state.n_players)
        if net is None or self.ways == 1:
            return learned_variant(state, variants, self.model)
        ways = learned_variants(state, variants, self.model, self.ways)
        if len(ways) == 1:
            return ways[0]
        mover = A.player(ways[0])
        best = ways[0]
        best_v = -1.0
        for a in ways:  # (the linear value's order: its choice wins a tie)
            after = state.clone()
            after.apply_unchecked(a)
            v = net_rewards(after, net, mover)[mover]
            if v > best_v:
                best, best_v = a, v
        return best

    def ranked(self, state: GameState, variants: Sequence[Action], count: int) -> list[Action]:
        """Up to ``count`` ways to play one macro's ``variants``: `variant`'s first, then the others the
        linear learned value rates best (`ai.heuristics.learned_variants`: ways that gain nothing left
        out), what a search widening a move's ways tries in turn (`ai.mcts`'s ``widen``); one way for a
        pass or the hand-tuned value."""
        first = self.variant(state, variants)
        if len(variants) == 1 or self.value == HAND or A.kind(variants[0]) == PASS:
            return [first]
        others = [a for a in learned_variants(state, variants, self.model, count + 1) if a != first]
        return [first] + others[:count - 1]


def pass_variant(state: GameState, passes: Sequence[Action], model: ValueModel) -> Action:
    """The pass whose magic item the learned value rates best in play (what it adds to the passer's
    features, `ai.features.in_play`, weighed at this stage of the game); the first of equals."""
    weights = model.weights_at(progress_of(state))
    best: Action | None = None
    best_v = 0.0  # (meaningful once ``best`` is set)
    for a in passes:
        v = sum(weights[j] * x for j, x in in_play(state.cards[A.subject(a)]))
        if best is None or v > best_v:
            best, best_v = a, v
    assert best is not None  # a macro has at least one variant
    return best


@functools.cache
def packaged_model() -> ValueModel:
    """The packaged linear learned value (read once a process)."""
    return ValueModel.load(None)


@functools.cache
def packaged_net() -> ValueNet:
    """The packaged network over the packaged linear value (read once a process); `NetError` naming the
    training command if the package has none."""
    path = ValueNet.packaged_path()
    if not path.exists():
        raise NetError(f"{path}: no such file (train one: amigos-train neural)")
    net = ValueNet.load(path, packaged_model())
    if net.players != 2:
        raise NetError(f"{path}: a value network for {net.players} players, not 2")
    return net


@functools.cache
def packaged_wide(players: int) -> ValueNet:
    """The packaged network for ``players`` (three or more) over the packaged linear value, read once a
    process (`Evaluator.load` asks only where the file is there); `NetError` for a file of another count."""
    path = ValueNet.packaged_path(players)
    net = ValueNet.load(path, packaged_model())
    if net.players != players:
        raise NetError(f"{path}: a value network for {net.players} players, not {players}")
    return net


@functools.cache
def made(recipe: Recipe) -> Evaluator:
    """`Evaluator.from_recipe`, once a process (what a worker process unpickles an evaluator as)."""
    return Evaluator.from_recipe(recipe)


def default_evaluator(value: str = NET, ways: int = WAYS) -> Evaluator:
    """The evaluator of ``value`` over the packaged files (what an agent spec without files gets; read
    once a process)."""
    return made((value, None, None, ways))
