"""Sorted-key lookup used by the LM, IBM1 and TM-neighbour tables."""

import numpy as np

from tmtprime.features._lookup import sorted_lookup, sorted_positions


def test_lookup_matches_a_dictionary():
    rng = np.random.default_rng(0)
    keys = np.unique(rng.integers(0, 5000, size=800))
    values = rng.normal(size=len(keys))
    table = dict(zip(keys.tolist(), values.tolist()))
    # runs of sorted queries (what the extractor sends), repeats, absent keys, keys past the end
    query = np.concatenate([np.sort(rng.integers(-10, 5100, size=n)) for n in (50, 300, 7, 1000)])
    expected = np.array([table.get(q, -1.0) for q in query.tolist()])
    np.testing.assert_array_equal(sorted_lookup(keys, values, query, -1.0), expected)
    pos, found = sorted_positions(keys, query)
    np.testing.assert_array_equal(found, np.isin(query, keys))
    np.testing.assert_array_equal(keys[pos[found]], query[found])


def test_lookup_in_empty_table_or_without_queries():
    assert sorted_lookup(np.empty(0, np.int64), np.empty(0), np.array([3, 4]), 0.5).tolist() == [0.5, 0.5]
    assert sorted_lookup(np.array([1, 2]), np.array([1.0, 2.0]), np.empty(0, np.int64), 0.0).shape == (0,)
