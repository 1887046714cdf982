"""Use case "evaluate": how good the recommendations are, measured against references.

Without a document: the whole training procedure cross-validated by
document on the dev data. With a document that has references: the stored
model on it. Only the feature cache is written (at the end).
"""

from __future__ import annotations

from pathlib import Path

from tmtprime.errors import ModelError, UsageError
from tmtprime.progress import Reporter
from tmtprime.recommend.applicability import card_features
from tmtprime.recommend.evaluation import Baselines, CrossValidated, EvaluationResult, cross_validate, meteor_function, report
from tmtprime.recommend.svm import TMTprimeRecommender
from tmtprime.recommend.plots import write_plots
from tmtprime.store import Store
from tmtprime.workflows.project_data import fit_extractor, load_segments, project_rows, uses_qe
from tmtprime.workflows.model_choice import model_for


def evaluate(
    store: Store,
    *,
    document: str | None = None,
    model: str | None = None,
    n_splits: int = 5,
    n_jobs: int = 1,
    meteor: bool = True,
    reporter: Reporter | None = None,
) -> EvaluationResult:
    """Cross-validated evaluation on the dev data (by document), or of a stored model on a document with references."""
    reporter = reporter or Reporter()
    if n_splits < 2:
        raise UsageError("cross-validation needs at least 2 folds")
    document_id = store.documents.get(document).id if document is not None else None
    data = load_segments(store, role="dev") if document_id is None else load_segments(store, document_ids=[document_id])
    if not data.segments or any(not s.reference for s in data.segments):
        raise ModelError("evaluation needs segments with references (dev data, or a document with a reference column)")
    score = meteor_function(store.project().target_lang.split("-")[0].lower()) if meteor else None
    chosen = model_for(store, model) if document_id is not None else None
    extractor = fit_extractor(store, qe=chosen is not None and uses_qe(chosen.card), n_jobs=n_jobs, reporter=reporter)
    rows, features = project_rows(store, data, extractor, with_ter=True, n_jobs=n_jobs, reporter=reporter)
    to_save = [features]
    texts = [c.text for s in data.segments for c in s.candidates]
    refs = [s.reference or "" for s in data.segments]
    if document_id is None:
        reporter.status("cross-validation by document")
        cv = cross_validate(rows, lambda: TMTprimeRecommender(n_jobs=n_jobs), n_splits=n_splits, reporter=reporter)
    else:
        rec = chosen.model.recommend(card_features(chosen.card, rows.feature_names).model_input(rows))
        dev = load_segments(store, role="dev")
        base_rows = rows
        if dev.segments:
            base_rows, dev_features = project_rows(store, dev, extractor, with_ter=True, n_jobs=n_jobs, reporter=reporter)
            to_save.append(dev_features)
        base = Baselines.learn(base_rows)
        cv = CrossValidated(
            rows, rec.probability, rec.predicted_ter, rec.rows, rec.pick_probability, base.single_picks(rows), base.rule_picks(rows),
            [base.systems_by_ter[0]], [base.rule_threshold], mt_probability=rec.mt_probability,
        )
    reporter.finish_phase()
    if score is not None:
        reporter.status("Meteor of the picks")
    result = report(cv, meteor=score, texts=texts, references=refs)
    reporter.check()
    for computed in to_save:
        computed.save(store)
    return result


def write_evaluation_plots(result: EvaluationResult, directory: str | Path) -> list[Path]:
    """The precision-recall and reliability figures of an evaluation, as PNG files in ``directory``."""
    return write_plots(result, directory)
