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

import hashlib
import sys
from collections.abc import Callable, Collection, Sequence
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
    if exact_stages and hyp and len(hyp) == len(ref) and list(hyp) == list(ref):
        stage = min(exact_stages)
        return [(i, 1, i, 1, stage) for i in range(len(hyp))]
    if len(candidates) == 0:
        return []
    spans = np.array(candidates, dtype=np.int64).reshape(-1, 5)
    exact = np.isin(spans[:, 4], list(exact_stages))
    chosen = search(spans, exact, len(hyp), len(ref), max(beam_size, 1))
    return sorted(map(tuple, spans[chosen].tolist()))


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
def _majors(spans: np.ndarray, cover: np.ndarray, closed: np.ndarray, last: np.ndarray, p: int) -> np.ndarray:
    """The first two rank fields of each path in one word, smaller is better: more weighted coverage, then
    fewer chunks, the chunk the walk is still inside at reference word ``p`` not counted yet (past the
    last word, ``p = ref_len``, every chunk counts)."""
    out = np.empty(cover.shape[0], np.int64)
    for k in range(cover.shape[0]):
        lm = last[k]
        open_counted = lm >= 0 and spans[lm, 2] + spans[lm, 3] <= p
        out[k] = ((1 << 30) - cover[k]) << 32 | (closed[k] + (1 if open_counted else 0))
    return out


@compiled
def _stable_order(major: np.ndarray, minor: np.ndarray) -> np.ndarray:
    """Indexes sorted by (major, minor), equal keys in their original order."""
    by_minor = np.argsort(minor, kind="mergesort")
    return by_minor[np.argsort(major[by_minor], kind="mergesort")]


@compiled
def search(spans: np.ndarray, exact: np.ndarray, hyp_len: int, ref_len: int, beam: int) -> np.ndarray:
    """Indexes (into ``spans``: rows hs, hl, rs, rl, stage in offer order) of the best path's matches.

    ``exact[c]``: whether candidate ``c`` comes from the exact module (full weight). Paths are kept as
    parallel arrays; their matches as a trail of (match, parent) nodes shared between paths. A child's node
    joins the trail only if the child survives the beam, so memory grows with beam x reference length, not
    with every child tried (which ran out of a 2 GB address space on 5,000-token pairs)."""
    n = spans.shape[0]
    value = np.empty(n, np.int64)  # weighted coverage in halves of a word pair
    for c in range(n):
        value[c] = spans[c, 1] + spans[c, 3] if exact[c] else spans[c, 1] // 2 + spans[c, 3] // 2
    fixed_at, offered, start = _offers(spans, unambiguous(spans, hyp_len, ref_len), ref_len)
    words = (hyp_len + 63) >> 6
    # the beam: weighted coverage, closed chunks (the last one is open), passing cost, last match (-1: none),
    # trail node, hypothesis words used
    cover = np.zeros(1, np.int64)
    closed = np.zeros(1, np.int64)
    passing = np.zeros(1, np.int64)
    last = np.full(1, -1, np.int64)
    node = np.full(1, -1, np.int64)
    used = np.zeros((1, words), np.uint64)
    trail_match = np.empty(max(16, beam * ref_len), np.int64)
    trail_parent = np.empty(max(16, beam * ref_len), np.int64)
    trail_size = 0
    for p in range(ref_len):
        f = fixed_at[p]
        count = cover.shape[0]
        lo, hi = (start[p], start[p + 1]) if f < 0 else (0, 1)
        most = count * (hi - lo + 1)
        k_cover = np.empty(most, np.int64)
        k_closed = np.empty(most, np.int64)
        k_passing = np.empty(most, np.int64)
        k_last = np.empty(most, np.int64)
        k_node = np.empty(most, np.int64)  # the parent's node; with k_new, the child's match is a new node on it
        k_new = np.empty(most, np.bool_)
        k_used = np.empty((most, words), np.uint64)
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
                k_cover[kids] = cover[x] + value[c]
                k_closed[kids] = closed[x] + (1 if lm >= 0 and not _extends(spans, lm, c) else 0)
                k_passing[kids] = passing[x] + passed
                k_last[kids] = c
                k_node[kids], k_new[kids] = node[x], True
                k_used[kids] = used[x]
                for q in range(spans[c, 0], spans[c, 0] + spans[c, 1]):
                    k_used[kids, q >> 6] |= np.uint64(1) << np.uint64(q & 63)
                kids += 1
                passed += abs(spans[c, 0] - spans[c, 2])
            if f >= 0:  # a fixed candidate has no alternative: no skip child
                continue
            k_cover[kids], k_closed[kids], k_passing[kids] = cover[x], closed[x], passing[x] + passed
            k_last[kids], k_node[kids], k_new[kids] = lm, node[x], False
            k_used[kids] = used[x]
            kids += 1
        major = _majors(spans, k_cover[:kids], k_closed[:kids], k_last[:kids], p)
        keep = _stable_order(major, k_passing[:kids])[:beam]
        cover, closed, passing = k_cover[keep], k_closed[keep], k_passing[keep]
        last, node, used = k_last[keep], k_node[keep], k_used[keep]
        for k in range(keep.shape[0]):
            if k_new[keep[k]]:
                if trail_size == trail_match.shape[0]:
                    trail_match = np.concatenate((trail_match, np.empty(trail_size, np.int64)))
                    trail_parent = np.concatenate((trail_parent, np.empty(trail_size, np.int64)))
                trail_match[trail_size], trail_parent[trail_size] = last[k], node[k]
                node[k] = trail_size
                trail_size += 1
    # the first path, in beam order, with the best rank once every chunk counts
    best = _stable_order(_majors(spans, cover, closed, last, ref_len), passing)[0]
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
    import numba

    sources = sorted(Path(__file__).parent.glob("*.py"))
    stamp = "|".join([numba.__version__, sys.version, *(f"{p}:{p.stat().st_mtime_ns}" for p in sources)])
    try:
        return cache_dir() / f"aligner-compiled-{hashlib.sha1(stamp.encode()).hexdigest()[:16]}"
    except OSError:
        return None
