"""Fast prediction of a fitted scaler + RBF SVM: libsvm's decision function as float32 BLAS products.

Prediction with libsvm's own loop was what kept 100,000-segment jobs from
fitting in minutes; the measurements behind the layout are in
docs/experiments/recommender.md ("Fast RBF decision").
"""

from __future__ import annotations

import numpy as np
from sklearn.pipeline import Pipeline


def rbf_decision(pipeline: Pipeline, X: np.ndarray, chunk: int = 256, n_jobs: int = 1) -> np.ndarray:
    """``pipeline.decision_function(X)`` (or ``predict`` for an SVR) of a scaler + RBF SVM.

    Computes sum_i alpha_i exp(-gamma |x - sv_i|^2) + b in float32, within
    1e-4 of libsvm on small models. The whole exponent comes out of one matrix
    product (rows extended by (1, |x|^2), support vectors by (-gamma |sv|^2,
    -gamma)), clipped at 0 so ``exp`` cannot overflow; chunks of a few hundred
    rows stay in cache and run on ``n_jobs`` threads with BLAS held to one
    thread each (OpenBLAS spinning for a busy second core cost 2-3x).
    """
    from threadpoolctl import threadpool_limits

    from tmtprime.parallel import run_batches, workers

    first, inverse = _distinct_rows(X)
    if len(first) < len(X):  # a job's repeated segments have equal rows: each distinct one is computed once
        return rbf_decision(pipeline, X[first], chunk, n_jobs)[inverse]
    scaler, svm = pipeline[0], pipeline[-1]
    gamma = np.float32(svm._gamma)
    sv = svm.support_vectors_.astype(np.float32)
    rows = np.empty((len(X), sv.shape[1] + 2), np.float32)  # the scaled rows, written in place: no float32 copy
    rows[:, :-2] = scaler.transform(X)
    rows[:, -2] = 1.0
    rows[:, -1] = np.einsum("ij,ij->i", rows[:, :-2], rows[:, :-2])
    vectors = np.empty((sv.shape[1] + 2, len(sv)), np.float32)
    vectors[:-2] = (2.0 * gamma) * sv.T
    vectors[-2] = -gamma * np.einsum("ij,ij->i", sv, sv)
    vectors[-1] = -gamma
    coef = svm.dual_coef_[0].astype(np.float32)

    def block(starts):
        k = np.empty((chunk, len(sv)), np.float32)
        out = []
        for start in starts:
            z = rows[start : start + chunk]
            part = k[: len(z)]
            np.matmul(z, vectors, out=part)
            np.minimum(part, 0.0, out=part)
            np.exp(part, out=part)
            out.append(part @ coef)
        return out

    starts = list(range(0, len(rows), chunk))
    threads = workers(n_jobs)
    with threadpool_limits(limits=1, user_api="blas"):
        parts = run_batches(block, starts, n_jobs=n_jobs, batch_size=max(1, -(-len(starts) // threads)), backend="threading")
    values = [v for part in parts for v in part]
    return (np.concatenate(values).astype(np.float64) if values else np.empty(0)) + float(svm.intercept_[0])


def _distinct_rows(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first row of each distinct value of ``X`` (in row order), and per row the position of its value there."""
    X = np.ascontiguousarray(X)
    if len(X) == 0 or X.ndim != 2:
        return np.arange(len(X)), np.arange(len(X))
    keys = X.view(np.dtype((np.void, X.dtype.itemsize * X.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return first[order], rank[inverse.ravel()]
