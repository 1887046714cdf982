"""Word edit rates between the strings of a segment: a reference-free stand-in for TER.

The label the recommender learns is TER: word edits that turn a candidate
into the reference, per reference word. Without a reference the closest things
we have are the other candidates and the TM match. A candidate that the other
translations could be edited into with few word edits sits near their
consensus, which is where the reference usually is; one that needs many edits
to reach any of them is an outlier. Overlap statistics (:mod:`overlap`) count
shared words; an edit rate also counts order and length differences, which is
what TER charges for. (The TM source's own edits to the new source are in
:mod:`~tmtprime.features.tmdiff`.)
"""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz.distance import Levenshtein

EDIT_CANDIDATE_NAMES = (
    "cand_edit_rate_to_tm",
    "cand_edit_rate_to_others_min",
    "cand_edit_rate_to_others_mean",
    "cand_edit_rate_to_mt_min",
)
NO_MATCH_RATE = 1.0
"""The rate when there is nothing to compare with: every word would have to change."""


def candidate_edit_rates(tokens: Sequence[Sequence[str]], is_mt: Sequence[bool], tm: int | None) -> list[list[float]]:
    """:data:`EDIT_CANDIDATE_NAMES` of every candidate of one segment.

    ``tokens``: each candidate's tokens; ``is_mt``: whether it is an MT output;
    ``tm``: index of the segment's best TM match (None without one). A rate is
    the word-level Levenshtein distance (TER without shifts) from the candidate
    to the other string per word of the other string, which plays the reference.
    """
    n = len(tokens)
    rate = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):  # the distance is symmetric; only the normalising length differs
            d = Levenshtein.distance(tokens[i], tokens[j])
            rate[i][j] = d / max(len(tokens[j]), 1)
            rate[j][i] = d / max(len(tokens[i]), 1)
    out = []
    for i in range(n):
        others = [rate[i][j] for j in range(n) if j != i]
        mt = [rate[i][j] for j in range(n) if j != i and is_mt[j]]
        out.append(
            [
                (0.0 if i == tm else rate[i][tm]) if tm is not None else NO_MATCH_RATE,
                min(others, default=NO_MATCH_RATE),
                sum(others) / len(others) if others else NO_MATCH_RATE,
                min(mt, default=NO_MATCH_RATE),
            ]
        )
    return out
