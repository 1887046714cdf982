"""How well a confidence or a predicted effort tracks real post-editing effort.

The measures of the WMT 2012 quality-estimation task (Callison-Burch et al.
2012): MAE and RMSE of predicted scores, Spearman's rank correlation, and
DeltaAvg — how much better than average the segments ranked best are, averaged
over every split of the ranking into n quantiles, n = 2 .. N/2:

    DeltaAvg_n = 1/(n-1) * sum_{k=1}^{n-1} ( mean V(first k quantiles) - mean V(all) )
    DeltaAvg   = mean over n of DeltaAvg_n

with V the true quality (higher = better, e.g. WMT12's 1-5 effort score) and the
ranking by predicted quality, best first. Plus Pearson and Spearman of the
confidence with each effort measure a project holds (``tmtprime evaluate``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import pearsonr, spearmanr


def _finite(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    arrays = tuple(np.asarray(a, dtype=np.float64) for a in arrays)
    keep = np.logical_and.reduce([np.isfinite(a) for a in arrays])
    return tuple(a[keep] for a in arrays)


def pearson(a: np.ndarray, b: np.ndarray) -> float:
    a, b = _finite(a, b)
    if len(a) < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return float("nan")
    return float(pearsonr(a, b)[0])


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    a, b = _finite(a, b)
    if len(a) < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return float("nan")
    return float(spearmanr(a, b)[0])


def delta_avg(predicted_quality: np.ndarray, true_quality: np.ndarray) -> float:
    """WMT12's DeltaAvg of a ranking by ``predicted_quality`` (higher = better) against ``true_quality``."""
    predicted_quality, true_quality = _finite(predicted_quality, true_quality)
    n_items = len(true_quality)
    if n_items < 4:
        return float("nan")
    ranked = true_quality[np.argsort(-predicted_quality, kind="stable")]
    head_sum = np.concatenate(([0.0], np.cumsum(ranked)))
    overall = ranked.mean()
    per_n = []
    for n in range(2, n_items // 2 + 1):
        sizes = np.array([len(part) for part in np.array_split(np.arange(n_items), n)])
        ends = np.cumsum(sizes)[:-1]  # heads of 1 .. n-1 quantiles
        per_n.append(float(np.mean(head_sum[ends] / ends - overall)))
    return float(np.mean(per_n))


@dataclass
class EffortFit:
    """MAE, RMSE, Spearman, Pearson and DeltaAvg of predicted against true scores (same orientation)."""

    n: int
    mae: float
    rmse: float
    pearson: float
    spearman: float
    delta_avg: float

    @classmethod
    def of(cls, predicted: np.ndarray, true: np.ndarray, *, higher_is_better: bool) -> EffortFit:
        p, t = _finite(predicted, true)
        sign = 1.0 if higher_is_better else -1.0
        return cls(
            n=len(t),
            mae=float(np.mean(np.abs(p - t))) if len(t) else float("nan"),
            rmse=float(np.sqrt(np.mean((p - t) ** 2))) if len(t) else float("nan"),
            pearson=pearson(p, t),
            spearman=spearman(p, t),
            delta_avg=delta_avg(sign * p, sign * t),
        )

    def render(self) -> str:
        return (f"MAE {self.mae:.3f}, RMSE {self.rmse:.3f}, Pearson {self.pearson:+.3f}, Spearman {self.spearman:+.3f}, "
                f"DeltaAvg {self.delta_avg:.3f} (n = {self.n})")
