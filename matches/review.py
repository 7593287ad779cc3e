"""Game review: every decision of a seat graded by how much of its chance to win it gave away, as the
AI's search judges it from that seat's information alone (never a hidden card).

For each decision of a reviewed seat with more than one action to choose from, one search at the
position before it (`ai.mcts.search` for that seat, every legal action a child of the root) gives the
chance to win of each action: the most visited (the AI's move) is the position's worth, the one played
is what the seat kept, and the difference is the chance lost, graded by `GRADES` as chess sites do.  A
review is a function of the match, the seats, the budget and the seed; `review_file` keeps it beside
the match file (with the versions that computed it), so that the second time it opens at once, and
recomputes one that is stale or damaged, never trusting it.
"""

from __future__ import annotations

import hashlib
import math
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import msgpack

import amigos
from ai import mcts as M
from ai.collect import points_change
from ai.evaluator import default_evaluator
from ai.futile import futile
from amigos import actions as A
from amigos import files
from amigos.config import Action
from amigos.essences import covers
from amigos.rng import derive_seed
from amigos.state import GameState

from .runner import open_runner
from .session import Step, history

#: The grades, each with the most chance (a share, 0 to 1) a move may lose and still earn it; a move
#: that loses more than the last is a blunder.  Close to the chess sites' steps, widened for a card
#: game's noisier estimates.
GRADES: Final[tuple[tuple[str, float], ...]] = (("best", 0.01), ("good", 0.04), ("inaccuracy", 0.09),
                                                ("mistake", 0.18))
BLUNDER: Final = "blunder"
#: The search's budget a decision by default (iterations), and the review file's suffix.
DEFAULT_ITERS: Final = 1500
SUFFIX: Final = ".review"
FORMAT: Final = "amigos.review"
#: A move played that the search visited fewer times than this is judged by searches of this many
#: iterations through it and through the preferred move (`judge`).
FOCUS: Final = 400
#: The search's iterations a decision are at least this many for each of its moves in the root's first
#: phase of sequential halving (`chances`).
LEAST_VISITS: Final = 3
VERSION: Final = 3  # (2: the preferred move is the most visited; 3: `judge`: every move searched 3 times at
#                     least, a move played of few visits or in another way searched again through it)


@dataclass
class Graded:
    """One decision reviewed: its index in its game's decisions, the seat, its words, the chance to win
    before it (the best action's), after it (the played action's), the AI's preferred action in words and
    its grade and reason ("" when none is told)."""
    game: int
    index: int
    seat: int
    played: str
    before: float
    after: float
    preferred: str
    grade: str
    reason: str = ""

    @property
    def lost(self) -> float:
        return max(0.0, self.before - self.after)


@dataclass
class Review:
    """A match's review: the seats reviewed, the budget and seed, every graded decision in order."""
    seats: list[int]
    iters: int
    seed: int
    decisions: list[Graded] = field(default_factory=list)

    def of(self, seat: int, game: int | None = None) -> list[Graded]:
        """The graded decisions of ``seat`` (of game ``game`` only, if given)."""
        return [d for d in self.decisions if d.seat == seat and (game is None or d.game == game)]


#: The marks a graded move gets beside it, as chess annotates moves (none for best and good).
MARKS: Final[dict[str, str]] = {"inaccuracy": "?!", "mistake": "?", BLUNDER: "??"}
#: The grades a replay's "next mistake" key stops at.
FAULTS: Final = ("mistake", BLUNDER)


def grade(lost: float) -> str:
    """The grade of a move that lost ``lost`` of its chance to win (`GRADES`)."""
    for name, most in GRADES:
        if lost <= most:
            return name
    return BLUNDER


def accuracy(decisions: Sequence[Graded]) -> float:
    """A seat's accuracy in percent, as Lichess computes it from each move's loss of win percentage
    (100 for no loss; about 50 for a loss of 15 points a move), averaged over the decisions."""
    if not decisions:
        return 100.0
    each = [max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * 100 * d.lost) - 3.1669)) for d in decisions]
    return sum(each) / len(each)


def turning_point(decisions: Sequence[Graded]) -> Graded | None:
    """The decision that lost the most chance, if any lost more than a best move may."""
    worst = max(decisions, key=lambda d: d.lost, default=None)
    return worst if worst is not None and worst.lost > GRADES[0][1] else None


def chances(state: GameState, seat: int, iters: int, seed: int) -> dict[tuple[Any, ...], tuple[int, float]]:
    """Each legal action's (by `amigos.actions.macro_key`) visits and chance to win for ``seat``, to move
    at ``state``, by a search of ``iters`` iterations (more where the moves are many: `LEAST_VISITS`)
    from the seat's information alone."""
    groups: M.Groups = {A.macro_key(g[0]): g for g in state.legal_groups()}
    # (at least `LEAST_VISITS` a move in the first of sequential halving's ceil(log2 m) phases: a move never
    # tried has no chance to tell, not a chance of 0)
    phases = max(1, math.ceil(math.log2(len(groups))))
    least = LEAST_VISITS * len(groups) * phases + phases + 1  # (`ai.halving.Halving` keeps phases + 1 back)
    stats, _ = M.search(state, seat, max(iters, least), None, seed, root_groups=groups, evaluator=default_evaluator())
    return {key: (n, w / n if n else 0.0) for key, (n, w) in stats.items()}


def preferred_move(found: dict[tuple[Any, ...], tuple[int, float]]) -> tuple[Any, ...]:
    """The move the search prefers among ``found`` (`chances`): the most visited, as the AI plays, its
    chance the best judged (a move tried a few times only can have a high chance by luck)."""
    return max(found, key=lambda key: found[key])


def through(state: GameState, seat: int, ways: Sequence[Action], iters: int, seed: int) -> float:
    """The chance to win of ``seat`` playing one move of ``ways`` (the ways of one move, or one of them)
    at ``state``, by a search of ``iters`` iterations through that move alone."""
    root, _ = M.grow(state, seat, iters, None, seed, root_groups={A.macro_key(ways[0]): ways},
                     evaluator=default_evaluator())
    return root.w / root.n if root.n else 0.0


def judge(state: GameState, seat: int, moves: Sequence[Action], iters: int,
          seed: int) -> tuple[Action, float, list[float]]:
    """The search's judgement of ``seat``'s ``moves`` at ``state``: (the preferred move, in the way the
    search plays it, its chance, each move's chance).  The search plays each move in its best
    way (`ai.evaluator.Evaluator.variant`); a move played another way (a discard for the wrong essence),
    or one the search visited fewer than `FOCUS` times (sequential halving drops a move after a few
    visits), is searched again through it alone, and the preferred move too, with `FOCUS` iterations (or
    ``iters``, if fewer: a smaller budget judges with smaller searches)
    each: they are compared at equal visits."""
    found = chances(state, seat, iters, seed)
    best_key = preferred_move(found)
    best = found[best_key][1]
    focus = min(FOCUS, iters)
    groups: dict[tuple[Any, ...], list[Action]] = {A.macro_key(g[0]): list(g) for g in state.legal_groups()}
    evaluator = default_evaluator()

    def searched(action: Action) -> bool:  # (the move as the search played it: its chance is found's)
        ways = groups[A.macro_key(action)]
        return len(ways) == 1 or evaluator.variant(state, ways) == action

    def plain(action: Action) -> bool:
        key = A.macro_key(action)
        return searched(action) and (key == best_key or found.get(key, (0, 0.0))[0] >= focus)

    preferred = evaluator.variant(state, groups[best_key])
    if all(plain(a) for a in moves):
        return preferred, best, [found[A.macro_key(a)][1] for a in moves]
    best = through(state, seat, groups[best_key], focus, derive_seed(seed, "focus"))
    return preferred, best, [best if A.macro_key(a) == best_key and searched(a) else
                            through(state, seat, [a], focus, derive_seed(seed, "focus", *a)) for a in moves]


def reason(state: GameState, action: Action, best_key: tuple[Any, ...]) -> str:
    """The reason a move lost, in a player's words, where one can be told: a spend for nothing, a
    monument or place of power left to a rival who can pay for it, a pass with moves left, points given
    up, a React declined; "" otherwise.  It reads only what the mover sees (the rivals' pools are public)."""
    if futile(state, action):
        return "spent for nothing: the move changes nothing but what it costs"
    left = _left(state, action, best_key)
    if left:
        return left
    if A.kind(action) == A.PASS and best_key[0] != A.PASS:
        return "passed with a better move left"
    change = points_change(state, action)
    if change < 0:
        return f"gave up {-change} point{'s' if change < -1 else ''}"
    if A.kind(action) == A.DECLINE and best_key[0] != A.DECLINE:
        return "declined a React that was worth it"
    return ""


def _left(state: GameState, action: Action, best_key: tuple[Any, ...]) -> str:
    """"left Temple to the rival": the preferred move claims a monument or a place of power that the move
    played does not, and a rival's pool pays its cost as printed; "" otherwise."""
    if best_key[0] not in (A.CLAIM_MONUMENT, A.CLAIM_POP) or A.macro_key(action) == best_key:
        return ""
    card = state.cards[best_key[2]]
    mover = A.player(action)
    if not any(q != mover and covers(state.pool[5 * q:5 * q + 5], card.cost)
               and sum(state.pool[5 * q:5 * q + 5]) >= card.cost_total for q in range(state.n_players)):
        return ""
    return f"left {card.name} to {'the rival' if state.n_players == 2 else 'a rival'}, who can pay for it"


def review(record: dict[str, Any], seats: Sequence[int], iters: int = DEFAULT_ITERS, seed: int = 0,
           game: int | None = None, progress: Callable[[int, int], None] = lambda done, total: None,
           jobs: int = 1, scheduler: str | None = None) -> Review:
    """The review of ``seats``' decisions in the match ``record`` (of game ``game`` only, if given), on
    ``jobs`` local processes or the workers of the Dask ``scheduler`` (`matches.runner`; the same review
    wherever it runs: each decision's search has its own seed): ``progress(done, total)`` as decisions
    are searched.  A scheduler out of reach is a `matches.runner.RunnerError`."""
    out = Review(list(seats), iters, seed)
    todo = _todo(record, seats, game)
    total = len(todo)
    if scheduler is None and jobs <= 1:
        for step, k in todo:
            out.decisions.append(_graded(step, k, iters, seed))
            progress(len(out.decisions), total)
        return out
    parts = max(1, min(total, (jobs if scheduler is None else PARTS_ON_A_CLUSTER) * PARTS_A_JOB))
    with open_runner(jobs, scheduler) as runner:
        for part in range(parts):
            runner.submit(f"review-{part}", review_part, record, list(seats), game, iters, seed, part, parts)
        for _, found in runner.as_completed():
            out.decisions.extend(found)
            progress(len(out.decisions), total)
    out.decisions.sort(key=lambda d: (d.game, d.index))
    return out


#: How many parts a process's share of a review is cut into (the progress bar moves as each is done).
PARTS_A_JOB: Final = 4
#: A cluster's share counts as this many processes (its workers take the parts as they come).
PARTS_ON_A_CLUSTER: Final = 8


def _todo(record: dict[str, Any], seats: Sequence[int], game: int | None) -> list[tuple[Step, int]]:
    """The decisions to review: each step of ``seats`` (of game ``game`` only, if given) with a choice,
    with its index among its game's decisions."""
    counts: dict[int, int] = {}
    todo = []
    for step in history(record):
        k = counts[step.game] = counts.get(step.game, -1) + 1
        if step.actor in seats and (game is None or step.game == game) and step.action is not None \
                and len(step.before.legal_groups()) > 1:
            todo.append((step, k))
    return todo


def review_part(record: dict[str, Any], seats: list[int], game: int | None, iters: int, seed: int,
                part: int, parts: int) -> list[Graded]:
    """Part ``part`` of ``parts`` of a review (every ``parts``-th decision), as a runner's job (in a
    process of its own, or on a cluster's worker: it needs nothing but its arguments)."""
    return [_graded(step, k, iters, seed) for step, k in _todo(record, seats, game)[part::parts]]


def _graded(step: Step, k: int, iters: int, seed: int) -> Graded:
    """Decision ``step`` (number ``k`` of its game) graded by a search of ``iters`` iterations (`judge`)."""
    state, action = step.before, step.action
    assert action is not None
    better, best, (played,) = judge(state, step.actor, [action], iters, derive_seed(seed, "review", step.game, k))
    graded = grade(max(0.0, best - played))
    # (a move played that the search finds better than its own: the position was worth that much, and the
    # search has no better move to tell)
    preferred = "" if better == action or played >= best else amigos.action_text(state, better)
    best = max(best, played)
    return Graded(step.game, k, step.actor, step.text, round(best, 4), round(played, 4), preferred, graded,
                  reason(state, action, A.macro_key(better)) if graded not in ("best", "good") else "")


# -- the review file beside the match file ---------------------------------------------------------------

def digest(record: dict[str, Any]) -> str:
    """What a review was computed from: the match's seed, players and every decision."""
    text = repr((record["seed"], [p["spec"] for p in record["players"]],
                 [g["decisions"] for g in record["games"]]))
    return hashlib.sha256(text.encode()).hexdigest()


def versions() -> dict[str, Any]:
    """The versions a review depends on: the program's, the rules', and the value it searched with."""
    evaluator = default_evaluator()
    nets = sorted(evaluator.nets.items())
    weights = hashlib.sha256(b"".join(net.w1.tobytes() + net.w2.tobytes() for _, net in nets)).hexdigest()[:16]
    return {"app": amigos.__version__, "rules": amigos.RULES_VERSION, "value": evaluator.value,
            "model": evaluator.model.digest(), "nets": weights, "review": VERSION}


def review_path(match_path: Path) -> Path:
    """Where the review of the match file ``match_path`` is kept: beside it."""
    return match_path.with_name(match_path.name + SUFFIX)


def load_review(path: Path, record: dict[str, Any], seats: Sequence[int], iters: int, seed: int) -> Review | None:
    """The review kept at ``path`` if it is whole and was computed from ``record`` for these seats, budget
    and seed by these versions; None otherwise (missing, damaged, stale: to be computed again)."""
    kept = kept_review(path, record)
    if kept is None or (kept.seats, kept.iters, kept.seed) != (list(seats), iters, seed):
        return None
    return kept


def kept_review(path: Path, record: dict[str, Any]) -> Review | None:
    """The review kept at ``path``, whatever its seats, budget and seed, if it is whole and was computed
    from ``record`` by these versions; None otherwise (the replay shows its marks only then)."""
    try:
        data = msgpack.unpackb(path.read_bytes(), raw=False, strict_map_key=False)
        if not (isinstance(data, dict) and data.get("format") == FORMAT and data.get("versions") == versions()
                and data.get("digest") == digest(record)):
            return None
        return Review(list(data["seats"]), int(data["iters"]), int(data["seed"]),
                      [Graded(**d) for d in data["decisions"]])
    except (OSError, ValueError, TypeError, KeyError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        return None


def save_review(path: Path, record: dict[str, Any], result: Review, mode: int | None = None) -> None:
    """Keep ``result`` at ``path`` (atomically), with what it was computed from; ``mode``: its file mode
    (`review_file` gives the match file's: a review tells the seat's own cards, as the file does)."""
    data = {"format": FORMAT, "versions": versions(), "digest": digest(record), "iters": result.iters,
            "seed": result.seed, "seats": result.seats, "decisions": [asdict(d) for d in result.decisions]}
    files.write_atomic(path, msgpack.packb(data, use_bin_type=True), mode=mode, what="review")


def review_file(match_path: Path, record: dict[str, Any], seats: Sequence[int], iters: int = DEFAULT_ITERS,
                seed: int = 0, progress: Callable[[int, int], None] = lambda done, total: None,
                jobs: int = 1, scheduler: str | None = None) -> tuple[Review, bool]:
    """The review of ``seats`` in the match file ``match_path`` (its ``record``): the one kept beside it
    if it still holds, else computed (on ``jobs`` processes or a Dask ``scheduler``'s workers) and kept;
    (review, whether it was computed now)."""
    path = review_path(match_path)
    kept = load_review(path, record, seats, iters, seed)
    if kept is not None:
        return kept, False
    result = review(record, seats, iters, seed, progress=progress, jobs=jobs, scheduler=scheduler)
    if os.access(match_path.parent, os.W_OK):
        try:
            save_review(path, record, result, mode=stat.S_IMODE(match_path.stat().st_mode))
        except (files.FileProblem, OSError):
            pass  # (a review that cannot be kept is shown all the same)
    return result, True
