"""Use case "evaluate against effort": how the confidence tracks the real post-editing effort a project holds.

Without a document: the whole training procedure (the ``label`` given, default
as ``train`` chooses) cross-validated by document on the dev data; with a
document: the stored model on it. Per candidate with the measure: Pearson and
Spearman of the confidence with post-editing time per source word, HTER
(against its own post-edit), keystrokes per source word and the effort score
(as imported; its direction is in the report); for a model of effort scores
also MAE, RMSE and DeltaAvg of the predicted score (the WMT12 QE measures,
:mod:`tmtprime.recommend.effort_metrics`). Only the feature cache is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from sklearn.model_selection import GroupKFold

from tmtprime.errors import ModelError, UsageError
from tmtprime.progress import Reporter
from tmtprime.recommend.applicability import card_features, used_features
from tmtprime.recommend.confidence import confidence
from tmtprime.recommend.effort_metrics import EffortFit, pearson, spearman
from tmtprime.recommend.labels import LABELS, best_labels, candidate_labels, default_label, effort_sign
from tmtprime.recommend.regressor import EffortRegressor
from tmtprime.store import Store
from tmtprime.workflows.model_choice import model_for
from tmtprime.workflows.project_data import crossfit_qe, fit_extractor, load_segments, project_rows, uses_qe, wants_qe
from tmtprime.workflows.training import default_model

MEASURES = ("time per word", "HTER", "keystrokes per word", "effort score")


@dataclass
class EffortResult:
    """Correlations of the confidence (higher = less effort) with each effort measure held, and the score fit."""

    scope: str
    label: str
    correlations: dict[str, tuple[int, float, float]] = field(default_factory=dict)
    """Measure -> (candidates, Pearson, Spearman)."""
    effort_fit: EffortFit | None = None
    effort_direction: str = ""

    def render(self) -> str:
        lines = [f"confidence against real post-editing effort ({self.scope}; model label {self.label}); "
                 "higher confidence = less effort expected, so good correlations are negative "
                 "(positive for a higher-is-less effort score)"]
        for measure, (n, r, rho) in self.correlations.items():
            extra = f" ({self.effort_direction})" if measure == "effort score" else ""
            lines.append(f"  {measure}{extra}: Pearson {r:+.3f}, Spearman {rho:+.3f} (n = {n})")
        if not self.correlations:
            lines.append("  (no candidate has post-editing data)")
        if self.effort_fit is not None:
            lines.append(f"  predicted effort score: {self.effort_fit.render()}")
        return "\n".join(lines) + "\n"


def _measures(segments, n_jobs: int) -> dict[str, np.ndarray]:
    words = np.array([max(len(s.source.split()), 1) for s in segments for _ in s.candidates], dtype=np.float64)
    keys = np.array([np.mean([p.keystrokes for p in c.post_edits if p.keystrokes is not None])
                     if any(p.keystrokes is not None for p in c.post_edits) else np.nan
                     for s in segments for c in s.candidates])
    sign = effort_sign(segments)
    return {
        "time per word": candidate_labels(segments, "time"),
        "HTER": candidate_labels(segments, "hter", n_jobs=n_jobs),
        "keystrokes per word": keys / words,
        "effort score": sign * candidate_labels(segments, "effort"),  # as imported
    }


def evaluate_effort(
    store: Store,
    *,
    document: str | None = None,
    model: str | None = None,
    label: str | None = None,
    n_splits: int = 5,
    n_jobs: int = 1,
    reporter: Reporter | None = None,
) -> EffortResult:
    """The confidence against the effort measures of the dev data (cross-validated) or of a document (stored model)."""
    reporter = reporter or Reporter()
    if label is not None and label not in LABELS:
        raise UsageError(f"unknown label {label!r} (expected one of: {', '.join(LABELS)})")
    document_id = store.documents.get(document).id if document is not None else None
    data = (load_segments(store, role="dev", with_post_edits=True) if document_id is None
            else load_segments(store, document_ids=[document_id], with_post_edits=True))
    if not any(p for s in data.segments for c in s.candidates for p in c.post_edits):
        raise ModelError("no post-editing data to evaluate against: import it with --post-edit-col, --pe-time-col, "
                         "--keystrokes-col or --effort-col")
    chosen = model_for(store, model) if document_id is not None else None
    extractor = fit_extractor(store, qe=chosen is not None and uses_qe(chosen.card), n_jobs=n_jobs, reporter=reporter)
    rows, features = project_rows(store, data, extractor, with_ter=False, n_jobs=n_jobs, reporter=reporter)
    reporter.status("effort measures")
    measures = _measures(data.segments, n_jobs)
    if chosen is None:
        label = label or default_label(data.segments)
        if wants_qe(label, store.tm.count() > 0):
            rows = crossfit_qe(store, data, rows, reporter=reporter)
        sign = effort_sign(data.segments) if label == "effort" else 1.0
        y = candidate_labels(data.segments, label, n_jobs=n_jobs)
        conf, predicted = _cross_validated(rows, y, label, n_splits, n_jobs, reporter)
        by = "document" if len(set(rows.groups)) >= n_splits else "segment (fewer documents than folds)"
        scope = f"the whole training procedure cross-validated in {n_splits} folds grouped by {by}"
    else:
        chosen.model.set_params(n_jobs=n_jobs)
        rec = chosen.model.recommend(card_features(chosen.card, rows.feature_names).model_input(rows))
        label = chosen.card.get("label", {}).get("name", "ter")
        sign = float(chosen.card.get("label", {}).get("sign", 1.0))
        conf = rec.probability if isinstance(chosen.model, EffortRegressor) else confidence(rec.predicted_ter)
        predicted = rec.predicted_ter
        scope = f"model {chosen.name!r} on document {document!r}"
    reporter.check()
    features.save(store)
    out = EffortResult(scope, label, effort_direction="higher = less effort" if effort_sign(data.segments) < 0
                       else "higher = more effort")
    for measure in MEASURES:
        held = np.isfinite(measures[measure])
        if held.sum() >= 3:
            out.correlations[measure] = (int(held.sum()), pearson(conf, measures[measure]), spearman(conf, measures[measure]))
    if label == "effort":
        out.effort_fit = EffortFit.of(sign * predicted, measures["effort score"], higher_is_better=sign < 0)
    return out


def _cross_validated(rows, y: np.ndarray, label: str, n_splits: int, n_jobs: int, reporter: Reporter) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold confidence and prediction of every candidate, each fold trained as ``train`` would."""
    groups = rows.groups if len(set(rows.groups)) >= n_splits else rows.segments
    conf = np.full(len(y), np.nan)
    predicted = np.full(len(y), np.nan)
    splits = list(GroupKFold(n_splits=n_splits).split(rows.X, groups=groups))
    reporter.status("cross-validation")
    for done, (train_rows, test_rows) in enumerate(splits):
        reporter.check()
        reporter.progress(done, len(splits))
        train_mask = np.zeros(len(y), dtype=bool)
        train_mask[train_rows] = True
        train = rows.rows(train_mask)
        used = used_features(train.X, train.feature_names)
        model = default_model(label, y[train_mask], train, n_jobs)
        if isinstance(model, EffortRegressor):
            labelled = np.isfinite(y[train_mask])
            model.fit(used.model_input(train.rows(labelled)), y[train_mask][labelled], groups=train.groups[labelled])
            rec = model.recommend(used.model_input(rows.rows(~train_mask)))
            conf[~train_mask], predicted[~train_mask] = rec.probability, rec.predicted_ter
        else:
            model.fit(used.model_input(train), best_labels(y[train_mask], train.segments), ter=y[train_mask], groups=train.groups)
            rec = model.recommend(used.model_input(rows.rows(~train_mask)))
            conf[~train_mask], predicted[~train_mask] = confidence(rec.predicted_ter), rec.predicted_ter
    reporter.finish_phase()
    return conf, predicted
