"""Alignment selection: from all candidate matches to the jar's alignment.

The papers state the goal (each word in at most one match; most covered
words; fewest chunks; smallest distance); the jar reaches it with a beam
search whose details decide which of several equally good alignments wins,
and they show in scores. This is that search, reconstructed black-box: a
left-to-right walk over reference positions where each path offers one child
per free candidate starting there, then the skip child; a child pays the
diagonal distance of the free candidates passed up before it; children are
ranked, stably, by weighted coverage (exact words 1, other modules' halves
rounded down per side), then fewer chunks, then smaller passing cost, and the
first ``beam`` survive. The full rules, and how they were established and
measured against the jar: docs/experiments/meteor-alignment.md.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from tmtprime.meteor.compiled import compiled, library_in_use, use_compiled
from tmtprime.meteor.matchers import Match
from tmtprime.paths import cache_dir
from tmtprime.progress import Reporter, silent

DEFAULT_BEAM = 40


def align(
    hyp: Sequence[str],
    ref: Sequence[str],
    candidates: Sequence[Match] | np.ndarray,
    exact_stages: Collection[int],
    beam_size: int = DEFAULT_BEAM,
) -> list[Match]:
    """The jar's alignment of ``hyp`` and ``ref`` from ``candidates`` (tuples or rows of an array, in the
    matchers' offer order), sorted by hypothesis position."""
    return align_all([(hyp, ref)], [candidates], exact_stages, beam_size)[0]


def align_all(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
    candidates: Sequence[Sequence[Match] | np.ndarray],
    exact_stages: Collection[int],
    beam_size: int = DEFAULT_BEAM,
) -> list[list[Match]]:
    """:func:`align` of every pair, their searches in one compiled call (a call per pair was a fifth of the
    alignment time; docs/experiments/meteor-speed.md)."""
    out: list[list[Match]] = [[] for _ in pairs]
    todo = []
    for k, ((hyp, ref), found) in enumerate(zip(pairs, candidates)):
        if exact_stages and hyp and len(hyp) == len(ref) and list(hyp) == list(ref):
            stage = min(exact_stages)
            out[k] = [(i, 1, i, 1, stage) for i in range(len(hyp))]
        elif len(found):
            todo.append(k)
    if not todo:
        return out
    parts = [np.asarray(candidates[k], dtype=np.int64).reshape(-1, 5) for k in todo]
    offsets = np.zeros(len(parts) + 1, np.int64)
    np.cumsum([len(part) for part in parts], out=offsets[1:])
    spans = np.concatenate(parts)
    lengths = np.array([(len(pairs[k][0]), len(pairs[k][1])) for k in todo], np.int64)
    mask = _stage_mask(frozenset(exact_stages), int(spans[:, 4].max()) + 1)
    chosen, bounds = _search_all(spans, offsets, lengths, mask, max(beam_size, 1))
    rows, ends = spans[chosen].tolist(), bounds.tolist()
    for j, k in enumerate(todo):
        out[k] = list(map(tuple, rows[ends[j] : ends[j + 1]]))
    return out


@compiled(exports=("Tuple((int64[:], int64[:]))(int64[:,:], int64[:], int64[:,:], boolean[:], int64)",))
def _search_all(
    spans: np.ndarray, offsets: np.ndarray, lengths: np.ndarray, exact_stage: np.ndarray, beam: int
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`search` of each pair (rows ``offsets[k]:offsets[k + 1]``, hypothesis and reference lengths
    ``lengths[k]``): the chosen rows of all pairs, each pair's by hypothesis position, and where each starts."""
    chosen = np.empty(spans.shape[0], np.int64)
    bounds = np.zeros(offsets.shape[0], np.int64)
    m = 0
    for k in range(offsets.shape[0] - 1):
        a = offsets[k]
        found = search(spans[a : offsets[k + 1]], exact_stage, lengths[k, 0], lengths[k, 1], beam)
        starts = np.empty(found.shape[0], np.int64)
        for i in range(found.shape[0]):
            starts[i] = spans[a + found[i], 0]
        order = np.argsort(starts)  # a hypothesis word is in at most one match: no ties
        for i in range(found.shape[0]):
            chosen[m + i] = a + found[order[i]]
        m += found.shape[0]
        bounds[k + 1] = m
    return chosen[:m], bounds


@lru_cache(maxsize=64)
def _stage_mask(exact_stages: frozenset[int], stages: int) -> np.ndarray:
    """Per stage (module index) below ``stages``, whether it is an exact one."""
    mask = np.zeros(stages, np.bool_)
    mask[[s for s in exact_stages if s < stages]] = True
    return mask


@compiled
def unambiguous(spans: np.ndarray, hyp_len: int, ref_len: int) -> np.ndarray:
    """Per candidate (hs, hl, rs, rl, ...), whether no other candidate covers any of its words (step 2)."""
    hyp_cover = np.zeros(hyp_len, np.int64)
    ref_cover = np.zeros(ref_len, np.int64)
    for c in range(spans.shape[0]):
        hyp_cover[spans[c, 0] : spans[c, 0] + spans[c, 1]] += 1
        ref_cover[spans[c, 2] : spans[c, 2] + spans[c, 3]] += 1
    out = np.ones(spans.shape[0], np.bool_)
    for c in range(spans.shape[0]):
        out[c] = (hyp_cover[spans[c, 0] : spans[c, 0] + spans[c, 1]] == 1).all() and (
            ref_cover[spans[c, 2] : spans[c, 2] + spans[c, 3]] == 1
        ).all()
    return out


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
    start = np.cumsum(start)
    offered = np.empty(start[ref_len], np.int64)
    fill = start[:ref_len].copy()
    for c in range(spans.shape[0]):
        if not fixed[c]:
            offered[fill[spans[c, 2]]] = c
            fill[spans[c, 2]] += 1
    return fixed_at, offered, start


@compiled
def _spans_free(used: np.ndarray, base: int, start: int, length: int) -> bool:
    """Whether hypothesis words ``start..start+length`` are unused in the bit masks ``used[base:]`` (64 words
    each); for a match across two masks (the common one-mask case is one test in :func:`search`)."""
    for q in range(start, start + length):
        if (used[base + (q >> 6)] >> np.uint64(q & 63)) & np.uint64(1):
            return False
    return True


@compiled
def _insert(major: np.ndarray, minor: np.ndarray, keep: np.ndarray, kept: int, i: int) -> int:
    """Rank child ``i`` (keys ``major[i]``, ``minor[i]``) among the best ``len(keep)`` children so far, kept in
    ``keep`` by (major, minor), equal keys in the order made; returns how many are kept. WHY as each child is
    made: only the beam survives, and most children lose to the last kept one in one comparison
    (docs/experiments/meteor-speed.md)."""
    beam = keep.shape[0]
    a, b = major[i], minor[i]
    lo, hi = 0, kept  # the first kept child ranked after this one (after every equal one: stable)
    while lo < hi:
        mid = (lo + hi) >> 1
        y = keep[mid]
        if a < major[y] or (a == major[y] and b < minor[y]):
            hi = mid
        else:
            lo = mid + 1
    top = kept if kept < beam else beam - 1
    for j in range(top, lo, -1):
        keep[j] = keep[j - 1]
    keep[lo] = i
    return top + 1


_TOP = 1 << 30  # rank fields: (_TOP - weighted coverage) << 32 | chunks, smaller is better


@compiled
def search(spans: np.ndarray, exact_stage: np.ndarray, hyp_len: int, ref_len: int, beam: int) -> np.ndarray:
    """Indexes (into ``spans``: rows hs, hl, rs, rl, stage in offer order) of the best path's matches.

    ``exact_stage[s]``: whether stage ``s`` is the exact module (full weight). Paths are kept as parallel
    arrays; their matches as a trail of (match, parent) nodes shared between paths. A child's node joins the
    trail only if the child survives the beam, so memory grows with beam x reference length, not with every
    child tried (which ran out of a 2 GB address space on 5,000-token pairs). A child is ranked as it is made
    (:func:`_insert`): more weighted coverage, then fewer chunks (the chunk the walk is still inside not
    counted yet), then smaller passing cost; only the ``beam`` kept are built. Each candidate's hypothesis
    words are one bit mask when they fall in one 64-word block, so most "is it free" tests are one AND."""
    n = spans.shape[0]
    value = np.empty(n, np.int64)  # weighted coverage in halves of a word pair
    h_end, r_end, dist = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
    block = np.empty(n, np.int64)  # the 64-word block of the candidate's hypothesis words; -1: two or more
    bits = np.zeros(n, np.uint64)
    for c in range(n):
        hs, hl, rs, rl = spans[c, 0], spans[c, 1], spans[c, 2], spans[c, 3]
        value[c] = hl + rl if exact_stage[spans[c, 4]] else hl // 2 + rl // 2
        h_end[c], r_end[c], dist[c] = hs + hl, rs + rl, abs(hs - rs)
        block[c] = hs >> 6 if hs >> 6 == (hs + hl - 1) >> 6 else -1
        if block[c] >= 0:
            bits[c] = (np.uint64(0xFFFFFFFFFFFFFFFF) >> np.uint64(64 - hl)) << np.uint64(hs & 63)
    fixed_at, offered, start = _offers(spans, unambiguous(spans, hyp_len, ref_len), ref_len)
    richest = np.zeros(ref_len, np.int64)  # the most weighted coverage a candidate at each reference word adds
    for o in range(offered.shape[0]):
        c = offered[o]
        richest[spans[c, 2]] = max(richest[spans[c, 2]], value[c])
    words = (hyp_len + 63) >> 6
    # the beam: weighted coverage, closed chunks (the last one is open), passing cost, last match (-1: none),
    # trail node, hypothesis words used (``words`` masks per path); built afresh at each reference word
    cover = np.zeros(beam, np.int64)
    closed = np.zeros(beam, np.int64)
    passing = np.zeros(beam, np.int64)
    last = np.full(beam, -1, np.int64)
    node = np.full(beam, -1, np.int64)
    used = np.zeros(beam * words, np.uint64)
    n_cover, n_closed, n_last, n_node = cover.copy(), closed.copy(), last.copy(), node.copy()
    n_used = used.copy()
    count = 1
    # the children that could be kept: rank fields, parent and match taken (-1: the skip child); ``keep``: the
    # best ``beam`` of them in rank order
    widest = 1
    for p in range(ref_len):
        widest = max(widest, start[p + 1] - start[p] + 1)
    k_major, k_passing = np.empty(beam * widest, np.int64), np.empty(beam * widest, np.int64)
    k_parent, k_match = np.empty(beam * widest, np.int64), np.empty(beam * widest, np.int64)
    keep = np.empty(beam, np.int64)
    trail_match = np.empty(max(16, beam * ref_len), np.int64)
    trail_parent = np.empty(max(16, beam * ref_len), np.int64)
    trail_size = 0
    for p in range(ref_len):
        f = fixed_at[p]
        kept = kids = 0
        for x in range(count):
            lm = last[x]
            if f >= 0:  # a fixed candidate has no alternative (and no earlier match covers its words): no skip child
                chunks = closed[x] + (1 if lm >= 0 and not (h_end[lm] == spans[f, 0] and r_end[lm] == p) else 0)
                k_major[kids], k_passing[kids], k_parent[kids], k_match[kids] = (
                    (_TOP - cover[x] - value[f]) << 32 | chunks, passing[x], x, f)  # fmt: skip
                kept = _insert(k_major, k_passing, keep, kept, kids)
                kids += 1
                continue
            if kept == beam:  # no child of x can rank before the last kept one: skip x (exact, not a pruning)
                z = beam - 1
                best = (_TOP - cover[x] - richest[p]) << 32 | closed[x]
                if best > k_major[keep[z]] or (best == k_major[keep[z]] and passing[x] >= k_passing[keep[z]]):
                    continue
            passed = 0
            # matches are taken in walk order: only the last one can still cover this reference word
            if lm < 0 or r_end[lm] <= p:
                base = x * words
                for o in range(start[p], start[p + 1]):
                    c = offered[o]
                    b = block[c]
                    if b >= 0:
                        if used[base + b] & bits[c]:
                            continue
                    elif not _spans_free(used, base, spans[c, 0], spans[c, 1]):
                        continue
                    chunks = closed[x] + (1 if lm >= 0 and not (h_end[lm] == spans[c, 0] and r_end[lm] == p) else 0)
                    a = (_TOP - cover[x] - value[c]) << 32 | chunks
                    # "would it be kept" written out here and for the skip child below: as a compiled helper
                    # (a call per child) steady English scoring took 8-10 % more CPU time
                    if kept < beam or a < k_major[keep[beam - 1]] or (
                            a == k_major[keep[beam - 1]] and passing[x] + passed < k_passing[keep[beam - 1]]):
                        k_major[kids], k_passing[kids], k_parent[kids], k_match[kids] = a, passing[x] + passed, x, c
                        kept = _insert(k_major, k_passing, keep, kept, kids)
                        kids += 1
                    passed += dist[c]
            a = (_TOP - cover[x]) << 32 | (closed[x] + (1 if lm >= 0 and r_end[lm] <= p else 0))
            if kept < beam or a < k_major[keep[beam - 1]] or (
                    a == k_major[keep[beam - 1]] and passing[x] + passed < k_passing[keep[beam - 1]]):
                k_major[kids], k_passing[kids], k_parent[kids], k_match[kids] = a, passing[x] + passed, x, -1
                kept = _insert(k_major, k_passing, keep, kept, kids)
                kids += 1
        count = kept
        for k in range(count):
            i = keep[k]
            x, c = k_parent[i], k_match[i]
            passing[k] = k_passing[i]
            for w in range(words):
                n_used[k * words + w] = used[x * words + w]
            if c < 0:
                n_cover[k], n_closed[k], n_last[k], n_node[k] = cover[x], closed[x], last[x], node[x]
                continue
            n_cover[k] = cover[x] + value[c]
            n_closed[k] = k_major[i] & 0xFFFFFFFF
            n_last[k] = c
            if block[c] >= 0:
                n_used[k * words + block[c]] |= bits[c]
            else:
                for q in range(spans[c, 0], h_end[c]):
                    n_used[k * words + (q >> 6)] |= np.uint64(1) << np.uint64(q & 63)
            if trail_size == trail_match.shape[0]:
                trail_match = np.concatenate((trail_match, np.empty(trail_size, np.int64)))
                trail_parent = np.concatenate((trail_parent, np.empty(trail_size, np.int64)))
            trail_match[trail_size], trail_parent[trail_size] = c, node[x]
            n_node[k] = trail_size
            trail_size += 1
        cover, n_cover = n_cover, cover
        closed, n_closed = n_closed, closed
        last, n_last = n_last, last
        node, n_node = n_node, node
        used, n_used = n_used, used
    # the first path, in beam order, with the best rank once every chunk counts
    best, best_major = 0, (_TOP - cover[0]) << 32 | (closed[0] + (1 if last[0] >= 0 else 0))
    for k in range(1, count):
        major = (_TOP - cover[k]) << 32 | (closed[k] + (1 if last[k] >= 0 else 0))
        if major < best_major or (major == best_major and passing[k] < passing[best]):
            best, best_major = k, major
    out = []
    t = node[best]
    while t >= 0:
        out.append(trail_match[t])
        t = trail_parent[t]
    return np.array(out[::-1], np.int64)


def compile_now(reporter: Reporter | None = None, warm_up: Callable[[], object] | None = None) -> None:
    """Switch this process to machine code (:mod:`tmtprime.meteor.compiled`) and compile it before the first
    segment; ``reporter`` gets a status line when this is the one-off compile.

    The first run after an install or an upgrade builds the kernel library
    (:mod:`~tmtprime.meteor.kernel_library`, about 30 s), during which a
    progress bar would stand still; later runs load it. Where it cannot be
    built (no C compiler) numba's JIT compiles the kernels and caches them; a
    marker per installed version of this package's modules, in TMTprime's
    cache directory, says whether that has happened (stamped over all of them,
    not only those imported so far, so that it does not depend on which
    modules a run happens to load). ``warm_up``
    (the CLI scores one small pair with its configured scorer) compiles what a
    run uses; by default only the aligner is compiled.
    """
    from tmtprime.meteor import kernel_library  # not on a one-pair run's path (subprocess, sysconfig, tempfile)

    use_compiled()
    reporter, said = silent(reporter), False
    if not library_in_use() and kernel_library.failure() is None:
        reporter.status("compiling the Meteor scorer once for this installation (about 30 s; later runs reuse it)")
        reason = kernel_library.build(reporter)
        if reason is not None:
            reporter.status(f"could not compile the Meteor scorer ahead of time ({reason}); numba compiles it instead "
                            f"(to try again, e.g. with a C compiler installed, delete {kernel_library.library_dir()})")
        use_compiled()
        said = True
    marker = None if library_in_use() else _compiled_marker()  # numba's JIT: its own cache, its own one-off
    if marker is not None and not marker.exists() and not said:
        reporter.status("compiling the Meteor scorer once for this installation (later runs reuse it)")
    if warm_up is not None:
        warm_up()
    else:
        # ``a b a`` / ``a a b``, exact only: ambiguous, so the search runs (one compiled variant serves all)
        align(("a", "b", "a"), ("a", "a", "b"), [(0, 1, 0, 1, 0), (0, 1, 1, 1, 0), (1, 1, 2, 1, 0), (2, 1, 0, 1, 0),
                                                 (2, 1, 1, 1, 0)], {0}, 2)  # fmt: skip
    if marker is not None:
        marker.touch()


def _compiled_marker() -> Path | None:
    """Where to note that this installation's compiled code is cached; None without a writable cache."""
    import hashlib

    import numba

    sources = sorted(Path(__file__).parent.glob("*.py"))
    stamp = "|".join([numba.__version__, sys.version, *(f"{p}:{p.stat().st_mtime_ns}" for p in sources)])
    try:
        return cache_dir() / f"aligner-compiled-{hashlib.sha1(stamp.encode()).hexdigest()[:16]}"
    except OSError:
        return None
