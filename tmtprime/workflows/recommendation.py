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
from tmtprime.workflows.project_data import distinct_segments, fit_extractor, load_segments, project_rows, spans, uses_qe
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
) -> RecommendResult:
    """Recommend a candidate for every segment of the project's ``document`` files (or of ``documents``) and store the picks.

    ``model`` is a model name in the project, a :class:`ChosenModel` (e.g.
    from :func:`~tmtprime.workflows.model_choice.model_from_file`), or None for the
    newest model, else the shipped default. Holds the project's job lock, so two
    first runs never store the shipped model twice. ``tm_models``: the features' TM models,
    already trained on the project's TM (default: trained now).
    """
    reporter = reporter or Reporter()
    with store.job_lock("recommend", reporter):
        return _recommend(store, model, documents, systems, mt_threshold, target_precision, n_jobs, reporter, tm_models)


def _recommend(
    store: Store, model: str | ChosenModel | None, documents: Sequence[str] | None, systems: Collection[str] | None,
    mt_threshold: float | None, target_precision: float | None, n_jobs: int, reporter: Reporter,
    tm_models: TMModels | None = None,
) -> RecommendResult:
    chosen = model if isinstance(model, ChosenModel) else model_for(store, model)
    chosen.model.set_params(n_jobs=n_jobs)
    threshold = resolve_mt_threshold(chosen.card, mt_threshold, target_precision)
    document_ids = None if documents is None else [store.documents.get(name).id for name in documents]
    known = [d.id for d in store.documents.list(role="document")]
    data = load_segments(store, role="document", document_ids=document_ids, systems=systems)
    if not data.segments:
        raise ModelError(_nothing_to_recommend(store, document_ids, systems))
    extractor = fit_extractor(store, qe=uses_qe(chosen.card), n_jobs=n_jobs, reporter=reporter, tm_models=tm_models)
    rows, features = project_rows(store, data, extractor, with_ter=False, n_jobs=n_jobs, reporter=reporter)
    reporter.status("recommending")
    project = store.project()
    has_tm = store.tm.count() > 0
    unlike = tuple(warnings(chosen.card, rows.X, rows.feature_names, rows.segments, source_lang=project.source_lang,
                            target_lang=project.target_lang, has_tm=has_tm))
    # segments with equal rows get equal picks: the model sees each distinct one once
    first, of = distinct_segments(data.segments)
    distinct = rows.subset(first) if len(first) < len(of) else rows
    picks = chosen.model.recommend(card_features(chosen.card, rows.feature_names).model_input(distinct), mt_threshold=threshold)
    rec = _every_segment(picks, np.array([len(s.candidates) for s in data.segments]), first, of)
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
    offsets = np.cumsum([0] + [len(s.candidates) for s in data.segments])
    new = (  # streamed into the store: 100,000 segments' picks and predictions are never all held as objects
        NewRecommendation(
            segment_id=seg.id,
            candidate_id=int(data.candidate_ids[rec.rows[i]]),
            confidence=float(conf[i]),
            predictions={
                int(data.candidate_ids[r]): CandidatePrediction(
                    float(rec.probability[r]), None if np.isnan(ter[r]) else float(ter[r]), float(candidate_conf[r]),
                    float(effort[r]),
                )
                for r in range(offsets[i], offsets[i + 1])
            },
        )
        for i, seg in enumerate(data.segments)
    )
    reporter.check()
    chosen.save(store)
    features.save(store)
    done = sorted({seg.document_id for seg in data.segments})
    inputs = {"systems": None if systems is None else sorted(systems), "mt_threshold": threshold}
    saved = store.recommendations.save(chosen.name, new, step=NewStep("recommend", chosen.name, done, inputs))
    store.models.annotate(chosen.name, "job_warnings", list(unlike))
    picked = rows.systems[rec.rows]
    by_system = {str(s): int((picked == s).sum()) for s in sorted(set(picked))}
    outcome = RecommendResult(chosen.name, saved, by_system, float(conf.mean()), threshold)
    outcome.warnings = [f"{w}; its confidence may mean little here" for w in unlike]
    if documents is None:
        outcome.warnings += imported_meanwhile(store, known, f"tmtprime recommend {store.location}", "recommended", role="document")
    return outcome


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
