"""Segment-level correlation of metric scores with human judgments.

Three views, because they answer different questions:

* over all rows: Pearson r and Kendall's tau-b of metric and human scores
  (does the metric order any two outputs as people do?);
* within each source segment, averaged over segments: the same two
  coefficients computed among the outputs of one sentence (segments where
  either side is constant are left out), which removes the easy part of the
  task (long hard sentences score low for everyone);
* pairwise Kendall tau as WMT's DARR: over every pair of outputs of the same
  sentence whose human scores differ, (concordant - discordant) / pairs, a
  metric tie counting as discordant. It is the tuning objective of the
  Meteor papers (rank consistency) and is cheap to recompute, so the grid
  search uses it through :class:`PairwiseRanking`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson r; NaN when either side is constant or there are fewer than two values."""
    if len(x) < 2:
        return math.nan
    xc = x - x.mean()
    yc = y - y.mean()
    denom = math.sqrt(float(xc @ xc) * float(yc @ yc))
    return float(xc @ yc) / denom if denom > 0 else math.nan


def kendall(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b (ties on both sides accounted for); NaN when either side is constant."""
    if len(x) < 2:
        return math.nan
    from scipy.stats import kendalltau

    return float(kendalltau(x, y).statistic)


def within_groups(x: np.ndarray, y: np.ndarray, groups: np.ndarray) -> tuple[float, float, int]:
    """Mean Pearson r and mean Kendall tau-b over groups, and how many groups had both defined."""
    order = np.argsort(groups, kind="stable")
    g = groups[order]
    bounds = np.flatnonzero(np.diff(g)) + 1
    rs: list[float] = []
    taus: list[float] = []
    for rows in np.split(order, bounds):
        r = pearson(x[rows], y[rows])
        if math.isnan(r):
            continue
        rs.append(r)
        taus.append(kendall(x[rows], y[rows]))
    if not rs:
        return math.nan, math.nan, 0
    return float(np.mean(rs)), float(np.nanmean(taus)), len(rs)


class PairwiseRanking:
    """WMT DARR Kendall tau: the pairs of one sentence's outputs that people ranked apart.

    Built once per table (the pairs depend only on human scores and groups);
    :meth:`tau` then costs one comparison per pair, and takes a matrix of
    metric scores (one row per parameter setting) as readily as a vector.
    """

    def __init__(self, human: np.ndarray, groups: np.ndarray, min_difference: float = 0.0) -> None:
        better: list[np.ndarray] = []
        worse: list[np.ndarray] = []
        order = np.argsort(groups, kind="stable")
        bounds = np.flatnonzero(np.diff(groups[order])) + 1
        for rows in np.split(order, bounds):
            if len(rows) < 2:
                continue
            i, j = np.triu_indices(len(rows), 1)
            a, b = rows[i], rows[j]
            diff = human[a] - human[b]
            keep = np.abs(diff) > min_difference
            a, b, diff = a[keep], b[keep], diff[keep]
            better.append(np.where(diff > 0, a, b))
            worse.append(np.where(diff > 0, b, a))
        self.better = np.concatenate(better) if better else np.zeros(0, np.int64)
        self.worse = np.concatenate(worse) if worse else np.zeros(0, np.int64)

    def __len__(self) -> int:
        return len(self.better)

    def tau(self, scores: np.ndarray) -> np.ndarray | float:
        """(concordant - discordant) / pairs of ``scores`` (a vector, or rows of a matrix); ties count 0."""
        if not len(self.better):
            return math.nan
        diff = scores[..., self.better] - scores[..., self.worse]
        out = (np.sign(diff).sum(axis=-1)) / len(self.better)
        return float(out) if np.ndim(out) == 0 else out


@dataclass(frozen=True)
class Correlations:
    """Every figure ``tmtprime meteor correlate`` prints."""

    n: int
    pearson: float
    kendall: float
    within_pearson: float
    within_kendall: float
    groups: int
    """Source segments that entered the within-segment means."""
    pairwise_tau: float
    pairs: int

    def lines(self) -> list[str]:
        """The report, the last line being exactly ``pearson=X kendall=Y n=N`` (all rows)."""
        return [
            f"rows: {self.n}  source segments used within: {self.groups}  ranked pairs: {self.pairs}",
            f"within source segments (mean): pearson={self.within_pearson:.4f} kendall={self.within_kendall:.4f}",
            f"pairwise (WMT DARR) kendall={self.pairwise_tau:.4f}",
            f"pearson={self.pearson:.4f} kendall={self.kendall:.4f} n={self.n}",
        ]


def correlations(metric: np.ndarray, human: np.ndarray, groups: np.ndarray) -> Correlations:
    """All views of the agreement of ``metric`` with ``human`` (rows grouped by source segment ``groups``)."""
    metric = np.asarray(metric, np.float64)
    human = np.asarray(human, np.float64)
    w_r, w_tau, used = within_groups(metric, human, groups)
    ranking = PairwiseRanking(human, groups)
    return Correlations(
        n=len(metric),
        pearson=pearson(metric, human),
        kendall=kendall(metric, human),
        within_pearson=w_r,
        within_kendall=w_tau,
        groups=used,
        pairwise_tau=ranking.tau(metric),
        pairs=len(ranking),
    )
