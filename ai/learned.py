"""The learned value: the probability that a player wins from a position, fitted to self-play games.

A logistic model over the difference between the player's `ai.features` and the rival's, with a
second set of weights that takes over as the game nears its end (a "tapered" evaluation, as chess
engines blend their middle-game and end-game weights), and a third for the last round, once someone
has 10 points (then only what can still score this round counts)::

    d = features(q) - features(rival)            progress g = min(1, most points on the table / 10)
    P(q wins) = 1 / (1 + exp(-(sum_j (base_j + g * late_j) * d_j)))      while g < 1
    P(q wins) = 1 / (1 + exp(-(sum_j final_j * d_j)))                     once g = 1

With more than one rival, `margin` counts the rival that leaves ``q`` the lowest chance, and the
search values each player by `scores` (`ai.rewards.chances`).  The weights are
data: a small versioned JSON file (`MODEL_FILE`, written by ``amigos-train fit`` (`training.train`)), loaded
by whoever needs it (`ai.evaluator.Evaluator.load`).
A change of features changes `ai.features.FEATURES` and the model's version; a file for other
features is refused, and so is any file that is not a model (read through `ai.checkpoint`: a regular
file of at most `ai.checkpoint.JSON_BYTES`, bounded JSON, every key and type checked, finite numbers), in
one line naming it (`ai.checkpoint.NetError`).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from amigos.adjudicate import WINNING_POINTS

from .checkpoint import JSON_BYTES, WEIGHT_LIMIT, NetError, read_json
from .features import FEATURES, N_FEATURES, player_features
from .value import card_value

if TYPE_CHECKING:
    from amigos.cards import Card
    from amigos.state import GameState

    from .features import Scan

MODEL_FORMAT = "amigos.value"
MODEL_VERSION = 1
MODEL_FILE = "value.json"  # in the package's data folder
STATIC_SHARE: Final = 0.3  # log-odds per point of `ai.value`'s worth, for cards without a learned worth


class ModelError(ValueError):
    """A model file that is not a value model for today's features."""


class ValueModel:
    """Weights of the learned value (see the module docstring) and how they were trained."""

    __slots__ = ("base", "late", "final", "cards", "synergy", "info")

    base: tuple[float, ...]
    late: tuple[float, ...]
    final: tuple[float, ...]
    cards: dict[str, float]
    synergy: float
    info: dict[str, Any]

    def __init__(self, base: Sequence[float], late: Sequence[float], final: Sequence[float],
                 info: dict[str, Any] | None = None, cards: dict[str, float] | None = None, synergy: float = 0.0) -> None:
        if not len(base) == len(late) == len(final) == N_FEATURES:
            raise ModelError(f"a value model needs {N_FEATURES} weights of each kind")
        self.base = tuple(float(x) for x in base)
        self.late = tuple(float(x) for x in late)
        self.final = tuple(float(x) for x in final)
        self.cards = {str(k): float(v) for k, v in (cards or {}).items()}  # card id -> worth (log-odds)
        self.synergy = float(synergy)  # log-odds per unit of `ai.draft.plan_synergy`
        self.info = dict(info or {})

    # -- files ------------------------------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Any) -> "ValueModel":
        """The model a value model file's JSON ``data`` holds; `ModelError` (one line) unless it is one for
        today's features: the format, version and features named, ``weights`` holding `N_FEATURES`
        numbers for each of base, late and final, ``cards`` (card id -> number), ``synergy`` (a number)
        and ``trained`` (an object) where it has them, every number finite and at most
        `ai.checkpoint.WEIGHT_LIMIT` in magnitude."""
        if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT:
            raise ModelError("not a value model file")
        version = data.get("version")
        if type(version) is not int or version != MODEL_VERSION:
            raise ModelError(f"a value model of version {ascii(version)[:20]}; this program reads version {MODEL_VERSION}")
        features = data.get("features")
        if features != list(FEATURES):
            count = f"{len(features)} of them" if isinstance(features, list) else "none listed"
            raise ModelError(f"a value model for other features ({count}; today's {N_FEATURES})")
        weights = data.get("weights")
        if not isinstance(weights, dict):
            raise ModelError("a value model without its weights")
        rows = [_numbers(weights.get(name), f"{name} weights") for name in ("base", "late", "final")]
        if not len(rows[0]) == len(rows[1]) == len(rows[2]) == N_FEATURES:
            raise ModelError(f"a value model needs {N_FEATURES} weights of each kind")
        cards = data.get("cards", {})
        if not isinstance(cards, dict):
            raise ModelError("a value model whose cards are not an object")
        worths = dict(zip(cards, _numbers(list(cards.values()), "cards")))
        synergy = _numbers([data.get("synergy", 0.0)], "synergy")[0]
        trained = data.get("trained")
        if trained is not None and not isinstance(trained, dict):
            raise ModelError("a value model whose training record is not an object")
        return cls(rows[0], rows[1], rows[2], trained, worths, synergy)

    def to_json(self) -> dict[str, Any]:
        return {"format": MODEL_FORMAT, "version": MODEL_VERSION, "features": list(FEATURES),
                "weights": {name: [round(x, 6) for x in getattr(self, name)] for name in ("base", "late", "final")},
                "cards": {k: round(v, 4) for k, v in sorted(self.cards.items())}, "synergy": round(self.synergy, 4),
                "trained": self.info}

    @classmethod
    def load(cls, path: Path | None = None) -> "ValueModel":
        """The model in ``path``, or the packaged one; `ai.checkpoint.NetError` (one line naming the file)
        for a file that is not a value model for today's features (`from_json`), or no file one could be
        read from (`ai.checkpoint.read_json`)."""
        if path is None:
            text = resources.files(__package__).joinpath("data", MODEL_FILE).read_text("utf-8")
            return cls.from_json(json.loads(text))
        data = read_json(Path(path), JSON_BYTES, "value model")
        try:
            return cls.from_json(data)
        except ModelError as exc:
            raise NetError(f"{path}: {exc}") from None

    # -- values -----------------------------------------------------------------------------------

    def margin(self, rows: list[list[float]], q: int, progress: float) -> float:
        """The model's log-odds that ``q`` wins, from every player's features ``rows``."""
        mine = rows[q]
        worst = None
        weights = self.weights_at(progress)
        for r, theirs in enumerate(rows):
            if r == q:
                continue
            z = 0.0
            for j in range(N_FEATURES):
                d = mine[j] - theirs[j]
                if d:
                    z += weights[j] * d
            if worst is None or z < worst:
                worst = z
        return 0.0 if worst is None else worst

    def scores(self, rows: list[list[float]], progress: float) -> list[float]:
        """Each player's score s_p (the weights at this progress times their features): the log-odds
        that ``p`` beats ``q`` is s_p - s_q, and with more players `ai.rewards.chances` turns them into
        each one's chance of winning."""
        weights = self.weights_at(progress)
        return [sum(w * x for w, x in zip(weights, row)) for row in rows]

    def card_worth(self, card: Card) -> float:
        """What holding ``card`` (an artifact or mage) is worth in self-play, in log-odds of winning;
        a card the model has no figure for gets a share of its printed points and engine worth."""
        worth = self.cards.get(card.id)
        return STATIC_SHARE * card_value(card) if worth is None else worth

    def weights_at(self, progress: float) -> list[float]:
        """The weights of one player's features at this progress (``base + progress * late``, or
        ``final`` in the last round)."""
        if progress >= 1.0:
            return list(self.final)
        return [b + progress * x for b, x in zip(self.base, self.late)]

    def probability(self, rows: list[list[float]], q: int, progress: float) -> float:
        """P(``q`` wins) from every player's features ``rows`` at this progress."""
        return _squash(self.margin(rows, q, progress))

    def win_probability(self, state: GameState, q: int) -> float:
        """P(``q`` wins) from ``state`` (not over: `ai.rewards.final_rewards` scores finished games)."""
        return _squash(self.win_log_odds(state, q))

    def win_log_odds(self, state: GameState, q: int) -> float:
        """The log-odds that ``q`` wins from ``state`` (what `win_probability` squashes)."""
        rows = player_features(state)
        return self.margin(rows, q, progress(rows))

    def digest(self) -> str:
        """A digest of the model's weights (a network trained over this model names it)."""
        text = json.dumps(self.to_json(), sort_keys=True)
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _numbers(value: Any, what: str) -> list[float]:
    """``value``, a list of numbers each finite and at most `ai.checkpoint.WEIGHT_LIMIT` in magnitude, as
    floats; `ModelError` naming ``what`` for anything else."""
    if not isinstance(value, list):
        raise ModelError(f"a value model whose {what} are not a list of numbers")
    out: list[float] = []
    for x in value:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not abs(x) <= WEIGHT_LIMIT:
            raise ModelError(f"a value model with {ascii(x)[:20]} among its {what}, not a finite number "
                             f"of at most {WEIGHT_LIMIT:g}")
        out.append(float(x))
    return out


def _progress(top: float) -> float:
    """How near the game is to its end: the most points any player has (token included) over the
    points that win (`amigos.adjudicate.WINNING_POINTS`)."""
    return 1.0 if top >= WINNING_POINTS else top / WINNING_POINTS


def progress(rows: list[list[float]]) -> float:
    """`_progress` from every player's features (points and the token come first)."""
    return _progress(max(r[0] + r[1] for r in rows))


def progress_of(state: GameState) -> float:
    """`_progress` of a state."""
    return _progress(max(state.scores()[0]))


def scan_progress(scan: Scan) -> float:
    """`_progress` from an `ai.features.Scan` (whose points include the token)."""
    return _progress(max(scan.vp))


def _squash(z: float) -> float:
    if z < -30:
        return 0.0
    if z > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-z))
