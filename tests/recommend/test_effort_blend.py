"""The effort regressor's blend: an elastic net and a forest beside (or instead of) the SVR; older models still predict."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone

from tmtprime.errors import ModelInputError
from tmtprime.recommend import persist
from tmtprime.recommend.regressor import EffortRegressor
from tmtprime.workflows.training import EFFORT_BLEND, default_model

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "recommend"


def _data(n: int = 150, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    F = rng.normal(size=(n, 30))
    # a few sparse linear effects and one threshold effect: the elastic net's and the forest's cases
    y = F[:, :4].sum(axis=1) + 2.0 * (F[:, 5] > 0.5) + rng.normal(0, 0.5, n)
    return np.column_stack([np.arange(n), np.zeros(n), F]), y


def _blend(**params) -> EffortRegressor:
    return EffortRegressor(C_grid=(1.0,), gamma_grid=(1.0,), epsilon_grid=(0.1,), cv=2, **params)


def test_an_elastic_net_and_forest_blend_fits_no_svr_and_averages_its_members():
    X, y = _data()
    model = _blend(linear_weight=2 / 3, linear_model="enet", trees_weight=1 / 3).fit(X[:100], y[:100])
    assert model.model_ is None and model.params_ == {}  # the SVR has no share: not searched, not fitted
    F = X[100:, 2:]
    np.testing.assert_allclose(model.predict(X[100:]), 2 / 3 * model.linear_.predict(F) + 1 / 3 * model.trees_.predict(F))
    assert 0 < np.count_nonzero(model.linear_[-1].coef_) < 30  # the L1 part dropped columns
    assert np.corrcoef(model.predict(X[100:]), y[100:])[0, 1] > 0.8
    assert np.isfinite(model.oof_predicted_).all() and len(model.oof_predicted_) == 100
    chosen = model.chosen_params()
    assert chosen["linear_weight"] == pytest.approx(2 / 3) and chosen["trees_weight"] == pytest.approx(1 / 3)
    assert 0 < chosen["enet__alpha"] and chosen["enet__l1_ratio"] in (0.1, 0.5, 0.9)


def test_all_three_members_share_the_prediction():
    X, y = _data()
    model = _blend(linear_weight=0.25, linear_model="enet", trees_weight=0.25).fit(X[:100], y[:100])
    F = X[100:, 2:]
    svr = model.model_.predict(F)
    expected = 0.5 * svr + 0.25 * model.linear_.predict(F) + 0.25 * model.trees_.predict(F)
    np.testing.assert_allclose(model.predict(X[100:]), expected, atol=1e-4)  # the SVR part runs in float32


def test_the_blend_survives_skops_and_clone():
    X, y = _data()
    model = _blend(linear_weight=0.5, linear_model="enet", trees_weight=0.5).fit(X[:100], y[:100])
    again = persist.loads(persist.dumps(model))
    np.testing.assert_allclose(again.predict(X[100:]), model.predict(X[100:]))
    assert clone(model).get_params() == model.get_params()


@pytest.mark.parametrize("params", [{"linear_model": "lasso", "linear_weight": 0.5}, {"linear_weight": 0.7, "trees_weight": 0.5},
                                    {"trees_weight": -0.1}])
def test_a_bad_blend_is_refused_with_one_clear_error(params):
    X, y = _data(40)
    with pytest.raises(ModelInputError, match="linear_model|weight"):
        _blend(**params).fit(X, y)


def test_only_the_effort_label_gets_the_blend_by_default():
    y = np.arange(6.0)
    effort = default_model("effort", y, None, 1)
    assert {k: effort.get_params()[k] for k in EFFORT_BLEND} == EFFORT_BLEND
    assert EFFORT_BLEND["linear_model"] == "enet" and EFFORT_BLEND["trees_weight"] > 0
    time = default_model("time", y, None, 1)  # MLQE-PE HTER fell with the ridge: the SVR alone elsewhere
    assert time.linear_weight == 0.0 and time.trees_weight == 0.0


def test_an_effort_model_saved_with_the_ridge_still_loads_and_predicts_the_same():
    model = persist.loads((FIXTURES / "effort-svr-ridge.skops").read_bytes())
    saved = np.load(FIXTURES / "effort-svr-ridge.npz")
    assert model.get_params()["linear_weight"] == 0.5 and model.get_params()["linear_model"] == "ridge"
    assert model.trees_ is None and model.get_params()["trees_weight"] == 0.0
    np.testing.assert_allclose(model.predict(saved["X"]), saved["predicted"], atol=1e-4)
    assert "ridge__alpha" in model.chosen_params()


@pytest.mark.parametrize("linear_weight, predicted, oof", [(0.0, "predicted_svr", "oof_svr"), (0.5, "predicted", "oof")])
def test_the_svr_and_svr_ridge_models_fit_as_before_the_blend(linear_weight, predicted, oof):
    """hter and time train the SVR alone: refitted now, it predicts what commit ab67f75's code did on the same data."""
    saved = np.load(FIXTURES / "effort-svr-ridge.npz")
    model = EffortRegressor(C_grid=(1.0,), gamma_grid=(1.0,), epsilon_grid=(0.1,), cv=2, linear_weight=linear_weight)
    model.fit(saved["X"], saved["y"])
    np.testing.assert_allclose(model.oof_predicted_, saved[oof], atol=1e-9)
    np.testing.assert_allclose(model.predict(saved["X"]), saved[predicted], atol=1e-6)
