"""The SVM recommender: selection, the MT threshold, validation, progress."""

import numpy as np
import pytest

from tmtprime.errors import Cancelled, ModelError, ModelInputError, TmtprimeError
from tmtprime.progress import Reporter
from tmtprime.recommend.grouping import grouped_input
from tmtprime.recommend.svm import TMTprimeRecommender
from tmtprime.recommend.picks import Picks


def toy(n_seg: int = 120, seed: int = 0):
    """Segments of 3 candidates; feature 0 is (noisily) the candidate's TER."""
    rng = np.random.default_rng(seed)
    ter = rng.uniform(0, 100, size=(n_seg, 3))
    X = np.column_stack([ter.ravel() + rng.normal(0, 10, ter.size), rng.normal(size=ter.size)])
    seg = np.repeat(np.arange(n_seg), 3)
    y = (ter.ravel() <= np.repeat(ter.min(axis=1), 3)).astype(int)
    groups = seg % 6
    return X, y, ter.ravel(), seg, groups


def small() -> TMTprimeRecommender:
    return TMTprimeRecommender(C_grid=(1.0,), gamma_grid=(1.0,), ter_C_grid=(10.0,), cv=3)


@pytest.fixture(scope="module")
def fitted():
    X, y, ter, seg, groups = toy()
    Xg = grouped_input(X, seg)
    return small().fit(Xg, y, ter=ter, groups=groups), (Xg, y, ter, seg)


def test_learns_to_pick_low_ter_candidates(fitted):
    model, (X, y, ter, seg) = fitted
    rec = model.recommend(X)
    assert len(rec.rows) == seg.max() + 1
    picked = ter[rec.rows].mean()
    assert picked < ter.reshape(-1, 3).mean() - 15  # far better than a random candidate
    proba = model.predict_proba(X)
    assert proba.shape == (len(X), 2) and np.allclose(proba.sum(axis=1), 1)
    assert np.corrcoef(model.predict_ter(X), ter)[0, 1] > 0.8
    assert model.predict(X).sum() == seg.max() + 1
    assert model.n_features_in_ == 4  # segment, TM flag, two features
    assert 0 < model.oof_probability_.min() and model.oof_probability_.max() < 1
    assert 0.5 < model.score(X, y) <= 1.0


def test_segment_numbers_need_not_be_contiguous(fitted):
    model, (X, _, _, _) = fitted
    gappy = X.copy()
    gappy[:, 0] = X[:, 0] * 7 + 1000
    np.testing.assert_array_equal(model.predict(gappy), model.predict(X))
    np.testing.assert_array_equal(model.recommend(gappy).rows, model.recommend(X).rows)


def test_wrong_input_is_refused_with_a_typed_clear_message(fitted):
    model, (X, y, ter, seg) = fitted
    with pytest.raises(ModelInputError, match="X has 3 features, but TMTprimeRecommender is expecting 4"):
        model.recommend(np.zeros((3, 3)))
    with pytest.raises(ModelInputError, match="column 0 of X must hold each row's segment number"):
        model.predict(np.column_stack([X[:, :1] + 0.5, X[:, 1:]]))
    with pytest.raises(ModelInputError, match="column 1 of X must be 1 for a TM match"):
        model.predict(np.column_stack([X[:, :1], X[:, 1:2] + 2, X[:, 2:]]))
    with pytest.raises(ModelInputError, match="NaN"):
        model.predict(np.where(np.arange(X.size).reshape(X.shape) == 5, np.nan, X))
    with pytest.raises(ModelInputError, match="one segment number per row"):
        grouped_input(X[:, 2:], seg[:-1])
    with pytest.raises(ModelInputError, match="labels must be 0/1"):
        TMTprimeRecommender().fit(X, y + 1, ter=ter)
    with pytest.raises(ModelInputError, match="both classes .got one class only.: best and non-best"):
        TMTprimeRecommender().fit(X, np.ones_like(y), ter=ter)
    with pytest.raises(ModelInputError, match="fit needs ter="):
        TMTprimeRecommender().fit(X, y)
    with pytest.raises(ModelInputError, match="probability between 0 and 1"):
        model.recommend(X, mt_threshold=2.0)
    # typed: the CLI shows every one of these as one line (TmtprimeError), scikit-learn sees a ValueError
    assert issubclass(ModelInputError, ModelError) and issubclass(ModelInputError, TmtprimeError)
    assert issubclass(ModelInputError, ValueError)


def test_ties_go_to_the_tm_and_the_mt_threshold_falls_back_to_it():
    prob = np.array([0.4, 0.4, 0.2, 0.3, 0.6, 0.1])
    seg = np.array([0, 0, 0, 1, 1, 1])
    is_tm = np.array([False, True, False, True, False, False])
    rec = Picks.from_scores(prob, np.zeros(6), seg, is_tm)
    assert list(rec.rows) == [1, 4]  # tie in segment 0 goes to the TM match
    # P(TM not best) in segment 1 is 0.7: MT stays at threshold 0.7, the TM comes back at 0.8
    assert list(Picks.from_scores(prob, np.zeros(6), seg, is_tm, mt_threshold=0.7).rows) == [1, 4]
    assert list(Picks.from_scores(prob, np.zeros(6), seg, is_tm, mt_threshold=0.8).rows) == [1, 3]


def test_a_single_document_trains_with_segment_folds():
    X, y, ter, seg, _ = toy(60)
    model = TMTprimeRecommender(C_grid=(1.0,), gamma_grid=(1.0,), ter_C_grid=(10.0,), cv=2)
    Xg = grouped_input(X, seg)
    model.fit(Xg, y, ter=ter, groups=np.zeros(len(X), dtype=int))
    assert len(model.recommend(Xg).rows) == 60


def test_mt_over_tm_decision_is_platt_scaled_on_the_predicted_ter_margin():
    X, y, ter, seg, groups = toy(150, seed=3)
    Xg = grouped_input(X, seg, ["tm", "mt", "mt"] * 150)
    model = small().fit(Xg, y, ter=ter, groups=groups)
    assert model.mt_platt_ is not None and model.oof_mt_probability_.shape == (150,)
    rec = model.recommend(Xg)
    p = rec.mt_probability
    assert p.shape == (150,) and np.all((p > 0) & (p < 1))
    # the larger the TM match's predicted TER over the best MT output, the surer MT wins
    margin = rec.predicted_ter[0::3] - np.minimum(rec.predicted_ter[1::3], rec.predicted_ter[2::3])
    assert np.all(np.diff(p[np.argsort(margin)]) >= 0)
    # it tracks reality: segments where an MT output really beats the TM match score higher
    beaten = np.minimum(ter[1::3], ter[2::3]) < ter[0::3]
    assert p[beaten].mean() > p[~beaten].mean() + 0.2
    # the knob: MT over the TM match only where P(MT beats TM) >= X
    strict = model.recommend(Xg, mt_threshold=0.9)
    mt_kept = strict.rows % 3 != 0
    assert np.all(p[mt_kept] >= 0.9)
    assert np.all(strict.rows[~mt_kept & (rec.rows % 3 != 0)] % 3 == 0)


def test_without_tm_rows_there_is_no_mt_decision(fitted):
    model, (X, _, _, _) = fitted
    assert model.mt_platt_ is None
    assert np.all(np.isnan(model.recommend(X).mt_probability))


class Recording(Reporter):
    def __init__(self, cancel_at: str | None = None) -> None:
        super().__init__()
        self.statuses: list[str] = []
        self.progress_calls: list[tuple[int, int | None]] = []
        self.cancel_at = cancel_at

    def on_status(self, text: str) -> None:
        self.statuses.append(text)
        if self.cancel_at and text.startswith(self.cancel_at):
            self.request_cancel()

    def on_progress(self, done: int, total: int | None) -> None:
        self.progress_calls.append((done, total))


def test_fit_reports_its_phases_and_can_be_cancelled():
    X, y, ter, seg, groups = toy(60)
    Xg = grouped_input(X, seg)
    reporter = Recording()
    TMTprimeRecommender(C_grid=(1.0, 3.0), gamma_grid=(1.0,), ter_C_grid=(10.0,), cv=3, reporter=reporter).fit(
        Xg, y, ter=ter, groups=groups
    )
    assert reporter.statuses[0] == "TER regressor: grid search: 1 settings x 3 folds"
    assert "classifier: grid search: 2 settings x 3 folds" in reporter.statuses
    assert "calibration (Platt scaling)" in reporter.statuses
    assert reporter.statuses[-1] == "classifier: final fit on all rows"
    assert (3, 3) in reporter.progress_calls  # the out-of-fold folds are counted
    with pytest.raises(Cancelled):
        small().set_params(reporter=Recording(cancel_at="classifier")).fit(Xg, y, ter=ter, groups=groups)
