"""A job as the cost estimate sees it: candidate rows with their predictions, per-segment counts.

Built from a project store (:func:`job_from_store`: the recommendations of one
model, each candidate's stored predicted TER and probability, and each
candidate's actual TER where the segment has a reference), or directly from
arrays (the benchmark's cross-validated predictions). Repetitions are marked
as a CAT analysis counts them: a segment whose source repeats an earlier one
of the job, across files, in import order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from tmtprime.errors import ModelError
from tmtprime.formats.model import Candidate, Segment
from tmtprime.progress import Reporter
from tmtprime.recommend.labels import candidate_ter
from tmtprime.tm.repetitions import first_occurrences
from tmtprime.tm.tokenize import word_count

if TYPE_CHECKING:
    from tmtprime.store.project import Store
    from tmtprime.store.records import SegmentRecord


@dataclass
class Job:
    """One row per candidate (``segments`` gives each row's segment 0..n-1) and per-segment facts."""

    sources: list[str]
    documents: np.ndarray
    """Document name of each segment."""
    segments: np.ndarray
    systems: np.ndarray
    kinds: np.ndarray
    fuzzy: np.ndarray
    """TM fuzzy score of TM rows (NaN for MT rows)."""
    predicted_ter: np.ndarray
    probability: np.ndarray
    actual_ter: np.ndarray
    """TER against the segment's reference (NaN where the segment has none)."""
    picks: np.ndarray
    """The recommender's (or the user's) choice per segment: a row index."""
    match_types: np.ndarray | None = None
    words: np.ndarray = field(init=False)
    characters: np.ndarray = field(init=False)
    repeated: np.ndarray = field(init=False)
    first_occurrence: np.ndarray = field(init=False)
    """Index of the earlier segment a repetition repeats (-1 for first occurrences)."""
    has_reference: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.words = np.array([word_count(s) for s in self.sources], dtype=np.int64)
        self.characters = np.array([len(s) for s in self.sources], dtype=np.int64)
        firsts = first_occurrences(self.sources)
        self.first_occurrence = np.array([-1 if f is None else f for f in firsts], dtype=np.int64)
        self.repeated = self.first_occurrence >= 0
        has = np.zeros(len(self.sources), dtype=bool)
        has[self.segments[~np.isnan(self.actual_ter)]] = True
        self.has_reference = has
        if self.match_types is None:
            self.match_types = np.full(len(self.segments), None, dtype=object)

    @property
    def n_segments(self) -> int:
        return len(self.sources)


def job_from_store(
    store: Store,
    *,
    document: str | None = None,
    model: str | None = None,
    reporter: Reporter | None = None,
) -> tuple[Job, str, int]:
    """The job (one document, or every document of role ``document``) with the model's predictions.

    Returns the job, the model's name and the number of segments left out
    because they have no recommendation yet (imported after the last run).
    """
    reporter = reporter or Reporter()
    model = model if model is not None else store.recommendations.latest_model()
    if model is None:
        raise ModelError(
            f"{store.location} has no recommendations yet; run 'tmtprime recommend {store.location}' first"
        )
    document_id = store.documents.get(document).id if document else None
    role = None if document_id is not None else "document"
    total = store.segments.count(document_id=document_id, role=role)
    segments = store.segments.iter(document_id=document_id, role=role)
    records = [r for r in reporter.track(segments, total=total, desc="reading segments", unit="segment") if r.candidates]
    recs = store.recommendations.for_segments([r.id for r in records], model=model)
    kept = [r for r in records if r.id in recs]
    if not kept:
        where = f"document {document!r}" if document else "the project's documents"
        raise ModelError(
            f"model {model!r} has no recommendations for {where}; run 'tmtprime recommend {store.location}' first"
        )
    seg, systems, kinds, fuzzy, types, pred, prob, texts, picks = [], [], [], [], [], [], [], [], []
    for i, record in enumerate(kept):
        rec = recs[record.id]
        seen: set[str] = set()
        pick = -1
        for cand in record.candidates:
            prediction = rec.predictions.get(cand.id)
            if cand.system in seen or prediction is None or prediction.predicted_ter is None:
                continue  # a lower-ranked candidate of the same system, or one added after recommending
            seen.add(cand.system)
            if cand.id == rec.chosen_id:
                pick = len(seg)
            seg.append(i)
            systems.append(cand.system)
            kinds.append(cand.kind)
            fuzzy.append(np.nan if cand.fuzzy is None else cand.fuzzy)
            types.append(cand.attributes.get("match_type"))
            pred.append(prediction.predicted_ter)
            prob.append(np.nan if prediction.probability is None else prediction.probability)
            texts.append(cand.text)
        if pick < 0:  # the chosen candidate was re-imported: fall back to the lowest predicted TER
            rows = [j for j in range(len(seg)) if seg[j] == i]
            pick = min(rows, key=lambda j: pred[j]) if rows else -1
        picks.append(pick)
    actual = np.full(len(seg), np.nan)
    with_ref = [i for i, r in enumerate(kept) if r.reference]
    if with_ref:
        actual = _actual_ter(kept, with_ref, np.array(seg), systems, kinds, texts, reporter)
    job = Job(
        sources=[r.source for r in kept],
        documents=np.array([r.document for r in kept], dtype=object),
        segments=np.array(seg, dtype=np.int64),
        systems=np.array(systems, dtype=object),
        kinds=np.array(kinds, dtype=object),
        fuzzy=np.array(fuzzy, dtype=np.float64),
        predicted_ter=np.array(pred, dtype=np.float64),
        probability=np.array(prob, dtype=np.float64),
        actual_ter=actual,
        picks=np.array(picks, dtype=np.int64),
        match_types=np.array(types, dtype=object),
    )
    return job, model, len(records) - len(kept)


def _actual_ter(
    records: Sequence[SegmentRecord],
    with_ref: list[int],
    seg: np.ndarray,
    systems: list[str],
    kinds: list[str],
    texts: list[str],
    reporter: Reporter,
    batch: int = 500,
) -> np.ndarray:
    """TER of every row of the segments with a reference (sacrebleu, as the recommender's labels); NaN elsewhere."""
    actual = np.full(len(seg), np.nan)
    for start in reporter.track(range(0, len(with_ref), batch), desc="TER against the references", unit="batch"):
        chunk = with_ref[start : start + batch]
        rows = [np.arange(lo, hi) for lo, hi in zip(np.searchsorted(seg, chunk, "left"), np.searchsorted(seg, chunk, "right"))]
        segments = [
            Segment(key=records[i].key, source=records[i].source, reference=records[i].reference,
                    candidates=[Candidate(system=systems[j], kind=kinds[j], text=texts[j]) for j in r])  # type: ignore[arg-type]
            for i, r in zip(chunk, rows)
        ]
        actual[np.concatenate(rows)] = candidate_ter(segments)
    return actual
