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

# a rank is two int64 words compared in order, smaller is better: (weighted coverage inverted, chunks), then
# (deviation, diagonal openings, distance inverted)
_MAX_COVER = 1 << 30
_MAX_DISTANCE = (1 << 20) - 1


@compiled
def _major(cover: int, chunks: int) -> int:
    return (_MAX_COVER - cover) << 20 | min(chunks, (1 << 20) - 1)


@compiled
def _minor(dev: int, diag: int, distance: int) -> int:
    return min(dev, (1 << 31) - 1) << 32 | min(diag, (1 << 12) - 1) << 20 | (_MAX_DISTANCE - min(distance, _MAX_DISTANCE))


@compiled
def _free(hyp_used: np.ndarray, row: int, start: int, length: int) -> bool:
    for q in range(start, start + length):
        if (hyp_used[row, q >> 6] >> np.uint64(q & 63)) & np.uint64(1):
            return False
    return True


@compiled
def _extends(spans: np.ndarray, last: int, c: int) -> bool:
    """Whether candidate ``c`` continues the chunk of match ``last`` (-1: none) in both sentences."""
    return last >= 0 and spans[last, 0] + spans[last, 1] == spans[c, 0] and spans[last, 2] + spans[last, 3] == spans[c, 2]


@compiled
def _offers(spans: np.ndarray, fixed: np.ndarray, ref_len: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fixed candidate starting at each reference word (or -1), and the others by first reference word in
    offer order: those of word ``p`` are ``offered[start[p]:start[p + 1]]``."""
    fixed_at = np.full(ref_len, -1, np.int64)
    start = np.zeros(ref_len + 1, np.int64)
    for c in range(spans.shape[0]):
        if fixed[c]:
            fixed_at[spans[c, 2]] = c
        else:
            start[spans[c, 2] + 1] += 1
    for p in range(ref_len):
        start[p + 1] += start[p]
    offered = np.empty(start[ref_len], np.int64)
    fill = start[:ref_len].copy()
    for c in range(spans.shape[0]):
        if not fixed[c]:
            offered[fill[spans[c, 2]]] = c
            fill[spans[c, 2]] += 1
    return fixed_at, offered, start


@compiled
def walk(spans: np.ndarray, exact: np.ndarray, hyp_len: int, ref_len: int, beam: int) -> np.ndarray:
    """Indexes (into ``spans``: rows hs, hl, rs, rl, stage in offer order) of the matches of the jar's alignment.

    ``exact[c]``: whether candidate ``c`` comes from the exact module (full weight)."""
    n = spans.shape[0]
    value = np.empty(n, np.int64)
    for c in range(n):
        value[c] = spans[c, 1] + spans[c, 3] if exact[c] else spans[c, 1] // 2 + spans[c, 3] // 2
    fixed_at, offered, start = _offers(spans, unambiguous(spans, hyp_len, ref_len), ref_len)
    words = (hyp_len + 63) >> 6
    # the beam, one entry per path: weighted coverage, closed chunks (the last one is still open), deviation,
    # diagonal openings, distance, last match (-1: none), trail node, hypothesis words used
    cover = np.zeros(1, np.int64)
    closed = np.zeros(1, np.int64)
    dev = np.zeros(1, np.int64)
    diag = np.zeros(1, np.int64)
    dist = np.zeros(1, np.int64)
    last = np.full(1, -1, np.int64)
    node = np.full(1, -1, np.int64)
    used = np.zeros((1, words), np.uint64)
    trail_match = np.empty(max(16, 4 * n), np.int64)
    trail_parent = np.empty(max(16, 4 * n), np.int64)
    trail_size = 0
    for p in range(ref_len):
        f = fixed_at[p]
        if f < 0 and start[p] == start[p + 1]:
            continue
        count = cover.shape[0]
        lo, hi = (start[p], start[p + 1]) if f < 0 else (0, 1)
        most = count * (hi - lo + 1)
        k_cover = np.empty(most, np.int64)
        k_closed = np.empty(most, np.int64)
        k_dev = np.empty(most, np.int64)
        k_diag = np.empty(most, np.int64)
        k_dist = np.empty(most, np.int64)
        k_last = np.empty(most, np.int64)
        k_node = np.empty(most, np.int64)
        k_used = np.empty((most, words), np.uint64)
        k_major = np.empty(most, np.int64)
        kids = 0
        for x in range(count):
            lm = last[x]
            # reference words are taken in walk order: only the last match can still cover this one
            inside = lm >= 0 and spans[lm, 2] + spans[lm, 3] > p
            options, lone_diagonal = 0, False
            for o in range(lo, hi):
                c = offered[o] if f < 0 else f
                if f >= 0 or (not inside and _free(used, x, spans[c, 0], spans[c, 1])):
                    options += 1
                    lone_diagonal = spans[c, 0] == spans[c, 2] and not _extends(spans, lm, c)
            taken = 0
            for o in range(lo, hi):
                c = offered[o] if f < 0 else f
                if f < 0 and (inside or not _free(used, x, spans[c, 0], spans[c, 1])):
                    continue
                extends = _extends(spans, lm, c)
                k_cover[kids] = cover[x] + value[c]
                k_closed[kids] = closed[x] + (1 if lm >= 0 and not extends else 0)
                k_dev[kids] = dev[x] + taken
                k_diag[kids] = diag[x] + (1 if spans[c, 0] == spans[c, 2] and not extends else 0)
                k_dist[kids] = dist[x] + abs(spans[c, 0] - spans[c, 2])
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
                k_major[kids] = _major(k_cover[kids], k_closed[kids])
                kids += 1
                taken += 1
            if f >= 0:
                continue
            k_cover[kids], k_closed[kids], k_diag[kids], k_dist[kids] = cover[x], closed[x], diag[x], dist[x]
            k_dev[kids] = dev[x] + (0 if options == 1 and lone_diagonal else options)
            k_last[kids], k_node[kids] = lm, node[x]
            k_used[kids] = used[x]
            k_major[kids] = _major(cover[x], closed[x] + (1 if lm >= 0 and not inside else 0))
            kids += 1
        keep = np.arange(kids)
        if kids > beam:
            minor = np.empty(kids, np.int64)
            for k in range(kids):
                minor[k] = _minor(k_dev[k], k_diag[k], k_dist[k])
            # stable sorts, minor word first: equal ranks keep their offer order
            by_minor = np.argsort(minor, kind="mergesort")
            keep = np.sort(by_minor[np.argsort(k_major[:kids][by_minor], kind="mergesort")][:beam])
        cover, closed, dev, diag, dist = k_cover[keep], k_closed[keep], k_dev[keep], k_diag[keep], k_dist[keep]
        last, node, used = k_last[keep], k_node[keep], k_used[keep]
    best = 0
    for x in range(1, cover.shape[0]):
        a = _major(cover[x], closed[x] + (1 if last[x] >= 0 else 0))
        b = _major(cover[best], closed[best] + (1 if last[best] >= 0 else 0))
        if a < b or (a == b and _minor(dev[x], diag[x], dist[x]) < _minor(dev[best], diag[best], dist[best])):
            best = x
    out = []
    t = node[best]
    while t >= 0:
        out.append(trail_match[t])
        t = trail_parent[t]
    return np.array(out[::-1], np.int64)
