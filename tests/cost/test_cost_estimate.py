"""Band calibration and the plan arithmetic, on small jobs built by hand."""

from __future__ import annotations

import numpy as np
import pytest

from tmtprime.cost import BandCalibration, CostScheme, Job, estimate_job, fit_band_calibration, load_scheme
from tmtprime.errors import InputError, UnknownSystem


def _job(sources, rows, picks, *, actual=None, documents=None):
    """rows: (segment, system, kind, fuzzy, predicted_ter)."""
    seg, systems, kinds, fuzzy, pred = zip(*rows)
    n = len(rows)
    return Job(
        sources=list(sources),
        documents=np.array(documents or ["a.po"] * len(sources), dtype=object),
        segments=np.array(seg),
        systems=np.array(systems, dtype=object),
        kinds=np.array(kinds, dtype=object),
        fuzzy=np.array([np.nan if f is None else f for f in fuzzy], dtype=float),
        predicted_ter=np.array(pred, dtype=float),
        probability=np.full(n, 0.5),
        actual_ter=np.full(n, np.nan) if actual is None else np.array(actual, dtype=float),
        picks=np.array(picks),
    )


SOURCES = ["Open the file now", "Save the image as a new copy", "Open the file now", "Print"]
ROWS = [
    (0, "tm", "tm", 100.0, 0.0), (0, "mt1", "mt", None, 40.0),
    (1, "tm", "tm", 60.0, 55.0), (1, "mt1", "mt", None, 10.0),
    (2, "tm", "tm", 100.0, 0.0), (2, "mt1", "mt", None, 40.0),
    (3, "mt1", "mt", None, 60.0),
]


def test_point_pricing_repetitions_and_new_segments():
    scheme = load_scheme("matecat")
    est = estimate_job(_job(SOURCES, ROWS, [0, 3, 4, 6]), scheme, calibration=None)
    assert est.words == 4 + 7 + 4 + 1 and est.repeated_segments == 1
    assert any("no band calibration" in n for n in est.notes)
    tm = est.plan("tm")
    # CAT convention: 100 % -> 30, 60 % -> 100, the repeated 100 % match stays 30, "Print" has no TM match: new 100
    assert tm.cat_weighted_words == pytest.approx(4 * 0.3 + 7 * 1.0 + 4 * 0.3 + 1 * 1.0)
    # expected (no calibration): the band of the predicted TER -> 100 (TER 0), 50-74 (TER 55: match 45 -> 0-49), ...
    assert tm.weighted_words == pytest.approx(4 * 0.3 + 7 * 1.0 + 4 * 0.3 + 1 * 1.0)
    mt = est.plan("mt1")
    # match 60 -> 100 %, match 90 -> 60 %, the repetition of segment 0 at most 30 %, match 40 -> 100 %
    assert mt.weighted_words == pytest.approx(4 * 1.0 + 7 * 0.6 + 4 * 0.3 + 1 * 1.0)
    tp = est.plan("tmtprime")
    assert tp.weighted_words == pytest.approx(4 * 0.3 + 7 * 0.6 + 4 * 0.3 + 1 * 1.0)
    assert tp.cost == pytest.approx(tp.weighted_words * 0.10)
    assert tp.by_system == {"tm": {"segments": 2, "words": 8}, "mt1": {"segments": 2, "words": 8}}
    assert tp.savings_vs_best_single == pytest.approx(min(tm.cost, mt.cost) - tp.cost)
    assert est.analysis["a.po"]["100"]["segments"] == 2 and est.analysis["a.po"]["new"]["segments"] == 1
    assert est.plan("cost-aware").cost <= min(p.cost for p in est.single_plans) + 1e-12
    assert est.plan("tm").actual_cost is None and est.to_dict()["plans"][0]["actual_cost"] is None


def test_base_costs_make_the_cost_aware_choice_differ_from_the_lowest_ter():
    data = load_scheme("matecat").to_dict()
    data["systems"] = {"mt1": {"base": 1.0, "per": "character"}}
    scheme = CostScheme.from_dict(data)
    est = estimate_job(_job(SOURCES, ROWS, [0, 3, 4, 6]), scheme, calibration=None)
    tp, aware = est.plan("tmtprime"), est.plan("cost-aware")
    assert tp.by_system["mt1"]["segments"] == 2 and tp.base_cost == pytest.approx(len(SOURCES[1]) + len(SOURCES[3]))
    # segment 1: MT saves 0.28 in post-editing but costs 28 characters; the TM match is cheaper
    assert "mt1" not in aware.by_system  # nor for "Print": translating 1 word from scratch beats 5 characters
    assert aware.by_system["(none)"]["segments"] == 1
    assert aware.cost < tp.cost
    assert aware.cost <= min(p.cost for p in est.single_plans)


def test_leaving_a_system_out_rechooses_among_the_rest_from_stored_predictions():
    est = estimate_job(_job(SOURCES, ROWS, [0, 3, 4, 6]), load_scheme("matecat"), calibration=None, systems=["tm"])
    assert [p.plan for p in est.plans] == ["tm", "rule", "tmtprime", "cost-aware"]
    tp = est.plan("tmtprime")
    assert tp.by_system == {"tm": {"segments": 3, "words": 15}, "(none)": {"segments": 1, "words": 1}}
    assert any("re-chosen" in n for n in est.notes)
    with pytest.raises(UnknownSystem, match="no system named 'deepl'"):
        estimate_job(_job(SOURCES, ROWS, [0, 3, 4, 6]), load_scheme("matecat"), calibration=None, systems=["deepl"])


def test_flat_mt_pricing():
    data = load_scheme("matecat").to_dict()
    data["mt"]["pricing"] = "flat"
    est = estimate_job(_job(SOURCES, ROWS, [0, 3, 4, 6]), CostScheme.from_dict(data), calibration=None)
    assert est.plan("mt1").weighted_words == pytest.approx(4 * 0.67 + 7 * 0.67 + 4 * 0.3 + 1 * 0.67)


def test_actual_cost_comes_from_the_ter_against_the_reference():
    actual = [0.0, 50.0, 30.0, 0.0, np.nan, np.nan, 70.0]  # segment 2 has no reference
    est = estimate_job(_job(SOURCES, ROWS, [0, 3, 4, 6], actual=actual), load_scheme("matecat"), calibration=None)
    assert est.reference_segments == 3
    tp = est.plan("tmtprime")
    # picks: TER 0 -> 30 %, TER 0 -> 30 %, TER 70 (match 30) -> 100 %
    assert tp.actual_weighted_words == pytest.approx(4 * 0.3 + 7 * 0.3 + 1 * 1.0)
    assert tp.estimate_on_references == pytest.approx((4 * 0.3 + 7 * 0.6 + 1 * 1.0) * 0.10)
    assert tp.error_pct == pytest.approx((tp.estimate_on_references - tp.actual_cost) / tp.actual_cost * 100)
    assert est.confusion["segments"] == 3 and sum(map(sum, est.confusion["counts"])) == 3


def test_calibration_removes_the_bias_of_pricing_the_predicted_band():
    """Predictions that regress to the mean put everything in the middle band; the expected rate does not."""
    rng = np.random.default_rng(0)
    true = rng.uniform(0, 100, 6000)
    predicted = 50 + 0.4 * (true - 50) + rng.normal(0, 8, len(true))
    scheme = load_scheme("matecat")
    table = scheme.quality_payable()
    train, test = slice(0, 3000), slice(3000, None)
    cal = fit_band_calibration(predicted[train], true[train], ["mt"] * 3000)
    actual_total = table[np.clip(np.floor(100 - true[test]), 0, 100).astype(int)].sum()
    point_total = table[np.clip(np.floor(100 - predicted[test]), 0, 100).astype(int)].sum()
    expected_total = cal.expected_payable("mt", predicted[test], table).sum()
    assert abs(expected_total - actual_total) / actual_total < 0.02
    assert abs(point_total - actual_total) / actual_total > 0.05
    again = BandCalibration.from_card({"cost_calibration": cal.to_dict()})
    assert again is not None
    assert np.allclose(again.expected_payable("mt", predicted[test], table), cal.expected_payable("mt", predicted[test], table))
    assert BandCalibration.from_card({}) is None


def test_actual_cost_from_post_editing_time_and_the_oracle_plan():
    data = load_scheme("matecat").to_dict()
    data["hourly_rate"] = 36.0  # 0.01 per second
    scheme = CostScheme.from_dict(data)
    assert CostScheme.from_dict(scheme.to_dict()).hourly_rate == 36.0
    job = _job(SOURCES, ROWS, [0, 3, 4, 6], actual=[0.0, 50.0, 70.0, 5.0, 0.0, 50.0, 80.0])
    job.actual_time_ms = np.array([1000.0, np.nan, 60000.0, 2000.0, np.nan, np.nan, 9000.0])
    est = estimate_job(job, scheme, calibration=None)
    tp, tm = est.plan("tmtprime"), est.plan("tm")
    # TMTprime's picks: rows 0, 3, 4, 6; timed: 0 (1 s), 3 (2 s), 6 (9 s) -> 12 s at 0.01 per second
    assert (tp.actual_time_cost, tp.time_segments) == (pytest.approx(0.12), 3)
    assert tm.time_segments == 2 and tm.actual_time_cost == pytest.approx(0.61)
    oracle = est.plan("oracle")
    assert oracle.actual_cost <= min(p.actual_cost for p in est.plans)
    assert oracle.by_system["mt1"]["segments"] >= 1  # segment 1: the MT output (TER 5) beats the TM match (TER 70)
    with pytest.raises(InputError, match="hourly_rate"):
        CostScheme.from_dict({**data, "hourly_rate": -1})
