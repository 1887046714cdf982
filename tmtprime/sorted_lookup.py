"""Lookup of many int64 keys in a sorted key array (the storage of the LM and IBM1 tables)."""

from __future__ import annotations

import numpy as np


def sorted_lookups(keys: np.ndarray, columns: tuple[np.ndarray, ...], query: np.ndarray, default: float | int) -> list[np.ndarray]:
    """Each of ``columns`` (values aligned with the sorted ``keys``) at the positions of
    ``query``, ``default`` where absent: one search for several value arrays.

    The queries are sorted first: numpy's binary search then reuses the previous
    position as a bound, which roughly halves the time on large tables. A stable
    sort, because batches of queries come in sorted runs (a sentence's n-grams, a
    pair's words), which the merge sort takes whole: 15-20 % less time per lookup
    than the default quicksort on the feature extractor's queries.
    """
    if len(keys) == 0 or len(query) == 0:
        return [np.full(len(query), default, dtype=np.result_type(v, type(default))) for v in columns]
    order = np.argsort(query, kind="stable")
    pos = np.empty(len(query), dtype=np.int64)
    pos[order] = np.searchsorted(keys, query[order])
    np.minimum(pos, len(keys) - 1, out=pos)
    found = keys[pos] == query
    return [np.where(found, v[pos], default) for v in columns]


def sorted_lookup(keys: np.ndarray, values: np.ndarray, query: np.ndarray, default: float | int) -> np.ndarray:
    """``values`` at the positions of ``query`` in the sorted ``keys``; ``default`` where absent."""
    return sorted_lookups(keys, (values,), query, default)[0]
