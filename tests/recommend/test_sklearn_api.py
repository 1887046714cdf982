"""TMTprimeRecommender as a scikit-learn estimator: the standard checks, cross_validate with GroupKFold, pipelines, clone.

Of scikit-learn's checks, those listed in NOT_APPLICABLE fail by design (each says why); the rest pass,
except ``check_array_api_input``, which scikit-learn itself skips unless SCIPY_ARRAY_API=1 is set (the
recommender converts X to a numpy array and claims no array-API support).
"""

import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.impute import SimpleImputer
from sklearn.model_selection import GroupKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from tests.recommend.test_model import Recording, small, toy
from tmtprime.errors import ModelInputError
from tmtprime.recommend.grouping import grouped_input
from tmtprime.recommend.svm import TMTprimeRecommender

GENERIC_DATA = (
    "scikit-learn's generic data has no segment column (column 0 holds random floats, or X has two columns in all), "
    "so the recommender refuses it with a ModelInputError; the behaviour the check stands for is tested on grouped "
    "data in this file or in test_model.py"
)
NOT_APPLICABLE = {
    "check_fit_score_takes_y": GENERIC_DATA,
    "check_estimators_overwrite_params": GENERIC_DATA + " (test_fit_leaves_params_and_is_idempotent)",
    "check_dont_overwrite_parameters": GENERIC_DATA + " (test_fit_leaves_params_and_is_idempotent)",
    "check_estimators_fit_returns_self": GENERIC_DATA + " (test_cross_validate_with_group_kfold: fit(...) is chained)",
    "check_readonly_memmap_input": GENERIC_DATA,
    "check_n_features_in_after_fitting": GENERIC_DATA + " (test_model: the 'X has 3 features, but ... expecting 4' error)",
    "check_positive_only_tag_during_fit": GENERIC_DATA,
    "check_estimators_dtypes": GENERIC_DATA,
    "check_dtype_object": GENERIC_DATA,
    "check_pipeline_consistency": GENERIC_DATA + " (test_in_a_pipeline_with_an_imputer)",
    "check_estimators_nan_inf": GENERIC_DATA + " (test_model: NaN is refused with a ModelInputError)",
    "check_estimators_pickle": GENERIC_DATA + " (test_pickle_and_clone_on_grouped_data; skops in test_persist)",
    "check_f_contiguous_array_estimator": GENERIC_DATA,
    "check_classifier_data_not_an_array": GENERIC_DATA,
    "check_classifiers_classes": GENERIC_DATA + "; and the classes are fixed: 1 = best candidate of its segment, 0 = not",
    "check_classifiers_train": GENERIC_DATA + "; and predict is 1 for exactly one row per segment, not a per-row class",
    "check_supervised_y_2d": GENERIC_DATA,
    "check_decision_proba_consistency": GENERIC_DATA,
    "check_methods_sample_order_invariance": GENERIC_DATA,
    "check_methods_subset_invariance": (
        "does not hold by design: a row's stacked features and its pick depend on the other candidates of its "
        "segment, so predictions are invariant to taking whole segments only (test_predictions_depend_on_whole_segments)"
    ),
    "check_dict_unchanged": GENERIC_DATA,
    "check_fit_idempotent": GENERIC_DATA + " (test_fit_leaves_params_and_is_idempotent)",
    "check_fit_check_is_fitted": GENERIC_DATA,
    "check_n_features_in": GENERIC_DATA,
    "check_fit2d_predict1d": GENERIC_DATA,
}


def _fast() -> TMTprimeRecommender:
    return TMTprimeRecommender(C_grid=(1.0,), gamma_grid=(1.0,), ter_C_grid=(10.0,), cv=2)


@parametrize_with_checks([_fast()], expected_failed_checks=lambda _estimator: NOT_APPLICABLE)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def test_the_not_applicable_checks_really_fail_for_the_reason_given():
    """A listed check must fail on the grouped input, not pass silently (which would make the list stale)."""
    from sklearn.utils.estimator_checks import check_estimator

    results = check_estimator(_fast(), on_fail=None, expected_failed_checks={})
    failed = {r["check_name"] for r in results if r["status"] == "failed"}
    passed = {r["check_name"] for r in results if r["status"] == "passed"}
    assert failed == set(NOT_APPLICABLE)
    assert {"check_estimator_cloneable", "check_get_params_invariance", "check_set_params", "check_no_attributes_set_in_init",
            "check_estimators_unfitted", "check_classifiers_one_label", "check_fit2d_1sample", "check_fit2d_1feature",
            "check_classifiers_regression_target", "check_requires_y_none", "check_estimators_empty_data_messages"} <= passed


@pytest.fixture(scope="module")
def data():
    X, y, ter, seg, groups = toy(90, seed=4)
    return grouped_input(X, seg, ["tm", "mt", "mt"] * 90), y, ter, groups


def test_cross_validate_with_group_kfold(data):
    X, y, ter, docs = data
    result = cross_validate(
        small(), X, y, groups=docs, cv=GroupKFold(n_splits=3), params={"ter": ter, "groups": docs},
        scoring=["accuracy", "roc_auc"], return_estimator=True,
    )
    assert len(result["estimator"]) == 3 and all(est.mt_platt_ is not None for est in result["estimator"])
    assert np.all(result["test_accuracy"] > 0.6)  # picks and non-picks mostly labelled right
    assert np.all(result["test_roc_auc"] > 0.75)  # P(best) ranks best candidates first on unseen documents


def test_in_a_pipeline_with_an_imputer(data):
    X, y, ter, docs = data
    holes = X.copy()
    holes[::7, 3] = np.nan  # a feature missing here and there; the segment and TM columns are complete
    pipe = make_pipeline(SimpleImputer(strategy="median"), small()).fit(holes, y, tmtprimerecommender__ter=ter,
                                                                        tmtprimerecommender__groups=docs)
    assert pipe.predict(holes).sum() == 90
    assert pipe.score(holes, y) > 0.6
    assert pipe.predict_proba(holes).shape == (len(X), 2)
    with pytest.raises(ModelInputError, match="NaN"):
        clone(pipe[-1]).fit(holes, y, ter=ter)


def test_fit_leaves_params_and_is_idempotent(data):
    X, y, ter, docs = data
    model = small()
    params = model.get_params()
    first = model.fit(X, y, ter=ter, groups=docs).predict_proba(X)
    assert model.get_params() == params
    np.testing.assert_array_equal(model.fit(X, y, ter=ter, groups=docs).predict_proba(X), first)


def test_pickle_and_clone_on_grouped_data(data):
    X, y, ter, docs = data
    reporter = Recording()
    model = small().set_params(reporter=reporter).fit(X, y, ter=ter, groups=docs)
    copy = clone(model)
    assert copy.reporter is reporter and copy.get_params()["C_grid"] == (1.0,) and not hasattr(copy, "platt_")
    again = pickle.loads(pickle.dumps(model))
    assert again.reporter is None
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))


def test_predictions_depend_on_whole_segments(data):
    X, y, ter, docs = data
    model = small().fit(X, y, ter=ter, groups=docs)
    whole = X[:, 0] < 30  # the first 30 segments, all their candidates
    np.testing.assert_allclose(model.predict_proba(X[whole]), model.predict_proba(X)[whole], atol=1e-5)  # float32 chunks
    np.testing.assert_array_equal(model.predict(X[whole]), model.predict(X)[whole])
    shuffled = np.random.default_rng(0).permutation(len(X))
    np.testing.assert_allclose(model.predict_proba(X[shuffled]), model.predict_proba(X)[shuffled], atol=1e-5)
