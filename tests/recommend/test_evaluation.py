"""Evaluation pieces: calibration table, decision curve, baselines learned on training rows."""

import numpy as np
import pytest

from tmtprime.recommend.dataset import CandidateRows
from tmtprime.recommend.evaluation import Baselines, calibration_table, decision_curve, mt_over_tm


def rows(ter, kinds, systems, fuzzy):
    n_seg = len(ter) // len(kinds)
    k = len(kinds)
    return CandidateRows(
        X=np.zeros((len(ter), 1)),
        feature_names=("x",),
        segments=np.repeat(np.arange(n_seg), k),
        groups=np.repeat(np.arange(n_seg), k).astype(object),
        systems=np.array(systems * n_seg, dtype=object),
        kinds=np.array(kinds * n_seg, dtype=object),
        fuzzy=np.repeat(np.asarray(fuzzy, dtype=float), k),
        ter=np.asarray(ter, dtype=float),
    )


def test_expected_calibration_error():
    p = np.array([0.05, 0.05, 0.95, 0.95])
    ece, table = calibration_table(p, np.array([0.0, 0.0, 1.0, 1.0]))
    assert ece == pytest.approx(0.05)
    assert sum(b.count for b in table) == 4
    ece, _ = calibration_table(np.array([0.9, 0.9]), np.array([0.0, 0.0]))
    assert ece == pytest.approx(0.9)


def test_decision_curve_precision_and_recall():
    points = decision_curve(np.array([0.9, 0.8, 0.3, 0.2]), np.array([True, False, True, False]), [0.5, 0.1])
    assert (points[0].precision, points[0].recall) == (0.5, 0.5)
    assert (points[1].precision, points[1].recall) == (0.5, 1.0)
    assert points[0].precision_ties_right is None


def test_ties_between_mt_and_tm_are_not_positives_but_are_reported():
    # three segments with a 60 % TM match: MT better, MT tied, MT worse
    r = rows([40.0, 20.0, 30.0, 30.0, 10.0, 50.0], ["tm", "mt"], ["tm", "a"], [60.0, 60.0, 60.0])
    scores, positive, tied = mt_over_tm(r, np.zeros(6), np.array([0.9, 0.8, 0.7]))
    assert list(positive) == [True, False, False]
    assert list(tied) == [False, True, False]
    (at_075,) = decision_curve(scores, positive, [0.75], tied)
    assert (at_075.precision, at_075.recall, at_075.precision_ties_right) == (0.5, 1.0, 1.0)
    (at_0,) = decision_curve(scores, positive, [0.0], tied)
    assert at_0.precision == pytest.approx(1 / 3) and at_0.precision_ties_right == pytest.approx(2 / 3)


def test_baselines_best_system_and_fuzzy_rule():
    # two segments: a 90 % TM match that is perfect, a 40 % match that is bad; "b" is the better MT
    r = rows([0.0, 50.0, 30.0, 80.0, 60.0, 20.0], ["tm", "mt", "mt"], ["tm", "a", "b"], [90.0, 40.0])
    base = Baselines.learn(r)
    assert base.best_mt == "b"
    assert base.systems_by_ter[0] == "b"
    assert list(base.rule_picks(r)) == [0, 5]
    assert 40.0 < base.rule_threshold <= 90.0
    scores, positive, tied = mt_over_tm(r, np.array([0.9, 0.1, 0.1, 0.2, 0.4, 0.4]))
    assert list(positive) == [False]  # only the 90 % segment counts (fuzzy >= 50); its TM is best
    assert list(tied) == [False]
    assert scores[0] == pytest.approx(0.1)
