"""tmtprime.parallel.batched: the one chunking helper (run_batches, the store's bulk writes, MT batches)."""

import numpy as np
import pytest

from tmtprime.parallel import batched


def test_sequences_come_in_slices_and_streams_in_lists():
    assert list(batched([1, 2, 3, 4, 5], 2)) == [[1, 2], [3, 4], [5]]
    assert list(batched("abcde", 3)) == ["abc", "de"]
    array = np.arange(5)
    parts = list(batched(array, 2))
    assert [p.tolist() for p in parts] == [[0, 1], [2, 3], [4]] and parts[0].base is array  # views, no copies
    stream = (i * i for i in range(5))
    assert list(batched(stream, 4)) == [[0, 1, 4, 9], [16]]
    assert list(batched([], 3)) == []


def test_a_stream_is_read_one_batch_at_a_time():
    seen = []

    def stream():
        for i in range(10):
            seen.append(i)
            yield i

    first = next(batched(stream(), 3))
    assert first == [0, 1, 2] and seen == [0, 1, 2]


def test_size_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        list(batched([1], 0))
