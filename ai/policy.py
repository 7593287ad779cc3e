"""The model of a player's choices: the chance of each of their moves, from what they see.

A second network beside the neural value (`ai.network`), over the same view (`ai.encoding`, the
mover's own)::

    h = relu(W1[view inputs] . values + b1)
    logit(move) = sum over the move's inputs i of (u[i] + V[i] . h)
    P(move) = softmax over the mover's moves of logit(move)

A move is a macro (`amigos.actions.macro_key`: "place Fire Dragon", whatever the payment), described
by a few inputs (`move_inputs`): its kind, its kind with the card it names, a power's card and index,
its target's card, a Collect's or a stored essences' decision.  Which way to pay is the search's
business; which move a player makes is what tells about the cards they hold.

Its file is a versioned ``.npz`` like the value's (`ai.network.write_arrays`), keyed by both
encodings and read through `ai.checkpoint` against `POLICY_LAYOUT`; training is `training.policy`'s.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from amigos import actions as A
from amigos.config import Macro

from . import encoding as E
from .checkpoint import MAX_HIDDEN, Layout, NetError
from .network import encoding_key as view_key
from .network import read_arrays, write_arrays

if TYPE_CHECKING:
    from amigos.state import GameState

POLICY_FORMAT: Final[str] = "amigos.policynet"
POLICY_VERSION: Final[int] = 1

N_KINDS: Final[int] = len(A.TYPE_NAMES)
MAX_POWERS: Final[int] = 4  # a card's powers told apart (the few with more share the last)
N_DECISIONS: Final[int] = 5  # a Collect's or stored essences' decision (`amigos.actions` PAY_COST ... LEAVE_STORED)
#: Where each block of a move's inputs starts: the kind; the kind with the card it names; a power's
#: card and index; the card a power targets; a decision.
SUBJECT_AT: Final[int] = N_KINDS
POWER_AT: Final[int] = SUBJECT_AT + N_KINDS * E.N_CARDS
TARGET_AT: Final[int] = POWER_AT + E.N_CARDS * MAX_POWERS
DECISION_AT: Final[int] = TARGET_AT + E.N_CARDS
N_MOVE_INPUTS: Final[int] = DECISION_AT + N_DECISIONS

_POWERS = frozenset((A.POWER, A.LL_REACT, A.V_REACT))
_DECIDES = frozenset((A.TAKE, A.COLLECT_COST))


def policy_key() -> str:
    """A digest of the view's inputs and the moves' (a model trained on others has another key)."""
    text = json.dumps([view_key(), A.TYPE_NAMES, MAX_POWERS, N_DECISIONS])
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def move_inputs(state: GameState, move: Macro) -> list[int]:
    """The inputs (each of value 1) that describe ``move``, a macro of ``state``'s legal actions."""
    kind = A.kind(move)
    out = [kind]
    cards = state.cards
    if kind in A.CARD_KINDS and len(move) > 2 and 0 <= A.subject(move) < len(cards):  # (a merged pass: 2 fields)
        card = E.CARD_INDEX[cards[A.subject(move)].id]
        out.append(SUBJECT_AT + kind * E.N_CARDS + card)
        if kind in _POWERS:
            out.append(POWER_AT + card * MAX_POWERS + min(A.power_index(move), MAX_POWERS - 1))
            if kind == A.POWER and 0 <= A.target(move) < len(cards):
                out.append(TARGET_AT + E.CARD_INDEX[cards[A.target(move)].id])
        elif kind in _DECIDES and 0 <= A.decision(move) < N_DECISIONS:
            out.append(DECISION_AT + A.decision(move))
    return out


def moves_of(state: GameState) -> list[Macro]:
    """The mover's moves in ``state``: the distinct macros of its legal actions, in their order."""
    return list(dict.fromkeys(A.macro_key(a) for a in state.legal_actions()))


class PolicyNet:
    """The weights (float64 arrays) and the training record (``info``) of a model of choices."""

    __slots__ = ("w1", "b1", "u", "v", "info")

    w1: np.ndarray  # (N_INPUTS, hidden)
    b1: np.ndarray  # (hidden,)
    u: np.ndarray   # (N_MOVE_INPUTS,)
    v: np.ndarray   # (N_MOVE_INPUTS, hidden)
    info: dict[str, Any]

    def __init__(self, w1: np.ndarray, b1: np.ndarray, u: np.ndarray, v: np.ndarray,
                 info: dict[str, Any] | None = None) -> None:
        hidden = b1.shape[0]
        if w1.shape != (E.N_INPUTS, hidden) or u.shape != (N_MOVE_INPUTS,) or v.shape != (N_MOVE_INPUTS, hidden):
            raise NetError(f"a policy network needs {E.N_INPUTS} view and {N_MOVE_INPUTS} move inputs, "
                           f"not {w1.shape} and {v.shape}")
        self.w1, self.b1, self.u, self.v = w1, b1, u, v
        self.info = dict(info or {})

    @classmethod
    def initial(cls, hidden: int, seed: int) -> PolicyNet:
        """Small random weights: every move about as likely as any other."""
        rng = np.random.default_rng(seed)
        w1 = rng.normal(0.0, math.sqrt(2.0 / 60.0), (E.N_INPUTS, hidden))
        v = rng.normal(0.0, 0.01, (N_MOVE_INPUTS, hidden))
        return cls(w1, np.zeros(hidden), np.zeros(N_MOVE_INPUTS), v, {"hidden": hidden, "seed": seed})

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])

    def logits(self, state: GameState, moves: Sequence[Macro], player: int | None = None) -> np.ndarray:
        """Each move's logit for its mover (``player``, by default the one to move), seen as they see
        ``state``."""
        pairs = E.encode(state, state.current_player() if player is None else player)
        index = np.fromiter((i for i, _ in pairs), dtype=np.intp, count=len(pairs))
        value = np.fromiter((v for _, v in pairs), dtype=np.float64, count=len(pairs))
        h = np.maximum(value @ self.w1[index] + self.b1, 0.0)
        inputs = [move_inputs(state, m) for m in moves]
        used = sorted({i for row in inputs for i in row})  # (the move inputs these moves use: a few dozen)
        at = {i: k for k, i in enumerate(used)}
        scores = self.u[used] + self.v[used] @ h
        return np.array([sum(scores[at[i]] for i in row) for row in inputs])

    def probabilities(self, state: GameState, moves: Sequence[Macro], player: int | None = None) -> np.ndarray:
        """The chance of each of ``moves`` (summing to 1)."""
        z = self.logits(state, moves, player)
        z = np.exp(z - z.max())
        return z / z.sum()

    def save(self, path: Path) -> None:
        write_arrays(path, POLICY_FORMAT, POLICY_VERSION, policy_key(),
                     {"w1": self.w1.astype(np.float32), "b1": self.b1, "u": self.u, "v": self.v}, self.info)

    @classmethod
    def load(cls, path: Path) -> PolicyNet:
        """The model in ``path``; `NetError` (one line naming the file) for a file that is not one for
        today's inputs (`ai.network.read_arrays`)."""
        arrays, info = read_arrays(path, POLICY_FORMAT, POLICY_VERSION, policy_key(), POLICY_LAYOUT, "policy network")
        return cls(arrays["w1"], arrays["b1"], arrays["u"], arrays["v"], info)


#: The arrays of a model of choices' file (`ai.checkpoint.Layout`): the hidden layer's weights over the
#: view's inputs and its biases, each move input's own score and its weights over the hidden layer.
POLICY_LAYOUT: Final = Layout(
    required={"w1": (E.N_INPUTS, "hidden"), "b1": ("hidden",), "u": (N_MOVE_INPUTS,), "v": (N_MOVE_INPUTS, "hidden")},
    optional={}, sizes={"hidden": range(1, MAX_HIDDEN + 1)})


#: The model's file name in the package's data folder, where a trained one is packaged.
POLICY_FILE: Final[str] = "policy_net.npz"
