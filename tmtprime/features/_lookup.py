"""Lookup of many int64 keys in a sorted key array (the storage of the LM and IBM1 tables)."""

from __future__ import annotations

import numpy as np


def sorted_lookup(keys: np.ndarray, values: np.ndarray, query: np.ndarray, default: float | int) -> np.ndarray:
    """``values`` at the positions of ``query`` in the sorted ``keys``; ``default`` where absent.

    The queries are sorted first: numpy's binary search then reuses the previous
    position as a bound, which roughly halves the time on large tables.
    """
    if len(keys) == 0 or len(query) == 0:
        return np.full(len(query), default, dtype=np.result_type(values, type(default)))
    order = np.argsort(query)
    pos = np.empty(len(query), dtype=np.int64)
    pos[order] = np.searchsorted(keys, query[order])
    np.minimum(pos, len(keys) - 1, out=pos)
    return np.where(keys[pos] == query, values[pos], default)
