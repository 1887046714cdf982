"""Sorted-key lookup used by the LM, IBM1 and TM-neighbour tables."""

import numpy as np

from tmtprime.sorted_lookup import sorted_lookup, sorted_lookups


def test_lookup_matches_a_dictionary():
    rng = np.random.default_rng(0)
    keys = np.unique(rng.integers(0, 5000, size=800))
    values = rng.normal(size=len(keys))
    table = dict(zip(keys.tolist(), values.tolist()))
    # runs of sorted queries (what the extractor sends), repeats, absent keys, keys past the end
    query = np.concatenate([np.sort(rng.integers(-10, 5100, size=n)) for n in (50, 300, 7, 1000)])
    expected = np.array([table.get(q, -1.0) for q in query.tolist()])
    np.testing.assert_array_equal(sorted_lookup(keys, values, query, -1.0), expected)
    # several columns from one search (the LM's context totals and type counts), each with its own dtype
    counts = np.arange(len(keys), dtype=np.int64) + 1
    got_values, got_counts = sorted_lookups(keys, (values, counts), query, 0)
    found = np.isin(query, keys)
    np.testing.assert_array_equal(got_values, np.where(found, expected, 0.0))
    assert got_counts.dtype == np.int64
    np.testing.assert_array_equal(got_counts[found], np.searchsorted(keys, query[found]) + 1)
    assert not got_counts[~found].any()


def test_lookup_in_empty_table_or_without_queries():
    assert sorted_lookup(np.empty(0, np.int64), np.empty(0), np.array([3, 4]), 0.5).tolist() == [0.5, 0.5]
    assert sorted_lookup(np.array([1, 2]), np.array([1.0, 2.0]), np.empty(0, np.int64), 0.0).shape == (0,)
    empty = sorted_lookups(np.empty(0, np.int64), (np.empty(0), np.empty(0, np.int64)), np.array([3]), 0)
    assert [e.tolist() for e in empty] == [[0.0], [0]]
