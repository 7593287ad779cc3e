"""Agents and their specs.

Every agent is an `ai.agent.Agent`: ``select(state) -> action`` returns one of ``state.legal_actions()``
for ``state.current_player()`` and leaves an ``info`` dict (iterations, value, ...) for logs and match
files; ``reseed(seed)`` and ``close()`` as there.  Specs are strings, the same for every command::

    random            uniform over legal actions
    greedy            one ply, the reference evaluation
    expectimax:depth=3
    mcts:time=1.0     or  mcts:iters=2000,workers=2,seed=7,c=0.7,rollout=0,draft=1,value=net,norm=0.02,halving=1
                      value=net (the default): leaves valued by the neural value (`ai.network`)
                      with two players and the linear learned value (`ai.learned`) with more;
                      value=linear: the linear learned value with any number of players (the
                      default before the network); value=hand: the hand-tuned value (`ai.value`),
                      best with rollout=30 (random play to the end of the round first), as the
                      agent played before the learned value (`ai.evaluator`).  model=FILE and
                      net=FILE: the linear value's and the network's files instead of the
                      packaged ones (read when the agent is made).  ways=1 (the default): an
                      action's payment and gain are the linear value's choice; ways=3: with the
                      network, chosen by it among the linear value's 3 best.  norm: each node's move values
                      spread over [0, 1] before exploration weighs them, over at least this spread
                      (0: off, the agent before).  halving=1 (the default): the root's move chosen
                      by sequential halving, using the whole budget; halving=0: by UCB1, stopping
                      once no move can catch up.  draft=1: draft and redraft picks by learned card
                      worth (`ai.draft`), and the chooser of games 2 and 3 names itself first
                      player; draft=2: the picks by the network's chance after each (where there
                      is a network for the game's count); draft=0: both by search.  solo=1 (the default): once every rival
                      has passed, the rest of the round planned to its end (`ai.planner`);
                      solo=0: searched as any move.  ponder=1 (with a time budget): search on
                      while a person decides, keeping what was found for the person's move
                      (what ``amigos play`` does against a person); ponder=0 (the default): not.
                      widen=1 (the default): a move is searched with one way to pay and gain;
                      widen=3: with up to its 3 best ways by the linear value, each searched as a
                      move of its own (at the root from the start, below it as visits grow).
                      temper=T (0, the default: the best move): the move sampled among the
                      searched ones with weights exp(chance / T), a weaker player's (`LEVELS`)
    level:3           the AI at a level from 1 (gentle) to 5 (the strongest, mcts:time=1): `LEVELS`

`make_agent(spec, seed=None)` builds one; ``seed`` (e.g. derived from a match seed and the seat) is used
when the spec names none.  Agents draw their randomness from their own seeded stream, never from the
game's, and never look at what their player cannot see (except ``expectimax``, a deliberately cheating
baseline).
"""

from __future__ import annotations

import difflib
import math
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from amigos.config import Action
from amigos.errors import AmigosError

from .agent import Agent, BaseAgent
from .evaluate import evaluate
from .evaluator import NET, VALUES
from .heuristics import best_variant

if TYPE_CHECKING:
    from amigos.state import GameState


class SpecError(AmigosError):
    """A malformed agent spec."""


KINDS = ("random", "greedy", "expectimax", "mcts", "level")
#: The AI's levels (``level:N``), from a gentle opponent a new player can beat to the full-strength
#: default: less search, and below the top two the move sampled among the searched ones by their chance
#: to win with a temperature (``temper``: the weaker, the hotter), so that a weaker level errs where the
#: moves are close, as people do, and seldom where one is far worse.  Each level's strength is measured by
#: a ladder tournament, greedy and the levels in a round robin (the README's table; its command in
#: benchmarks/README.md).
LEVELS: dict[int, str] = {1: "mcts:iters=30,temper=0.12,solo=0", 2: "mcts:iters=100,temper=0.06,solo=0",
                          3: "mcts:iters=300,temper=0.03", 4: "mcts:iters=1500", 5: "mcts:time=1"}


def _nearest(word: str, known: Iterable[str]) -> str:
    """``" (did you mean mcts?)"`` for a near miss of one of ``known``, else ""."""
    close = difflib.get_close_matches(word, sorted(known), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def spec_text(kind: str, params: dict[str, Any]) -> str:
    """The spec of ``kind`` with ``params``: what `parse_spec` reads back as them."""
    return f"{kind}:" + ",".join(f"{key}={value}" for key, value in params.items())


def spec_path(path: Path) -> str:
    """``path`` as a spec's file parameter names it (``net=``, ``model=``): whole, so that a run resumed
    from another folder names the same file; `SpecError` for a path a spec cannot hold (a comma)."""
    text = str(Path(path).resolve())
    if "," in text:
        raise SpecError(f"{text}: an agent spec cannot name a file whose path has a comma")
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:  # (numbers: int or float; `TEXTS`: str)
    """``"mcts:iters=200,seed=3"`` -> ``("mcts", {"iters": 200, "seed": 3})``; raises `SpecError`."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError("empty agent spec")
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise SpecError(f"unknown agent {kind!r}{_nearest(kind, KINDS)}: expected one of {', '.join(KINDS)}")
    if kind == "level":
        if rest.strip() not in {str(n) for n in LEVELS}:
            raise SpecError(f"agent level takes a level from 1 (gentle) to {max(LEVELS)} (the strongest): "
                            f"level:3, not {spec.strip()!r}")
        return parse_spec(LEVELS[int(rest)])
    allowed = {"random": {"seed"}, "greedy": {"seed"}, "expectimax": {"depth", "seed"},
               "mcts": {"time", "iters", "workers", "seed", "c", "rollout", "draft", "value", "norm",
                        "halving", "solo", "model", "net", "ways", "ponder", "widen", "temper"}}[kind]
    params: dict[str, int | float | str] = {}
    if rest.strip():
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or not key:
                raise SpecError(f"bad agent parameter {item.strip()!r} in {spec!r} (expected name=value)")
            if key not in allowed:
                params[key] = value  # (refused below by its name, whatever its value)
            else:
                params[key] = _text(key, value.strip()) if key in TEXTS else _number(key, value)
    unknown = set(params) - allowed
    if unknown:
        first = sorted(unknown)[0]
        raise SpecError(f"agent {kind} has no parameter {', '.join(sorted(unknown))}{_nearest(first, allowed)}: "
                        f"its parameters are {', '.join(sorted(allowed))}")
    for key, got in params.items():
        if not isinstance(got, str):
            _check(key, got)
    if "net" in params and params.get("value", NET) != NET:
        raise SpecError(f"agent parameter net is for value={NET}, not value={params['value']}")
    return kind, params


#: Parameters whose value is text: the words it takes (None: a file's path, taken as written).
TEXTS: dict[str, tuple[str, ...] | None] = {"value": VALUES, "model": None, "net": None}


def _text(key: str, value: str) -> str:
    """The text of parameter ``key`` (one of `TEXTS`); `SpecError` for a word it does not take."""
    words = TEXTS[key]
    if not value:
        raise SpecError(f"agent parameter {key} needs a {'word' if words else 'file'}")
    if words is not None:
        value = value.lower()
    if words is not None and value not in words:
        raise SpecError(f"agent parameter {key} must be one of {', '.join(words)}, not {value!r}{_nearest(value, words)}")
    return value


def _number(key: str, value: str) -> int | float:
    """The number a numeric parameter's text ``value`` says (whole if written whole); `SpecError` if none."""
    try:
        number = float(value)
    except ValueError:
        raise SpecError(f"agent parameter {key} must be a number, not {value.strip()!r}") from None
    return int(number) if number.is_integer() and "." not in value else number


class Limit(NamedTuple):
    """The numbers a parameter takes: whole or not, from ``low`` (excluded if ``above``) to ``high``."""

    whole: bool
    low: float
    above: bool
    high: float


#: Per parameter, the numbers it takes.  The upper bounds are what a person would choose: a decision
#: thought over for at most an hour, at most ten million iterations, an expectimax at most five plies
#: deep (each ply multiplies its time by about ten: depth 4 takes about 2 s a decision), a search no
#: wider than the machines it runs on.  Past them a game would not end in a lifetime.
LIMITS: dict[str, Limit] = {
    "seed": Limit(True, -(1 << 63), False, (1 << 64) - 1), "depth": Limit(True, 1, False, 5),
    "iters": Limit(True, 1, False, 10_000_000), "workers": Limit(True, 1, False, 256),
    "rollout": Limit(True, 0, False, 1000), "draft": Limit(True, 0, False, 2),
    "norm": Limit(False, 0, False, 1), "halving": Limit(True, 0, False, 1), "solo": Limit(True, 0, False, 1), "ways": Limit(True, 1, False, 12),
    "ponder": Limit(True, 0, False, 1), "widen": Limit(True, 1, False, 12),
    "time": Limit(False, 0, True, 3600), "c": Limit(False, 0, False, 100), "temper": Limit(False, 0, False, 1)}


def _check(key: str, value: int | float) -> None:
    """Raise `SpecError` naming the bound unless ``value`` is a number parameter ``key`` takes."""
    limit = LIMITS[key]
    if not math.isfinite(value):
        raise SpecError(f"agent parameter {key} must be a finite number, not {value}")
    if limit.whole and not isinstance(value, int):
        raise SpecError(f"agent parameter {key} must be a whole number, not {value}")
    if value < limit.low or (limit.above and value == limit.low) or value > limit.high:
        low, high = (int(x) if limit.whole else x for x in (limit.low, limit.high))
        if limit.whole and high - low == 1:
            bound = f"{low} or {high}"
        else:
            bound = f"{'above' if limit.above else 'from'} {low} {'and at most' if limit.above else 'to'} {high}"
        raise SpecError(f"agent parameter {key} must be {bound}, not {value:g}")


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build the agent a spec names (see the module docstring)."""
    kind, params = parse_spec(spec)
    if "seed" not in params:
        params["seed"] = 0 if seed is None else seed
    if kind == "random":
        return RandomAgent(**params)
    if kind == "greedy":
        return GreedyAgent(**params)
    if kind == "expectimax":
        return ExpectimaxAgent(depth=params.get("depth", 3), seed=params["seed"])
    from .mcts import MCTSAgent
    if params.get("time") is None and params.get("iters") is None:
        params["time"] = 1.0
    return MCTSAgent(**params)


class _Agent(BaseAgent):
    """An agent with a random stream of its own, ``rng``."""

    rng: random.Random

    def reseed(self, seed: int) -> None:
        """Restart the agent's random stream (see `ai.agent.Agent.reseed`)."""
        self.rng = random.Random(seed)

    def _forced(self, legal: list[Action]) -> Action:
        """The only legal action, without thinking."""
        self.info = {"choices": 1}
        return legal[0]


class RandomAgent(_Agent):
    """Uniform over the legal actions."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.info = {}

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        legal = state.legal_actions()
        self.info = {"choices": len(legal)}
        return legal[self.rng.randrange(len(legal))]


class GreedyAgent(_Agent):
    """One ply: the action whose result scores best by the reference evaluation, in a determinisation
    (so that it does not see the card a draw would bring).  Payment variants of one action are decided
    by the essence heuristic."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.info = {}

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        from amigos.determinize import determinize
        legal = state.legal_actions()
        if len(legal) == 1:
            return self._forced(legal)
        p = state.current_player()
        world = determinize(state, p, self.rng.getrandbits(64))
        best: Action | None
        best_value: Any  # None until the first action is valued
        best, best_value = None, None
        for variants in world.legal_groups():
            a = best_variant(world, variants)
            child = world.clone()
            child.apply_unchecked(a)
            value = evaluate(child, p)
            if best is None or value > best_value:
                best, best_value = a, value
        self.info = {"choices": len(legal), "value": best_value}
        assert best is not None  # two or more legal actions: some were valued
        return best


class ExpectimaxAgent(_Agent):
    """Depth-limited expectimax over the full state, chance points enumerated (it sees everything)."""

    def __init__(self, depth: int = 3, seed: int = 0) -> None:
        self.depth = depth
        self.info = {}

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> Action:
        from .expectimax import Expectimax
        legal = state.legal_actions()
        if len(legal) == 1:
            return self._forced(legal)
        world = state.clone_offering_chance()
        search = Expectimax(self.depth)
        move, value, nodes, _ = search.search(world, state.current_player())
        self.info = {"choices": len(legal), "value": value, "nodes": nodes}
        return move
