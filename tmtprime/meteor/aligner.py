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

from tmtprime.meteor.compiled import compiled, use_compiled
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


@compiled
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
def _free(used: np.ndarray, row: int, start: int, length: int) -> bool:
    """Whether hypothesis words ``start..start+length`` are unused on path ``row`` (bit masks of 64 words)."""
    for q in range(start, start + length):
        if (used[row, q >> 6] >> np.uint64(q & 63)) & np.uint64(1):
            return False
    return True


@compiled
def _extends(spans: np.ndarray, last: int, c: int) -> bool:
    """Whether candidate ``c`` continues the chunk of match ``last`` (-1: none) in both sentences."""
    return last >= 0 and spans[last, 0] + spans[last, 1] == spans[c, 0] and spans[last, 2] + spans[last, 3] == spans[c, 2]


@compiled
def _rank(spans: np.ndarray, cover: int, closed: int, last: int, p: int) -> int:
    """The first two rank fields of a path in one word, smaller is better: more weighted coverage, then fewer
    chunks, the chunk the walk is still inside at reference word ``p`` not counted yet (past the last word,
    ``p = ref_len``, every chunk counts)."""
    open_counted = last >= 0 and spans[last, 2] + spans[last, 3] <= p
    return ((1 << 30) - cover) << 32 | (closed + (1 if open_counted else 0))


@compiled
def _keep(major: np.ndarray, minor: np.ndarray, kids: int, keep: np.ndarray) -> int:
    """The best ``len(keep)`` of ``kids`` children by (major, minor), equal keys in their order, into ``keep``;
    returns how many. WHY not two stable argsorts of all children: only the beam survives, and most children
    lose to the last kept one in one comparison (docs/experiments/meteor-speed.md)."""
    beam, kept = keep.shape[0], 0
    for i in range(kids):
        a, b = major[i], minor[i]
        if kept == beam:
            z = keep[kept - 1]
            if a > major[z] or (a == major[z] and b >= minor[z]):
                continue
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
        kept = top + 1
    return kept


@compiled
def search(spans: np.ndarray, exact_stage: np.ndarray, hyp_len: int, ref_len: int, beam: int) -> np.ndarray:
    """Indexes (into ``spans``: rows hs, hl, rs, rl, stage in offer order) of the best path's matches.

    ``exact_stage[s]``: whether stage ``s`` is the exact module (full weight). Paths are kept as parallel
    arrays; their matches as a trail of (match, parent) nodes shared between paths. A child's node joins the
    trail only if the child survives the beam, so memory grows with beam x reference length, not with every
    child tried (which ran out of a 2 GB address space on 5,000-token pairs). The children of one reference
    word are ranked by their keys alone, in buffers made once; only the ``beam`` kept are built."""
    n = spans.shape[0]
    value = np.empty(n, np.int64)  # weighted coverage in halves of a word pair
    for c in range(n):
        value[c] = spans[c, 1] + spans[c, 3] if exact_stage[spans[c, 4]] else spans[c, 1] // 2 + spans[c, 3] // 2
    fixed_at, offered, start = _offers(spans, unambiguous(spans, hyp_len, ref_len), ref_len)
    words = (hyp_len + 63) >> 6
    widest = 1
    for p in range(ref_len):
        widest = max(widest, start[p + 1] - start[p] + 1)
    # the beam: weighted coverage, closed chunks (the last one is open), passing cost, last match (-1: none),
    # trail node, hypothesis words used; built afresh at each reference word from the children kept
    cover = np.zeros(beam, np.int64)
    closed = np.zeros(beam, np.int64)
    passing = np.zeros(beam, np.int64)
    last = np.full(beam, -1, np.int64)
    node = np.full(beam, -1, np.int64)
    used = np.zeros((beam, words), np.uint64)
    n_cover, n_closed, n_last, n_node = cover.copy(), closed.copy(), last.copy(), node.copy()
    n_used = used.copy()
    count = 1
    # each child as its rank fields, parent and match taken (-1: the skip child); only the kept ones are built
    most = beam * widest
    k_major = np.empty(most, np.int64)
    k_passing = np.empty(most, np.int64)
    k_parent = np.empty(most, np.int64)
    k_match = np.empty(most, np.int64)
    keep = np.empty(beam, np.int64)
    trail_match = np.empty(max(16, beam * ref_len), np.int64)
    trail_parent = np.empty(max(16, beam * ref_len), np.int64)
    trail_size = 0
    for p in range(ref_len):
        f = fixed_at[p]
        lo, hi = (start[p], start[p + 1]) if f < 0 else (0, 1)
        kids = 0
        for x in range(count):
            lm = last[x]
            # matches are taken in walk order: only the last one can still cover this reference word
            inside = lm >= 0 and spans[lm, 2] + spans[lm, 3] > p
            passed = 0
            for o in range(lo, hi):
                c = offered[o] if f < 0 else f
                if f < 0 and (inside or not _free(used, x, spans[c, 0], spans[c, 1])):
                    continue
                chunks = closed[x] + (1 if lm >= 0 and not _extends(spans, lm, c) else 0)
                k_major[kids] = _rank(spans, cover[x] + value[c], chunks, c, p)
                k_passing[kids], k_parent[kids], k_match[kids] = passing[x] + passed, x, c
                kids += 1
                passed += abs(spans[c, 0] - spans[c, 2])
            if f >= 0:  # a fixed candidate has no alternative: no skip child
                continue
            k_major[kids] = _rank(spans, cover[x], closed[x], lm, p)
            k_passing[kids], k_parent[kids], k_match[kids] = passing[x] + passed, x, -1
            kids += 1
        count = _keep(k_major, k_passing, kids, keep)
        for k in range(count):
            i = keep[k]
            x, c = k_parent[i], k_match[i]
            passing[k] = k_passing[i]
            n_used[k] = used[x]
            if c < 0:
                n_cover[k], n_closed[k], n_last[k], n_node[k] = cover[x], closed[x], last[x], node[x]
                continue
            lm = last[x]
            n_cover[k] = cover[x] + value[c]
            n_closed[k] = closed[x] + (1 if lm >= 0 and not _extends(spans, lm, c) else 0)
            n_last[k] = c
            for q in range(spans[c, 0], spans[c, 0] + spans[c, 1]):
                n_used[k, q >> 6] |= np.uint64(1) << np.uint64(q & 63)
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
    best, best_major = 0, _rank(spans, cover[0], closed[0], last[0], ref_len)
    for k in range(1, count):
        major = _rank(spans, cover[k], closed[k], last[k], ref_len)
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

    The first run after an install or an upgrade compiles the search, the
    matchers and the statistics (numba; some seconds), during which a
    progress bar would stand still; numba caches the result for later runs. A
    marker per installed version of this package's modules, in TMTprime's
    cache directory, says whether that has happened (stamped over all of them,
    not only those imported so far, so that it does not depend on which
    modules a run happens to load). ``warm_up``
    (the CLI scores one small pair with its configured scorer) compiles what a
    run uses; by default only the aligner is compiled.
    """
    use_compiled()
    marker = _compiled_marker()
    if marker is None or not marker.exists():
        silent(reporter).status("compiling the Meteor scorer once for this installation (later runs reuse it)")
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
