"""A batch of segments against a paraphrase index, compiled: their phrases in the table, and the listed pairs.

WHY compiled: one loop over the n-grams and one over each found phrase's
paraphrases, with the offer order from one ``lexsort`` of the batch, took
about 40 % less CPU time than a dozen vectorized numpy passes and a Python
sort per pair (docs/experiments/meteor-speed.md); the rest is memory latency
on the ~135 MB index. Layout of the index:
:mod:`tmtprime.meteor.paraphrase_index`.
"""

from __future__ import annotations

import numpy as np

from tmtprime.meteor.compiled import compiled
from tmtprime.meteor.matchers import room_for
from tmtprime.meteor.paraphrase_index import extend_one, finalize_one


@compiled(wraps=True, exports=("int64[:,:](int64[:], int64[:], int64, uint64[:], uint32[:], uint64)",))  # index: uint32
def known_phrases(
    words: np.ndarray, offsets: np.ndarray, max_len: int,
    phrase_hash: np.ndarray, buckets: np.ndarray, shift: np.uint64,
) -> np.ndarray:  # fmt: skip
    """Every n-gram (n <= ``max_len``) within a segment that is a phrase of the table: rows (segment, start,
    n, phrase), by n, then segment and start.

    ``words`` are the table's word ids of all segments' tokens (-1 for a word
    the table lacks), segment k being ``words[offsets[k]:offsets[k + 1]]``.
    A phrase is found by its hash: the top bits select a bucket of the
    sorted ``phrase_hash`` (``buckets``), which is scanned.
    """
    n_words = words.shape[0]
    segment = np.empty(n_words, np.int64)
    for k in range(offsets.shape[0] - 1):
        segment[offsets[k] : offsets[k + 1]] = k
    state = np.zeros(n_words, np.uint64)
    alive = words >= 0  # the n-gram starting here is known so far
    out = np.empty((n_words * max_len, 4), np.int64)  # at most one row per n-gram (touched only where written)
    found = 0
    for n in range(1, max_len + 1):
        any_alive = False
        for p in range(n_words - n + 1):
            if not alive[p]:
                continue
            q = p + n - 1
            if words[q] < 0 or segment[q] != segment[p]:
                alive[p] = False
                continue
            any_alive = True
            state[p] = extend_one(state[p], words[q])
            h = finalize_one(state[p])
            b = np.int64(h >> shift)
            for k in range(buckets[b], buckets[b + 1]):
                if phrase_hash[k] == h:
                    out[found, 0], out[found, 1], out[found, 2], out[found, 3] = segment[p], p - offsets[segment[p]], n, k
                    found += 1
                    break
        if not any_alive:
            break
    return out[:found].copy()


@compiled(exports=("int64[:,:](int64[:,:], int64[:,:], uint32[:], uint32[:], int64)",))
def listed_pairs(
    src: np.ndarray, dst: np.ndarray, src_off: np.ndarray, pair_tgt: np.ndarray, n_phrases: int
) -> np.ndarray:  # fmt: skip
    """Pairs (source n-gram, destination n-gram) of one segment whose phrases the table lists ``src -> dst``:
    rows (segment, src start, src n, dst start, dst n, table pair, listing).

    ``src`` and ``dst`` are :func:`known_phrases` rows. They come by source
    n-gram, then in the order the table lists the source phrase's
    paraphrases (``listing``: the rank in that list), then by destination
    n-gram.
    """
    if src.shape[0] == 0 or dst.shape[0] == 0:
        return np.empty((0, 7), np.int64)
    order = np.argsort(dst[:, 0] * n_phrases + dst[:, 3], kind="mergesort")
    segment, phrase = dst[order, 0], dst[order, 3]
    # each segment's destination phrases, sorted: a short binary search per listed paraphrase, after a test
    # against the segment's 256-bit filter of them (most listed paraphrases are not in the segment)
    segments = max(src[:, 0].max(), segment.max()) + 1
    segment_start = np.searchsorted(segment, np.arange(segments + 1))
    seen = np.zeros((segments, 4), np.uint64)
    for a in range(phrase.shape[0]):
        seen[segment[a], (phrase[a] >> 6) & 3] |= np.uint64(1) << np.uint64(phrase[a] & 63)
    out = np.empty((1024, 7), np.int64)
    found = 0
    for s in range(src.shape[0]):
        k = src[s, 0]
        first, last = segment_start[k], segment_start[k + 1]
        if first == last:
            continue
        lo, hi = np.int64(src_off[src[s, 3]]), np.int64(src_off[src[s, 3] + 1])
        mine = phrase[first:last]
        for pair in range(lo, hi):
            target = np.int64(pair_tgt[pair])
            if not (seen[k, (target >> 6) & 3] >> np.uint64(target & 63)) & np.uint64(1):
                continue
            a = first + np.searchsorted(mine, target)
            if a == last or phrase[a] != target:
                continue
            out = room_for(out, found, last - a)  # at most every destination phrase of the segment
            while a < last and phrase[a] == target:
                d = order[a]
                out[found, 0], out[found, 1], out[found, 2] = src[s, 0], src[s, 1], src[s, 2]
                out[found, 3], out[found, 4], out[found, 5], out[found, 6] = dst[d, 1], dst[d, 2], pair, pair - lo
                found += 1
                a += 1
    return out[:found].copy()
