"""Word alignment and phrase-pair extraction from a bitext, for building paraphrase resources.

The pivot paraphrase tables of Meteor-NEXT (seed 000) and the bitext-derived
paraphrases of seed 002 both start from word-aligned parallel text. Built in:
IBM Model 1 in both directions (:class:`tmtprime.align.ibm1.IBMModel1`),
each target word linked to its most probable source word with a small
preference for the diagonal (IBM-1 alone cannot tell two occurrences of a
word apart), the two directions symmetrized with grow-diag-final-and, and
phrase pairs consistent with the alignment extracted as in Koehn et al.
(2003). Alignments from any external aligner (eflomal, fast_align, GIZA++)
plug in as Pharaoh ``i-j`` lines (:func:`read_pharaoh`), so no aligner is
imported here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from tmtprime.align.ibm1 import IBMModel1
from tmtprime.errors import InputError
from tmtprime.progress import Reporter

Alignment = list[tuple[int, int]]
"""Links (source position, target position), 0-based."""

MAX_ALIGN_LEN = 60
"""Longer sentence pairs (whole paragraphs) are not aligned: slow, and little phrase signal."""
_DIAGONAL = 2.0  # strength of the diagonal preference: t(e|f) * exp(-_DIAGONAL * |i/I - j/J|)
_NULL_PRIOR = 0.08  # prior of a word being unaligned (fast_align's p0): NULL occurs in every sentence pair,
# so its t(e|NULL) alone would outbid the real translation of frequent words
_BATCH = 4000


def _best_links(probs: np.ndarray) -> list[tuple[int, int]]:
    """(source, target) links: each target word to its best source word or NULL (by t times the priors), NULL dropped."""
    n_tgt, n_cols = probs.shape
    if n_tgt == 0 or n_cols <= 1:
        return []
    j = (np.arange(n_tgt) + 0.5) / n_tgt
    i = (np.arange(n_cols - 1) + 0.5) / (n_cols - 1)
    scores = probs.copy()
    scores[:, 0] *= _NULL_PRIOR
    scores[:, 1:] *= (1 - _NULL_PRIOR) * np.exp(-_DIAGONAL * np.abs(j[:, None] - i[None, :]))
    best = scores.argmax(axis=1)
    return [(int(b) - 1, t) for t, b in enumerate(best.tolist()) if b > 0]


def symmetrize(src_to_tgt: Iterable[tuple[int, int]], tgt_to_src: Iterable[tuple[int, int]]) -> Alignment:
    """grow-diag-final-and of two directional alignments, both given as (source, target) links."""
    a, b = set(src_to_tgt), set(tgt_to_src)
    links = a & b
    union = a | b
    src_done = {i for i, _ in links}
    tgt_done = {j for _, j in links}
    neighbours = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
    grew = True
    while grew:
        grew = False
        for i, j in sorted(links):
            for di, dj in neighbours:
                ni, nj = i + di, j + dj
                if (ni, nj) in union and (ni, nj) not in links and (ni not in src_done or nj not in tgt_done):
                    links.add((ni, nj))
                    src_done.add(ni)
                    tgt_done.add(nj)
                    grew = True
    for i, j in sorted(union - links):  # final-and: a link whose both words are still unaligned
        if i not in src_done and j not in tgt_done:
            links.add((i, j))
            src_done.add(i)
            tgt_done.add(j)
    return sorted(links)


def align(
    sources: Sequence[Sequence[str]], targets: Sequence[Sequence[str]], *, iterations: int = 5,
    reporter: Reporter | None = None,
) -> list[Alignment]:
    """Symmetrized word alignments of tokenized sentence pairs (built-in IBM Model 1 both ways).

    Pairs with an empty side or longer than :data:`MAX_ALIGN_LEN` words get no links.
    """
    reporter = reporter or Reporter()
    if len(sources) != len(targets):
        raise InputError(f"{len(sources)} source sentences but {len(targets)} target sentences")
    usable = [k for k, (s, t) in enumerate(zip(sources, targets)) if 0 < len(s) <= MAX_ALIGN_LEN and 0 < len(t) <= MAX_ALIGN_LEN]
    out: list[Alignment] = [[] for _ in sources]
    if not usable:
        return out
    src = [sources[k] for k in usable]
    tgt = [targets[k] for k in usable]
    reporter.status("training IBM Model 1 (both directions)")
    forward = IBMModel1(iterations=iterations).fit(src, tgt)
    reporter.check()
    backward = IBMModel1(iterations=iterations).fit(tgt, src)
    reporter.status("aligning words")
    for lo in range(0, len(usable), _BATCH):
        reporter.check()
        reporter.progress(lo, len(usable))
        s, t = src[lo : lo + _BATCH], tgt[lo : lo + _BATCH]
        for k, fwd, bwd in zip(usable[lo : lo + _BATCH], forward.link_probabilities(s, t), backward.link_probabilities(t, s)):
            out[k] = symmetrize(_best_links(fwd), [(i, j) for j, i in _best_links(bwd)])
    reporter.progress(len(usable), len(usable))
    reporter.finish_phase()
    return out


def read_pharaoh(lines: Iterable[str], *, name: str = "alignment file") -> list[Alignment]:
    """Alignments in Pharaoh format (``0-0 1-2 ...`` per line, source-target), as written by fast_align or eflomal."""
    out = []
    for number, line in enumerate(lines, start=1):
        links = []
        for item in line.split():
            i, dash, j = item.partition("-")
            if not dash or not i.isdigit() or not j.isdigit():
                raise InputError(f"{name}, line {number}: {item!r} is not a link i-j (Pharaoh format: '0-0 1-2 ...')")
            links.append((int(i), int(j)))
        out.append(sorted(links))
    return out


def extract_phrases(
    src: Sequence[str], tgt: Sequence[str], links: Alignment, max_len: int = 4, *, extend_unaligned: bool = True
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Phrase pairs consistent with the word alignment (Koehn et al. 2003), at most ``max_len`` words a side.

    A pair needs at least one link inside and none leaving it; with
    ``extend_unaligned`` unaligned words at the source edges extend it (the
    word accumulation that seed 003's filter later removes from paraphrases).
    """
    if not links:
        return []
    if any(not (0 <= i < len(src) and 0 <= j < len(tgt)) for i, j in links):
        raise InputError(f"an alignment link points past the end of a sentence pair ({len(src)} x {len(tgt)} words)")
    src_of_tgt: list[list[int]] = [[] for _ in tgt]
    tgt_of_src: list[list[int]] = [[] for _ in src]
    for i, j in links:
        src_of_tgt[j].append(i)
        tgt_of_src[i].append(j)
    pairs = []
    n_src = len(src)
    for t_start in range(len(tgt)):
        lo, hi = n_src, -1
        for t_end in range(t_start, min(t_start + max_len, len(tgt))):
            for i in src_of_tgt[t_end]:
                lo, hi = min(lo, i), max(hi, i)
            if hi < 0 or hi - lo >= max_len:
                continue
            if any(not t_start <= j <= t_end for i in range(lo, hi + 1) for j in tgt_of_src[i]):
                continue
            if not extend_unaligned:
                pairs.append((tuple(src[lo : hi + 1]), tuple(tgt[t_start : t_end + 1])))
                continue
            s_lo = lo
            while s_lo >= 0 and (s_lo == lo or not tgt_of_src[s_lo]):
                s_hi = hi
                while s_hi < n_src and (s_hi == hi or not tgt_of_src[s_hi]) and s_hi - s_lo < max_len:
                    pairs.append((tuple(src[s_lo : s_hi + 1]), tuple(tgt[t_start : t_end + 1])))
                    s_hi += 1
                s_lo -= 1
    return pairs


@dataclass
class PhraseCounts:
    """How often each (source phrase, target phrase) pair was extracted, and the corpus it came from."""

    pairs: Counter
    sentence_pairs: int
    source_words: Counter
    target_words: Counter


def count_phrases(
    sources: Sequence[Sequence[str]], targets: Sequence[Sequence[str]], alignments: Sequence[Alignment], *,
    max_len: int = 4, reporter: Reporter | None = None,
) -> PhraseCounts:
    """Extract and count the phrase pairs of a word-aligned tokenized bitext (and its word frequencies)."""
    if not len(sources) == len(targets) == len(alignments):
        raise InputError(f"{len(sources)} source sentences, {len(targets)} target sentences, {len(alignments)} alignments")
    reporter = reporter or Reporter()
    counts: Counter = Counter()
    for s, t, a in zip(reporter.track(sources, desc="extracting phrase pairs", unit="pair"), targets, alignments):
        counts.update(extract_phrases(s, t, a, max_len))
    src_words: Counter = Counter()
    tgt_words: Counter = Counter()
    for s in sources:
        src_words.update(s)
    for t in targets:
        tgt_words.update(t)
    return PhraseCounts(counts, len(sources), src_words, tgt_words)
