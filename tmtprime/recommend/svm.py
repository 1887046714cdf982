"""The recommender: a TER regressor (RBF SVR) stacked under an "is the best" classifier (RBF SVC), Platt-scaled.

Per segment, the pick is the candidate with the lowest predicted TER (what a
post-editor and the cost estimate care about); the classifier, which also
sees that prediction, gives each candidate a calibrated P(best), and the
margin of the TM match over the best MT output gives P(MT beats TM), the
precision knob of the MT-over-TM decision (He et al. 2010). Why this shape,
and every alternative measured against it: docs/experiments/recommender.md.
X carries each row's segment and kind (:mod:`tmtprime.recommend.grouping`),
so it is a plain scikit-learn classifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, SVR
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from tmtprime.errors import ModelInputError
from tmtprime.progress import Reporter
from tmtprime.recommend.grouping import ID_COLUMNS, segment_min, segment_sample, split_grouped
from tmtprime.recommend.kernel import rbf_decision
from tmtprime.recommend.picks import Picks, tm_margin
from tmtprime.recommend.platt import PlattSigmoid, logit

STACKED_FEATURES = ("stack_predicted_ter", "stack_predicted_ter_above_best")


def _grouped_splits(groups: np.ndarray, n_splits: int) -> list[tuple[np.ndarray, np.ndarray]]:
    n_groups = len(np.unique(groups))
    if n_groups < 2:
        raise ModelInputError("cross-validation needs at least two groups (documents or segments) in the training data")
    return list(GroupKFold(n_splits=min(n_splits, n_groups)).split(np.zeros(len(groups)), groups=groups))


def _check_labels(y) -> np.ndarray:
    """``y`` as an array of class labels, both present (checked before X, as scikit-learn expects)."""
    if y is None:
        raise ModelInputError("fit requires y to be passed, but the target y is None: give 1 for the best candidate(s) of each segment")
    y = np.asarray(y)
    try:
        check_classification_targets(y)
    except ValueError as error:
        raise ModelInputError(f"labels must be 0/1, 1 = best candidate of its segment ({error})") from None
    if len(np.unique(y)) < 2:
        raise ModelInputError(
            "training needs both classes (got one class only): best and non-best candidates; "
            "every segment needs at least two candidates that differ"
        )
    return y


def _check_rows(y: np.ndarray, ter, groups, seg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(TER, groups of the inner cross-validation) checked against the rows, y being 0/1; one document: segments."""
    n = len(seg)
    if y.shape != (n,) or not set(np.unique(y)) <= {0, 1}:
        raise ModelInputError("labels must be 0/1, one per candidate row (1 = best candidate of its segment)")
    if ter is None:
        raise ModelInputError("fit needs ter=, the TER of every candidate row against its reference")
    ter = np.asarray(ter, dtype=np.float64)
    if ter.shape != (n,) or not np.all(np.isfinite(ter)):
        raise ModelInputError("ter must give one finite TER per candidate row")
    groups = seg if groups is None else np.asarray(groups)
    if groups.shape != (n,):
        raise ModelInputError("groups must give one group (document) per candidate row")
    if len(np.unique(groups)) < 2:
        groups = seg  # one document only: the inner cross-validation keeps segments together instead
    return ter, groups


class TMTprimeRecommender(ClassifierMixin, BaseEstimator):
    """Per-candidate "is the best" classifier with Platt-scaled probability and predicted TER.

    ``fit(X, y, ter=..., groups=...)``: ``X`` one row per candidate laid out
    as :mod:`~tmtprime.recommend.grouping` says (segment number, TM flag,
    features), ``y`` 1 for the best candidate(s) of each segment, ``ter`` each
    candidate's TER, ``groups`` what the inner cross-validation keeps together
    (documents; default: segments). ``predict(X)`` is 1 for each segment's
    pick; :meth:`recommend` gives the picks with their numbers.

    Hyper-parameters: the grids of C and gamma (gamma relative to 1/n_features,
    i.e. ``gamma_grid=(1.0,)`` is scikit-learn's "scale" on scaled data), the
    SVR's epsilon (in TER points), the number of grouped CV folds, and
    ``grid_max_segments``: grid search runs on a random subset of that many
    segments (the SVM's cost grows with the square of the rows), the final
    models on all of them. ``reporter`` hears the phases of ``fit`` (a clone
    reports to the same one; a saved model forgets it).
    """

    def __init__(
        self,
        *,
        C_grid: Sequence[float] = (1.0, 10.0),
        gamma_grid: Sequence[float] = (0.25, 0.5),
        ter_C_grid: Sequence[float] = (10.0, 30.0),
        epsilon: float = 10.0,
        cv: int = 3,
        grid_max_segments: int = 1200,
        n_jobs: int = 1,
        random_state: int = 0,
        reporter: Reporter | None = None,
    ) -> None:
        self.C_grid = C_grid
        self.gamma_grid = gamma_grid
        self.ter_C_grid = ter_C_grid
        self.epsilon = epsilon
        self.cv = cv
        self.grid_max_segments = grid_max_segments
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.reporter = reporter

    # -- persistence --------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        return {**state, "reporter": None}  # a reporter belongs to one run, not to the model

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        state.setdefault("reporter", None)
        if "ter_model_" in state and state.get("n_features_in_") == state["ter_model_"].n_features_in_:
            # saved before X carried the segment and TM columns: it counted the features only,
            # and its feature names (kept in the model card) named those only
            state["n_features_in_"] += ID_COLUMNS
            state.pop("feature_names_in_", None)
        super().__setstate__(state)

    # -- fitting ----------------------------------------------------------
    def fit(self, X, y, *, ter=None, groups=None) -> TMTprimeRecommender:
        y = _check_labels(y)
        seg, is_tm, F = self._check_input(X, reset=True, min_rows=4)
        ter, groups = _check_rows(y, ter, groups, seg)
        self.classes_ = np.array([0, 1])
        report = self.reporter or Reporter()

        splits = _grouped_splits(groups, self.cv)
        grid_rows = self._grid_subset(seg)
        grid_splits = _grouped_splits(groups[grid_rows], self.cv)
        n_features = F.shape[1] + len(STACKED_FEATURES)

        # 1. TER regressor: grid search on the subset, then out-of-fold
        #    predictions on all rows (the classifier must learn from predictions
        #    of the kind it will see on new data, not from in-sample fits).
        ter_grid = {"svr__C": list(self.ter_C_grid), "svr__gamma": [g / F.shape[1] for g in self.gamma_grid]}
        self._phase(report, "TER regressor: grid search", ter_grid, grid_splits)
        ter_search = self._search(self._svr(), ter_grid, "neg_mean_absolute_error", grid_splits).fit(F[grid_rows], ter[grid_rows])
        self.ter_params_ = ter_search.best_params_
        self.oof_predicted_ter_ = self._out_of_fold(
            self._svr().set_params(**self.ter_params_), F, ter, splits, report, "TER regressor: out-of-fold predictions"
        )
        report.status("TER regressor: final fit on all rows")
        self.ter_model_ = self._svr().set_params(**self.ter_params_).fit(F, ter)
        report.check()

        # 2. Classifier on features + stacked predicted TER; Platt scaling on
        #    its out-of-fold decision values, then the SVM refitted on all rows.
        Xs = self._stack(F, self.oof_predicted_ter_, seg)
        clf_grid = {"svc__C": list(self.C_grid), "svc__gamma": [g / n_features for g in self.gamma_grid]}
        self._phase(report, "classifier: grid search", clf_grid, grid_splits)
        clf_search = self._search(self._svc(), clf_grid, "roc_auc", grid_splits).fit(Xs[grid_rows], y[grid_rows])
        self.clf_params_ = clf_search.best_params_
        oof_decision = self._out_of_fold(
            self._svc().set_params(**self.clf_params_), Xs, y, splits, report, "classifier: out-of-fold decision values"
        )
        report.status("calibration (Platt scaling)")
        self.platt_ = PlattSigmoid().fit(oof_decision, y)
        self.oof_probability_ = self.platt_.predict(oof_decision)
        report.status("classifier: final fit on all rows")
        self.classifier_ = self._svc().set_params(**self.clf_params_).fit(Xs, y)
        report.check()
        # 3. The pick is not the most probable candidate but the lowest predicted
        #    TER, and a maximum over candidates is biased anyway: calibrate
        #    P(the pick is best) on the out-of-fold picks themselves.
        picks = Picks.from_scores(self.oof_probability_, self.oof_predicted_ter_, seg, None).rows
        self.pick_platt_ = PlattSigmoid().fit(logit(self.oof_probability_[picks]), y[picks])
        self.cv_scores_ = {"ter_mae": -float(ter_search.best_score_), "roc_auc": float(clf_search.best_score_)}
        self._fit_mt_decision(y, seg, is_tm)
        return self

    def _fit_mt_decision(self, y: np.ndarray, seg: np.ndarray, is_tm: np.ndarray) -> None:
        """4. MT over TM (He et al. 2010): P(an MT output beats the TM match), Platt-scaled.

        The decision value is the out-of-fold predicted-TER margin of the
        segment's TM match over its best MT output; the label, whether the TM
        match is not among the best candidates. It ranked segments better than
        1 - P(TM match is best) and than a dedicated segment-level classifier
        (docs/experiments/recommender.md, "MT over TM"). Without segments
        having both kinds the model falls back to 1 - P(TM match is best).
        """
        self.mt_platt_: PlattSigmoid | None = None
        self.oof_mt_probability_ = None
        tm_row, margin = tm_margin(self.oof_probability_, self.oof_predicted_ter_, seg, is_tm)
        both = ~np.isnan(margin)
        beaten = np.zeros(len(margin), dtype=bool)
        beaten[both] = y[tm_row[both]] == 0
        if len(np.unique(beaten[both])) < 2:
            return
        self.mt_platt_ = PlattSigmoid().fit(margin[both], beaten[both].astype(np.int64))
        self.oof_mt_probability_ = self._mt_probability(self.oof_probability_, margin, tm_row)

    def _mt_probability(self, prob: np.ndarray, margin: np.ndarray, tm_row: np.ndarray) -> np.ndarray:
        """Per segment: P(an MT output beats the TM match); NaN without a TM match or an MT output."""
        out = np.full(len(margin), np.nan)
        both = ~np.isnan(margin)
        platt = getattr(self, "mt_platt_", None)  # models saved before the dedicated decision lack it
        out[both] = platt.predict(margin[both]) if platt is not None else 1.0 - prob[tm_row[both]]
        return out

    def _svr(self) -> Pipeline:
        return Pipeline([("scale", StandardScaler()), ("svr", SVR(kernel="rbf", epsilon=self.epsilon))])

    @staticmethod
    def _svc() -> Pipeline:
        return Pipeline([("scale", StandardScaler()), ("svc", SVC(kernel="rbf"))])

    def _search(self, pipeline: Pipeline, grid: dict, scoring: str, splits) -> GridSearchCV:
        return GridSearchCV(pipeline, grid, scoring=scoring, cv=splits, n_jobs=self.n_jobs)

    @staticmethod
    def _phase(report: Reporter, name: str, grid: dict, splits) -> None:
        report.check()
        settings = int(np.prod([len(v) for v in grid.values()]))
        report.status(f"{name}: {settings} settings x {len(splits)} folds")

    def _out_of_fold(
        self, pipeline: Pipeline, X: np.ndarray, target: np.ndarray, splits, report: Reporter, phase: str
    ) -> np.ndarray:
        """Decision values (SVC) or predictions (SVR) of each row from the fold that left it out."""
        from tmtprime.parallel import run_batches

        def one(batch):
            out = []
            for train, test in batch:
                report.check()
                fitted = clone(pipeline).fit(X[train], target[train])
                out.append((test, rbf_decision(fitted, X[test])))
                finished.append(test)  # list.append is atomic: folds on threads count right
                report.progress(len(finished), len(splits))
            return out

        values = np.empty(len(X))
        finished: list[np.ndarray] = []
        report.status(phase)
        report.progress(0, len(splits))
        for part in run_batches(one, splits, n_jobs=self.n_jobs, batch_size=1, backend="threading"):
            for test, v in part:
                values[test] = v
        report.finish_phase()
        return values

    def _grid_subset(self, seg: np.ndarray) -> np.ndarray:
        return segment_sample(seg, self.grid_max_segments, self.random_state)

    @staticmethod
    def _stack(F: np.ndarray, predicted_ter: np.ndarray, seg: np.ndarray) -> np.ndarray:
        return np.column_stack([F, predicted_ter, predicted_ter - segment_min(predicted_ter, seg)])

    # -- prediction -------------------------------------------------------
    def _check_input(self, X, *, reset: bool, min_rows: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(segment numbers 0..k-1, TM mask, features) of X, or a :class:`ModelInputError` saying what is wrong."""
        if not reset:
            check_is_fitted(self, "platt_")
        try:
            X = validate_data(self, X, reset=reset, dtype=np.float64, ensure_min_samples=min_rows)
        except ValueError as error:
            raise ModelInputError(
                f"{error} (rows are the segment number, the TM flag, then the features of the set the model was trained on)"
            ) from None
        return split_grouped(X)

    def predict_ter(self, X) -> np.ndarray:
        """Predicted TER of each candidate row (lower is better)."""
        _seg, _is_tm, F = self._check_input(X, reset=False)
        return rbf_decision(self.ter_model_, F, n_jobs=self.n_jobs) if len(F) else np.empty(0)

    def _scores(self, F: np.ndarray, seg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(predicted TER, classifier decision value) of each row."""
        if not len(F):
            return np.empty(0), np.empty(0)
        ter = rbf_decision(self.ter_model_, F, n_jobs=self.n_jobs)
        return ter, rbf_decision(self.classifier_, self._stack(F, ter, seg), n_jobs=self.n_jobs)

    def decision_function(self, X) -> np.ndarray:
        seg, _is_tm, F = self._check_input(X, reset=False)
        return self._scores(F, seg)[1]

    def predict_proba(self, X) -> np.ndarray:
        """[P(not best), P(best)] of each candidate row (Platt-scaled)."""
        decision = self.decision_function(X)
        p = self.platt_.predict(decision)
        return np.column_stack([1.0 - p, p])

    def predict(self, X) -> np.ndarray:
        """1 for the recommended candidate of each segment, 0 for the others."""
        picks = self.recommend(X)
        out = np.zeros(len(picks.probability), dtype=np.int64)
        out[picks.rows] = 1
        return out

    def recommend(self, X, *, mt_threshold: float | None = None) -> Picks:
        """Per segment: the candidate with the lowest predicted TER, with every row's P(best) and TER.

        Ties (identical candidates) go to the more probable, then the cheaper
        candidate: a TM match before MT, then the earlier row. With
        ``mt_threshold`` T, an MT candidate replaces the segment's TM match only
        when P(an MT output beats the TM match) >= T: the precision knob, no
        retraining. Segments are numbered 0..k-1 in the order of their numbers in X.
        """
        seg, is_tm, F = self._check_input(X, reset=False)
        if mt_threshold is not None and not 0.0 <= mt_threshold <= 1.0:
            raise ModelInputError(f"the MT threshold is a probability between 0 and 1, got {mt_threshold}")
        ter, dec = self._scores(F, seg)
        prob = self.platt_.predict(dec)
        tm_row, margin = tm_margin(prob, ter, seg, is_tm)
        mt_prob = self._mt_probability(prob, margin, tm_row)
        rec = Picks.from_scores(prob, ter, seg, is_tm, mt_threshold, mt_prob)
        rec.pick_probability = self.pick_platt_.predict(logit(prob[rec.rows]))
        return rec
