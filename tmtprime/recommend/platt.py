"""Platt scaling: decision values to probabilities with a fitted sigmoid.

Our own small type rather than scikit-learn's private calibrator, so a saved
model loads with skops trusting only TMTprime's types.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator


class PlattSigmoid(BaseEstimator):
    """P(best | decision value f) = 1 / (1 + exp(A f + B)) — Platt scaling as in libsvm.

    ``fit`` is the algorithm of Lin, Lin & Weng (2007, "A note on Platt's
    probabilistic outputs for support vector machines"): regularised targets
    (N+ + 1)/(N+ + 2) and 1/(N- + 2), Newton's method with backtracking line
    search on a numerically stable log-likelihood. Fitted on cross-validated
    decision values (what ``CalibratedClassifierCV(method="sigmoid",
    ensemble=False)`` does), so the out-of-fold probabilities exist for the
    model card and for choosing a precision threshold.
    """

    def __init__(self, max_iter: int = 100) -> None:
        self.max_iter = max_iter

    def fit(self, decision, y) -> PlattSigmoid:
        f = np.asarray(decision, dtype=np.float64)
        y = np.asarray(y)
        n_pos = float(np.sum(y == 1))
        n_neg = float(len(y) - n_pos)
        t = np.where(y == 1, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
        a, b = 0.0, float(np.log((n_neg + 1.0) / (n_pos + 1.0)))

        def objective(a_: float, b_: float) -> float:
            z = f * a_ + b_
            return float(np.sum(np.where(z >= 0, t * z + np.log1p(np.exp(-np.abs(z))), (t - 1) * z + np.log1p(np.exp(-np.abs(z))))))

        value = objective(a, b)
        for _ in range(self.max_iter):
            z = f * a + b
            p = np.where(z >= 0, np.exp(-np.abs(z)) / (1 + np.exp(-np.abs(z))), 1 / (1 + np.exp(-np.abs(z))))
            q = 1 - p
            d2 = p * q
            h11, h22, h21 = float(np.sum(f * f * d2)) + 1e-12, float(np.sum(d2)) + 1e-12, float(np.sum(f * d2))
            d1 = t - p
            g1, g2 = float(np.sum(f * d1)), float(np.sum(d1))
            if abs(g1) < 1e-5 and abs(g2) < 1e-5:
                break
            det = h11 * h22 - h21 * h21
            da, db = -(h22 * g1 - h21 * g2) / det, -(-h21 * g1 + h11 * g2) / det
            gd = g1 * da + g2 * db
            step = 1.0
            while step >= 1e-10:
                new = objective(a + step * da, b + step * db)
                if new < value + 1e-4 * step * gd:
                    a, b, value = a + step * da, b + step * db, new
                    break
                step /= 2.0
            else:
                break  # line search failed: keep the best point found
        self.a_, self.b_ = a, b
        return self

    def predict(self, decision) -> np.ndarray:
        z = np.clip(self.a_ * np.asarray(decision, dtype=np.float64) + self.b_, -500, 500)
        return 1.0 / (1.0 + np.exp(z))


def logit(p: np.ndarray) -> np.ndarray:
    """log(p / (1 - p)), ``p`` clipped away from 0 and 1."""
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-9, 1 - 1e-9)
    return np.log(p / (1 - p))
