"""Use case "train": the recommender learnt from the project's development data.

Every candidate of the dev segments is labelled (``label``: TER against the
reference, HTER against its own post-edit, time per word or effort score; see
:mod:`tmtprime.recommend.labels`), features come from the project's TM (none:
MT-only, the TM features absent) and, for effort labels or without a TM, black-box
QE features from the project's corpora and the dev data's post-edits and references,
cross-fitted (:func:`~tmtprime.workflows.project_data.crossfit_qe`), the model is fitted with grouped
cross-validation, and the model goes into the store with skops and a model
card (label and unit, its cross-validated figures, what the training data
looked like). The "is the best" classifier learns where candidates compete on
TER or HTER; otherwise (one candidate per segment, time or effort labels) the
effort regressor. The model and the new feature vectors are stored after the
last cancel check, so a cancelled training leaves the project as it was.
"""

from __future__ import annotations

import platform
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from tmtprime.errors import ModelError, UsageError
from tmtprime.features.extractor import FEATURE_SET_VERSION
from tmtprime.features.qe import QE_FEATURE_SET_VERSION
from tmtprime.features.repair import REPAIR_FEATURE_SET_VERSION, REPAIR_NAMES
from tmtprime.progress import Reporter
from tmtprime.recommend import persist
from tmtprime.recommend.applicability import profile, used_features
from tmtprime.recommend.dataset import CandidateRows
from tmtprime.recommend.effort_metrics import EffortFit
from tmtprime.recommend.evaluation import Baselines, CrossValidated, EvaluationResult, report
from tmtprime.recommend.labels import LABEL_UNITS, LABELS, TIE_RULE, best_labels, candidate_labels, default_label, effort_sign
from tmtprime.recommend.svm import TMTprimeRecommender
from tmtprime.recommend.regressor import EffortRegressor
from tmtprime.recommend.picks import Picks
from tmtprime.recommend.platt import logit
from tmtprime.store import Store
from tmtprime.workflows.project_data import crossfit_qe, fit_extractor, load_segments, project_rows, wants_qe

PRECISION_TARGETS = (0.8, 0.85, 0.9, 0.95)
EFFORT_BLEND = {"linear_weight": 2.0 / 3.0, "linear_model": "enet", "trees_weight": 1.0 / 3.0}
"""The ``effort``-label regressor: 2/3 elastic net + 1/3 forest, no SVR (WMT12 QE, 5-fold CV: Spearman 0.584 vs
0.574 for session 3's SVR + ridge, confirmed on four fold splits no choice was made on; docs/experiments/effort.md,
session 4). On MLQE-PE HTER a linear member lowered r(confidence, HTER), so hter and time keep the SVR alone."""


def threshold_for_precision(scores: np.ndarray, positive: np.ndarray, target: float) -> float | None:
    """The smallest MT threshold whose decisions reach ``target`` precision (None if none does)."""
    for t in np.unique(scores):
        decided = scores >= t
        if decided.any() and positive[decided].mean() >= target:
            return float(t)
    return None


def training_report(model: TMTprimeRecommender, rows: CandidateRows) -> EvaluationResult:
    """Metrics of the out-of-fold predictions made while training (grouped by document)."""
    rec = Picks.from_scores(
        model.oof_probability_, model.oof_predicted_ter_, rows.segments, rows.kinds == "tm", mt_probability=model.oof_mt_probability_
    )
    base = Baselines.learn(rows)
    cv = CrossValidated(
        rows,
        model.oof_probability_,
        model.oof_predicted_ter_,
        rec.rows,
        model.pick_platt_.predict(logit(rec.pick_probability)),
        base.single_picks(rows),
        base.rule_picks(rows),
        [base.systems_by_ter[0]],
        [base.rule_threshold],
        mt_probability=model.oof_mt_probability_,
    )
    return report(cv)


def model_card(model: TMTprimeRecommender, rows: CandidateRows, store: Store, rep: EvaluationResult) -> dict[str, Any]:
    from tmtprime.cost.calibration import CARD_KEY, fit_band_calibration

    project = store.project()
    scores, positive = rep.decision_scores, rep.decision_positive
    return {
        "model": "TMTprimeRecommender",
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "data": {
            "project": project.name,
            "source_lang": project.source_lang,
            "target_lang": project.target_lang,
            "segments": rows.n_segments,
            "candidates": len(rows.X),
            "documents": len(set(rows.groups)),
            "systems": sorted(set(rows.systems)),
            "labels": f"lowest sentence TER (sacrebleu) against the reference; ties: {TIE_RULE}",
        },
        "features": {"version": FEATURE_SET_VERSION, "names": list(rows.feature_names)},
        "hyperparameters": {
            "classifier": {k: float(v) for k, v in model.clf_params_.items()},
            "ter_regressor": {k: float(v) for k, v in model.ter_params_.items()},
            "epsilon": model.epsilon,
            "platt": {"A": model.platt_.a_, "B": model.platt_.b_},
            "mt_decision_platt": None if model.mt_platt_ is None else {"A": model.mt_platt_.a_, "B": model.mt_platt_.b_},
        },
        "cross_validated": {
            "note": "out-of-fold predictions of the training run, folds grouped by document",
            "grid_search": model.cv_scores_,
            "mean_ter": rep.mean_ter,
            "best_single": rep.best_single,
            "gap_closed": rep.gap_closed,
            "pearson_confidence_ter": rep.pearson_ter,
            "ece": rep.ece,
            "mt_over_tm": [vars(d) for d in rep.decisions],
            "mt_threshold_for_precision": {
                f"{p:.2f}": threshold_for_precision(scores, positive, p) for p in PRECISION_TARGETS
            },
        },
        # expected payable rates of cost estimates: actual bands given the out-of-fold prediction
        CARD_KEY: fit_band_calibration(model.oof_predicted_ter_, rows.ter, rows.kinds).to_dict(),
    }


def label_card(label: str, sign: float) -> dict[str, Any]:
    """The model card's ``label``: what the model predicts, in which unit, and what its confidence means."""
    unit = LABEL_UNITS[label]
    if label == "effort":
        unit += "; higher = " + ("more" if sign > 0 else "less") + " effort"
    return {
        "name": label, "unit": unit, "sign": sign,
        "confidence": "higher = less effort; monotone decreasing in the predicted effort"
        + (" (1 - predicted TER/100, clipped)" if label in ("ter", "hter") else
           " (share of training candidates whose label showed more effort than the prediction)"),
    }


def regressor_card(model: EffortRegressor, y: np.ndarray, rows: CandidateRows, store: Store, label: str, sign: float) -> dict[str, Any]:
    """The card of an effort regressor: label and unit, the out-of-fold fit in the label's own unit."""
    project = store.project()
    fit = EffortFit.of(sign * model.oof_predicted_, sign * y, higher_is_better=sign < 0)
    return {
        "model": "EffortRegressor",
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "data": {
            "project": project.name, "source_lang": project.source_lang, "target_lang": project.target_lang,
            "segments": int(len(np.unique(rows.segments))), "candidates": int(len(y)),
            "documents": len(set(rows.groups)), "systems": sorted(set(rows.systems)), "labels": LABEL_UNITS[label],
        },
        "features": {"version": FEATURE_SET_VERSION, "names": list(rows.feature_names)},
        "hyperparameters": model.chosen_params(),
        "cross_validated": {"note": "out-of-fold predictions of the training run, folds grouped by document",
                            **{k: v for k, v in vars(fit).items()}},
    }


@dataclass
class TrainResult:
    """A trained model, the name it is stored under, and its card."""

    name: str
    card: dict[str, Any]
    model: TMTprimeRecommender

    def render(self) -> str:
        """What ``tmtprime train`` prints: labelled as the in-training estimate, which is not ``evaluate``'s figure."""
        cv, data = self.card["cross_validated"], self.card["data"]
        label = self.card.get("label", {"name": "ter", "unit": LABEL_UNITS["ter"]})
        if self.card.get("model") == "EffortRegressor":
            return (
                f"trained effort model {self.name!r} (label {label['name']}: {label['unit']}) on {data['segments']} "
                f"segments ({data['candidates']} labelled candidates, {data['documents']} documents)\n"
                f"in-training estimate (out-of-fold predictions of this training run): MAE {cv['mae']:.3f}, "
                f"RMSE {cv['rmse']:.3f}, Pearson {cv['pearson']:+.3f}, Spearman {cv['spearman']:+.3f}, "
                f"DeltaAvg {cv['delta_avg']:.3f}\n"
            )
        best = f" ({cv['best_single']}, chosen on all the dev data)" if cv.get("best_single") else ""
        return (
            f"trained model {self.name!r} on {data['segments']} segments ({data['candidates']} candidates, "
            f"{data['documents']} documents)\n"
            f"in-training estimate (out-of-fold predictions of this training run): picks mean TER "
            f"{cv['mean_ter']['TMTprime picks']:.2f} vs best single system{best} "
            f"{cv['mean_ter']['best single system']:.2f} and oracle {cv['mean_ter']['oracle']:.2f} "
            f"(gap closed {100 * cv['gap_closed']:.1f} %), ECE {cv['ece']:.3f}\n"
        )

    def save_file(self, path: str | Path) -> Path:
        """Write the model to ``path`` (.skops) with its card beside it (``tmtprime train -o``); returns the card's path."""
        return persist.save_file(path, self.model, self.card)


def train(
    store: Store,
    *,
    name: str | None = None,
    label: str | None = None,
    n_jobs: int = 1,
    make_model: Callable[[], TMTprimeRecommender | EffortRegressor] | None = None,
    reporter: Reporter | None = None,
) -> TrainResult:
    """Train on the project's development data (role ``dev``) and store the model with its card.

    ``label``: ``ter``, ``hter``, ``time`` or ``effort`` (default: ``hter`` where post-edits
    exist, else ``ter``). ``make_model`` builds the estimator (a classifier or a regressor).
    """
    reporter = reporter or Reporter()
    if label is not None and label not in LABELS:
        raise UsageError(f"unknown label {label!r} (expected one of: {', '.join(LABELS)})")
    data = load_segments(store, role="dev", with_post_edits=True)
    if not data.segments:
        if store.segments.count(role="dev"):
            raise ModelError(
                "the development segments have no candidates to learn from: import them with their TM and MT "
                "columns (--tm-col, --mt-col)"
            )
        raise ModelError("no development data: import segments with references using --as dev first")
    label = label or default_label(data.segments)
    without_ref = [s.key for s in data.segments if not s.reference]
    if label == "ter" and without_ref:
        raise ModelError(f"{len(without_ref)} development segments have no reference (first: {without_ref[0]!r}); "
                         "with post-editing data train another label (--label hter|time|effort)")
    sign = effort_sign(data.segments) if label == "effort" else 1.0
    extractor = fit_extractor(store, n_jobs=n_jobs, reporter=reporter)
    rows, features = project_rows(store, data, extractor, with_ter=label == "ter", n_jobs=n_jobs, reporter=reporter)
    if wants_qe(label, store.tm.count() > 0):
        rows = crossfit_qe(store, data, rows, reporter=reporter)
    if label != "ter":
        reporter.status(f"labels ({label})")
        rows.ter = candidate_labels(data.segments, label, n_jobs=n_jobs)
    model, card = fit_model(store, rows, label, sign, make_model, n_jobs, reporter)
    name = name or model_name(model)
    reporter.check()
    features.save(store)
    store.models.save(name, persist.dumps(model), card, replace=True)
    return TrainResult(name, card, model)


def fit_model(
    store: Store, rows: CandidateRows, label: str, sign: float,
    make_model: Callable[[], TMTprimeRecommender | EffortRegressor] | None, n_jobs: int, reporter: Reporter,
    *, has_tm: bool | None = None,
) -> tuple[TMTprimeRecommender | EffortRegressor, dict[str, Any]]:
    """Fit a model on labelled rows (``rows.ter`` holds the label) and write its card."""
    y = rows.ter
    used = used_features(rows.X, rows.feature_names)
    model = (make_model or (lambda: default_model(label, y, rows, n_jobs)))()
    reporter.check()
    model.set_params(reporter=reporter)
    if isinstance(model, TMTprimeRecommender):
        model.fit(used.model_input(rows), best_labels(y, rows.segments), ter=y, groups=rows.groups)
        card = model_card(model, rows, store, training_report(model, rows))
    else:
        labelled = np.isfinite(y)
        if labelled.sum() < 4:
            raise ModelError(f"too few candidates have a {label!r} label ({int(labelled.sum())}): import post-editing "
                             "data (--post-edit-col, --pe-time-col, --effort-col) or choose another --label")
        rows = rows.rows(labelled)
        model.fit(used.model_input(rows), y[labelled], groups=rows.groups)
        card = regressor_card(model, y[labelled], rows, store, label, sign)
    model.set_params(reporter=None)
    project = store.project()
    card["label"] = label_card(label, sign)
    card["features"]["used"] = used.names
    if any(n.startswith("qe_") for n in used.names):
        card["features"]["qe_version"] = QE_FEATURE_SET_VERSION
    if any(n in REPAIR_NAMES for n in used.names):
        card["features"]["repair_version"] = REPAIR_FEATURE_SET_VERSION
    card["applicability"] = profile(rows.X, rows.feature_names, source_lang=project.source_lang, target_lang=project.target_lang,
                                    has_tm=store.tm.count() > 0 if has_tm is None else has_tm, label=label)
    return model, card


def model_name(model: TMTprimeRecommender | EffortRegressor) -> str:
    """The default name of a new model: its kind and the time."""
    return f"{'svm' if isinstance(model, TMTprimeRecommender) else 'svr'}-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}"


def default_model(label: str, y: np.ndarray, rows: CandidateRows, n_jobs: int) -> TMTprimeRecommender | EffortRegressor:
    """The classifier where candidates compete on (H)TER, each labelled, both classes present; else the regressor
    (for effort scores the blend of :data:`EFFORT_BLEND`)."""
    if label in ("ter", "hter") and np.isfinite(y).all() and len(np.unique(best_labels(y, rows.segments))) == 2:
        return TMTprimeRecommender(n_jobs=n_jobs)
    return EffortRegressor(**(EFFORT_BLEND if label == "effort" else {}), n_jobs=n_jobs)
