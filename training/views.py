"""A game's training views kept compactly, so that a run can train on every generation's positions.

A view is one player's sight of a decision (`training.neural`'s ``_views``: the encoding's inputs and
values, the viewer, the linear value's log-odds in a world dealt for the viewer, the decision's number
in the game, the viewer's feature inputs).  Kept as Python lists a view costs about 4 KB; `Views` holds
them as arrays (the inputs as compressed sparse rows), about 400 bytes each, so a window of a million
positions fits in memory.  `Views.batch` gives the dense rows a network's layer multiplies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ai import encoding as E
from ai.network import N_FEATURE_INPUTS

Row = Sequence[Any]  # a view as ``_views`` makes it: [inputs, values, viewer, linear, decision?, features?]


class Views:
    """Views as arrays: row r's inputs are ``indices[indptr[r]:indptr[r + 1]]`` with their ``values``;
    ``features`` is (rows x `N_FEATURE_INPUTS`) (zeros for a view recorded without them)."""

    indptr: np.ndarray    # int64, rows + 1
    indices: np.ndarray   # int16: an input of `ai.encoding` (fewer than 32,768)
    values: np.ndarray    # float32
    viewer: np.ndarray    # int8
    linear: np.ndarray    # float32: the linear value's log-odds for the viewer
    decision: np.ndarray  # int32: the decision's number among the game's choices (-1: not recorded)
    features: np.ndarray  # float32, rows x N_FEATURE_INPUTS

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, values: np.ndarray, viewer: np.ndarray,
                 linear: np.ndarray, decision: np.ndarray, features: np.ndarray) -> None:
        self.indptr, self.indices, self.values = indptr, indices, values
        self.viewer, self.linear, self.decision, self.features = viewer, linear, decision, features

    @classmethod
    def of(cls, rows: Sequence[Row]) -> Views:
        """The views of ``rows`` (lists as a played game's record holds them)."""
        lengths = [len(row[0]) for row in rows]
        indptr = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(lengths, out=indptr[1:])
        features = np.zeros((len(rows), N_FEATURE_INPUTS), dtype=np.float32)
        for r, row in enumerate(rows):
            if len(row) > 5:
                features[r] = row[5]
        return cls(indptr, np.fromiter((i for row in rows for i in row[0]), np.int16, int(indptr[-1])),
                   np.fromiter((v for row in rows for v in row[1]), np.float32, int(indptr[-1])),
                   np.array([row[2] for row in rows], dtype=np.int8),
                   np.array([row[3] if len(row) > 3 else 0.0 for row in rows], dtype=np.float32),
                   np.array([row[4] if len(row) > 4 else -1 for row in rows], dtype=np.int32), features)

    @classmethod
    def joined(cls, parts: Sequence[Views]) -> Views:
        """``parts`` one after another, as one `Views`."""
        if not parts:
            return cls.of([])
        offsets = np.cumsum([0] + [int(p.indptr[-1]) for p in parts[:-1]])
        indptr = np.concatenate([parts[0].indptr[:1]] + [p.indptr[1:] + o for p, o in zip(parts, offsets)])
        return cls(indptr, *(np.concatenate([getattr(p, name) for p in parts])
                             for name in ("indices", "values", "viewer", "linear", "decision", "features")))

    def __len__(self) -> int:
        return len(self.viewer)

    def batch(self, rows: np.ndarray, features: bool) -> np.ndarray:
        """Views ``rows`` as a dense (len(rows) x `N_INPUTS`) float32 matrix, followed with ``features``
        by their feature inputs (the order a network with features reads them)."""
        x = np.zeros((len(rows), E.N_INPUTS + (N_FEATURE_INPUTS if features else 0)), dtype=np.float32)
        starts, ends = self.indptr[rows], self.indptr[rows + 1]
        lengths = ends - starts
        at = np.repeat(np.arange(len(rows)), lengths)
        # (each row's run of entries: its start plus 0 .. length - 1)
        within = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        entries = np.repeat(starts, lengths) + within
        x[at, self.indices[entries]] = self.values[entries]
        if features:
            x[:, E.N_INPUTS:] = self.features[rows]
        return x

    def viewers_rows(self, viewer: int) -> np.ndarray:
        """The rows of ``viewer``'s views, in order."""
        return np.flatnonzero(self.viewer == viewer)
