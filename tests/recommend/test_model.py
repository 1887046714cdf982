"""The SVM recommender: fast decision parity, Platt scaling, selection, the MT threshold, validation."""

import numpy as np
import pytest
from sklearn.calibration import CalibratedClassifierCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, SVR

from tmtprime.errors import ModelError
from tmtprime.recommend.model import PlattSigmoid, Recommendations, TMTprimeRecommender, rbf_decision


def toy(n_seg: int = 120, seed: int = 0):
    """Segments of 3 candidates; feature 0 is (noisily) the candidate's TER."""
    rng = np.random.default_rng(seed)
    ter = rng.uniform(0, 100, size=(n_seg, 3))
    X = np.column_stack([ter.ravel() + rng.normal(0, 10, ter.size), rng.normal(size=ter.size)])
    seg = np.repeat(np.arange(n_seg), 3)
    y = (ter.ravel() <= np.repeat(ter.min(axis=1), 3)).astype(int)
    groups = seg % 6
    return X, y, ter.ravel(), seg, groups


@pytest.fixture(scope="module")
def fitted():
    X, y, ter, seg, groups = toy()
    model = TMTprimeRecommender(C_grid=(1.0,), gamma_grid=(1.0,), ter_C_grid=(10.0,), cv=3)
    return model.fit(X, y, ter=ter, segments=seg, groups=groups, feature_names=["noisy_ter", "noise"]), (X, y, ter, seg)


def test_fast_decision_matches_libsvm():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 5))
    y = (X[:, 0] + rng.normal(size=300) > 0).astype(int)
    clf = make_pipeline(StandardScaler(), SVC(C=3.0, gamma=0.3)).fit(X, y)
    reg = make_pipeline(StandardScaler(), SVR(C=3.0, gamma=0.3)).fit(X, X[:, 1])
    Xt = rng.normal(size=(50, 5))
    np.testing.assert_allclose(rbf_decision(clf, Xt, chunk=7), clf.decision_function(Xt), atol=1e-4)
    np.testing.assert_allclose(rbf_decision(reg, Xt), reg.predict(Xt), atol=1e-4)


def test_fast_decision_same_on_threads_and_leaves_blas_threads_as_they_were():
    from threadpoolctl import threadpool_info

    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 6))
    clf = make_pipeline(StandardScaler(), SVC(gamma=0.2)).fit(X, (X[:, 0] > 0).astype(int))
    before = [pool["num_threads"] for pool in threadpool_info()]
    one = rbf_decision(clf, X, chunk=32, n_jobs=1)
    np.testing.assert_array_equal(rbf_decision(clf, X, chunk=32, n_jobs=2), one)
    assert [pool["num_threads"] for pool in threadpool_info()] == before


def test_platt_matches_sklearn_sigmoid_calibration():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] + rng.normal(size=400) > 0.5).astype(int)
    splits = [(np.arange(400)[np.arange(400) % 4 != k], np.arange(400)[np.arange(400) % 4 == k]) for k in range(4)]
    base = make_pipeline(StandardScaler(), SVC())
    sk = CalibratedClassifierCV(base, method="sigmoid", ensemble=False, cv=splits).fit(X, y)
    oof = np.empty(400)
    for train, test in splits:
        oof[test] = make_pipeline(StandardScaler(), SVC()).fit(X[train], y[train]).decision_function(X[test])
    ours = PlattSigmoid().fit(oof, y)
    full = sk.calibrated_classifiers_[0].estimator.decision_function(X)
    np.testing.assert_allclose(ours.predict(full), sk.predict_proba(X)[:, 1], atol=2e-3)


def test_learns_to_pick_low_ter_candidates(fitted):
    model, (X, y, ter, seg) = fitted
    rec = model.recommend(X, segments=seg)
    assert len(rec.rows) == seg.max() + 1
    picked = ter[rec.rows].mean()
    assert picked < ter.reshape(-1, 3).mean() - 15  # far better than a random candidate
    proba = model.predict_proba(X, segments=seg)
    assert proba.shape == (len(X), 2) and np.allclose(proba.sum(axis=1), 1)
    assert np.corrcoef(model.predict_ter(X), ter)[0, 1] > 0.8
    assert model.predict(X, segments=seg).sum() == seg.max() + 1
    assert list(model.feature_names_in_) == ["noisy_ter", "noise"]
    assert 0 < model.oof_probability_.min() and model.oof_probability_.max() < 1


def test_wrong_input_is_refused_with_a_clear_message(fitted):
    model, (X, y, ter, seg) = fitted
    with pytest.raises(ModelError, match="trained on 2 features but got 3"):
        model.recommend(np.zeros((3, 3)), segments=[0, 0, 0])
    with pytest.raises(ModelError, match="one segment number per row"):
        model.recommend(X, segments=seg[:-1])
    with pytest.raises(ModelError, match="labels must be 0/1"):
        TMTprimeRecommender().fit(X, y + 1, ter=ter, segments=seg)
    with pytest.raises(ModelError, match="both best and non-best"):
        TMTprimeRecommender().fit(X, np.ones_like(y), ter=ter, segments=seg)
    with pytest.raises(ModelError, match="probability between 0 and 1"):
        model.recommend(X, segments=seg, mt_threshold=2.0)


def test_ties_go_to_the_tm_and_the_mt_threshold_falls_back_to_it():
    prob = np.array([0.4, 0.4, 0.2, 0.3, 0.6, 0.1])
    seg = np.array([0, 0, 0, 1, 1, 1])
    kinds = ["mt", "tm", "mt", "tm", "mt", "mt"]
    rec = Recommendations.from_scores(prob, np.zeros(6), seg, kinds)
    assert list(rec.rows) == [1, 4]  # tie in segment 0 goes to the TM match
    # P(TM not best) in segment 1 is 0.7: MT stays at threshold 0.7, the TM comes back at 0.8
    assert list(Recommendations.from_scores(prob, np.zeros(6), seg, kinds, mt_threshold=0.7).rows) == [1, 4]
    assert list(Recommendations.from_scores(prob, np.zeros(6), seg, kinds, mt_threshold=0.8).rows) == [1, 3]


def test_a_single_document_trains_with_segment_folds():
    X, y, ter, seg, _ = toy(60)
    model = TMTprimeRecommender(C_grid=(1.0,), gamma_grid=(1.0,), ter_C_grid=(10.0,), cv=2)
    model.fit(X, y, ter=ter, segments=seg, groups=np.zeros(len(X), dtype=int))
    assert len(model.recommend(X, segments=seg).rows) == 60


def test_mt_over_tm_decision_is_platt_scaled_on_the_predicted_ter_margin():
    X, y, ter, seg, groups = toy(150, seed=3)
    kinds = ["tm", "mt", "mt"] * 150
    model = TMTprimeRecommender(C_grid=(1.0,), gamma_grid=(1.0,), ter_C_grid=(10.0,), cv=3)
    model.fit(X, y, ter=ter, segments=seg, groups=groups, kinds=kinds)
    assert model.mt_platt_ is not None and model.oof_mt_probability_.shape == (150,)
    rec = model.recommend(X, segments=seg, kinds=kinds)
    p = rec.mt_probability
    assert p.shape == (150,) and np.all((p > 0) & (p < 1))
    # the larger the TM match's predicted TER over the best MT output, the surer MT wins
    margin = rec.predicted_ter[0::3] - np.minimum(rec.predicted_ter[1::3], rec.predicted_ter[2::3])
    assert np.all(np.diff(p[np.argsort(margin)]) >= 0)
    # it tracks reality: segments where an MT output really beats the TM match score higher
    beaten = np.minimum(ter[1::3], ter[2::3]) < ter[0::3]
    assert p[beaten].mean() > p[~beaten].mean() + 0.2
    # the knob: MT over the TM match only where P(MT beats TM) >= X
    strict = model.recommend(X, segments=seg, kinds=kinds, mt_threshold=0.9)
    mt_kept = strict.rows % 3 != 0
    assert np.all(p[mt_kept] >= 0.9)
    assert np.all(strict.rows[~mt_kept & (rec.rows % 3 != 0)] % 3 == 0)


def test_without_kinds_there_is_no_mt_decision(fitted):
    model, (X, _, _, seg) = fitted
    assert model.mt_platt_ is None
    assert np.all(np.isnan(model.recommend(X, segments=seg).mt_probability))
