"""The recommender: an RBF-kernel SVM with Platt-scaled probabilities, plus a TER regressor.

Two scikit-learn pipelines over the per-candidate feature rows
(:mod:`tmtprime.features.extractor`):

* a **classifier** (standard scaling + ``SVC(kernel="rbf")``) of "this
  candidate is (one of) the best of its segment", its C and gamma chosen by
  grouped, cross-validated grid search, its decision values turned into
  probabilities by Platt scaling (:class:`PlattSigmoid`, fitted on
  cross-validated decision values as Lin et al. 2007 recommend — what
  ``CalibratedClassifierCV(method="sigmoid", ensemble=False)`` does — then the
  SVM refitted on all data);
* a **regressor** (scaling + ``SVR(kernel="rbf")``) of each candidate's TER,
  likewise grid-searched. Its prediction is what a post-editor cares about
  (how much editing the pick needs) and what the cost estimate needs (TER
  bands); selecting by the probability alone ignores how far apart candidates are.

The classifier sees the regressor's (cross-validated) predicted TER, absolute
and relative to the best candidate of the segment, as two extra features, so
its probability of being the best combines both models (stacking). Per
segment, the recommendation is the candidate with the lowest predicted TER
(ties: the more probable one, then the TM match). Selecting by the
probability instead closed less of the gap to the oracle in grouped
cross-validation on both shared scenarios (update 66.2 % vs 67.4 %,
crossproject 43.6 % vs 47.6 %): "best or not" throws away by how much a
candidate is better, which is what the mean TER of the picks counts.

Since the pick is the lowest predicted TER, the share of the gap closed is
the TER regressor's alone, and an SVR-only proxy (C 30, gamma 0.25/n, epsilon
10, grouped 5-fold, pick = lowest predicted TER) reproduces it: update 0.695,
crossproject 0.490 (the full model: 0.694 / 0.490). With 5-fold shuffled
splits (seeds 1-3) and 10 folds (unshuffled, seed 1) the proxy gives 0.689
to 0.697 on update: the 0.70 target is missed by about 0.005 whatever the
split. What did not lift it on both scenarios (update / crossproject, proxy
unless said): C 10-100, gamma 0.125-0.5, epsilon 5 (update 0.690-0.695);
target clipped at 100/150 (0.695 / 0.483-0.489); target relative to the
segment mean (0.678-0.682 / 0.434-0.455); a second SVR for MT rows only,
trained on TER minus the segment's MT mean and averaged with the absolute
prediction (best 0.702 / 0.485); rows weighted by their segment's TER
spread (0.697-0.701 / 0.467-0.483); averaging with a gradient-boosted
regressor (0.693-0.700 / 0.457-0.483; alone 0.680-0.684 / 0.381-0.383);
extra columns minus the segment or MT mean for 21 candidate features
(0.676-0.691 / 0.440-0.483); the share of candidate words found in the
source (0.690-0.691 / 0.493-0.494); standardised features clipped at 3-6
(update 0.691-0.701 depending on the split, unclipped 0.694-0.697;
crossproject 0.490-0.495); features weighted by their correlation with TER
(0.682-0.701 / 0.474-0.483); and in the full model, picking by predicted
TER - w logit(P(best)) with w chosen on the training data's out-of-fold
predictions (0.693 / 0.492; on the test folds no w helps update, w = 5 gives
crossproject 0.498). Most changes that lifted update by about 0.005 cost
crossproject as much: fold noise at this size, not gains. The one direction
that helped both on every split tried: leaving the seven inline-code
mismatch columns out of the TER regressor (update 0.691-0.703 over six
splits, +0.000 to +0.006 against the same split; crossproject 0.495): rare
non-zero counts become z-scores of 10 or more that dominate the RBF distance.
Even so it reaches 0.70 on only two of six splits, and in the full model
(benchmark, 5 folds) it gave gap 0.696 / 0.495 but r(confidence, TER of the
pick) -0.617 / -0.432 (from -0.620 / -0.437), r with Meteor +0.647 / +0.451
(from +0.651 / +0.455, a hair above the 0.45 target) and ECE 0.019 / 0.035:
not shipped. Closing the last points needs information the features lack,
not tuning.

That information came from the TM entries nearest the new source (feature
set 4, :mod:`tmtprime.features.neighbours`): how much of a candidate's words
and word pairs the targets of its source's 20 nearest TM entries (TF-IDF
cosine) contain, each weighted by the closest such neighbour's similarity,
the candidate's own TM entry left out, plus both minus the segment's best.
Proxy, six splits on update (5 folds unshuffled, shuffled seeds 1-3, 10
folds unshuffled and seed 1; crossproject has four documents, so every
split is the same one), against the same splits without them (0.6891 to
0.6966, mean 0.6943 / 0.4899): 0.6901-0.7038, mean 0.7004, better on all
six (+0.001 to +0.009) / 0.4918. Benchmark (full model, 5 folds): gap 0.704
/ 0.491 (from 0.694 / 0.490), r(confidence, TER of the pick) -0.622 / -0.436
(from -0.620 / -0.437), with Meteor +0.655 / +0.453 (from +0.651 / +0.455),
ECE 0.025 / 0.028 (from 0.020 / 0.032). The settings around it, in the proxy
with exact cosines over every TM entry (mean over the six update splits /
crossproject): 5 neighbours 0.6945 / 0.4884 (all nine columns first
tried, including the best neighbour's similarity, the share of source words
no neighbour source has, the best neighbour's similarity above the TM
match's and a similarity-weighted recall of the neighbours' target words:
0.6941 / 0.4898, one split down to 0.676), 10: 0.6981 / 0.4860, 20: 0.7011
/ 0.4896, 30: 0.7012 / 0.4813, 40: 0.6986 / 0.4895 — update gains on five or
six of six splits from 10 neighbours up, crossproject within its noise
(about 0.005 either way). Pruning the words in more than 1 % of the TM
sources from the sparse product (what makes the lookup a few seconds per
100,000 segments) and ranking only a shortlist by the exact cosine changes
the neighbours of some strings: a shortlist of 3 k gave 0.6978 / 0.4936
(better on five splits), of 10 k (shipped) 0.7004 / 0.4918.

Tried on feature set 4 since, against the SVR proxy on the same 5 grouped
folds (0.7026 / 0.4924), neither kept: a pairwise model (gradient-boosted
regression of the TER difference of every ordered candidate pair of a
segment, scored by the mean antisymmetrised difference) 0.684 / 0.452 alone,
0.708 / 0.494 added to the SVR's prediction at a quarter weight, 0.704 /
0.481 at half (within the fold noise above); and a round trip through
Apertium es->en (TER and Meteor of the back-translation against the source,
share of words Apertium does not know) in a gradient-boosted TER regressor
on crossproject: r(predicted, TER of the pick) 0.419 -> 0.426, mean TER of
the picks 62.33 -> 62.44, at about 500 strings a second more, which alone
would break the 100,000-segment time budget.

Also tried, not kept: the TM match's provenance, i.e. whether its TM entry
comes from the segment's own document (the shared TM's ``catalogs`` column;
what CAT tools call a context or PerfectMatch-style match). On update/dev,
28 % of matches are such, and at fuzzy >= 50 their TER is 36.7 against
70.6 (MT beats them on 20 % of segments, against 62 %). But the features
already carry most of it: the shipped model's out-of-fold predicted TER
of the TM match at fuzzy 50-70 is 61.3 for them against 72.5 for the others
(true 57.6 / 76.8). As a column in the full model (5 grouped folds): gap
0.704 -> 0.697, r(confidence, TER of the pick) -0.622 -> -0.631, MT-over-TM
precision at recall 0.85 0.686 -> 0.693; a dedicated gradient-boosted
MT-vs-TM classifier: AUC 0.867 -> 0.871. Crossproject has no such matches
by construction.

More dev data of the same kind would not close the rest either: training on
a random 25 / 50 / 75 / 100 % of each training fold (update, 5 grouped
folds, SVR proxy and a gradient-boosted MT-vs-TM classifier) gives gap
0.667 / 0.695 / 0.704 / 0.702 and AUC 0.852 / 0.866 / 0.866 / 0.870: flat
from half the data on.

Predictions use the fitted SVMs' support vectors directly with BLAS
(:func:`rbf_decision`): ``SVC.decision_function`` to within 1e-4 (checked in
tests), but a float32 matrix product per batch instead of libsvm's loop, which
is what makes 100,000-segment jobs fit in minutes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, SVR
from sklearn.utils.validation import check_array, check_is_fitted

from tmtprime.errors import ModelError
from tmtprime.progress import Reporter

STACKED_FEATURES = ("stack_predicted_ter", "stack_predicted_ter_above_best")
_FIT_STEPS = ("TER grid search", "TER out-of-fold", "classifier grid search", "classifier out-of-fold", "calibration and final fit")
"""The phases of :meth:`TMTprimeRecommender.fit`, one progress step each (a cancel is checked between them)."""


class PlattSigmoid(BaseEstimator):
    """P(best | decision value f) = 1 / (1 + exp(A f + B)) — Platt scaling as in libsvm.

    ``fit`` is the algorithm of Lin, Lin & Weng (2007, "A note on Platt's
    probabilistic outputs for support vector machines"): regularised targets
    (N+ + 1)/(N+ + 2) and 1/(N- + 2), Newton's method with backtracking line
    search on a numerically stable log-likelihood. It is fitted on
    cross-validated decision values (what ``CalibratedClassifierCV(method=
    "sigmoid", ensemble=False)`` does), so the cross-validated probabilities
    are available for the model card and for choosing a precision threshold.
    Our own small type, so a saved model loads with skops trusting only
    TMTprime's types.
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


def rbf_decision(pipeline: Pipeline, X: np.ndarray, chunk: int = 256, n_jobs: int = 1) -> np.ndarray:
    """``pipeline.decision_function(X)`` (or ``predict`` for an SVR) of a scaler + RBF SVM.

    Computes sum_i alpha_i exp(-gamma |x - sv_i|^2) + b with float32 matrix
    products in chunks: about five times faster than float64 and within 1e-4 of
    libsvm's result on small models (about 3e-3 in TER points on a 6,000-vector
    TER regressor, like libsvm's own float64 vs our float32; decision values and
    TER predictions are used far coarser). The whole exponent 2 gamma x.sv -
    gamma |sv|^2 - gamma |x|^2 comes out of one matrix product, the rows
    extended by (1, |x|^2) and the support vectors by (-gamma |sv|^2, -gamma),
    so a chunk is written once, clipped at 0 (a squared distance is never
    negative, so ``exp`` cannot overflow), exponentiated in place and reduced:
    three passes where the exponent built term by term took six. Chunks of a
    few hundred rows keep those passes in the cache (4,096 rows x 7,000
    support vectors is 115 MB): on the shipped models 25-30 % less CPU than
    building it term by term with BLAS on one thread, 10-20 % less time with
    BLAS on both cores (the products parallelise, the passes do not). Chunks run on ``n_jobs`` threads
    (numpy releases the GIL in the products and in ``exp``, which is
    single-threaded otherwise) and BLAS itself is held to one thread each:
    left to its own threads, OpenBLAS spins for the second core even with
    ``n_jobs=1``, and on this shared 2-core machine, with the other core busy,
    that made the same work take two to three times the time and CPU of one
    thread (the matrix-vector reductions up to 30 times).
    """
    from threadpoolctl import threadpool_limits

    from tmtprime.parallel import run_batches, workers

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


def segment_min(values: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """The minimum of ``values`` over each row's segment, broadcast back to the rows."""
    n_seg = int(segments.max()) + 1 if len(segments) else 0
    low = np.full(n_seg, np.inf)
    np.minimum.at(low, segments, values)
    return low[segments]


def _check_segments(segments: np.ndarray | Sequence[int], n_rows: int) -> np.ndarray:
    seg = np.asarray(segments)
    if seg.shape != (n_rows,):
        raise ModelError(f"segments must give one segment number per row: {seg.shape[0] if seg.ndim else 0} for {n_rows} rows")
    if n_rows and (seg.min() < 0 or not np.issubdtype(seg.dtype, np.integer)):
        raise ModelError("segment numbers must be non-negative integers")
    return seg.astype(np.int64)


def _grouped_splits(groups: np.ndarray, n_splits: int) -> list[tuple[np.ndarray, np.ndarray]]:
    n_groups = len(np.unique(groups))
    if n_groups < 2:
        raise ModelError("cross-validation needs at least two groups (documents or segments) in the training data")
    return list(GroupKFold(n_splits=min(n_splits, n_groups)).split(np.zeros(len(groups)), groups=groups))


class TMTprimeRecommender(ClassifierMixin, BaseEstimator):
    """Per-candidate "is the best" classifier with Platt-scaled probability and predicted TER.

    ``fit(X, y, ter=..., segments=..., groups=...)``: ``X`` one row per
    candidate, ``y`` 1 for the best candidate(s) of each segment, ``ter`` each
    candidate's TER, ``segments`` the segment number of each row and ``groups``
    what cross-validation keeps together (documents; default: segments).

    Hyper-parameters: the grids of C and gamma (gamma relative to 1/n_features,
    i.e. ``gamma_grid=(1.0,)`` is scikit-learn's "scale" on scaled data), the
    SVR's epsilon (in TER points), the number of grouped CV folds, and
    ``grid_max_segments``: grid search runs on a random subset of that many
    segments (the SVM's cost grows with the square of the rows), the final
    models on all of them.
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
    ) -> None:
        self.C_grid = C_grid
        self.gamma_grid = gamma_grid
        self.ter_C_grid = ter_C_grid
        self.epsilon = epsilon
        self.cv = cv
        self.grid_max_segments = grid_max_segments
        self.n_jobs = n_jobs
        self.random_state = random_state

    # -- fitting ----------------------------------------------------------
    def fit(self, X, y, *, ter, segments, groups=None, kinds: Sequence[str] | None = None, feature_names: Sequence[str] | None = None, reporter: Reporter | None = None):
        X = check_array(X, dtype=np.float64, ensure_all_finite=True, ensure_min_samples=4)
        y = np.asarray(y)
        if y.shape != (len(X),) or not set(np.unique(y)) <= {0, 1}:
            raise ModelError("labels must be 0/1, one per candidate row (1 = best candidate of its segment)")
        if len(np.unique(y)) < 2:
            raise ModelError("training needs both best and non-best candidates; every segment needs at least two candidates that differ")
        ter = np.asarray(ter, dtype=np.float64)
        if ter.shape != (len(X),) or not np.all(np.isfinite(ter)):
            raise ModelError("ter must give one finite TER per candidate row")
        seg = _check_segments(segments, len(X))
        groups = seg if groups is None else np.asarray(groups)
        if groups.shape != (len(X),):
            raise ModelError("groups must give one group (document) per candidate row")
        if len(np.unique(groups)) < 2:
            groups = seg  # one document only: the inner cross-validation keeps segments together instead
        if feature_names is not None and len(feature_names) != X.shape[1]:
            raise ModelError(f"{len(feature_names)} feature names for {X.shape[1]} features")
        self.n_features_in_ = X.shape[1]
        if feature_names is not None:
            self.feature_names_in_ = np.asarray(feature_names, dtype=object)
        self.classes_ = np.array([0, 1])

        splits = _grouped_splits(groups, self.cv)
        grid_rows = self._grid_subset(seg)
        grid_splits = _grouped_splits(groups[grid_rows], self.cv)
        n_features = X.shape[1] + len(STACKED_FEATURES)

        steps = iter((reporter or Reporter()).track(_FIT_STEPS, desc="training the recommender"))
        next(steps)
        # 1. TER regressor: grid search on the subset, then out-of-fold
        #    predictions on all rows (the classifier must learn from predictions
        #    of the kind it will see on new data, not from in-sample fits).
        ter_search = self._search(
            self._svr(), {"svr__C": list(self.ter_C_grid), "svr__gamma": [g / X.shape[1] for g in self.gamma_grid]},
            "neg_mean_absolute_error", grid_splits,
        ).fit(X[grid_rows], ter[grid_rows])
        self.ter_params_ = ter_search.best_params_
        next(steps)
        self.oof_predicted_ter_ = self._out_of_fold(self._svr().set_params(**self.ter_params_), X, ter, splits)
        self.ter_model_ = self._svr().set_params(**self.ter_params_).fit(X, ter)

        # 2. Classifier on features + stacked predicted TER; Platt scaling on
        #    its out-of-fold decision values, then the SVM refitted on all rows.
        next(steps)
        Xs = self._stack(X, self.oof_predicted_ter_, seg)
        clf_search = self._search(
            self._svc(), {"svc__C": list(self.C_grid), "svc__gamma": [g / n_features for g in self.gamma_grid]},
            "roc_auc", grid_splits,
        ).fit(Xs[grid_rows], y[grid_rows])
        self.clf_params_ = clf_search.best_params_
        next(steps)
        oof_decision = self._out_of_fold(self._svc().set_params(**self.clf_params_), Xs, y, splits)
        next(steps)
        self.platt_ = PlattSigmoid().fit(oof_decision, y)
        self.oof_probability_ = self.platt_.predict(oof_decision)
        self.classifier_ = self._svc().set_params(**self.clf_params_).fit(Xs, y)
        # 3. The pick is not the most probable candidate but the lowest predicted
        #    TER, and a maximum over candidates is biased anyway: calibrate
        #    P(the pick is best) on the out-of-fold picks themselves.
        picks = Recommendations.from_scores(self.oof_probability_, self.oof_predicted_ter_, seg, None).rows
        self.pick_platt_ = PlattSigmoid().fit(logit(self.oof_probability_[picks]), y[picks])
        self.cv_scores_ = {"ter_mae": -float(ter_search.best_score_), "roc_auc": float(clf_search.best_score_)}
        self._fit_mt_decision(y, seg, kinds)
        next(steps, None)
        return self

    def _fit_mt_decision(self, y: np.ndarray, seg: np.ndarray, kinds: Sequence[str] | None) -> None:
        """4. MT over TM (He et al. 2010): P(an MT output beats the TM match), Platt-scaled.

        The decision value is the out-of-fold predicted-TER margin of the
        segment's TM match over its best MT output; the label, whether the TM
        match is not among the best candidates. In grouped cross-validation the
        margin ranked these segments better than 1 - P(TM match is best) (AUC on
        fuzzy >= 50: update 0.869 vs 0.858, crossproject 0.755 vs 0.742). A
        dedicated segment-level classifier did no better (feature set 3: the
        segment's columns, the TM row's, and the MT rows' min/max or each
        system's own, gradient boosting or an RBF SVC, grouped 5-fold): AUC
        0.853-0.867 / 0.687-0.694, precision at recall 0.85 0.64-0.68 /
        0.68-0.70 (this margin: 0.686 / 0.730). Without
        ``kinds`` (or without segments having both kinds) the model falls back
        to 1 - P(TM match is best).
        """
        self.mt_platt_: PlattSigmoid | None = None
        self.oof_mt_probability_ = None
        if kinds is None:
            return
        is_tm = _tm_mask(kinds, len(seg))
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

    def _out_of_fold(self, pipeline: Pipeline, X: np.ndarray, target: np.ndarray, splits) -> np.ndarray:
        """Decision values (SVC) or predictions (SVR) of each row from the fold that left it out."""
        from tmtprime.parallel import run_batches

        def one(batch):
            out = []
            for train, test in batch:
                fitted = clone(pipeline).fit(X[train], target[train])
                out.append((test, rbf_decision(fitted, X[test])))
            return out

        values = np.empty(len(X))
        for part in run_batches(one, splits, n_jobs=self.n_jobs, batch_size=1, backend="threading"):
            for test, v in part:
                values[test] = v
        return values

    def _grid_subset(self, seg: np.ndarray) -> np.ndarray:
        unique = np.unique(seg)
        if len(unique) <= self.grid_max_segments:
            return np.arange(len(seg))
        rng = np.random.default_rng(self.random_state)
        chosen = rng.choice(unique, size=self.grid_max_segments, replace=False)
        return np.nonzero(np.isin(seg, chosen))[0]

    @staticmethod
    def _stack(X: np.ndarray, predicted_ter: np.ndarray, seg: np.ndarray) -> np.ndarray:
        return np.column_stack([X, predicted_ter, predicted_ter - segment_min(predicted_ter, seg)])

    # -- prediction -------------------------------------------------------
    def _validate(self, X) -> np.ndarray:
        check_is_fitted(self, "platt_")
        X = check_array(X, dtype=np.float64, ensure_all_finite=True, ensure_min_samples=0)
        if X.shape[1] != self.n_features_in_:
            raise ModelError(
                f"the model was trained on {self.n_features_in_} features but got {X.shape[1]}; "
                "features must come from the same feature-set version"
            )
        return X

    def predict_ter(self, X) -> np.ndarray:
        """Predicted TER of each candidate row (lower is better)."""
        X = self._validate(X)
        return rbf_decision(self.ter_model_, X, n_jobs=self.n_jobs) if len(X) else np.empty(0)

    def decision_function(self, X, *, segments) -> np.ndarray:
        X = self._validate(X)
        seg = _check_segments(segments, len(X))
        if not len(X):
            return np.empty(0)
        return rbf_decision(self.classifier_, self._stack(X, self.predict_ter(X), seg), n_jobs=self.n_jobs)

    def predict_proba(self, X, *, segments) -> np.ndarray:
        """[P(not best), P(best)] of each candidate row (Platt-scaled)."""
        p = self.platt_.predict(self.decision_function(X, segments=segments))
        return np.column_stack([1.0 - p, p])

    def predict(self, X, *, segments) -> np.ndarray:
        """1 for the recommended candidate of each segment, 0 for the others."""
        X = self._validate(X)
        seg = _check_segments(segments, len(X))
        out = np.zeros(len(X), dtype=np.int64)
        picks = self.recommend(X, segments=seg)
        out[picks.rows] = 1
        return out

    def recommend(
        self, X, *, segments, kinds: Sequence[str] | None = None, mt_threshold: float | None = None
    ) -> Recommendations:
        """Per segment: the candidate with the lowest predicted TER, with every row's P(best) and TER.

        Ties (identical candidates) go to the more probable, then the cheaper
        candidate: a TM match before MT (``kinds``), then the earlier row. With
        ``mt_threshold`` X, an MT candidate replaces the segment's TM match only
        when P(an MT output beats the TM match) >= X: the precision knob, no
        retraining. ``kinds`` also gives each segment that probability
        (``Recommendations.mt_probability``).
        """
        X = self._validate(X)
        seg = _check_segments(segments, len(X))
        if mt_threshold is not None and not 0.0 <= mt_threshold <= 1.0:
            raise ModelError(f"the MT threshold is a probability between 0 and 1, got {mt_threshold}")
        ter = self.predict_ter(X) if len(X) else np.empty(0)
        dec = rbf_decision(self.classifier_, self._stack(X, ter, seg), n_jobs=self.n_jobs) if len(X) else np.empty(0)
        prob = self.platt_.predict(dec)
        mt_prob = None
        if kinds is not None and len(X):
            tm_row, margin = tm_margin(prob, ter, seg, _tm_mask(kinds, len(X)))
            mt_prob = self._mt_probability(prob, margin, tm_row)
        rec = Recommendations.from_scores(prob, ter, seg, kinds, mt_threshold, mt_prob)
        rec.pick_probability = self.pick_platt_.predict(logit(prob[rec.rows]))
        return rec


def first_per_segment(seg: np.ndarray, key: np.ndarray, tie: np.ndarray) -> np.ndarray:
    """Row of the smallest ``key`` in each segment (ties: smaller ``tie``, then earlier row),
    segments in increasing number."""
    order = np.lexsort((np.arange(len(seg)), tie, key, seg))
    first = np.ones(len(order), dtype=bool)
    first[1:] = seg[order][1:] != seg[order][:-1]
    return order[first]


def _tm_mask(kinds: Sequence[str], n_rows: int) -> np.ndarray:
    if len(kinds) != n_rows:
        raise ModelError(f"kinds must give one kind (tm/mt) per row: {len(kinds)} for {n_rows} rows")
    return np.array([k == "tm" for k in kinds], dtype=bool)


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


def logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-9, 1 - 1e-9)
    return np.log(p / (1 - p))


class Recommendations:
    """The per-segment outcome of :meth:`TMTprimeRecommender.recommend`.

    ``rows``: row index of the pick of each segment (segments in increasing
    number); ``probability``: P(best) of every row; ``predicted_ter`` of every
    row; ``segments``: segment number of every row; ``pick_probability``:
    P(the pick is best) of each segment, calibrated on picks (the model sets
    it; by default the pick's row probability); ``mt_probability``: P(an MT
    output beats the TM match) of each segment (NaN without both kinds or
    without ``kinds``).
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
        kinds: Sequence[str] | None,
        mt_threshold: float | None = None,
        mt_probability: np.ndarray | None = None,
    ) -> Recommendations:
        """Picks from row scores; ``mt_probability`` (per segment) is what ``mt_threshold`` is
        compared with (default: 1 - P(best) of the segment's TM match)."""
        n = len(prob)
        is_tm = np.zeros(n, dtype=bool) if kinds is None else _tm_mask(kinds, n)
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
