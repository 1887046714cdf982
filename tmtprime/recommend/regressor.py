"""The effort regressor: predicts a candidate's real post-editing effort (HTER, time per word, an effort score).

Used where the "is the best" classifier cannot learn (one candidate per
segment, as in MT-only quality estimation) or where the label is not TER
(time, effort scores). An RBF SVR on the features, C, gamma and epsilon
chosen by grid search cross-validated by document; the pick is the candidate
with the lowest predicted effort. Features the project cannot compute (no TM)
never reach it: :class:`~tmtprime.recommend.applicability.UsedFeatures` drops
or fills them.

``confidence`` (higher = less effort) is the share of training candidates whose
label shows more effort than the prediction: monotone in the prediction,
in [0, 1], the same meaning for every label. X carries each row's segment and
kind as for the classifier (:mod:`~tmtprime.recommend.grouping`).

With ``linear_weight`` > 0 the prediction averages the SVR with a ridge
regression on the same scaled features (penalty by leave-one-out within the
training rows): on WMT12 QE effort scores (149 mostly noisy QE columns, 1,832
rows) the linear model ranks better than the SVR and the average best of the
two; on MLQE-PE HTER it ranked worse, so the training use case gives it to the
``effort`` label only (docs/experiments/effort.md, session 3). Models saved
before it predict with the SVR alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.model_selection import GridSearchCV, GroupKFold, cross_val_predict
from sklearn.pipeline import Pipeline
from sklearn.linear_model import RidgeCV
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR
from sklearn.utils.validation import check_is_fitted, validate_data

from tmtprime.errors import ModelInputError
from tmtprime.progress import Reporter
from tmtprime.recommend.grouping import segment_sample, split_grouped
from tmtprime.recommend.kernel import rbf_decision
from tmtprime.recommend.picks import Picks

QUANTILES = 101
RIDGE_ALPHAS = tuple(float(a) for a in np.logspace(-1, 4, 21))
"""Ridge penalties the leave-one-out choice reads (features standardised)."""


class EffortRegressor(RegressorMixin, BaseEstimator):
    """RBF SVR of a candidate's effort label (higher = more effort), with a label-free confidence.

    ``fit(X, y, groups=...)``: ``y`` the label of each row (finite); ``groups`` what
    cross-validation keeps together (documents; default: segments). ``predict(X)``
    gives predicted effort; :meth:`recommend` the per-segment picks. ``epsilon_grid``
    is in units of the label's standard deviation, so one grid serves every label.
    ``linear_weight`` is the ridge regression's share of the prediction (0: the SVR alone).
    """

    def __init__(
        self,
        *,
        C_grid: Sequence[float] = (1.0, 10.0),
        gamma_grid: Sequence[float] = (0.5, 1.0),
        epsilon_grid: Sequence[float] = (0.1, 0.3),
        cv: int = 3,
        grid_max_segments: int = 1500,
        linear_weight: float = 0.0,
        n_jobs: int = 1,
        random_state: int = 0,
        reporter: Reporter | None = None,
    ) -> None:
        self.C_grid = C_grid
        self.gamma_grid = gamma_grid
        self.epsilon_grid = epsilon_grid
        self.cv = cv
        self.grid_max_segments = grid_max_segments
        self.linear_weight = linear_weight
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.reporter = reporter

    def __getstate__(self) -> dict[str, Any]:
        return {**super().__getstate__(), "reporter": None}  # a reporter belongs to one run

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__({"linear_weight": 0.0, **state})  # saved before the ridge joined: the SVR alone

    def fit(self, X, y, *, groups=None) -> EffortRegressor:
        if y is None:
            raise ModelInputError("fit requires y: the effort label of every candidate row")
        seg, _is_tm, F = self._check_input(X, reset=True, min_rows=4)
        y = np.asarray(y, dtype=np.float64)
        if y.shape != (len(seg),) or not np.all(np.isfinite(y)):
            raise ModelInputError("y must give one finite effort label per candidate row")
        groups = seg if groups is None else np.asarray(groups)
        if len(np.unique(groups)) < 2:
            groups = seg
        if len(np.unique(groups)) < 2:
            raise ModelInputError("training needs at least two segments")
        report = self.reporter or Reporter()
        n_used = F.shape[1]
        scale = float(np.std(y)) or 1.0
        grid = {
            "svr__C": list(self.C_grid),
            "svr__gamma": [g / max(n_used, 1) for g in self.gamma_grid],
            "svr__epsilon": [e * scale for e in self.epsilon_grid],
        }
        rows = segment_sample(seg, self.grid_max_segments, self.random_state)
        splits = list(GroupKFold(n_splits=min(self.cv, len(np.unique(groups[rows])))).split(rows, groups=groups[rows]))
        report.check()
        report.status(f"effort regressor: grid search, {int(np.prod([len(v) for v in grid.values()]))} settings x {len(splits)} folds")
        search = GridSearchCV(self._pipeline(), grid, scoring="neg_mean_absolute_error", cv=splits, n_jobs=self.n_jobs)
        search.fit(F[rows], y[rows])
        self.params_ = search.best_params_
        report.check()
        report.status("effort regressor: out-of-fold predictions")
        folds = GroupKFold(n_splits=min(self.cv, len(np.unique(groups))))
        oof = [cross_val_predict(self._pipeline().set_params(**self.params_), F, y, groups=groups, cv=folds, n_jobs=self.n_jobs)]
        if self.linear_weight > 0:
            oof.append(cross_val_predict(self._linear(), F, y, groups=groups, cv=folds, n_jobs=self.n_jobs))
        self.oof_predicted_ = self._blend(*oof)
        report.check()
        report.status("effort regressor: final fit on all rows")
        self.model_ = self._pipeline().set_params(**self.params_).fit(F, y)
        self.linear_ = self._linear().fit(F, y) if self.linear_weight > 0 else None
        self.label_quantiles_ = np.quantile(y, np.linspace(0.0, 1.0, QUANTILES))
        self.cv_scores_ = {"mae": -float(search.best_score_)}
        return self

    @staticmethod
    def _pipeline() -> Pipeline:
        return Pipeline([("scale", StandardScaler()), ("svr", SVR(kernel="rbf"))])

    @staticmethod
    def _linear() -> Pipeline:
        return Pipeline([("scale", StandardScaler()), ("ridge", RidgeCV(alphas=RIDGE_ALPHAS))])

    def _blend(self, svr: np.ndarray, linear: np.ndarray | None = None) -> np.ndarray:
        return svr if linear is None else (1.0 - self.linear_weight) * svr + self.linear_weight * linear

    def _predict_features(self, F: np.ndarray) -> np.ndarray:
        if not len(F):
            return np.empty(0)
        svr = rbf_decision(self.model_, F, n_jobs=self.n_jobs)
        linear = getattr(self, "linear_", None)
        return self._blend(svr, None if linear is None else linear.predict(F))

    def _check_input(self, X, *, reset: bool, min_rows: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not reset:
            check_is_fitted(self, "model_")
        try:
            X = validate_data(self, X, reset=reset, dtype=np.float64, ensure_min_samples=min_rows)
        except ValueError as error:
            raise ModelInputError(
                f"{error} (rows are the segment number, the TM flag, then the features of the set the model was trained on)"
            ) from None
        return split_grouped(X)

    def predict(self, X) -> np.ndarray:
        """Predicted effort of each candidate row (the label's internal unit: higher = more effort)."""
        _seg, _is_tm, F = self._check_input(X, reset=False)
        return self._predict_features(F)

    def confidence(self, predicted: np.ndarray) -> np.ndarray:
        """Share of training candidates with more effort than ``predicted``: higher = less effort, in [0, 1]."""
        q = self.label_quantiles_
        return 1.0 - np.interp(np.asarray(predicted, dtype=np.float64), q, np.linspace(0.0, 1.0, len(q)))

    def recommend(self, X, *, mt_threshold: float | None = None) -> Picks:
        """Per segment the candidate with the lowest predicted effort; ``probability`` holds each row's confidence.

        ``mt_threshold`` keeps the segment's TM match unless 1 - its confidence reaches it.
        """
        seg, is_tm, F = self._check_input(X, reset=False)
        predicted = self._predict_features(F)
        conf = self.confidence(predicted)
        return Picks.from_scores(conf, predicted, seg, is_tm, mt_threshold, None)
