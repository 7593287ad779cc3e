"""The neural value: a player's chance to win from what they see of a position.

A multilayer perceptron over `ai.encoding`'s sparse input::

    h = relu(W1[inputs] . values  [+ W1f . features]  + b1)     (one hidden layer of `ValueNet.hidden` units)
    P(viewer wins) = sigmoid(w2 . h + b2  [+ the linear learned value's log-odds])

A network with ``base`` learns corrections to the linear value (`ai.learned`): it starts as good as
that model and trains from there.  A network with ``features`` also reads the hand-named features of
the viewer and of the rival (`ai.features`: reach, income, sinks, ...) and the game's progress
(`feature_inputs`), which a hidden layer over the components alone would have to learn from few games.
Both read the position they are given, as the linear value does: give it a world dealt for the viewer
(`amigos.determinize`), as the search does.

Its weights are data: a small versioned file (numpy's ``.npz``) holding the arrays, the encoding it was
trained for (`encoding_key`: a file for other inputs is refused in one line) and its training record
(games, generations, held-out loss, ...), read through `ai.checkpoint` (its members, shapes, dtypes and
numbers checked against `NET_LAYOUT` before they are believed).  Training is the training package's
(`training.neural`).
"""

from __future__ import annotations

import hashlib
import json
import math
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from amigos import cards as C

from . import encoding as E
from .checkpoint import MAX_HIDDEN, Layout, read_npz, shown, write_file
from .checkpoint import NetError as NetError
from .features import FEATURES, N_FEATURES, player_features
from .learned import progress

if TYPE_CHECKING:
    from amigos.state import GameState

    from .learned import ValueModel

NET_FORMAT: Final = "amigos.valuenet"
NET_VERSION: Final = 1
#: The feature inputs (`feature_inputs`): the viewer's `ai.features`, the rival's, the progress.
N_FEATURE_INPUTS: Final[int] = 2 * N_FEATURES + 1
FEATURE_SCALE: Final = 0.1  # (the features count points and essences: tens at most)
FEATURE_INDEX: Final = list(range(E.N_INPUTS, E.N_INPUTS + N_FEATURE_INPUTS))  # their rows of W1


def feature_key() -> str:
    """A digest of what the feature inputs mean: a network trained on other features is refused."""
    return hashlib.blake2b(json.dumps([list(FEATURES), FEATURE_SCALE]).encode(), digest_size=8).hexdigest()


def feature_inputs(rows: list[list[float]], viewer: int, rival: int | None = None) -> list[float]:
    """The feature inputs of ``viewer`` from every player's features ``rows``: the viewer's, the
    rival's (``rival``, by default the other of two players: `ai.encoding.rival_of`) and the game's
    progress, scaled by `FEATURE_SCALE`."""
    other = 1 - viewer if rival is None else rival
    return [x * FEATURE_SCALE for x in rows[viewer] + rows[other]] + [progress(rows)]


def encoding_key() -> str:
    """A digest of what each input means (slots, globals, the components by id): a network trained on
    other inputs has another key."""
    text = json.dumps([E.SLOTS, E.GLOBALS, [c.id for c in C.CARDS], E.ESSENCE_SCALE, E.POOL_SCALE,
                       E.POINTS_SCALE])
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


class ValueNet:
    """The weights (float64 arrays) and what the network was trained on (``info``)."""

    __slots__ = ("w1", "b1", "w2", "b2", "base", "features", "info", "linear", "_gather")

    w1: np.ndarray  # (N_INPUTS [+ N_FEATURE_INPUTS], hidden)
    b1: np.ndarray  # (hidden,)
    w2: np.ndarray  # (hidden,)
    b2: float
    base: bool      # the linear value's log-odds added to the output (see the module docstring)
    features: bool  # the feature inputs read too (see the module docstring)
    info: dict[str, Any]
    linear: ValueModel | None  # with ``base``: the linear value whose log-odds it corrects
    _gather: np.ndarray  # w1 as a leaf reads it (`refresh`)

    def __init__(self, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: float,
                 info: dict[str, Any] | None = None, base: bool = False, features: bool = False,
                 linear: ValueModel | None = None) -> None:
        inputs = E.N_INPUTS + (N_FEATURE_INPUTS if features else 0)
        if w1.shape != (inputs, b1.shape[0]) or w2.shape != b1.shape:
            raise NetError(f"a value network needs {inputs} inputs and matching layers, not {w1.shape}")
        if base and linear is None:
            raise NetError("a value network over the linear value needs that value's model")
        self.w1, self.b1, self.w2, self.b2, self.base = w1, b1, w2, float(b2), bool(base)
        self.features = bool(features)
        self.info = dict(info or {})
        self.linear = linear if base else None
        self.refresh()

    def refresh(self) -> None:
        """Make the matrix a leaf gathers its rows from (`probability`) again from ``w1`` and ``b1``: whoever
        changes them in place (training) calls it before the network values a position.

        It is ``w1`` with the feature rows scaled by `FEATURE_SCALE` and ``b1`` added to the row of the
        encoding's bias input (always on): a leaf then passes the features as they are and adds no bias,
        two numpy calls and a list fewer, the same sums."""
        gather = self.w1.copy()
        if self.features:
            gather[FEATURE_INDEX[:-1]] *= FEATURE_SCALE  # (the last feature input, the progress, is unscaled)
        gather[E.G["bias"]] += self.b1
        self._gather = gather

    @classmethod
    def initial(cls, hidden: int, seed: int, base: bool = False, features: bool = False,
                linear: ValueModel | None = None) -> ValueNet:
        """A network of small random weights (He initialisation for the ReLU layer, a zero output: with
        ``base``, the linear value ``linear`` itself)."""
        rng = np.random.default_rng(seed)
        inputs = E.N_INPUTS + (N_FEATURE_INPUTS if features else 0)
        w1 = rng.normal(0.0, math.sqrt(2.0 / 60.0), (inputs, hidden))  # about 60 inputs are set at once
        return cls(w1, np.zeros(hidden), np.zeros(hidden), 0.0, {"hidden": hidden, "seed": seed}, base, features,
                   linear)

    @property
    def needs_rows(self) -> bool:
        """Whether the network reads the players' features (as inputs, or through the linear value)."""
        return self.base or self.features

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])

    def probability(self, state: GameState, viewer: int, rows: list[list[float]] | None = None) -> float:
        """The chance that ``viewer`` wins, from what ``viewer`` sees of ``state``; ``rows``: the players'
        `ai.features.player_features` of ``state`` if they are at hand (the same for every viewer)."""
        rival = E.rival_of(state, viewer)  # (once: at three players or more it counts every player's points)
        index, value = E.encode_inputs(state, viewer, rival)
        if rows is None:
            rows = player_features(state) if self.needs_rows else []
        done = progress(rows) if rows else 0.0
        if self.features:  # (`feature_inputs`, the scale being in `_gather`; one gather for both kinds)
            index += FEATURE_INDEX
            value += rows[viewer]
            value += rows[rival]
            value.append(done)
        # (fromiter, take and dot: numpy's quickest calls for a hundred inputs, a leaf being numpy's cost per call)
        h = np.dot(np.fromiter(value, np.float64, len(value)), self._gather.take(index, axis=0))
        z = float(np.dot(np.maximum(h, 0.0, out=h), self.w2)) + self.b2
        if self.linear is not None:  # (the linear value's `win_log_odds`, from the rows at hand)
            z += self.linear.margin(rows, viewer, done)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    # -- files -------------------------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write the network as a ``.npz`` file (arrays, format, version, encoding key, info)."""
        info = dict(self.info, linear_model=self.linear.digest()) if self.linear is not None else dict(self.info)
        if self.features:
            info["feature_key"] = feature_key()
        write_arrays(path, NET_FORMAT, NET_VERSION, encoding_key(),
                     {"w1": self.w1.astype(np.float32), "b1": self.b1, "w2": self.w2, "b2": np.array([self.b2]),
                      "base": np.array([float(self.base)]), "features": np.array([float(self.features)])}, info)

    @property
    def players(self) -> int:
        """The player count the network was trained for (``info["players"]``; two in files before it)."""
        return int(self.info.get("players", 2))

    @staticmethod
    def packaged_path(players: int = 2) -> Path:
        """The packaged network's file for ``players`` players (`net_file` in the package's data folder)."""
        return Path(str(resources.files("ai") / "data" / net_file(players)))

    @classmethod
    def load(cls, path: Path, linear: ValueModel, mate: Path | None = None) -> ValueNet:
        """The network in ``path``, over the linear value ``linear`` (read from ``mate``, if named) if it
        was trained over one; `NetError` (one line naming the file) for a file that is not one for
        today's encoding (`read_arrays`), or one trained over another linear value."""
        arrays, info = read_arrays(path, NET_FORMAT, NET_VERSION, encoding_key(), NET_LAYOUT)
        flags = {name: _flag(path, arrays, name) for name in ("base", "features")}  # (files before them: none)
        if flags["base"] and info.get("linear_model") != linear.digest():
            if mate is not None:  # (the network was not named: the linear value was)
                raise NetError(f"{mate}: not the linear value the network {path.name} was trained over: "
                               f"name a network trained over it too (net=FILE), or use value=linear")
            raise NetError(f"{path}: a value network trained over another linear value "
                           f"({shown(info.get('linear_model'))}, this one's {linear.digest()})")
        if flags["features"] and info.get("feature_key") != feature_key():
            raise NetError(f"{path}: a value network for other features ({shown(info.get('feature_key'))}, "
                           f"today's {feature_key()})")
        players = info.get("players", 2)
        if type(players) is not int or not PLAYER_COUNTS[0] <= players <= PLAYER_COUNTS[-1]:
            raise NetError(f"{path}: a value network for {shown(players)} players (it is for 2 to 5)")
        try:
            return cls(arrays["w1"], arrays["b1"], arrays["w2"], float(arrays["b2"][0]), info, flags["base"],
                       flags["features"], linear)
        except NetError as exc:
            raise NetError(f"{path}: {exc}") from None


def _flag(path: Path, arrays: dict[str, np.ndarray], name: str) -> bool:
    """The on/off array ``name`` of a network file (off if it has none); `NetError` unless it is 0 or 1."""
    if name not in arrays:
        return False
    value = float(arrays[name][0])
    if value not in (0.0, 1.0):
        raise NetError(f"{path}: not a value network (its {name} is {value:g}, not 0 or 1)")
    return value == 1.0


#: The arrays of a value network's file (`ai.checkpoint.Layout`): the hidden layer's weights over the
#: components' inputs, with or without the feature inputs, its biases, the output's weights and bias, and
#: whether the network adds the linear value's log-odds (``base``) and reads the features (``features``).
NET_LAYOUT: Final = Layout(
    required={"w1": ("inputs", "hidden"), "b1": ("hidden",), "w2": ("hidden",), "b2": (1,)},
    optional={"base": (1,), "features": (1,)},
    sizes={"inputs": (E.N_INPUTS, E.N_INPUTS + N_FEATURE_INPUTS), "hidden": range(1, MAX_HIDDEN + 1)})


def write_arrays(path: Path, fmt: str, version: int, key: str, arrays: dict[str, np.ndarray],
                 info: dict[str, Any]) -> None:
    """Write a network's ``arrays`` to ``path`` (``.npz``) with a header naming its format and version,
    the key of the inputs it was trained for and its training record ``info``: whole or not at all
    (`ai.checkpoint.write_file`; `NetError` naming the file if it cannot be written there)."""
    header = {"format": fmt, "version": version, "encoding": key, "info": info}
    payload: dict[str, Any] = {"header": np.array(json.dumps(header)), **arrays}  # (Any: not savez's flags)
    write_file(path, lambda f: np.savez_compressed(f, **payload), "network file")


def read_arrays(path: Path, fmt: str, version: int, key: str, layout: Layout,
                what: str = "value network") -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays (float64) and the training record of a file `write_arrays` wrote with this format,
    version and key: the arrays ``layout`` requires and those of its optional ones the file has, shaped
    and checked as it says (`ai.checkpoint.read_npz`); `NetError` (one line naming the file and calling
    it a ``what``) for any other file."""
    header, arrays = read_npz(path, layout, what)
    if not isinstance(header, dict) or header.get("format") != fmt:
        raise NetError(f"{path}: not a {what} (no '{fmt}' header)")
    found = header.get("version")
    if type(found) is not int or found != version:
        raise NetError(f"{path}: a {what} of version {shown(found)} (this Amigos reads {version})")
    if header.get("encoding") != key:
        raise NetError(f"{path}: a {what} for other inputs (encoding {shown(header.get('encoding'))}, "
                       f"today's {key})")
    info = header.get("info")
    return arrays, info if isinstance(info, dict) else {}


#: The packaged network's file, in the package's data folder.
NET_FILE: Final = "value_net.npz"
#: The player counts a value network may be trained for (one network each).
PLAYER_COUNTS: Final = (2, 3, 4, 5)


def net_file(players: int) -> str:
    """The packaged network's file name for ``players`` players: `NET_FILE` for two, else
    ``value_net_Np.npz``."""
    return NET_FILE if players == 2 else f"value_net_{players}p.npz"
