"""The Meteor aligner's beam search, compiled (``aligner.py``'s docstring, rules 3, 7 and 8-12).

WHY compiled: the search is the scorer's inner loop (about 80 % of the time
in Python, which made the scorer about 4 times slower than the jar once
both were running). Everything the rules decide per candidate is computed in
``aligner.py`` (compiled there too, with :func:`compiled`, next to the rules'
docstring) and handed over as arrays: what taking a candidate adds to a
path's rank, what opening a chunk with it adds, flags. This module only
walks the reference, builds children and prunes, so rule changes stay in
``aligner.py``.

Representation (the Python search it replaces used big integers):

* a rank is an int64 vector (criteria packed by ``aligner._rank_terms``), compared
  lexicographically, smaller is better;
* a path is one row of ``state``: its rank, its final rank (rule 10), its
  hypothesis and reference masks as 64-bit words, the end of its last match
  in both sentences, its last match, the match that opened its last chunk
  and its node; a node is a match plus a pointer to the node before it, so
  paths share their trails.
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np

from tmtprime.paths import cache_dir


def compiled(func: Callable) -> Callable:
    """``func`` compiled on first use, the machine code cached on disk for the next runs.

    numba caches next to this file, or in its user-wide cache when the
    package directory is not writable (a system-wide install); only where
    neither can be written does it fall back to TMTprime's cache directory
    (``TMTPRIME_CACHE_DIR``), and without any writable place it compiles
    in every process (about 30 s: the search, the rules of ``aligner.py``, the
    matchers and the statistics).
    """
    try:
        return numba.njit(cache=True)(func)
    except RuntimeError:  # numba found no writable cache location
        pass
    try:
        numba.config.CACHE_DIR = str(cache_dir() / "numba")
        return numba.njit(cache=True)(func)
    except (OSError, RuntimeError):
        return numba.njit(func)


# scalar columns of a path row, after rank, final rank and the two masks
_LAST_H, _LAST_R, _LAST_M, _OPENER, _NODE = range(5)
_SCALARS = 5
# columns of a candidate's row in ``table`` (spans first: hs, hl, rs, rl), and its flags
_STAGE, FLAGS, SLOT, SPLIT_SIBLING, NEAR_SIBLING, EARLIER_SIBLINGS, TERMS = 4, 5, 6, 7, 8, 9, 10
EXACT, UNCREDITED, LATER_WEAK, FIXED, DETOUR_OPENER, AMBIGUOUS, SIBLING_TIES = 1, 2, 4, 8, 16, 32, 128


@compiled
def _compare(a: np.ndarray, i: int, b: np.ndarray, j: int, off: int, width: int) -> int:
    """-1, 0 or 1: row ``i`` of ``a`` against row ``j`` of ``b``, columns ``off..off+width`` lexicographically."""
    for k in range(off, off + width):
        if a[i, k] != b[j, k]:
            return -1 if a[i, k] < b[j, k] else 1
    return 0


@compiled
def _any_bit(state: np.ndarray, row: int, off: int, start: int, length: int) -> bool:
    """Whether one of the bits ``start..start+length`` of the mask at column ``off`` of ``row`` is set."""
    for q in range(start, start + length):
        if (state[row, off + (q >> 6)] >> (q & 63)) & 1:
            return True
    return False


@compiled
def _set_bits(state: np.ndarray, row: int, off: int, start: int, length: int) -> None:
    for q in range(start, start + length):
        state[row, off + (q >> 6)] |= np.int64(1) << (q & 63)


@compiled
def coverage(spans: np.ndarray, hyp_len: int, ref_len: int) -> tuple[np.ndarray, np.ndarray]:
    """How many candidates (hs, hl, rs, rl, ...) cover each hypothesis word and each reference word."""
    hyp_cover = np.zeros(hyp_len, np.int64)
    ref_cover = np.zeros(ref_len, np.int64)
    for c in range(spans.shape[0]):
        for i in range(spans[c, 0], spans[c, 0] + spans[c, 1]):
            hyp_cover[i] += 1
        for j in range(spans[c, 2], spans[c, 2] + spans[c, 3]):
            ref_cover[j] += 1
    return hyp_cover, ref_cover


@compiled
def unambiguous(spans: np.ndarray, hyp_len: int, ref_len: int) -> np.ndarray:
    """Per candidate (hs, hl, rs, rl, ...), whether no other candidate covers any of its words (rule 2)."""
    hyp_cover, ref_cover = coverage(spans, hyp_len, ref_len)
    out = np.ones(spans.shape[0], np.bool_)
    for c in range(spans.shape[0]):
        for i in range(spans[c, 0], spans[c, 0] + spans[c, 1]):
            out[c] &= hyp_cover[i] == 1
        for j in range(spans[c, 2], spans[c, 2] + spans[c, 3]):
            out[c] &= ref_cover[j] == 1
    return out


@compiled
def _offers(table: np.ndarray, ref_len: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fixed candidate at each reference position (or -1), and the others in the search's offer order:
    by reference position, then module, then the matchers' order (rule 3); those offered at ``pos`` are
    ``offered[open_start[pos]:open_start[pos + 1]]``."""
    stages = 1
    for c in range(table.shape[0]):
        stages = max(stages, table[c, _STAGE] + 1)
    fixed_at = np.full(ref_len, -1, np.int64)
    # a counting sort (stable) on reference position and module
    start = np.zeros(ref_len * stages + 1, np.int64)
    for c in range(table.shape[0]):
        if table[c, FLAGS] & FIXED:
            fixed_at[table[c, 2]] = c
        else:
            start[table[c, 2] * stages + table[c, _STAGE] + 1] += 1
    for k in range(1, start.shape[0]):
        start[k] += start[k - 1]
    offered = np.empty(start[-1], np.int64)
    fill = start.copy()
    for c in range(table.shape[0]):
        if not table[c, FLAGS] & FIXED:
            key = table[c, 2] * stages + table[c, _STAGE]
            offered[fill[key]] = c
            fill[key] += 1
    return fixed_at, start[::stages].copy(), offered


@compiled
def _times(table: np.ndarray, units: np.ndarray) -> np.ndarray:
    """Per candidate, its rank terms (the columns of ``table`` from TERMS) times ``units``: a rank."""
    out = np.zeros((table.shape[0], units.shape[1]), np.int64)
    for c in range(table.shape[0]):
        for t in range(units.shape[0]):
            amount = table[c, TERMS + t]
            if amount:
                for k in range(units.shape[1]):
                    out[c, k] += amount * units[t, k]
    return out


@compiled
def _room(nodes: np.ndarray, used: int, need: int) -> np.ndarray:
    """``nodes``, or a copy of its first ``used`` entries with room for ``need`` more."""
    if used + need <= nodes.shape[0]:
        return nodes
    grown = np.empty(max(2 * nodes.shape[0], used + need), np.int64)
    grown[:used] = nodes[:used]
    return grown


@compiled
def _sorted_by_rank(state: np.ndarray, width: int) -> np.ndarray:
    """The rows ordered by rank, stably (an insertion sort: there are at most ``beam`` rows)."""
    order = np.arange(state.shape[0])
    moved = False
    for i in range(1, order.shape[0]):
        row = order[i]
        k = i
        while k and _compare(state, order[k - 1], state, row, 0, width) > 0:
            order[k] = order[k - 1]
            k -= 1
        order[k] = row
        moved |= k != i
    if not moved:
        return state
    out = np.empty_like(state)
    for i in range(order.shape[0]):
        for k in range(state.shape[1]):
            out[i, k] = state[order[i], k]
    return out


@compiled
def _heap_survivors(ranks: np.ndarray, count: int, beam: int) -> np.ndarray:
    """Which of the ``count`` children survive: the first ``beam`` polls of a binary heap filled in offer order.

    The heap compares ranks only, as ``java.util.PriorityQueue`` with the
    jar's comparator does: among children of equal rank the survivors are not
    the first offered but those the sift-up on offer and the sift-down on
    poll happen to surface (rule 7).
    """
    width = ranks.shape[1]
    heap = np.empty(count, np.int64)
    for idx in range(count):  # offer: sift up while strictly better than the parent
        k = idx
        while k:
            parent = (k - 1) >> 1
            if _compare(ranks, idx, ranks, heap[parent], 0, width) >= 0:
                break
            heap[k] = heap[parent]
            k = parent
        heap[k] = idx
    keep = np.zeros(count, np.bool_)
    size = count
    for _ in range(beam):  # poll: move the last leaf to the root, sift down
        keep[heap[0]] = True
        size -= 1
        if not size:
            break
        last = heap[size]
        k, half = 0, size >> 1
        while k < half:
            child = 2 * k + 1
            if child + 1 < size and _compare(ranks, heap[child], ranks, heap[child + 1], 0, width) > 0:
                child += 1
            if _compare(ranks, last, ranks, heap[child], 0, width) <= 0:
                break
            heap[k] = heap[child]
            k = child
        heap[k] = last
    return keep


@compiled
def search(
    hyp_len: int,
    ref_len: int,
    beam: int,
    table: np.ndarray,
    taking: np.ndarray,
    opening: np.ndarray,
    no_credit: np.ndarray,
    opener_ref: np.ndarray,
    opener_hyp: np.ndarray,
    only_if_free: bool,
    passed: np.ndarray,
    sibling: np.ndarray,
    sibling_prune: np.ndarray,
    sibling_final: np.ndarray,
    open_credit: np.ndarray,
    weak_sibling: np.ndarray,
    weak_siblings: bool,
    siblings: np.ndarray,
    unpruned: np.ndarray,
    unpruned_no_credit: np.ndarray,
) -> np.ndarray:
    """Indexes of the candidates of the best path (rules 3 and 7-10; ``aligner._search`` prepares the arguments).

    ``table``: per candidate, in the matchers' order: hs, hl, rs, rl, stage,
    flags (EXACT; UNCREDITED: a weak extension that may earn nothing, rule 8;
    LATER_WEAK: a later weak placement, rule 10; FIXED: in every alignment,
    rule 2; DETOUR_OPENER: a diagonal detour whose slot is rule 14's, whose
    extensions lose their credit only where they are AMBIGUOUS; SIBLING_TIES:
    an exact match that does not lose ties as a later sibling, rule 23), opener slot
    (its row in ``opener_ref`` / ``opener_hyp``, where its farther siblings,
    or a detour's other placements, are as mask words, rules 8 and 14; -1 if
    none), SPLIT_SIBLING (the hypothesis word of an earlier exact sibling whose being free makes taking this
    one lose above coverage, rule 24; -1 if none), NEAR_SIBLING and EARLIER_SIBLINGS (rows of ``siblings``, -1
    if none: the words of earlier exact siblings farther from the diagonal whose being free makes taking this
    one, where it opens a chunk, lose above coverage, rule 25; and, for a paraphrase starting at a later exact
    sibling's place, those whose being free makes it lose ties as that sibling would, rule 9), then its
    rank terms. Ranks: a candidate's rank terms times ``taking`` (one rank
    per term) is what taking it adds, times ``opening`` what opening a chunk
    with it adds, times ``no_credit`` what its extension adds back where it
    earns nothing (rule 8); ``passed`` is what passing a further reference
    word of a phrase adds, ``sibling`` / ``sibling_prune`` what a later exact
    sibling adds (rules 9-10), ``sibling_final`` what it adds to the final
    rank on top; ``open_credit`` is taken off a child that takes a match while
    the beam is pruned, never off its rank (rule 11: its chunk is still open);
    ``weak_sibling`` is what a one-word weak match offered after another
    candidate still free on the path adds, where ``weak_siblings`` (rule 12);
    ``unpruned`` / ``unpruned_no_credit``: the part of what taking a candidate
    / its extension earning nothing adds to the rank that the pruning does not
    see (rule 27: the paraphrase count); a path carries its sum next to its
    ranks and the children's pruning keys leave it out.
    """
    delta = _times(table, taking)
    opening = _times(table, opening)
    no_credit = _times(table, no_credit)
    hidden = _times(table, unpruned)
    hidden_no_credit = _times(table, unpruned_no_credit)
    width = delta.shape[1]
    fixed_at, open_start, offered = _offers(table, ref_len)
    ref_words = (ref_len + 63) >> 6
    hyp_words = (hyp_len + 63) >> 6
    phrases = False
    for c in range(table.shape[0]):
        phrases |= table[c, 3] > 1
    fin = width  # column offsets in a path row
    unseen = 2 * width  # the part of the rank the pruning does not see (rule 27)
    hyp_off = 3 * width
    ref_off = hyp_off + hyp_words
    sc = ref_off + ref_words
    state = np.zeros((1, sc + _SCALARS), np.int64)
    state[0, sc + _LAST_H] = state[0, sc + _LAST_R] = -1
    state[0, sc + _LAST_M] = state[0, sc + _OPENER] = state[0, sc + _NODE] = -1
    node_match = np.empty(max(16, 4 * ref_len), np.int64)
    node_prev = np.empty_like(node_match)
    nodes = 0
    for pos in range(ref_len):
        fix = fixed_at[pos]
        o0, o1 = open_start[pos], open_start[pos + 1]
        word, bit = ref_off + (pos >> 6), pos & 63
        paths = state.shape[0]
        if phrases and pos:
            for p in range(paths):
                last = state[p, sc + _LAST_M]
                if (state[p, word] >> bit) & 1 and (last < 0 or table[last, 2] != pos):
                    for k in range(width):
                        state[p, k] += passed[k]
                        state[p, fin + k] += passed[k]
            if fix < 0 and o0 == o1:
                state = _sorted_by_rank(state, width)
        if fix < 0 and o0 == o1:
            continue
        if fix >= 0:
            node_match = _room(node_match, nodes, paths)
            node_prev = _room(node_prev, nodes, paths)
            hs, hl, rs, rl = table[fix, 0], table[fix, 1], table[fix, 2], table[fix, 3]
            for p in range(paths):
                if (state[p, word] >> bit) & 1:
                    continue
                extends = hs == state[p, sc + _LAST_H] and rs == state[p, sc + _LAST_R]
                for k in range(width):
                    d = delta[fix, k] + (0 if extends else opening[fix, k])
                    state[p, k] += d
                    state[p, fin + k] += d
                    state[p, unseen + k] += hidden[fix, k]
                _set_bits(state, p, hyp_off, hs, hl)
                _set_bits(state, p, ref_off, rs, rl)
                state[p, sc + _LAST_H] = hs + hl
                state[p, sc + _LAST_R] = rs + rl
                state[p, sc + _LAST_M] = fix
                if not extends:
                    state[p, sc + _OPENER] = fix
                node_match[nodes] = fix
                node_prev[nodes] = state[p, sc + _NODE]
                state[p, sc + _NODE] = nodes
                nodes += 1
            state = _sorted_by_rank(state, width)
            continue
        # children in offer order: each path's options, then the path itself (skipping the position)
        most = paths * (o1 - o0 + 1)
        ranks = np.empty((most, width), np.int64)
        keys = np.empty((most, width), np.int64)  # what the beam is pruned by (rules 11 and 27)
        hid = np.empty((most, width), np.int64)
        parent = np.empty(most, np.int64)
        option = np.empty(most, np.int64)
        later = np.zeros(most, np.bool_)
        n = 0
        for p in range(paths):
            if not (state[p, word] >> bit) & 1:
                last_h, last_r = state[p, sc + _LAST_H], state[p, sc + _LAST_R]
                earlier_free = False  # rule 9: an exact sibling loses ties to an earlier one still free here
                offered_before = False  # rule 12: whether a candidate offered before this one is free here
                for q in range(o0, o1):
                    c = offered[q]
                    hs, hl, rs, rl = table[c, 0], table[c, 1], table[c, 2], table[c, 3]
                    if _any_bit(state, p, hyp_off, hs, hl) or _any_bit(state, p, ref_off, rs, rl):
                        continue
                    for k in range(width):
                        ranks[n, k] = state[p, k] + delta[c, k]
                        hid[n, k] = state[p, unseen + k] + hidden[c, k]
                    extends = hs == last_h and rs == last_r
                    # rule 25: taking it while a farther earlier sibling is free loses against coverage (while it
                    # opens a chunk); a paraphrase starting at a later sibling's place loses ties as that sibling does
                    near_free = not extends and _any_free(state, p, hyp_off, siblings, table[c, NEAR_SIBLING])
                    if near_free:
                        for k in range(width):
                            ranks[n, k] += sibling[k]
                    elif _any_free(state, p, hyp_off, siblings, table[c, EARLIER_SIBLINGS]):
                        for k in range(width):
                            ranks[n, k] += sibling_prune[k]
                        later[n] = True
                    if table[c, FLAGS] & EXACT:
                        if earlier_free and not near_free and not table[c, FLAGS] & SIBLING_TIES:  # (rule 23: no loss)
                            split = table[c, SPLIT_SIBLING]
                            if (split >= 0 and not _any_bit(state, p, hyp_off, split, 1)) or (  # rule 24, or rule 10
                                extends and table[state[p, sc + _LAST_M], FLAGS] & LATER_WEAK
                            ):
                                for k in range(width):
                                    ranks[n, k] += sibling[k]
                            else:
                                for k in range(width):
                                    ranks[n, k] += sibling_prune[k]
                                later[n] = True
                        earlier_free = True
                    # rule 12: a one-word weak match offered after another candidate still free loses ties
                    weak_later = offered_before and hl == 1 and rl == 1 and not table[c, FLAGS] & EXACT
                    weak_later &= weak_siblings
                    offered_before = True
                    if not extends:
                        for k in range(width):
                            ranks[n, k] += opening[c, k]
                    elif table[c, FLAGS] & (  # rule 8, or rule 14 where a detour opened the chunk
                        AMBIGUOUS if table[state[p, sc + _OPENER], FLAGS] & DETOUR_OPENER else UNCREDITED
                    ) and _loses_extension(
                        state, p, table[state[p, sc + _OPENER], SLOT], opener_ref, opener_hyp,
                        hyp_off, ref_off, only_if_free,
                    ):
                        for k in range(width):
                            ranks[n, k] += no_credit[c, k]  # rules 8 and 14: the extension earns nothing
                            hid[n, k] += hidden_no_credit[c, k]
                        weak_later = False  # (and then it does not lose the tie with not taking it)
                    if weak_later:
                        for k in range(width):
                            ranks[n, k] += weak_sibling[k]
                    for k in range(width):
                        keys[n, k] = ranks[n, k] - open_credit[k] - hid[n, k]
                    parent[n] = p
                    option[n] = c
                    n += 1
            for k in range(width):
                ranks[n, k] = state[p, k]
                hid[n, k] = state[p, unseen + k]
                keys[n, k] = state[p, k] - hid[n, k]
            parent[n] = p
            option[n] = -1
            n += 1
        if n > beam:
            keep = _heap_survivors(keys, n, beam)
        else:
            keep = np.ones(n, np.bool_)
        survivors = np.empty((min(n, beam), state.shape[1]), np.int64)
        node_match = _room(node_match, nodes, survivors.shape[0])
        node_prev = _room(node_prev, nodes, survivors.shape[0])
        s = 0
        for child in range(n):  # the survivors keep their offer order (rule 7)
            if not keep[child]:
                continue
            p, c = parent[child], option[child]
            for k in range(state.shape[1]):
                survivors[s, k] = state[p, k]
            if c >= 0:
                for k in range(width):
                    survivors[s, k] = ranks[child, k]
                    # the final rank charges a later sibling elsewhere (rule 10)
                    survivors[s, fin + k] += ranks[child, k] - state[p, k] + (sibling_final[k] if later[child] else 0)
                hs, hl, rs, rl = table[c, 0], table[c, 1], table[c, 2], table[c, 3]
                _set_bits(survivors, s, hyp_off, hs, hl)
                _set_bits(survivors, s, ref_off, rs, rl)
                if not (hs == state[p, sc + _LAST_H] and rs == state[p, sc + _LAST_R]):
                    survivors[s, sc + _OPENER] = c
                survivors[s, sc + _LAST_H] = hs + hl
                survivors[s, sc + _LAST_R] = rs + rl
                survivors[s, sc + _LAST_M] = c
                for k in range(width):
                    survivors[s, unseen + k] = hid[child, k]
                node_match[nodes] = c
                node_prev[nodes] = state[p, sc + _NODE]
                survivors[s, sc + _NODE] = nodes
                nodes += 1
            s += 1
        state = survivors
    best = 0  # the first best in offer order
    for p in range(1, state.shape[0]):
        if _compare(state, p, state, best, fin, width) < 0:
            best = p
    length = 0
    node = state[best, sc + _NODE]
    while node >= 0:
        length += 1
        node = node_prev[node]
    out = np.empty(length, np.int64)
    node = state[best, sc + _NODE]
    for k in range(length):
        out[k] = node_match[node]
        node = node_prev[node]
    return out


@compiled
def _any_free(state: np.ndarray, p: int, hyp_off: int, masks: np.ndarray, row: int) -> bool:
    """Whether path ``p`` leaves free a word of mask row ``row`` (-1: none): its hypothesis words, then its
    reference words, as the path's own masks are laid out from ``hyp_off`` (rules 9 and 25)."""
    if row < 0:
        return False
    for w in range(masks.shape[1]):
        if masks[row, w] & ~state[p, hyp_off + w]:
            return True
    return False


@compiled
def _loses_extension(
    state: np.ndarray,
    p: int,
    slot: int,
    opener_ref: np.ndarray,
    opener_hyp: np.ndarray,
    hyp_off: int,
    ref_off: int,
    only_if_free: bool,
) -> bool:
    """Whether a weak match extending the chunk of path ``p`` earns nothing (rules 8 and 14).

    ``slot`` is the chunk opener's row of farther siblings (rule 14: of its
    other placements), -1 if it has none. With one weak module and no
    phrases (``only_if_free``), only while one of those is still free on
    the path.
    """
    if slot < 0:
        return False
    if not only_if_free:
        return True
    for w in range(opener_ref.shape[1]):
        if opener_ref[slot, w] & ~state[p, ref_off + w]:
            return True
    for w in range(opener_hyp.shape[1]):
        if opener_hyp[slot, w] & ~state[p, hyp_off + w]:
            return True
    return False
