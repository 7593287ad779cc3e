"""What a leaf's value costs, part by part: the network's chance against the linear value's.

    python -m lab.leaf_costs

CPU time (best of five runs) at a mid-game position (`speed.mid_game`), in microseconds: the network's
whole chance (`ai.network.ValueNet.probability`), the encoding, the features (the linear value reads them
too), the feature inputs, the linear value's margin, the network's numpy arithmetic, and the linear
value's whole chance.  Run it with a compiled build's interpreter for the figures that count.
"""

from __future__ import annotations

import sys
import time
import timeit
from collections.abc import Callable

import numpy as np

from ai import encoding as E
from ai.evaluator import packaged_model, packaged_net
from ai.features import player_features
from ai.learned import progress
from ai.network import FEATURE_INDEX, feature_inputs
from benchmarks.bench_positions import mid_game


def cost(f: Callable[[], object], n: int = 5000) -> float:
    """``f``'s CPU time a call, in microseconds (the best of five runs of ``n``)."""
    return min(timeit.repeat(f, number=n, repeat=5, timer=time.process_time)) / n * 1e6


def main() -> int:
    import amigos
    state, net, model = mid_game(3), packaged_net(), packaged_model()
    rows = player_features(state)
    index, value = E.encode_inputs(state, 0)
    index += FEATURE_INDEX
    value += rows[0] + rows[1] + [progress(rows)]  # (unscaled: the scale, like the bias, is in the matrix)

    def arithmetic() -> float:  # (as `ValueNet.probability` does it)
        h = np.dot(np.fromiter(value, np.float64, len(value)), net._gather.take(index, axis=0))
        return float(np.dot(np.maximum(h, 0.0, out=h), net.w2)) + net.b2
    parts = {"network": lambda: net.probability(state, 0), "encoding": lambda: E.encode_inputs(state, 0),
             "features": lambda: player_features(state), "feature inputs": lambda: feature_inputs(rows, 0),
             "margin": lambda: model.margin(rows, 0, progress(rows)), "numpy": arithmetic,
             "linear": lambda: model.win_probability(state, 0)}
    print(f"{'compiled' if amigos.COMPILED else 'pure'}: " + ", ".join(f"{k} {cost(f):.1f}" for k, f in parts.items())
          + " (us a call)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
