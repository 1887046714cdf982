"""The jar's alignment search as one mechanism: a beam walk over the reference that keeps offer order.

WHY a second search next to :mod:`tmtprime.meteor.aligner`: that one is a
model of *what* the jar picks, 28 rules fitted one residual at a time; this is
a model of *how* it searches, found black-box (the jar's ``Matcher`` at beam
sizes 1-40 on tens of thousands of random and crafted pairs) and checked on
text it was not fitted on. Where both apply it matches the jar more often
(see ``bench/meteor_parity.py --heldout``), so it is used for every module
set without ``paraphrase``; phrase candidates still go through the rules.

The search, step by step:

1. a candidate none of whose words (on either side) has another candidate is
   *fixed*: every path takes it when the walk reaches its first reference
   word, with no alternative;
2. the walk goes over reference positions left to right; at each position
   every path of the beam offers, in order, one child per candidate starting
   there whose words are still free (candidates in offer order: module, then
   the matcher's order), then itself (the skip child);
3. children are ranked by more *weighted coverage* (an exact match adds 1 per
   word on each side, a match of any other module ``floor(words / 2)`` per
   side, so a one-word stem or synonym match adds nothing), fewer chunks,
   less *deviation* and fewer *diagonal openings*. Deviation adds, for each
   step, the position of the chosen child among the path's free candidates
   there (the first costs 0; skipping costs their number, except that
   skipping the only free candidate costs nothing when it lies on the
   diagonal, hyp start == ref start, and would open a chunk); a diagonal
   opening is a match on the diagonal that opens a chunk. While pruning, the
   chunk a path is still inside (its last match covers the current reference
   word) is not charged yet;
4. when there are more children than the beam holds, the best ``beam`` by rank
   survive (ties: the earlier offered), and they *keep their offer order*;
5. the answer is the first path, in that order, with the best final rank.

So among equally good alignments the jar's choice is lexicographic over its
decisions along the reference (take before skip, earlier candidates first),
which is what the deviation field encodes, with the one exception of a lone
diagonal candidate. Measured (alignment identical to the jar's, random
``-m exact`` pairs at beams 1/2/4/8/40): 3-6 letters, 1-8 words 3,000 / 2,978 /
2,975 / 2,970 / 2,965 of 3,000 (the rule model: 3,000 / 2,961 / 2,939 / 2,935 /
2,927); 10-25 words over 3-5 letters 1,000 / 716 / 705 / 705 / 790 of 1,000
(1,000 / 596 / 427 / 504 / 638).
"""

from __future__ import annotations

import numpy as np

from tmtprime.meteor.beam import compiled, unambiguous

# packed rank: weighted coverage (inverted), chunks, deviation, diagonal openings; smaller is better
_DO_BITS, _DEV_BITS, _CHUNK_BITS = 12, 20, 12
_MAX_COVER = 1 << 13


@compiled
def _rank(cover: int, chunks: int, dev: int, diag: int) -> int:
    return (
        (((_MAX_COVER - cover) << _CHUNK_BITS | min(chunks, (1 << _CHUNK_BITS) - 1)) << _DEV_BITS
         | min(dev, (1 << _DEV_BITS) - 1)) << _DO_BITS
    ) | min(diag, (1 << _DO_BITS) - 1)  # fmt: skip


@compiled
def _free(hyp_used: np.ndarray, row: int, start: int, length: int) -> bool:
    for q in range(start, start + length):
        if (hyp_used[row, q >> 6] >> np.uint64(q & 63)) & np.uint64(1):
            return False
    return True


@compiled
def walk(spans: np.ndarray, exact: np.ndarray, hyp_len: int, ref_len: int, beam: int) -> np.ndarray:
    """Indexes (into ``spans``: rows hs, hl, rs, rl, stage in offer order) of the matches of the jar's alignment.

    ``exact[c]``: whether candidate ``c`` comes from the exact module (full weight)."""
    n = spans.shape[0]
    fixed = unambiguous(spans, hyp_len, ref_len)
    value = np.empty(n, np.int64)
    for c in range(n):
        value[c] = spans[c, 1] + spans[c, 3] if exact[c] else spans[c, 1] // 2 + spans[c, 3] // 2
    # candidates by first reference word, in offer order; the fixed one of each word apart
    fixed_at = np.full(ref_len, -1, np.int64)
    start = np.zeros(ref_len + 1, np.int64)
    for c in range(n):
        if fixed[c]:
            fixed_at[spans[c, 2]] = c
        else:
            start[spans[c, 2] + 1] += 1
    for p in range(ref_len):
        start[p + 1] += start[p]
    offered = np.empty(start[ref_len], np.int64)
    fill = start[:ref_len].copy()
    for c in range(n):
        if not fixed[c]:
            offered[fill[spans[c, 2]]] = c
            fill[spans[c, 2]] += 1

    words = (hyp_len + 63) >> 6
    # a path: weighted coverage, closed chunks, deviation, diagonal openings, last match (-1: none), trail node
    cover = np.zeros(1, np.int64)
    closed = np.zeros(1, np.int64)
    dev = np.zeros(1, np.int64)
    diag = np.zeros(1, np.int64)
    last = np.full(1, -1, np.int64)
    node = np.full(1, -1, np.int64)
    used = np.zeros((1, words), np.uint64)
    trail_match = np.empty(max(16, n * 4), np.int64)
    trail_parent = np.empty(max(16, n * 4), np.int64)
    trail_size = 0

    for p in range(ref_len):
        f = fixed_at[p]
        count = cover.shape[0]
        if f < 0 and start[p] == start[p + 1]:
            continue
        most = count if f >= 0 else count * (start[p + 1] - start[p] + 1)
        k_cover = np.empty(most, np.int64)
        k_closed = np.empty(most, np.int64)
        k_dev = np.empty(most, np.int64)
        k_diag = np.empty(most, np.int64)
        k_last = np.empty(most, np.int64)
        k_node = np.empty(most, np.int64)
        k_used = np.empty((most, words), np.uint64)
        k_prune = np.empty(most, np.int64)
        kids = 0
        for x in range(count):
            # reference words are taken in walk order, so only the last match can still cover this one
            lm = last[x]
            blocked = lm >= 0 and spans[lm, 2] + spans[lm, 3] > p
            lo, hi = (start[p], start[p + 1]) if f < 0 else (0, 1)
            options = 0
            for o in range(lo, hi):
                if f < 0 and not blocked and _free(used, x, spans[offered[o], 0], spans[offered[o], 1]):
                    options += 1
            taken = 0
            for o in range(lo, hi):
                c = offered[o] if f < 0 else f
                if f < 0 and (blocked or not _free(used, x, spans[c, 0], spans[c, 1])):
                    continue
                extends = lm >= 0 and spans[lm, 0] + spans[lm, 1] == spans[c, 0] and spans[lm, 2] + spans[lm, 3] == spans[c, 2]
                k_cover[kids] = cover[x] + value[c]
                k_closed[kids] = closed[x] + (1 if lm >= 0 and not extends else 0)
                k_dev[kids] = dev[x] + taken
                k_diag[kids] = diag[x] + (1 if spans[c, 0] == spans[c, 2] and not extends else 0)
                k_last[kids] = c
                k_used[kids] = used[x]
                for q in range(spans[c, 0], spans[c, 0] + spans[c, 1]):
                    k_used[kids, q >> 6] |= np.uint64(1) << np.uint64(q & 63)
                if trail_size == trail_match.shape[0]:
                    trail_match = np.concatenate((trail_match, np.empty(trail_size, np.int64)))
                    trail_parent = np.concatenate((trail_parent, np.empty(trail_size, np.int64)))
                trail_match[trail_size] = c
                trail_parent[trail_size] = node[x]
                k_node[kids] = trail_size
                trail_size += 1
                # the chunk this match opened or extended is not charged while pruning
                k_prune[kids] = _rank(k_cover[kids], k_closed[kids], k_dev[kids], k_diag[kids])
                kids += 1
                taken += 1
            if f >= 0:
                continue
            skip_cost = options
            if options == 1:
                for o in range(start[p], start[p + 1]):
                    c = offered[o]
                    if blocked or not _free(used, x, spans[c, 0], spans[c, 1]):
                        continue
                    extends = lm >= 0 and spans[lm, 0] + spans[lm, 1] == spans[c, 0] and spans[lm, 2] + spans[lm, 3] == spans[c, 2]
                    if spans[c, 0] == spans[c, 2] and not extends:
                        skip_cost = 0
            k_cover[kids] = cover[x]
            k_closed[kids] = closed[x]
            k_dev[kids] = dev[x] + skip_cost
            k_diag[kids] = diag[x]
            k_last[kids] = lm
            k_used[kids] = used[x]
            k_node[kids] = node[x]
            still_inside = lm >= 0 and spans[lm, 2] + spans[lm, 3] - 1 >= p
            charged = k_closed[kids] + (1 if lm >= 0 and not still_inside else 0)
            k_prune[kids] = _rank(cover[x], charged, k_dev[kids], diag[x])
            kids += 1
        keep = np.arange(kids)
        if kids > beam:
            keep = np.sort(np.argsort(k_prune[:kids], kind="mergesort")[:beam])
        cover, closed, dev, diag = k_cover[keep], k_closed[keep], k_dev[keep], k_diag[keep]
        last, node, used = k_last[keep], k_node[keep], k_used[keep]

    best, best_rank = 0, -1
    for x in range(cover.shape[0]):
        r = _rank(cover[x], closed[x] + (1 if last[x] >= 0 else 0), dev[x], diag[x])
        if best_rank < 0 or r < best_rank:
            best, best_rank = x, r
    out = []
    t = node[best]
    while t >= 0:
        out.append(trail_match[t])
        t = trail_parent[t]
    return np.array(out[::-1], np.int64)
