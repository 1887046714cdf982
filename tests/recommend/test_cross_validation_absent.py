"""Cross-validation trains each fold as ``tmtprime train`` does: columns absent from every row dropped, gaps filled."""

import numpy as np

from tmtprime.recommend.dataset import CandidateRows
from tmtprime.recommend.evaluation import cross_validate
from tmtprime.recommend.svm import TMTprimeRecommender


def test_absent_columns_do_not_stop_cross_validation():
    rng = np.random.default_rng(0)
    n_seg, per = 48, 3
    segments = np.repeat(np.arange(n_seg), per)
    kinds = np.array(["tm", "mt", "repair"] * n_seg, dtype=object)
    ter = rng.uniform(0, 100, n_seg * per)
    X = np.column_stack([ter / 100 + rng.normal(0, 0.1, len(ter)), rng.normal(size=len(ter)),
                         np.full(len(ter), np.nan),  # absent everywhere (no TM, no repair...)
                         np.where(kinds == "repair", ter / 100, np.nan)])  # absent for the other kinds
    rows = CandidateRows(X=X, feature_names=("a", "b", "absent", "repair_only"), segments=segments,
                         groups=np.array([f"doc{s % 4}" for s in segments], dtype=object),
                         systems=kinds.copy(), kinds=kinds, fuzzy=np.full(len(ter), 80.0), ter=ter)
    cv = cross_validate(rows, lambda: TMTprimeRecommender(n_jobs=1), n_splits=4)
    assert np.all(np.isfinite(cv.probability)) and len(cv.picks) == n_seg
    assert np.all(segments[cv.picks] == np.arange(n_seg))
