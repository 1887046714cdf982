"""The fast RBF decision against libsvm, and Platt scaling against scikit-learn's sigmoid calibration."""

import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, SVR

from tmtprime.recommend.kernel import rbf_decision
from tmtprime.recommend.platt import PlattSigmoid


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
