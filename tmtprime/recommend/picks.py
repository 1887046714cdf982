"""The recommender's outcome over row arrays: which row each segment gets, and the numbers behind it."""

from __future__ import annotations

import numpy as np


def first_per_segment(seg: np.ndarray, key: np.ndarray, tie: np.ndarray) -> np.ndarray:
    """Row of the smallest ``key`` in each segment (ties: smaller ``tie``, then earlier row),
    segments in increasing number."""
    order = np.lexsort((np.arange(len(seg)), tie, key, seg))
    first = np.ones(len(order), dtype=bool)
    first[1:] = seg[order][1:] != seg[order][:-1]
    return order[first]


def tm_margin(prob: np.ndarray, ter: np.ndarray, seg: np.ndarray, is_tm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per segment: the row of its TM match (the most probable TM candidate; -1 without one) and the
    predicted TER of that match minus the lowest predicted TER of an MT output (NaN unless both exist)."""
    n_seg = int(seg.max()) + 1 if len(seg) else 0
    tm_row = np.full(n_seg, -1)
    tm_rows = np.nonzero(is_tm)[0]
    if len(tm_rows):
        best = tm_rows[first_per_segment(seg[tm_rows], -np.round(prob[tm_rows], 12), np.zeros(len(tm_rows)))]
        tm_row[seg[best]] = best
    mt_low = np.full(n_seg, np.inf)
    np.minimum.at(mt_low, seg[~is_tm], ter[~is_tm])
    margin = np.full(n_seg, np.nan)
    both = (tm_row >= 0) & np.isfinite(mt_low)
    margin[both] = ter[tm_row[both]] - mt_low[both]
    return tm_row, margin


class Picks:
    """The per-segment outcome of :meth:`TMTprimeRecommender.recommend`.

    ``rows``: row index of the pick of each segment (segments in increasing
    number); ``probability``: P(best) of every row; ``predicted_ter`` of every
    row; ``segments``: segment number of every row; ``pick_probability``:
    P(the pick is best) of each segment, calibrated on picks (the model sets
    it; by default the pick's row probability); ``mt_probability``: P(an MT
    output beats the TM match) of each segment (NaN without both kinds).
    The model's output over row arrays, before it is saved: the recommend use
    case stores it (``NewRecommendation``) and a segment's pick is read back as
    the domain's :class:`tmtprime.formats.model.Pick`.
    """

    def __init__(self, rows: np.ndarray, probability: np.ndarray, predicted_ter: np.ndarray, segments: np.ndarray) -> None:
        self.rows = rows
        self.probability = probability
        self.predicted_ter = predicted_ter
        self.segments = segments
        self.pick_probability = probability[rows]
        self.mt_probability = np.full(len(rows), np.nan)

    @classmethod
    def from_scores(
        cls,
        prob: np.ndarray,
        ter: np.ndarray,
        seg: np.ndarray,
        is_tm: np.ndarray | None,
        mt_threshold: float | None = None,
        mt_probability: np.ndarray | None = None,
    ) -> Picks:
        """Picks from row scores (``is_tm``: the TM mask; None: all MT); ``mt_probability`` (per
        segment) is what ``mt_threshold`` is compared with (default: 1 - P(best) of the TM match)."""
        is_tm = np.zeros(len(prob), dtype=bool) if is_tm is None else np.asarray(is_tm, dtype=bool)
        # lowest predicted TER; then higher P(best); then the TM match; then row order
        picks = first_per_segment(seg, np.round(ter, 9) - np.round(prob, 12) * 1e-6, ~is_tm)
        tm_row, margin = tm_margin(prob, ter, seg, is_tm)
        if mt_probability is None:
            mt_probability = np.where(np.isnan(margin), np.nan, 1.0 - prob[np.maximum(tm_row, 0)])
        if mt_threshold is not None and is_tm.any():
            fallback = tm_row[seg[picks]]
            unsure = (~is_tm[picks]) & (fallback >= 0)
            unsure[unsure] = mt_probability[seg[picks[unsure]]] < mt_threshold
            picks = np.where(unsure, fallback, picks)
        rec = cls(picks, prob, ter, seg)
        rec.mt_probability = mt_probability[seg[picks]]
        return rec

    @property
    def pick_ter(self) -> np.ndarray:
        return self.predicted_ter[self.rows]
