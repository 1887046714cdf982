"""Training, recommending and evaluating on a project store.

The glue between the store and the recommender: segments come out of the
store as interchange segments, features are computed from the project's own
TM (and cached in the store's feature table, keyed by feature-set version and
TM fingerprint, so a re-run does not recompute them), models go into the
store with skops and a model card, and the picks go into the
recommendations table with each candidate's probability and predicted TER.
"""

from __future__ import annotations

import platform
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from tmtprime.errors import ModelError
from tmtprime.features.extractor import FEATURE_SET_VERSION, CandidateFeatureExtractor
from tmtprime.formats.model import Candidate, Segment
from tmtprime.progress import ProgressCallback, track
from tmtprime.recommend import persist
from tmtprime.recommend.confidence import confidence
from tmtprime.recommend.dataset import CandidateRows, build_rows
from tmtprime.recommend.evaluation import Baselines, CrossValidated, EvaluationReport, report
from tmtprime.recommend.labels import TIE_RULE
from tmtprime.recommend.model import Recommendations, TMTprimeRecommender, logit

if TYPE_CHECKING:
    from tmtprime.store.project import Store
    from tmtprime.store.records import SegmentRecord

DEFAULT_MODEL_FILE = "tmtprime-default-en-es.skops"
"""The shipped model (trained on the shared ``update`` dev data) in ``models/``."""
SHIPPED_MODEL_NAME = "shipped-default"
PRECISION_TARGETS = (0.8, 0.85, 0.9, 0.95)


@dataclass
class ProjectSegments:
    """Segments of a project as the recommender sees them, with their store ids."""

    records: list[SegmentRecord]
    segments: list[Segment]
    candidate_ids: np.ndarray


def load_segments(store: Store, *, role: str | None = None, document_id: int | None = None) -> ProjectSegments:
    """Segments of one role or document, each with at least one candidate."""
    records = [r for r in store.segments.iter(role=role, document_id=document_id) if r.candidates]
    segments = [
        Segment(
            key=r.key,
            source=r.source,
            reference=r.reference,
            context=r.context,
            candidates=[
                Candidate(system=c.system, kind=c.kind, text=c.text, fuzzy=c.fuzzy, tm_source=c.tm_source)  # type: ignore[arg-type]
                for c in r.candidates
            ],
            attributes={"doc_id": str(r.attributes.get("doc_id") or r.document)},
        )
        for r in records
    ]
    ids = np.array([c.id for r in records for c in r.candidates], dtype=np.int64)
    return ProjectSegments(records, segments, ids)


def fit_extractor(store: Store, *, n_jobs: int = 1, quiet: bool = True) -> CandidateFeatureExtractor:
    """The feature extractor trained on the project's TM (LMs, IBM Model 1)."""
    n_units = store.tm.count()
    if n_units == 0:
        raise ModelError("the project has no translation memory; import one first (tmtprime import P.db tm.tsv --as tm)")
    units = track(store.tm.iter_units(), total=n_units, desc="reading TM", quiet=quiet, unit="unit")
    return CandidateFeatureExtractor(n_jobs=n_jobs).fit((u.source, u.target) for u in units)


def feature_set_name(extractor: CandidateFeatureExtractor) -> str:
    return f"blackbox-v{extractor.version.replace(':', '-tm')}"


def cached_features(
    store: Store, extractor: CandidateFeatureExtractor, data: ProjectSegments, *, quiet: bool = True
) -> np.ndarray:
    """Feature rows of ``data``: stored vectors where present, the rest computed now and stored."""
    names = list(extractor.get_feature_names_out())
    set_name = feature_set_name(extractor)
    store.features.define(set_name, names)
    ids, stored = store.features.load(set_name, [int(c) for c in data.candidate_ids])
    X = np.zeros((len(data.candidate_ids), len(names)))
    position = {int(c): i for i, c in enumerate(data.candidate_ids)}
    have = np.zeros(len(data.candidate_ids), dtype=bool)
    for cid, row in zip(ids, stored):
        X[position[int(cid)]] = row
        have[position[int(cid)]] = True
    # a segment's features depend on all its candidates: recompute whole segments
    offsets = np.cumsum([0] + [len(s.candidates) for s in data.segments])
    missing = [i for i in range(len(data.segments)) if not have[offsets[i] : offsets[i + 1]].all()]
    if missing:
        todo = [data.segments[i] for i in missing]
        computed = np.vstack(
            [extractor.transform(batch) for batch in track(_chunks(todo, 2000), total=-(-len(todo) // 2000), desc="features", quiet=quiet, unit="batch")]
        )
        rows = np.concatenate([np.arange(offsets[i], offsets[i + 1]) for i in missing])
        X[rows] = computed
        store.features.save(set_name, zip((int(c) for c in data.candidate_ids[rows]), computed))
    return X


def _chunks(items: list[Segment], size: int) -> list[list[Segment]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def project_rows(
    store: Store, data: ProjectSegments, extractor: CandidateFeatureExtractor, *, with_ter: bool, n_jobs: int = 1, quiet: bool = True
) -> CandidateRows:
    X = cached_features(store, extractor, data, quiet=quiet)
    return build_rows(data.segments, extractor, with_ter=with_ter, X=X, n_jobs=n_jobs)


def threshold_for_precision(scores: np.ndarray, positive: np.ndarray, target: float) -> float | None:
    """The smallest MT threshold whose decisions reach ``target`` precision (None if none does)."""
    for t in np.unique(scores):
        decided = scores >= t
        if decided.any() and positive[decided].mean() >= target:
            return float(t)
    return None


def training_report(model: TMTprimeRecommender, rows: CandidateRows) -> EvaluationReport:
    """Metrics of the out-of-fold predictions made while training (grouped by document)."""
    rec = Recommendations.from_scores(
        model.oof_probability_, model.oof_predicted_ter_, rows.segments, list(rows.kinds), mt_probability=model.oof_mt_probability_
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
    }


def train_project(
    store: Store,
    *,
    name: str | None = None,
    n_jobs: int = 1,
    quiet: bool = True,
    make_model: Callable[[], TMTprimeRecommender] | None = None,
) -> tuple[str, dict[str, Any], TMTprimeRecommender]:
    """Train on the project's development data (role ``dev``) and store the model; returns its name and card."""
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
    extractor = fit_extractor(store, n_jobs=n_jobs, quiet=quiet)
    rows = project_rows(store, data, extractor, with_ter=True, n_jobs=n_jobs, quiet=quiet)
    model = (make_model or (lambda: TMTprimeRecommender(n_jobs=n_jobs)))()
    model.fit(
        rows.X, rows.labels, ter=rows.ter, segments=rows.segments, groups=rows.groups, kinds=list(rows.kinds),
        feature_names=rows.feature_names,
    )
    card = model_card(model, rows, store, training_report(model, rows))
    name = name or f"svm-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}"
    store.models.save(name, persist.dumps(model), card, replace=True)
    return name, card, model


def shipped_model() -> tuple[TMTprimeRecommender, dict[str, Any]]:
    """The default model shipped in ``models/`` (for projects without their own references)."""
    from tmtprime.paths import models_dir

    return persist.load_file(models_dir() / DEFAULT_MODEL_FILE)


def model_for(store: Store, name: str | None) -> tuple[str, TMTprimeRecommender, dict[str, Any]]:
    """The named model, else the project's newest, else the shipped default (copied into the project).

    A model only reads features of the set it was trained on. After an upgrade
    that changed the feature set, the project's copy of the shipped default is
    replaced by the new one, and a model trained on the project is refused with
    what to do, before any features are computed for it.
    """
    if name is not None or store.models.list():
        record = store.models.get(name)
        version = dict(record.card).get("features", {}).get("version")
        if version == FEATURE_SET_VERSION:
            return record.name, persist.loads(record.blob), dict(record.card)
        if record.name != SHIPPED_MODEL_NAME:
            raise ModelError(
                f"model {record.name!r} was trained on feature set {version}, this version of TMTprime computes "
                f"feature set {FEATURE_SET_VERSION}: train it again on the project (tmtprime train), which replaces it as the newest model"
            )
    model, card = shipped_model()
    store.models.save(SHIPPED_MODEL_NAME, persist.dumps(model), card, replace=True)
    return SHIPPED_MODEL_NAME, model, card


@dataclass
class RecommendOutcome:
    model: str
    segments: int
    by_system: dict[str, int]
    mean_confidence: float
    mt_threshold: float | None


def resolve_mt_threshold(card: dict[str, Any], mt_threshold: float | None, target_precision: float | None) -> float | None:
    """The MT threshold to use: given directly, or the one the model card records for a target precision."""
    if mt_threshold is not None and target_precision is not None:
        raise ModelError("give either an MT threshold or a target precision, not both")
    if target_precision is None:
        return mt_threshold
    table = card.get("cross_validated", {}).get("mt_threshold_for_precision", {})
    key = f"{target_precision:.2f}"
    if key not in table:
        raise ModelError(f"the model card has thresholds for precision {', '.join(sorted(table)) or '(none)'}, not {key}")
    if table[key] is None:
        raise ModelError(f"no threshold reached precision {key} in cross-validation; use a lower target")
    return float(table[key])


def _nothing_to_recommend(store: Store, document_id: int | None, role: str | None) -> str:
    """What is missing when no segment has a candidate: the document itself, or its TM matches and MT."""
    docs = [d for d in store.documents.list() if d.role != "tm" and (
        d.id == document_id if document_id is not None else role is None or d.role == role)]
    if not docs:
        return "no document to recommend for: import one (tmtprime import PATH FILE --as document)"
    names = ", ".join(repr(d.name) for d in docs[:3]) + (" ..." if len(docs) > 3 else "")
    return (f"the segments of {names} have no candidates (no TM match and no MT output): run "
            "`tmtprime tm lookup PATH` (needs a TM) or `tmtprime translate PATH`, or import MT outputs "
            "(`tmtprime translate PATH --engine file --file FILE`, or --mt-col when importing a table)")


def recommend_project(
    store: Store,
    *,
    model_name: str | None = None,
    document_id: int | None = None,
    role: str | None = "document",
    mt_threshold: float | None = None,
    target_precision: float | None = None,
    n_jobs: int = 1,
    quiet: bool = True,
    callback: ProgressCallback | None = None,
) -> RecommendOutcome:
    """Recommend a candidate for every segment of the project's documents and store the picks."""
    from tmtprime.store.records import CandidatePrediction, NewRecommendation

    name, model, card = model_for(store, model_name)
    model.set_params(n_jobs=n_jobs)
    threshold = resolve_mt_threshold(card, mt_threshold, target_precision)
    data = load_segments(store, role=None if document_id is not None else role, document_id=document_id)
    if not data.segments:
        raise ModelError(_nothing_to_recommend(store, document_id, role))
    extractor = fit_extractor(store, n_jobs=n_jobs, quiet=quiet)
    rows = project_rows(store, data, extractor, with_ter=False, n_jobs=n_jobs, quiet=quiet)
    rec = model.recommend(rows.X, segments=rows.segments, kinds=list(rows.kinds), mt_threshold=threshold)
    conf = confidence(rec.pick_ter)
    # Every alternative is exported with a confidence on the pick's own scale, so the
    # recommended one is not shown next to numbers of another kind (P(best)).
    candidate_conf = confidence(rec.predicted_ter)
    offsets = np.cumsum([0] + [len(s.candidates) for s in data.segments])
    new = []
    for i, record in enumerate(data.records):
        cand_rows = range(offsets[i], offsets[i + 1])
        new.append(
            NewRecommendation(
                segment_id=record.id,
                candidate_id=int(data.candidate_ids[rec.rows[i]]),
                confidence=float(conf[i]),
                predictions={
                    int(data.candidate_ids[r]): CandidatePrediction(
                        float(rec.probability[r]), float(rec.predicted_ter[r]), float(candidate_conf[r])
                    )
                    for r in cand_rows
                },
            )
        )
    store.recommendations.save(name, new)
    systems = rows.systems[rec.rows]
    by_system = {str(s): int((systems == s).sum()) for s in sorted(set(systems))}
    return RecommendOutcome(name, len(new), by_system, float(conf.mean()), threshold)


def evaluate_project(
    store: Store,
    *,
    document_id: int | None = None,
    model_name: str | None = None,
    n_splits: int = 5,
    n_jobs: int = 1,
    quiet: bool = True,
    meteor: Callable[[list[str], list[str]], list[float]] | None = None,
) -> EvaluationReport:
    """Cross-validated evaluation on the dev data (by document), or of a stored model on a document with references."""
    from tmtprime.recommend.evaluation import cross_validate

    role = None if document_id is not None else "dev"
    data = load_segments(store, role=role, document_id=document_id)
    if not data.segments or any(not s.reference for s in data.segments):
        raise ModelError("evaluation needs segments with references (dev data, or a document with a reference column)")
    extractor = fit_extractor(store, n_jobs=n_jobs, quiet=quiet)
    rows = project_rows(store, data, extractor, with_ter=True, n_jobs=n_jobs, quiet=quiet)
    texts = [c.text for s in data.segments for c in s.candidates]
    refs = [s.reference or "" for s in data.segments]
    if document_id is None:
        cv = cross_validate(rows, lambda: TMTprimeRecommender(n_jobs=n_jobs), n_splits=n_splits)
        return report(cv, meteor=meteor, texts=texts, references=refs)
    _name, model, _card = model_for(store, model_name)
    rec = model.recommend(rows.X, segments=rows.segments, kinds=list(rows.kinds))
    dev = load_segments(store, role="dev")
    base_rows = project_rows(store, dev, extractor, with_ter=True, n_jobs=n_jobs, quiet=quiet) if dev.segments else rows
    base = Baselines.learn(base_rows)
    held_out = CrossValidated(
        rows, rec.probability, rec.predicted_ter, rec.rows, rec.pick_probability, base.single_picks(rows), base.rule_picks(rows),
        [base.systems_by_ter[0]], [base.rule_threshold], mt_probability=rec.mt_probability,
    )
    return report(held_out, meteor=meteor, texts=texts, references=refs)

