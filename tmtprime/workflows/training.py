"""Use case "train": the recommender learnt from the project's development data.

Every candidate of the dev segments is labelled by TER against the
reference, features come from the project's TM, the model is fitted with
grouped cross-validation, and the model goes into the store with skops and a
model card (its cross-validated figures and MT thresholds per precision).
The model and the new feature vectors are stored after the last cancel
check, so a cancelled training leaves the project as it was.
"""

from __future__ import annotations

import platform
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from tmtprime.errors import ModelError
from tmtprime.features.extractor import FEATURE_SET_VERSION
from tmtprime.progress import Reporter
from tmtprime.recommend import persist
from tmtprime.recommend.dataset import CandidateRows
from tmtprime.recommend.evaluation import Baselines, CrossValidated, EvaluationReport, report
from tmtprime.recommend.labels import TIE_RULE
from tmtprime.recommend.model import TMTprimeRecommender
from tmtprime.recommend.picks import Picks
from tmtprime.recommend.platt import logit
from tmtprime.store import Store
from tmtprime.workflows.project_data import fit_extractor, load_segments, project_rows

PRECISION_TARGETS = (0.8, 0.85, 0.9, 0.95)


def threshold_for_precision(scores: np.ndarray, positive: np.ndarray, target: float) -> float | None:
    """The smallest MT threshold whose decisions reach ``target`` precision (None if none does)."""
    for t in np.unique(scores):
        decided = scores >= t
        if decided.any() and positive[decided].mean() >= target:
            return float(t)
    return None


def training_report(model: TMTprimeRecommender, rows: CandidateRows) -> EvaluationReport:
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


def model_card(model: TMTprimeRecommender, rows: CandidateRows, store: Store, rep: EvaluationReport) -> dict[str, Any]:
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


@dataclass
class TrainOutcome:
    """A trained model, the name it is stored under, and its card."""

    name: str
    card: dict[str, Any]
    model: TMTprimeRecommender

    def render(self) -> str:
        """What ``tmtprime train`` prints: labelled as the in-training estimate, which is not ``evaluate``'s figure."""
        cv, data = self.card["cross_validated"], self.card["data"]
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
    n_jobs: int = 1,
    make_model: Callable[[], TMTprimeRecommender] | None = None,
    reporter: Reporter | None = None,
) -> TrainOutcome:
    """Train on the project's development data (role ``dev``) and store the model with its card."""
    reporter = reporter or Reporter()
    data = load_segments(store, role="dev")
    if not data.segments:
        if store.segments.count(role="dev"):
            raise ModelError(
                "the development segments have no candidates to learn from: import them with their TM and MT "
                "columns (--tm-col, --mt-col)"
            )
        raise ModelError("no development data: import segments with references using --as dev first")
    without_ref = [s.key for s in data.segments if not s.reference]
    if without_ref:
        raise ModelError(f"{len(without_ref)} development segments have no reference (first: {without_ref[0]!r})")
    extractor = fit_extractor(store, n_jobs=n_jobs, reporter=reporter)
    rows, features = project_rows(store, data, extractor, with_ter=True, n_jobs=n_jobs, reporter=reporter)
    model = (make_model or (lambda: TMTprimeRecommender(n_jobs=n_jobs)))()
    reporter.check()
    model.set_params(reporter=reporter)
    model.fit(rows.model_input, rows.labels, ter=rows.ter, groups=rows.groups)
    model.set_params(reporter=None)
    card = model_card(model, rows, store, training_report(model, rows))
    name = name or f"svm-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}"
    reporter.check()
    features.save(store)
    store.models.save(name, persist.dumps(model), card, replace=True)
    return TrainOutcome(name, card, model)
