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

The prediction is a weighted average of up to three members fitted on the
same rows: the SVR (weight 1 - ``linear_weight`` - ``trees_weight``; not fitted
at weight 0), a linear model on the standardised features (``linear_model``:
a ridge, penalty by leave-one-out, or an elastic net, penalty and L1 share by
5-fold CV within the training rows, not grouped, like the ridge's leave-one-out)
and an extremely randomised forest. On
WMT12 QE effort scores (about 150 mostly noisy QE columns, 1,832 rows) the
sparse linear model ranks better than the SVR and the forest adds the
non-linear part the SVR caught less well; on MLQE-PE HTER the ridge ranked
worse, so the training use case gives the blend to the ``effort`` label only
(docs/experiments/effort.md, sessions 3 and 4). Models saved before a member
existed predict as they did (``__setstate__`` fills the missing parameters).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.model_selection import GridSearchCV, GroupKFold, cross_val_predict
from sklearn.pipeline import Pipeline
from sklearn.ensemble import ExtraTreesRegressor
from sklearn.linear_model import ElasticNetCV, RidgeCV
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
LINEAR_MODELS = ("ridge", "enet")
ENET_L1_RATIOS = (0.1, 0.5, 0.9)
"""Elastic-net L1 shares tried, each on a path of 30 penalties down to 1 % of the largest useful one."""
FOREST = {"n_estimators": 200, "min_samples_leaf": 10, "max_features": 0.3}
"""The forest member: leaves of 10 rows keep a 1,832-row model near 7 MB; 30 % of the columns per split."""


class EffortRegressor(RegressorMixin, BaseEstimator):
    """RBF SVR of a candidate's effort label (higher = more effort), with a label-free confidence.

    ``fit(X, y, groups=...)``: ``y`` the label of each row (finite); ``groups`` what
    cross-validation keeps together (documents; default: segments). ``predict(X)``
    gives predicted effort; :meth:`recommend` the per-segment picks. ``epsilon_grid``
    is in units of the label's standard deviation, so one grid serves every label.
    ``linear_weight`` and ``trees_weight`` are the linear model's and the forest's shares of the
    prediction, the SVR has the rest (0, 0: the SVR alone).
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
        linear_model: str = "ridge",
        trees_weight: float = 0.0,
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
        self.linear_model = linear_model
        self.trees_weight = trees_weight
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.reporter = reporter

    def __getstate__(self) -> dict[str, Any]:
        return {**super().__getstate__(), "reporter": None}  # a reporter belongs to one run

    def __setstate__(self, state: dict[str, Any]) -> None:
        # saved before the ridge joined: the SVR alone; before the elastic net and the forest: the ridge, no forest
        fitted = {"linear_": None, "trees_": None} if "model_" in state else {}
        super().__setstate__({"linear_weight": 0.0, "linear_model": "ridge", "trees_weight": 0.0, **fitted, **state})

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
        if self.linear_model not in LINEAR_MODELS:
            raise ModelInputError(f"linear_model must be one of {', '.join(LINEAR_MODELS)}, not {self.linear_model!r}")
        if min(self.linear_weight, self.trees_weight, self._svr_weight()) < 0:
            raise ModelInputError("linear_weight and trees_weight must be >= 0 and sum to at most 1")
        report = self.reporter or Reporter()
        folds = GroupKFold(n_splits=min(self.cv, len(np.unique(groups))))
        oof = {}
        self.params_, self.cv_scores_, self.model_ = {}, {}, None
        if self._svr_weight() > 0:
            search = self._grid_search(F, y, seg, groups, report)
            self.params_, self.cv_scores_ = search.best_params_, {"mae": -float(search.best_score_)}
        report.check()
        report.status("effort regressor: out-of-fold predictions")
        for member, make in self._members().items():
            oof[member] = cross_val_predict(make(), F, y, groups=groups, cv=folds, n_jobs=self.n_jobs)
            report.check()
        self.oof_predicted_ = self._blend(oof)
        report.status("effort regressor: final fit on all rows")
        fitted = {member: make().fit(F, y) for member, make in self._members().items()}
        self.model_, self.linear_, self.trees_ = fitted.get("svr"), fitted.get("linear"), fitted.get("trees")
        self.label_quantiles_ = np.quantile(y, np.linspace(0.0, 1.0, QUANTILES))
        return self

    def _svr_weight(self) -> float:
        rest = 1.0 - self.linear_weight - self.trees_weight
        return 0.0 if abs(rest) < 1e-9 else rest  # 1 - 2/3 - 1/3 is not exactly 0 in floating point

    def _grid_search(self, F: np.ndarray, y: np.ndarray, seg: np.ndarray, groups: np.ndarray, report: Reporter) -> GridSearchCV:
        """The SVR's C, gamma and epsilon by grouped CV on at most ``grid_max_segments`` segments."""
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
        return search.fit(F[rows], y[rows])

    def _members(self) -> dict[str, Any]:
        """Factories of the members with a share of the prediction (the SVR with its chosen parameters)."""
        weights = {"svr": self._svr_weight(), "linear": self.linear_weight, "trees": self.trees_weight}
        makers = {"svr": lambda: self._pipeline().set_params(**self.params_), "linear": self._linear, "trees": self._trees}
        return {member: makers[member] for member, w in weights.items() if w > 0}

    def chosen_params(self) -> dict[str, float]:
        """The hyper-parameters each member chose in training, and the weights (for the model card)."""
        chosen = {k: float(v) for k, v in self.params_.items()}
        if self.linear_ is not None:
            last = self.linear_[-1]
            chosen |= {"linear_weight": float(self.linear_weight), f"{self.linear_model}__alpha": float(last.alpha_)}
            if self.linear_model == "enet":
                chosen |= {"enet__l1_ratio": float(last.l1_ratio_), "enet__nonzero": float(np.count_nonzero(last.coef_))}
        if getattr(self, "trees_", None) is not None:
            chosen["trees_weight"] = float(self.trees_weight)
        return chosen

    @staticmethod
    def _pipeline() -> Pipeline:
        return Pipeline([("scale", StandardScaler()), ("svr", SVR(kernel="rbf"))])

    def _linear(self) -> Pipeline:
        if self.linear_model == "enet":
            # the path stops at 1 % of the largest penalty: there coordinate descent converges on collinear QE columns
            enet = ElasticNetCV(l1_ratio=list(ENET_L1_RATIOS), alphas=30, eps=1e-2, cv=5, max_iter=5000, tol=1e-3)
            return Pipeline([("scale", StandardScaler()), ("enet", enet)])
        return Pipeline([("scale", StandardScaler()), ("ridge", RidgeCV(alphas=RIDGE_ALPHAS))])

    def _trees(self) -> ExtraTreesRegressor:
        return ExtraTreesRegressor(**FOREST, random_state=self.random_state, n_jobs=self.n_jobs)

    def _blend(self, parts: dict[str, np.ndarray]) -> np.ndarray:
        weights = {"svr": self._svr_weight(), "linear": self.linear_weight, "trees": self.trees_weight}
        return sum(weights[member] * part for member, part in parts.items())

    def _predict_features(self, F: np.ndarray) -> np.ndarray:
        if not len(F):
            return np.empty(0)
        parts = {"svr": None if self.model_ is None else rbf_decision(self.model_, F, n_jobs=self.n_jobs),
                 "linear": None if self.linear_ is None else self.linear_.predict(F),
                 "trees": None if self.trees_ is None else self.trees_.predict(F)}
        return self._blend({member: part for member, part in parts.items() if part is not None})

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
