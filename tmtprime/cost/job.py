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
from tmtprime.tm.repetitions import repetitions_and_words

if TYPE_CHECKING:
    from tmtprime.store.project import Store


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
    """Each segment's pick as a row index: the column form of ``Pick.candidate`` (read in SQL by the
    store's job rows, the override winning as in ``Recommendations.fill``) for the vectorised estimate."""
    match_types: np.ndarray | None = None
    actual_time_ms: np.ndarray | None = None
    """Mean post-editing time of each row's candidate (NaN where it has none)."""
    segment_ids: np.ndarray | None = None
    """The store's id of each segment (None for a job not read from a project)."""
    words: np.ndarray = field(init=False)
    characters: np.ndarray = field(init=False)
    repeated: np.ndarray = field(init=False)
    first_occurrence: np.ndarray = field(init=False)
    """Index of the earlier segment a repetition repeats (-1 for first occurrences)."""
    has_reference: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        firsts, words = repetitions_and_words(self.sources)
        self.words = np.array(words, dtype=np.int64)
        self.characters = np.array([len(s) for s in self.sources], dtype=np.int64)
        self.first_occurrence = np.array([-1 if f is None else f for f in firsts], dtype=np.int64)
        self.repeated = self.first_occurrence >= 0
        has = np.zeros(len(self.sources), dtype=bool)
        has[self.segments[~np.isnan(self.actual_ter)]] = True
        self.has_reference = has
        if self.match_types is None:
            self.match_types = np.full(len(self.segments), None, dtype=object)
        if self.actual_time_ms is None:
            self.actual_time_ms = np.full(len(self.segments), np.nan)

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
    reporter.status("reading the job")
    rows = store.recommendations.job_rows(model, document_id=document_id, role=None if document_id else "document")
    reporter.progress(len(rows.segment_ids), len(rows.segment_ids))
    reporter.check()
    with_candidates = np.isin(rows.segment_ids, rows.candidate_segments)
    kept = np.flatnonzero(with_candidates & (rows.chosen >= 0))
    if not len(kept):
        where = f"document {document!r}" if document else "the project's documents"
        raise ModelError(
            f"model {model!r} has no recommendations for {where}; run 'tmtprime recommend {store.location}' first"
        )
    # a candidate takes part when the model predicted it and no earlier candidate of its system did
    # (a lower-ranked candidate of the same system, or one added after recommending, is left out)
    kept_ids = rows.segment_ids[kept]
    order = np.argsort(kept_ids)
    valid = np.flatnonzero(rows.predicted & np.isin(rows.candidate_segments, kept_ids))
    if not len(valid):  # a model of time per word or effort scores predicts no TER to band
        raise ModelError(f"model {model!r} predicts no TER for these candidates, and cost bands read one: estimate "
                         "with a model trained with --label ter or --label hter")
    seg_ids, sys_ids = rows.candidate_segments[valid], rows.system_ids[valid]
    first = np.ones(len(valid), dtype=bool)
    first[1:] = (seg_ids[1:] != seg_ids[:-1]) | (sys_ids[1:] != sys_ids[:-1])
    take = valid[first]
    seg = order[np.searchsorted(kept_ids, rows.candidate_segments[take], sorter=order)]
    predicted_ter = rows.predicted_ter[take]
    picks = _picks(len(kept), seg, rows.candidate_ids[take] == rows.chosen[kept][seg], predicted_ter)
    keys = [rows.keys[i] for i in kept]
    sources = [rows.sources[i] for i in kept]
    references = [rows.references[i] for i in kept]
    actual = np.full(len(take), np.nan)
    with_ref = [i for i, r in enumerate(references) if r]
    if with_ref:
        needed = np.flatnonzero(np.isin(seg, with_ref))
        found = store.recommendations.candidate_texts(rows.candidate_ids[take][needed].tolist())
        texts = [found.get(int(c), "") for c in rows.candidate_ids[take]]
        actual = _actual_ter(keys, sources, references, with_ref, seg, rows.systems[take], rows.kinds[take], texts, reporter)
    job = Job(
        sources=sources,
        documents=rows.documents[kept],
        segments=seg.astype(np.int64),
        systems=rows.systems[take],
        kinds=rows.kinds[take],
        fuzzy=rows.fuzzy[take],
        predicted_ter=predicted_ter,
        probability=rows.probability[take],
        actual_ter=actual,
        picks=picks,
        match_types=rows.match_types[take],
        actual_time_ms=_times(store, rows.candidate_ids[take]),
        segment_ids=kept_ids,
    )
    return job, model, int(with_candidates.sum()) - len(kept)


def _times(store: Store, candidate_ids: np.ndarray) -> np.ndarray:
    """Mean post-editing time (ms) of each candidate, NaN where none was imported."""
    out = np.full(len(candidate_ids), np.nan)
    if store.post_edits.count():
        records = store.post_edits.of([int(c) for c in candidate_ids])
        for i, cid in enumerate(candidate_ids.tolist()):
            times = [p.time_ms for p in records.get(cid, []) if p.time_ms is not None]
            if times:
                out[i] = float(np.mean(times))
    return out


def _picks(n_segments: int, seg: np.ndarray, is_chosen: np.ndarray, predicted_ter: np.ndarray) -> np.ndarray:
    """Each segment's chosen row; where the chosen candidate was re-imported, its row of lowest predicted TER (-1 without rows)."""
    picks = np.full(n_segments, -1, dtype=np.int64)
    by_ter = np.lexsort((np.arange(len(seg)), predicted_ter, seg))
    lowest = by_ter[np.r_[True, seg[by_ter][1:] != seg[by_ter][:-1]]] if len(seg) else by_ter
    picks[seg[lowest]] = lowest
    chosen = np.flatnonzero(is_chosen)
    picks[seg[chosen]] = chosen
    return picks


def _actual_ter(
    keys: Sequence[str],
    sources: Sequence[str],
    references: Sequence[str | None],
    with_ref: list[int],
    seg: np.ndarray,
    systems: np.ndarray,
    kinds: np.ndarray,
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
            Segment(key=keys[i], source=sources[i], reference=references[i],
                    candidates=[Candidate(system=systems[j], kind=kinds[j], text=texts[j]) for j in r])  # type: ignore[arg-type]
            for i, r in zip(chunk, rows)
        ]
        actual[np.concatenate(rows)] = candidate_ter(segments)
    return actual
