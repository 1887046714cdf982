"""Alignment selection: from all candidate matches to the jar's alignment.

The papers state the goal (each word in at most one match; most covered
words; fewest chunks; smallest distance). The jar reaches it with a beam
search whose details decide which of several plausible alignments wins, and
they show in scores, so they were reconstructed by black-box runs of the jar
(``-writeAlignments`` and its ``Matcher`` tool, at beam sizes 1 to 40, on
thousands of crafted pairs, crafted paraphrase tables and real MT output):

1. identical token sequences (when ``exact`` is a module) align word by word;
2. a candidate whose every word (on both sides) has no other candidate is
   *fixed*: it is in every alignment;
3. the remaining candidates are searched position by position over the
   **reference**; at each position a path takes one of the candidates starting
   there (earlier module first, then by hypothesis position), if its words are
   still free, or skips; chunks are counted as matches are appended in
   reference order; paths are kept in a ``java.util.PriorityQueue``-ordered
   beam and the best one at the end wins;
4. paths are ranked by: more *strong* matches (exact, or a phrase of more than
   one word on either side), fewer chunks, more covered words, more matches,
   then coverage module by module. A single-word non-exact match therefore
   never makes a path better by itself: an ambiguous one that would open a
   chunk of its own is dropped (``cars`` / ``car car`` has no match, nor
   ``car`` / ``automobile`` when synonym and paraphrase both propose it),
   while one that extends a chunk is kept (``x cars`` / ``x car car``).

Known residual differences (measured in ``bench/meteor_parity.py``): ties the
jar breaks differently in long segments, and paraphrase-heavy alignments.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tmtprime.meteor.matchers import Match

DEFAULT_BEAM = 40


class _JavaHeap:
    """Binary heap with ``java.util.PriorityQueue``'s exact sift rules.

    Ties between equal keys are broken by the heap's shape, not by insertion
    order; reproducing that is what makes tie-breaking match the jar.
    """

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[tuple] = []

    def offer(self, item: tuple) -> None:
        q = self.items
        q.append(item)
        k = len(q) - 1
        key = item[0]
        while k > 0:
            parent = (k - 1) >> 1
            e = q[parent]
            if key >= e[0]:
                break
            q[k] = e
            k = parent
        q[k] = item

    def poll(self) -> tuple:
        q = self.items
        result = q[0]
        last = q.pop()
        n = len(q)
        if n:
            key = last[0]
            k = 0
            half = n >> 1
            while k < half:
                child = 2 * k + 1
                c = q[child]
                right = child + 1
                if right < n and c[0] > q[right][0]:
                    child = right
                    c = q[child]
                if key <= c[0]:
                    break
                q[k] = c
                k = child
            q[k] = last
        return result


def _chunks(matches: Sequence[Match]) -> int:
    count = 0
    prev_h = prev_r = -1
    for hs, hl, rs, rl, _stage in sorted(matches):
        if hs != prev_h or rs != prev_r:
            count += 1
        prev_h, prev_r = hs + hl, rs + rl
    return count


def count_chunks(matches: Sequence[Match]) -> int:
    """Runs of matches contiguous and identically ordered in both sentences."""
    return _chunks(matches)


def align(
    hyp: Sequence[str],
    ref: Sequence[str],
    candidates: Sequence[Match],
    exact_stages: Collection[int],
    beam_size: int = DEFAULT_BEAM,
) -> list[Match]:
    """The jar's alignment of ``hyp`` and ``ref`` from ``candidates``, sorted by hypothesis position."""
    if exact_stages and hyp and len(hyp) == len(ref) and list(hyp) == list(ref):
        stage = min(exact_stages)
        return [(i, 1, i, 1, stage) for i in range(len(hyp))]
    if not candidates:
        return []
    hyp_cover = [0] * len(hyp)
    ref_cover = [0] * len(ref)
    for hs, hl, rs, rl, _stage in candidates:
        for i in range(hs, hs + hl):
            hyp_cover[i] += 1
        for j in range(rs, rs + rl):
            ref_cover[j] += 1
    fixed: dict[int, Match] = {}
    open_at: list[list[Match]] = [[] for _ in ref]
    for m in candidates:
        hs, hl, rs, rl, _stage = m
        if all(hyp_cover[i] == 1 for i in range(hs, hs + hl)) and all(
            ref_cover[j] == 1 for j in range(rs, rs + rl)
        ):
            fixed[rs] = m
        else:
            open_at[rs].append(m)
    if not any(open_at):
        return sorted(fixed.values())
    for lst in open_at:
        lst.sort(key=lambda m: (m[4], m[0]))
    return _search(len(ref), fixed, open_at, exact_stages, max(beam_size, 1))


def _search(
    ref_len: int,
    fixed: dict[int, Match],
    open_at: list[list[Match]],
    exact_stages: Collection[int],
    beam: int,
) -> list[Match]:
    # path = (key, strong, chunks, covered, n_matches, stage_cov, hyp_mask, ref_mask, last_h, last_r, trail)
    start = ((0,), 0, 0, 0, 0, (), 0, 0, -1, -1, None)
    heap = _JavaHeap()
    heap.offer(start)
    for pos in range(ref_len):
        survivors = [heap.poll() for _ in range(min(beam, len(heap.items)))]
        heap = _JavaHeap()
        bit = 1 << pos
        fix = fixed.get(pos)
        here = open_at[pos]
        for path in survivors:
            ref_mask = path[7]
            if ref_mask & bit:
                heap.offer(path)
                continue
            if fix is not None:
                heap.offer(_extend(path, fix, exact_stages))
                continue
            hyp_mask = path[6]
            for m in here:
                hs, hl, rs, rl, _stage = m
                if hyp_mask & (((1 << hl) - 1) << hs) or ref_mask & (((1 << rl) - 1) << rs):
                    continue
                heap.offer(_extend(path, m, exact_stages))
            heap.offer(path)
    best = heap.poll()
    out: list[Match] = []
    trail = best[10]
    while trail is not None:
        out.append(trail[0])
        trail = trail[1]
    out.sort()
    return out


def _extend(path: tuple, m: Match, exact_stages: Collection[int]) -> tuple:
    """Append ``m`` to ``path``; the key orders paths best first (see the module docstring)."""
    _key, strong, chunks, covered, n_matches, stage_cov, hyp_mask, ref_mask, last_h, last_r, trail = path
    hs, hl, rs, rl, stage = m
    if stage in exact_stages or hl > 1 or rl > 1:
        strong += 1
    if hs != last_h or rs != last_r:
        chunks += 1
    width = hl + rl
    covered += width
    n_matches += 1
    if len(stage_cov) <= stage:
        stage_cov = stage_cov + (0,) * (stage + 1 - len(stage_cov))
    stage_cov = stage_cov[:stage] + (stage_cov[stage] - width,) + stage_cov[stage + 1 :]
    return (
        (-strong, chunks, -covered, -n_matches) + stage_cov,
        strong,
        chunks,
        covered,
        n_matches,
        stage_cov,
        hyp_mask | (((1 << hl) - 1) << hs),
        ref_mask | (((1 << rl) - 1) << rs),
        hs + hl,
        rs + rl,
        (m, trail),
    )
