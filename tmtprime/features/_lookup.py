"""Lookup of many int64 keys in a sorted key array (the storage of the LM and IBM1 tables)."""

from __future__ import annotations

import numpy as np


def sorted_positions(keys: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each ``query`` is in the sorted, non-empty ``keys`` (clipped to the last
    position) and whether it is there: one search for several value arrays.

    The queries are sorted first: numpy's binary search then reuses the previous
    position as a bound, which roughly halves the time on large tables. A stable
    sort, because batches of queries come in sorted runs (a sentence's n-grams, a
    pair's words), which the merge sort takes whole: 15-20 % less time per lookup
    than the default quicksort on the feature extractor's queries.
    """
    order = np.argsort(query, kind="stable")
    pos = np.empty(len(query), dtype=np.int64)
    pos[order] = np.searchsorted(keys, query[order])
    np.minimum(pos, len(keys) - 1, out=pos)
    return pos, keys[pos] == query


def sorted_lookup(keys: np.ndarray, values: np.ndarray, query: np.ndarray, default: float | int) -> np.ndarray:
    """``values`` at the positions of ``query`` in the sorted ``keys``; ``default`` where absent."""
    if len(keys) == 0 or len(query) == 0:
        return np.full(len(query), default, dtype=np.result_type(values, type(default)))
    pos, found = sorted_positions(keys, query)
    return np.where(found, values[pos], default)
