"""Is a job like the data a model was trained on? The model card's profile and the warnings drawn from it.

A model's confidence means something only on data like its training data.
The card keeps the language pair, whether a TM fed the features, the label,
and each feature's 1st, 50th and 99th percentile. A candidate is *far
outside* when at least :data:`FAR_SHARE` of its features lie outside the
training data's 1-99 % range; a job is unlike the training data when more
than :data:`WARN_SHARE` of its segments have such a candidate, when its
language pair differs, or when it has no TM where the model used one (the TM
features are then filled with training medians). Measured with the shipped
model: a news job (WMT12 QE test) has such a candidate in 100 % of its
segments, the bundled demo in 8.5 % (docs/experiments/effort.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tmtprime.recommend.grouping import grouped_input

FAR_SHARE = 0.15
WARN_SHARE = 0.25


def profile(X: np.ndarray, names: Sequence[str], *, source_lang: str, target_lang: str, has_tm: bool, label: str) -> dict[str, Any]:
    """What the training data looked like, for the model card (JSON-able)."""
    features: dict[str, list[float] | None] = {}
    for j, name in enumerate(names):
        column = X[:, j][np.isfinite(X[:, j])]
        features[name] = [float(v) for v in np.quantile(column, (0.01, 0.5, 0.99))] if len(column) else None
    return {"source_lang": source_lang, "target_lang": target_lang, "tm": has_tm, "label": label,
            "rows": int(len(X)), "features": features}


def _base(lang: str | None) -> str:
    return (lang or "").split("-")[0].split("_")[0].lower()


def far_outside(X: np.ndarray, names: Sequence[str], features: dict[str, Any]) -> np.ndarray:
    """Per row: is it far outside the training range (see the module docstring)?"""
    checked = [(j, features[n]) for j, n in enumerate(names) if features.get(n)]
    if not checked or not len(X):
        return np.zeros(len(X), dtype=bool)
    low = np.array([q[0] for _, q in checked])
    high = np.array([q[2] for _, q in checked])
    values = X[:, [j for j, _ in checked]]
    outside = (values < low) | (values > high)
    return outside.mean(axis=1) >= FAR_SHARE


def warnings(card: dict[str, Any], X: np.ndarray, names: Sequence[str], segments: np.ndarray, *,
             source_lang: str, target_lang: str, has_tm: bool, counts: np.ndarray | None = None) -> list[str]:
    """Why this job is unlike the model's training data (empty: it is like it).

    ``counts``: how many of the job's segments each segment of ``segments`` stands for (the rows of
    each distinct segment, and its number of repeats; default 1 each)."""
    data = card.get("data", {})
    prof = card.get("applicability", {})
    out = []
    trained = (prof.get("source_lang") or data.get("source_lang"), prof.get("target_lang") or data.get("target_lang"))
    if trained[0] and (_base(trained[0]), _base(trained[1])) != (_base(source_lang), _base(target_lang)):
        out.append(f"the model was trained on {trained[0]}->{trained[1]}, this job is {source_lang}->{target_lang}")
    used_tm = prof.get("tm", True) if prof else True
    if used_tm and not has_tm:
        out.append("the project has no TM but the model was trained with one: its TM features are filled with "
                   "training medians")
    features = prof.get("features")
    if features and len(segments):
        far = far_outside(X, names, features)
        unlike = np.zeros(int(segments.max()) + 1, dtype=bool)
        np.logical_or.at(unlike, segments, far)
        weight = np.ones(len(unlike), dtype=np.int64) if counts is None else counts
        n_seg, n_unlike = int(weight.sum()), int(weight[unlike].sum())
        share = n_unlike / n_seg
        if share > WARN_SHARE:
            out.append(f"{100 * share:.0f} % of the segments ({n_unlike} of {n_seg}) have a candidate far "
                       "outside the training features")
    return out


class UsedFeatures:
    """The feature columns a model reads: those not absent from every training row (no TM: its columns go).

    At prediction a value still missing (a job without the TM the model was trained
    with, or a QE column whose corpus the project no longer holds) is filled with
    the training median of the card's profile.
    """

    def __init__(self, names: Sequence[str], all_names: Sequence[str], medians: dict[str, float] | None = None) -> None:
        self.names = list(names)
        position = {n: i for i, n in enumerate(all_names)}
        self._columns = [position.get(n, -1) for n in self.names]
        self._fill = np.array([(medians or {}).get(n, 0.0) for n in self.names], dtype=np.float64)

    def matrix(self, X: np.ndarray) -> np.ndarray:
        columns = np.array(self._columns, dtype=np.int64)
        F = X[:, columns].astype(np.float64)  # a copy
        F[:, columns < 0] = np.nan
        missing = np.isnan(F)
        if missing.any():
            F = np.where(missing, self._fill, F)
        return F

    def model_input(self, rows: Any) -> np.ndarray:
        """X for the model: segment number, TM flag, the used features of ``rows`` (a ``CandidateRows``)."""
        return grouped_input(self.matrix(rows.X), rows.segments, rows.kinds)


def used_features(X: np.ndarray, names: Sequence[str]) -> UsedFeatures:
    """The columns of ``X`` present in some row, with their medians to fill gaps."""
    present = ~np.all(np.isnan(X), axis=0) if len(X) else np.ones(len(names), dtype=bool)
    kept = [n for n, p in zip(names, present) if p]
    medians = {n: float(np.nanmedian(X[:, j])) for j, n in enumerate(names) if present[j] and len(X)}
    return UsedFeatures(kept, names, medians)


def card_features(card: dict[str, Any], names: Sequence[str]) -> UsedFeatures:
    """The columns a stored model reads (cards before MT-only training: all those it was trained on, so columns
    added since are not read), medians from its profile."""
    used = card.get("features", {}).get("used") or card.get("features", {}).get("names") or list(names)
    prof = card.get("applicability", {}).get("features", {})
    return UsedFeatures(used, names, {n: q[1] for n, q in prof.items() if q})
