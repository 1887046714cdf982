"""Meteor-style statistics of one token sequence against another (exact matches).

Used for two kinds of features: agreement between candidates (outputs that
several independent systems agree on tend to be right) and the closeness of the
TM match's source to the new source. Only the exact-match stage of Meteor is
computed here, with a greedy alignment that prefers contiguous matches, because
these features are needed for every pair of candidates of every segment
(six pairs per segment with four candidates) and must stay cheap; the full
scorer lives in :mod:`tmtprime.meteor`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz.distance import Indel

# Meteor's default parameter form: Fmean = P R / (alpha P + (1 - alpha) R),
# penalty = gamma * frag ** beta (Lavie & Denkowski); values of the "rank" task.
ALPHA, BETA, GAMMA = 0.85, 0.20, 0.60

STAT_NAMES = ("p", "r", "frag", "score")


def stats_from_counts(matches: int, chunks: int, hyp_len: int, ref_len: int) -> tuple[float, float, float, float]:
    """(precision, recall, fragmentation, score) from an alignment's match and chunk counts."""
    if hyp_len == 0 or ref_len == 0:
        return (0.0, 0.0, 1.0, 0.0) if (hyp_len or ref_len) else (1.0, 1.0, 0.0, 1.0)
    if matches == 0:
        return 0.0, 0.0, 1.0, 0.0
    p, r = matches / hyp_len, matches / ref_len
    frag = chunks / matches
    fmean = p * r / (ALPHA * p + (1 - ALPHA) * r)
    return p, r, frag, fmean * (1 - GAMMA * frag**BETA)


def match_counts(hyp: Sequence[str], ref: Sequence[str]) -> tuple[int, int]:
    """(matches, chunks) of the exact alignment; the same in both directions, so
    a pair of candidates is aligned once for both of its statistics."""
    matches = chunks = 0
    for op in Indel.opcodes(hyp, ref):
        if op.tag == "equal":
            matches += op.src_end - op.src_start
            chunks += 1
    return matches, chunks


def overlap_stats(hyp: Sequence[str], ref: Sequence[str]) -> tuple[float, float, float, float]:
    """(precision, recall, fragmentation, score) of ``hyp`` against ``ref``."""
    return stats_from_counts(*match_counts(hyp, ref), len(hyp), len(ref))
