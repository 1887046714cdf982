"""Evaluation of the recommender on data with references.

Everything a user (or the quality benchmark) asks of a recommender, measured
the same way in ``tmtprime evaluate`` and ``bench/recommend_quality.py``:

* mean sentence TER of the picks, of every single system, of the per-segment
  oracle and of the rule "TM if fuzzy >= T else the best MT system" (T and
  the best systems chosen on the training folds, never on the test fold);
* the share of the gap between the best single system and the oracle that the
  picks close;
* precision/recall of the MT-over-TM decision at several thresholds;
* Pearson r of the confidence with the TER and the Meteor score of the pick;
* calibration of the probability (reliability table, expected calibration error).

**MT-over-TM decisions** are judged on segments whose TM match has a fuzzy
score of at least 50. A segment is *positive* when some MT candidate has a
strictly lower TER than the TM match, i.e. when the TM match is not among the
best candidates. The recommender decides "MT" at threshold X when
P(an MT output beats the TM match) >= X — the model's dedicated, Platt-scaled
decision (:meth:`TMTprimeRecommender._fit_mt_decision`), or 1 - P(best | TM
match) for predictions that do not carry it. A tie between the best MT output
and the TM match is not a positive (the TM match is the cheaper start); the
table also shows the precision if such no-loss ties counted as right, because
they are a large share of the "wrong" MT decisions on real data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from sklearn.model_selection import GroupKFold

from tmtprime.errors import ModelError
from tmtprime.progress import Reporter, silent
from tmtprime.recommend.applicability import used_features
from tmtprime.recommend.confidence import confidence
from tmtprime.recommend.dataset import CandidateRows
from tmtprime.recommend.grouping import segment_min
from tmtprime.recommend.svm import TMTprimeRecommender
from tmtprime.recommend.picks import first_per_segment

RULE_THRESHOLDS = (50.0, 60.0, 70.0, 75.0, 80.0, 85.0, 90.0, 95.0, 100.0, 101.0)
"""Candidate values of T for the fuzzy rule (101 = never use the TM)."""
DECISION_THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
MIN_DECISION_FUZZY = 50.0
CALIBRATION_BINS = 10


@dataclass
class Baselines:
    """What the training folds say about single systems: their ranking and the fuzzy rule's T."""

    systems_by_ter: list[str]
    best_mt: str | None
    rule_threshold: float

    @classmethod
    def learn(cls, rows: CandidateRows) -> Baselines:
        if rows.ter is None:
            raise ModelError("baselines need references (TER) on the training data")
        systems = sorted(set(rows.systems))
        means = {s: float(rows.ter[rows.systems == s].mean()) for s in systems}
        ranking = sorted(systems, key=lambda s: means[s])
        mt = [s for s in ranking if s in set(rows.systems[rows.kinds == "mt"])]
        best_mt = mt[0] if mt else None
        base = cls(ranking, best_mt, 101.0)
        scores = {t: base.rule_picks(rows, t) for t in RULE_THRESHOLDS}
        base.rule_threshold = min(RULE_THRESHOLDS, key=lambda t: rows.ter[scores[t]].mean())
        return base

    def single_picks(self, rows: CandidateRows, system: str | None = None) -> np.ndarray:
        """Row of each segment given by ``system`` (default: the best-ranked system the segment has)."""
        ranking = [system] if system is not None else self.systems_by_ter
        rank = {s: i for i, s in enumerate(ranking)}
        key = np.array([rank.get(s, len(rank)) for s in rows.systems])
        return first_per_segment(rows.segments, key, np.zeros(len(key)))

    def rule_picks(self, rows: CandidateRows, threshold: float | None = None) -> np.ndarray:
        """Row of each segment under "TM if fuzzy >= T else the best MT system"."""
        t = self.rule_threshold if threshold is None else threshold
        is_tm = rows.kinds == "tm"
        prefer_tm = rows.fuzzy >= t
        key = np.where(is_tm & prefer_tm, 0, np.where(rows.systems == self.best_mt, 1, np.where(is_tm, 3, 2)))
        return first_per_segment(rows.segments, key, np.zeros(len(key)))


@dataclass
class CrossValidated:
    """Out-of-fold predictions for every row and every segment's picks."""

    rows: CandidateRows
    probability: np.ndarray
    predicted_ter: np.ndarray
    picks: np.ndarray
    pick_probability: np.ndarray
    """P(the pick is best) of each segment, calibrated on picks."""
    single: np.ndarray
    rule: np.ndarray
    single_name_by_fold: list[str] = field(default_factory=list)
    rule_threshold_by_fold: list[float] = field(default_factory=list)
    mt_probability: np.ndarray | None = None
    """P(an MT output beats the TM match) of each segment (NaN without both kinds); None: use 1 - P(best | TM)."""


def cross_validate(
    rows: CandidateRows,
    make_model: Callable[[], TMTprimeRecommender],
    *,
    n_splits: int = 5,
    reporter: Reporter | None = None,
) -> CrossValidated:
    """Grouped (by document) cross-validation of the whole training procedure (progress per fold; cancel between folds)."""
    reporter = silent(reporter)
    if rows.ter is None:
        raise ModelError("evaluation needs references: import development data with a reference column")
    seg_groups = np.empty(rows.n_segments, dtype=object)
    seg_groups[rows.segments] = rows.groups
    n_groups = len(set(seg_groups))
    if n_groups < 2:
        raise ModelError("cross-validation by document needs development data from at least two documents")
    splitter = GroupKFold(n_splits=min(n_splits, n_groups))
    prob = np.zeros(len(rows.X))
    ter = np.zeros(len(rows.X))
    picks = np.zeros(rows.n_segments, dtype=np.int64)
    pick_prob = np.zeros(rows.n_segments)
    single = np.zeros(rows.n_segments, dtype=np.int64)
    rule = np.zeros(rows.n_segments, dtype=np.int64)
    mt_prob = np.full(rows.n_segments, np.nan)
    result = CrossValidated(rows, prob, ter, picks, pick_prob, single, rule, mt_probability=mt_prob)
    splits = list(splitter.split(np.zeros(rows.n_segments), groups=seg_groups))
    for k, (train_seg, test_seg) in enumerate(splits):
        reporter.check()
        train, test = rows.subset(train_seg), rows.subset(test_seg)
        used = used_features(train.X, train.feature_names)  # as training does: absent columns dropped or filled
        model = make_model().fit(used.model_input(train), train.labels, ter=train.ter, groups=train.groups)
        rec = model.recommend(used.model_input(test))
        test_rows = np.nonzero(np.isin(rows.segments, test_seg))[0]  # same order as test's rows
        prob[test_rows] = rec.probability
        ter[test_rows] = rec.predicted_ter
        base = Baselines.learn(train)
        test_segments = np.unique(rows.segments[test_rows])
        picks[test_segments] = test_rows[rec.rows]
        pick_prob[test_segments] = rec.pick_probability
        mt_prob[test_segments] = rec.mt_probability
        single[test_segments] = test_rows[base.single_picks(test)]
        rule[test_segments] = test_rows[base.rule_picks(test)]
        result.single_name_by_fold.append(base.systems_by_ter[0])
        result.rule_threshold_by_fold.append(base.rule_threshold)
        reporter.progress(k + 1, len(splits))
    return result


@dataclass
class DecisionPoint:
    threshold: float
    precision: float
    recall: float
    decided_mt: int
    positives: int
    precision_ties_right: float | None = None
    """Precision when an MT output tied with the TM match also counts as right (same
    editing, see the label tie rule); None when the ties are not known."""


@dataclass
class CalibrationBin:
    low: float
    high: float
    count: int
    mean_probability: float
    accuracy: float


@dataclass
class EvaluationResult:
    n_segments: int
    mean_ter: dict[str, float]
    """``picks``, ``oracle``, ``rule``, ``best single`` and every system by name."""
    best_single: str
    rule_threshold: str
    gap_closed: float
    decisions: list[DecisionPoint]
    pearson_ter: float
    pearson_meteor: float | None
    ece: float
    calibration: list[CalibrationBin]
    probability_pearson_ter: float
    pick_is_best: np.ndarray = field(repr=False)
    pick_probability: np.ndarray = field(repr=False)
    decision_scores: np.ndarray = field(repr=False)
    decision_positive: np.ndarray = field(repr=False)
    decision_tied: np.ndarray = field(repr=False)

    def render(self) -> str:
        lines = [f"segments evaluated: {self.n_segments}", "", "mean sentence TER (lower is better):"]
        for name, value in self.mean_ter.items():
            lines.append(f"  {name:<28} {value:6.2f}")
        lines += [
            f"  (best single system chosen on training folds: {self.best_single}; rule threshold T: {self.rule_threshold})",
            f"gap closed between best single system and oracle: {100 * self.gap_closed:.1f} %",
            "",
            f"MT over TM decisions (segments with fuzzy >= {MIN_DECISION_FUZZY:g}; positive = some MT strictly better than the TM match):",
            "  threshold  precision  recall  decided-MT  positives  precision-if-ties-count-right",
        ]
        for d in self.decisions:
            lines.append(
                f"  {d.threshold:9.2f}  {d.precision:9.3f}  {d.recall:6.3f}  {d.decided_mt:10d}  {d.positives:9d}"
                f"  {d.precision_ties_right:29.3f}"
            )
        meteor = "n/a" if self.pearson_meteor is None else f"{self.pearson_meteor:+.3f}"
        lines += [
            "",
            f"Pearson r of confidence with TER of the pick: {self.pearson_ter:+.3f}; with Meteor of the pick: {meteor}",
            f"  (paper: -0.402 and +0.447; r of the probability alone with TER: {self.probability_pearson_ter:+.3f})",
            "",
            f"calibration of P(pick is the best), expected calibration error {self.ece:.3f}:",
            "  bin          count  mean p  share best",
        ]
        for b in self.calibration:
            if b.count:
                lines.append(f"  {b.low:.1f}-{b.high:.1f}  {b.count:9d}  {b.mean_probability:6.3f}  {b.accuracy:10.3f}")
        return "\n".join(lines)


def calibration_table(probability: np.ndarray, outcome: np.ndarray, bins: int = CALIBRATION_BINS) -> tuple[float, list[CalibrationBin]]:
    """Reliability table with equal-width bins and the expected calibration error."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.clip(np.digitize(probability, edges[1:-1]), 0, bins - 1)
    table = []
    ece = 0.0
    for b in range(bins):
        mask = which == b
        n = int(mask.sum())
        mean_p = float(probability[mask].mean()) if n else 0.0
        acc = float(outcome[mask].mean()) if n else 0.0
        table.append(CalibrationBin(float(edges[b]), float(edges[b + 1]), n, mean_p, acc))
        ece += n / max(len(probability), 1) * abs(mean_p - acc)
    return ece, table


def decision_curve(
    scores: np.ndarray, positive: np.ndarray, thresholds: Sequence[float], tied: np.ndarray | None = None
) -> list[DecisionPoint]:
    """Precision and recall of deciding "MT" when ``scores >= t``, for every threshold ``t``.

    ``tied`` marks segments whose best MT output has exactly the TM match's TER:
    deciding MT there is not counted right (the TM match is the cheaper start), but
    the second precision, ``precision_ties_right``, shows how much of the
    remaining error is such no-loss ties."""
    out = []
    for t in thresholds:
        decided = scores >= t
        n = int(decided.sum())
        tp = int((decided & positive).sum())
        ties_right = None
        if tied is not None:
            ties_right = (tp + int((decided & tied).sum())) / n if n else 1.0
        out.append(
            DecisionPoint(
                float(t),
                tp / n if n else 1.0,
                tp / int(positive.sum()) if positive.any() else 0.0,
                n,
                int(positive.sum()),
                ties_right,
            )
        )
    return out


def best_precision_at_recall(
    scores: np.ndarray, positive: np.ndarray, min_recall: float, tied: np.ndarray | None = None
) -> DecisionPoint | None:
    """The threshold (over every observed score) with the highest precision among those
    whose recall is at least ``min_recall``; None when no threshold reaches that recall."""
    points = [p for p in decision_curve(scores, positive, np.unique(scores), tied) if p.recall >= min_recall]
    return max(points, key=lambda p: (p.precision, p.recall), default=None)


def mt_over_tm(
    rows: CandidateRows, probability: np.ndarray, mt_probability: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per segment with a TM match of fuzzy >= 50: the decision score, whether some MT
    candidate is strictly better than the TM match (best TM candidate of the segment),
    and whether the best MT candidate ties with it (same TER).

    The score is ``mt_probability`` of the segment when given (P(an MT output beats the
    TM match)), else 1 - P(best | TM match)."""
    assert rows.ter is not None
    is_tm = rows.kinds == "tm"
    n = rows.n_segments
    # the segment's best TM candidate: highest fuzzy; ties by row order
    tm_rows = np.nonzero(is_tm)[0]
    best_tm = np.full(n, -1)
    for r in tm_rows[::-1]:
        best_tm[rows.segments[r]] = r if best_tm[rows.segments[r]] < 0 else best_tm[rows.segments[r]]
    has_mt = np.zeros(n, dtype=bool)
    has_mt[rows.segments[~is_tm]] = True
    seg_fuzzy = np.zeros(n)
    seg_fuzzy[rows.segments] = rows.fuzzy
    keep = (best_tm >= 0) & has_mt & (seg_fuzzy >= MIN_DECISION_FUZZY)
    mt_low = np.full(n, np.inf)
    np.minimum.at(mt_low, rows.segments[~is_tm], rows.ter[~is_tm])
    idx = best_tm[keep]
    positive = mt_low[keep] < rows.ter[idx] - 1e-9
    tied = np.abs(mt_low[keep] - rows.ter[idx]) <= 1e-9
    score = 1.0 - probability[idx] if mt_probability is None else mt_probability[keep]
    return score, positive, tied


def report(
    cv: CrossValidated,
    *,
    meteor: Callable[[list[str], list[str]], list[float]] | None = None,
    texts: Sequence[str] | None = None,
    references: Sequence[str] | None = None,
) -> EvaluationResult:
    """The full evaluation of cross-validated (or held-out) predictions.

    ``meteor(hyps, refs)`` scores the picks when given (with the row ``texts``
    and each segment's ``references``); without it the Meteor correlation is n/a.
    """
    rows = cv.rows
    assert rows.ter is not None
    ter = rows.ter
    oracle = segment_min(ter, rows.segments)
    n = rows.n_segments
    seg_oracle = np.zeros(n)
    seg_oracle[rows.segments] = oracle
    mean_ter: dict[str, float] = {
        "TMTprime picks": float(ter[cv.picks].mean()),
        "oracle": float(seg_oracle.mean()),
        "fuzzy rule": float(ter[cv.rule].mean()),
        "best single system": float(ter[cv.single].mean()),
    }
    for system in sorted(set(rows.systems)):
        mask = rows.systems == system
        mean_ter[f"system {system}"] = float(ter[mask].mean())
    gap = mean_ter["best single system"] - mean_ter["oracle"]
    gap_closed = (mean_ter["best single system"] - mean_ter["TMTprime picks"]) / gap if gap > 0 else 0.0

    pick_prob = cv.pick_probability
    pick_best = ter[cv.picks] <= seg_oracle + 1e-9
    conf = confidence(cv.predicted_ter[cv.picks])
    ece, table = calibration_table(pick_prob, pick_best.astype(np.float64))
    scores, positive, tied = mt_over_tm(rows, cv.probability, cv.mt_probability)
    pearson_meteor = None
    if meteor is not None and texts is not None and references is not None:
        meteor_scores = np.asarray(meteor([texts[r] for r in cv.picks], list(references)))
        pearson_meteor = _pearson(conf, meteor_scores)
    names = sorted(set(cv.single_name_by_fold))
    thresholds = sorted(set(cv.rule_threshold_by_fold))
    return EvaluationResult(
        n_segments=n,
        mean_ter=mean_ter,
        best_single=", ".join(names),
        rule_threshold=", ".join("never" if t > 100 else f"{t:g}" for t in thresholds),
        gap_closed=gap_closed,
        decisions=decision_curve(scores, positive, DECISION_THRESHOLDS, tied),
        pearson_ter=_pearson(conf, ter[cv.picks]),
        pearson_meteor=pearson_meteor,
        ece=ece,
        calibration=table,
        probability_pearson_ter=_pearson(pick_prob, ter[cv.picks]),
        pick_is_best=pick_best,
        pick_probability=pick_prob,
        decision_scores=scores,
        decision_positive=positive,
        decision_tied=tied,
    )


def meteor_function(lang: str) -> Callable[[list[str], list[str]], list[float]]:
    """Sentence Meteor (exact + stem modules) of hypotheses against one reference each."""
    try:
        from tmtprime.meteor import Meteor  # type: ignore[attr-defined]
    except ImportError:
        from tmtprime.meteor.scorer import Meteor

    scorer = Meteor(lang=lang, modules=("exact", "stem"))
    return lambda hyps, refs: [scorer.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]


def _pearson(a: np.ndarray, b: np.ndarray) -> float:
    if len(a) < 2 or np.std(a) == 0 or np.std(b) == 0:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])

