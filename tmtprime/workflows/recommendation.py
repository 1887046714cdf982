"""Use case "recommend": a candidate for every segment of the project's documents, with a confidence.

The picks go into the recommendations table with each candidate's
probability, predicted TER and confidence. ``systems`` restricts the choice
to some candidates (the others take no part, as if they were not imported).
Everything is stored after the last cancel check.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tmtprime.errors import ModelError
from tmtprime.features.tm_models import TMModels
from tmtprime.progress import Reporter
from tmtprime.recommend.applicability import card_features, warnings
from tmtprime.recommend.confidence import confidence
from tmtprime.recommend.picks import Picks
from tmtprime.recommend.regressor import EffortRegressor
from tmtprime.store import CandidatePrediction, NewRecommendation, Store
from tmtprime.store.steps import NewStep
from tmtprime.workflows.project_data import (
    ProjectSegments, distinct_segments, fit_extractor, load_segments, project_rows, spans, uses_qe,
)
from tmtprime.workflows.model_choice import ChosenModel, model_for
from tmtprime.workflows.selection import imported_meanwhile


@dataclass
class RecommendResult:
    model: str
    segments: int
    by_system: dict[str, int]
    mean_confidence: float
    mt_threshold: float | None
    warnings: list[str] = field(default_factory=list)
    """What the user must act on: why the job is unlike the model's training data
    (:mod:`tmtprime.recommend.applicability`), and documents imported while it ran."""

    def render(self) -> str:
        shares = ", ".join(f"{s} {n}" for s, n in sorted(self.by_system.items(), key=lambda x: -x[1]))
        knob = "" if self.mt_threshold is None else f", MT threshold {self.mt_threshold:.2f}"
        return (
            f"recommended {self.segments} segments with model {self.model!r}{knob}: {shares}\n"
            f"mean confidence {self.mean_confidence:.3f}\n"
        ) + "".join(f"warning: {w}\n" for w in self.warnings)


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


def recommend(
    store: Store,
    *,
    model: str | ChosenModel | None = None,
    documents: Sequence[str] | None = None,
    systems: Collection[str] | None = None,
    mt_threshold: float | None = None,
    target_precision: float | None = None,
    n_jobs: int = 1,
    reporter: Reporter | None = None,
    tm_models: TMModels | None = None,
    keep_features: bool = True,
) -> RecommendResult:
    """Recommend a candidate for every segment of the project's ``document`` files (or of ``documents``) and store the picks.

    ``model`` is a model name in the project, a :class:`ChosenModel` (e.g.
    from :func:`~tmtprime.workflows.model_choice.model_from_file`), or None for the
    newest model, else the shipped default. Holds the project's job lock, so two
    first runs never store the shipped model twice. ``tm_models``: the features' TM models,
    already trained on the project's TM (default: trained now). ``keep_features``: cache the
    new feature vectors in the project for a re-run (not for a temporary project, removed after the job).
    """
    reporter = reporter or Reporter()
    handed = [tm_models]  # handed over, not kept in this frame: freed once the features are done
    del tm_models
    with store.job_lock("recommend", reporter):
        return _recommend(store, model, documents, systems, mt_threshold, target_precision, n_jobs, reporter, handed,
                          keep_features)


def _recommend(
    store: Store, model: str | ChosenModel | None, documents: Sequence[str] | None, systems: Collection[str] | None,
    mt_threshold: float | None, target_precision: float | None, n_jobs: int, reporter: Reporter,
    tm_models: list[TMModels | None], keep_features: bool,
) -> RecommendResult:
    chosen = model if isinstance(model, ChosenModel) else model_for(store, model)
    chosen.model.set_params(n_jobs=n_jobs)
    threshold = resolve_mt_threshold(chosen.card, mt_threshold, target_precision)
    document_ids = None if documents is None else [store.documents.get(name).id for name in documents]
    known = [d.id for d in store.documents.list(role="document")]
    job = _Job.read(store, document_ids, systems)
    if job is None:
        raise ModelError(_nothing_to_recommend(store, document_ids, systems))
    # segments with equal rows get equal picks: features and the model see each distinct one once
    # in this process: the features come in batches of one extractor batch each, so in workers no two would
    # run at once and each would only ship the TM models (tens of MB) to a worker holding its own copy
    extractor = fit_extractor(store, qe=uses_qe(chosen.card), n_jobs=1, reporter=reporter, tm_models=tm_models.pop())
    rows, features = project_rows(store, job.distinct, extractor, with_ter=False, n_jobs=n_jobs, reporter=reporter)
    del extractor  # and with it the TM models: not needed from here on
    if not keep_features:
        features = None
    reporter.status("recommending")
    project = store.project()
    has_tm = store.tm.count() > 0
    unlike = tuple(warnings(chosen.card, rows.X, rows.feature_names, rows.segments, source_lang=project.source_lang,
                            target_lang=project.target_lang, has_tm=has_tm, counts=job.repeats))
    picks = chosen.model.recommend(card_features(chosen.card, rows.feature_names).model_input(rows), mt_threshold=threshold)
    picked = rows.systems[picks.rows]  # per distinct segment
    by_system = {str(s): int(job.repeats[picked == s].sum()) for s in sorted(set(picked))}
    rec = _every_segment(picks, job.sizes, job.first, job.of)
    label = chosen.card.get("label", {"name": "ter", "sign": 1.0})
    effort = float(label.get("sign", 1.0)) * rec.predicted_ter  # the prediction in the label's own unit
    if isinstance(chosen.model, EffortRegressor):
        conf, candidate_conf = rec.pick_probability, rec.probability
    else:
        conf = confidence(rec.pick_ter)
        # Every alternative is exported with a confidence on the pick's own scale, so the
        # recommended one is not shown next to numbers of another kind (P(best)).
        candidate_conf = confidence(rec.predicted_ter)
    # cost bands read a predicted TER: HTER is one (TER against the post-edit); time and scores are not
    ter = rec.predicted_ter if label["name"] in ("ter", "hter") else np.full(len(effort), np.nan)
    offsets = np.cumsum(np.concatenate(([0], job.sizes)))
    new = (  # streamed into the store: 100,000 segments' picks and predictions are never all held as objects
        NewRecommendation(
            segment_id=int(segment_id),
            candidate_id=int(job.candidate_ids[rec.rows[i]]),
            confidence=float(conf[i]),
            predictions={
                int(job.candidate_ids[r]): CandidatePrediction(
                    float(rec.probability[r]), None if np.isnan(ter[r]) else float(ter[r]), float(candidate_conf[r]),
                    float(effort[r]),
                )
                for r in range(offsets[i], offsets[i + 1])
            },
        )
        for i, segment_id in enumerate(job.segment_ids)
    )
    reporter.check()
    chosen.save(store)
    if features is not None:
        features.save(store)
    inputs = {"systems": None if systems is None else sorted(systems), "mt_threshold": threshold}
    saved = store.recommendations.save(chosen.name, new, step=NewStep("recommend", chosen.name, job.documents, inputs))
    store.models.annotate(chosen.name, "job_warnings", list(unlike))
    outcome = RecommendResult(chosen.name, saved, by_system, float(conf.mean()), threshold)
    outcome.warnings = [f"{w}; its confidence may mean little here" for w in unlike]
    if documents is None:
        outcome.warnings += imported_meanwhile(store, known, f"tmtprime recommend {store.location}", "recommended", role="document")
    return outcome


@dataclass
class _Job:
    """The segments to recommend for, as arrays, and the distinct ones (equal sources and candidates) as
    segments: the job's 100,000 segment objects are not kept while features and the model run."""

    segment_ids: np.ndarray
    sizes: np.ndarray
    """Candidates of each segment."""
    candidate_ids: np.ndarray
    documents: list[int]
    first: np.ndarray
    """The first segment of each distinct one."""
    of: np.ndarray
    """Each segment's distinct one."""
    repeats: np.ndarray
    """How many segments each distinct one stands for."""
    distinct: ProjectSegments

    @classmethod
    def read(cls, store: Store, document_ids: Sequence[int] | None, systems: Collection[str] | None) -> _Job | None:
        """The job's segments that have candidates (None: none has)."""
        data = load_segments(store, role="document", document_ids=document_ids, systems=systems)
        if not data.segments:
            return None
        first, of = distinct_segments(data.segments)
        sizes = np.array([len(s.candidates) for s in data.segments], dtype=np.int64)
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        distinct = ProjectSegments([data.segments[i] for i in first], data.candidate_ids[spans(starts[first], sizes[first])])
        return cls(
            segment_ids=np.fromiter((s.id for s in data.segments), dtype=np.int64, count=len(data.segments)),
            sizes=sizes, candidate_ids=data.candidate_ids, documents=sorted({s.document_id for s in data.segments}),
            first=first, of=of, repeats=np.bincount(of, minlength=len(first)), distinct=distinct,
        )


def _every_segment(picks: Picks, sizes: np.ndarray, first: np.ndarray, of: np.ndarray) -> Picks:
    """``picks`` of the distinct segments ``first`` given to every segment (``of``: each one's distinct
    segment; ``sizes``: each one's number of candidates)."""
    if len(first) == len(of):
        return picks
    starts = np.concatenate(([0], np.cumsum(sizes[first])[:-1]))[of]  # each segment's first row among the distinct rows
    offsets = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    rows = spans(starts, sizes)
    full = Picks(offsets + picks.rows[of] - starts, picks.probability[rows], picks.predicted_ter[rows],
                 np.repeat(np.arange(len(sizes)), sizes))
    full.pick_probability = picks.pick_probability[of]
    full.mt_probability = picks.mt_probability[of]
    return full


def _nothing_to_recommend(store: Store, document_ids: Sequence[int] | None, systems: Collection[str] | None) -> str:
    """Say what is missing: a document, or its candidates (and how to get them)."""
    docs = [
        d for d in store.documents.list()
        if (d.id in document_ids if document_ids is not None else d.role == "document") and d.unit_count
    ]
    if not docs:
        return "no document to recommend for: import one first (tmtprime import P.db FILE --as document)"
    total = sum(d.unit_count for d in docs)
    names = ", ".join(repr(d.name) for d in docs[:3]) + (" ..." if len(docs) > 3 else "")
    which = f" of the systems {', '.join(sorted(systems))}" if systems is not None else ""
    return (
        f"none of the {total} segments has a candidate{which}: the segments of {names} have no candidates "
        "(no TM match and no MT output); run 'tmtprime tm lookup P.db' (needs a TM) or 'tmtprime translate P.db', "
        "or import MT outputs ('tmtprime translate P.db --engine file --file FILE', or --mt-col with a table)"
    )
