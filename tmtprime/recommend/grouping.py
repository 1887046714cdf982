"""The recommender's input layout: one row per candidate, its segment and kind carried in X.

Which candidates compete is part of each sample, so X itself says it: column
0 is the segment number, column 1 is 1 for a TM match and 0 for an MT
output, the features follow. With the grouping inside X, scikit-learn's
standard API holds (``predict(X)``, ``score(X, y)``, ``cross_validate`` with
``GroupKFold``, ``clone``, pipelines) where a ``segments=`` keyword broke it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tmtprime.errors import ModelInputError

SEGMENT_COLUMN = 0
TM_COLUMN = 1
ID_COLUMNS = 2
"""Columns before the features: the segment number and the TM flag."""
ID_COLUMN_NAMES = ("segment", "is_tm")


def grouped_input(features: np.ndarray, segments: Sequence[int] | np.ndarray, kinds: Sequence[str] | None = None) -> np.ndarray:
    """X for the recommender: segment number, TM flag (from ``kinds``, "tm"/"mt"; none: all MT), features."""
    features = np.asarray(features, dtype=np.float64)
    seg = np.asarray(segments)
    if features.ndim != 2 or seg.shape != (len(features),):
        raise ModelInputError(f"segments must give one segment number per row: {seg.size} for {len(features)} rows")
    if kinds is not None and len(kinds) != len(features):
        raise ModelInputError(f"kinds must give one kind (tm/mt) per row: {len(kinds)} for {len(features)} rows")
    is_tm = np.zeros(len(features)) if kinds is None else np.array([k == "tm" for k in kinds], dtype=np.float64)
    return np.column_stack([seg.astype(np.float64), is_tm, features])


def split_grouped(X: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(segment of each row numbered 0..k-1 in increasing order, TM mask, features) of a checked X."""
    if X.shape[1] <= ID_COLUMNS:
        raise ModelInputError(
            f"X has {X.shape[1]} feature(s) (columns); the recommender needs the segment number, the TM flag and at least one feature"
        )
    raw, flag = X[:, SEGMENT_COLUMN], X[:, TM_COLUMN]
    if len(X) and (raw.min() < 0 or not np.array_equal(raw, np.round(raw))):
        raise ModelInputError("column 0 of X must hold each row's segment number, a non-negative integer")
    if not np.isin(flag, (0.0, 1.0)).all():
        raise ModelInputError("column 1 of X must be 1 for a TM match and 0 for an MT output")
    _, seg = np.unique(raw, return_inverse=True)
    return seg.astype(np.int64).reshape(-1), flag == 1.0, X[:, ID_COLUMNS:]


def segment_sample(seg: np.ndarray, max_segments: int, random_state: int) -> np.ndarray:
    """Rows of at most ``max_segments`` randomly chosen segments (all rows when there are fewer): the
    subset a grid search runs on, since an SVM's cost grows with the square of the rows."""
    unique = np.unique(seg)
    if len(unique) <= max_segments:
        return np.arange(len(seg))
    chosen = np.random.default_rng(random_state).choice(unique, size=max_segments, replace=False)
    return np.nonzero(np.isin(seg, chosen))[0]


def segment_min(values: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """The minimum of ``values`` over each row's segment, broadcast back to the rows."""
    n_seg = int(segments.max()) + 1 if len(segments) else 0
    low = np.full(n_seg, np.inf)
    np.minimum.at(low, segments, values)
    return low[segments]
