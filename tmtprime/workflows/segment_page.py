"""Use case "segment page": the project's segments with their candidates, pick and cost band, for a filter.

What a segment list shows (the window's Segments tab): every segment of a
role or document, its recommendation, the pick (the user's override, else the
model's) and the band the estimate counts that pick in — from
:func:`tmtprime.cost.estimate.pick_bands`, so the list filters on the same
bands as the analysis and the report (repetitions included). Lines stream in
keyset pages, so a list of 100,000 segments costs nothing until scrolled to;
:func:`choose` records a user's pick, or a text the user edited, and returns
the line as it now is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from tmtprime.errors import ModelError
from tmtprime.formats.model import CandidatePrediction, Pick, Segment
from tmtprime.progress import Reporter
from tmtprime.store import NewCandidate, Store

PAGE = 200
EDITED_SYSTEMS = {"tm": "edited TM match", "mt": "edited MT"}
"""Where a translator's edited text is kept (a system per kind; it never takes part in an estimate)."""


@dataclass(frozen=True, slots=True)
class SegmentLine:
    """One segment as a list shows it: the segment with its pick (``segment.pick``) and the pick's band."""

    segment: Segment
    band: str = ""

    @property
    def pick(self) -> Pick | None:
        return self.segment.pick

    @property
    def fuzzy(self) -> float | None:
        return self.segment.best_fuzzy

    @property
    def system(self) -> str:
        return self.pick.candidate.system if self.pick else ""

    @property
    def confidence(self) -> float | None:
        return self.pick.confidence if self.pick else None

    def confidence_of(self, candidate_id: int) -> float | None:
        """What the model says of one of the segment's candidates (its confidence, else its probability)."""
        prediction = self._prediction(candidate_id)
        return None if prediction is None else prediction.shown_confidence

    def predicted_ter_of(self, candidate_id: int) -> float | None:
        """The model's predicted TER of one of the segment's candidates, where it predicts one."""
        prediction = self._prediction(candidate_id)
        return None if prediction is None else prediction.predicted_ter

    def _prediction(self, candidate_id: int) -> CandidatePrediction | None:
        index = next((i for i, c in enumerate(self.segment.candidates) if c.id == candidate_id), None)
        return self.pick.prediction_of(index) if self.pick and index is not None else None


@dataclass(frozen=True)
class PickBands:
    """The band of each segment's pick under one cost scheme, and the bands in the report's order."""

    names: list[str] = field(default_factory=list)
    by_segment: Mapping[int, str] = field(default_factory=dict)

    def of(self, segment_id: int) -> str:
        return self.by_segment.get(segment_id, "")


@dataclass(frozen=True)
class SegmentQuery:
    """Which segments a list shows: a role and document, the pick's system and band, confidence, text."""

    role: str | None = "document"
    document: str | None = None
    system: str | None = None
    band: str | None = None
    min_confidence: float = 0.0
    max_confidence: float = 1.0
    text: str = ""

    def accepts(self, line: SegmentLine) -> bool:
        if self.document is not None and line.segment.document != self.document:
            return False
        if self.system is not None and line.system != self.system:
            return False
        if self.band is not None and line.band != self.band:
            return False
        if self.min_confidence > 0.0 or self.max_confidence < 1.0:
            c = line.confidence
            if c is None or not self.min_confidence <= c <= self.max_confidence:
                return False
        if self.text:
            needle = self.text.casefold()
            pick_text = line.pick.candidate.text if line.pick else ""
            if needle not in line.segment.source.casefold() and needle not in pick_text.casefold():
                return False
        return True


def pick_bands(store: Store, scheme, *, reporter: Reporter | None = None, estimates=None) -> PickBands:  # noqa: ANN001 - CostScheme, Estimates
    """Each recommended document segment's band under ``scheme`` (no bands before the first recommendation).

    ``estimates``: an :class:`~tmtprime.workflows.estimation.Estimates` whose job is read already (or is to
    be kept for its estimates), so the bands cost no second reading.
    """
    from tmtprime.cost.estimate import pick_bands as bands_of_picks
    from tmtprime.workflows.estimation import Estimates

    try:
        loaded = (estimates or Estimates(store)).loaded(reporter)
    except ModelError:
        return PickBands()
    labels, order = bands_of_picks(loaded.job, scheme, calibration=loaded.calibration)
    present = set(labels.tolist())
    assert loaded.job.segment_ids is not None
    return PickBands([b for b in order if b in present], dict(zip(loaded.job.segment_ids.tolist(), labels.tolist())))


SORT_KEYS: dict[str, Callable[[SegmentLine], Any]] = {
    "Document": lambda line: line.segment.document.casefold(),
    "#": lambda line: line.segment.position,
    "Source": lambda line: line.segment.source.casefold(),
    "Recommended text": lambda line: (line.pick.candidate.text if line.pick else "").casefold(),
    "System": lambda line: (line.system.casefold(), bool(line.pick and line.pick.overridden)),
    "Band": lambda line: line.band.casefold(),
    "Confidence": lambda line: (line.confidence is None, line.confidence or 0.0),
    "Fuzzy": lambda line: (line.fuzzy is None, line.fuzzy or 0.0),
}
"""How a list sorts by each of its columns: numbers as numbers (blanks last), text case-insensitively."""


def sort_lines(lines: list[SegmentLine], column: str, *, descending: bool = False) -> list[SegmentLine]:
    """``lines`` sorted by a column of :data:`SORT_KEYS` (stable: ties stay in document and file order)."""
    return sorted(lines, key=SORT_KEYS[column], reverse=descending)


def _line(segment: Segment, bands: PickBands | None) -> SegmentLine:
    return SegmentLine(segment, bands.of(segment.id) if bands else "")


def segment_lines(store: Store, query: SegmentQuery, bands: PickBands | None = None) -> Iterator[SegmentLine]:
    """The lines ``query`` accepts, in document then file order, read page by page as they are consumed."""
    document_id = store.documents.get(query.document).id if query.document else None
    segments = store.segments.iter(role=None if document_id else query.role, document_id=document_id, batch_size=PAGE)
    while page := list(islice(segments, PAGE)):
        store.recommendations.fill(page)
        for seg in page:
            line = _line(seg, bands)
            if query.accepts(line):
                yield line


def segment_line(store: Store, segment: Segment, bands: PickBands | None = None) -> SegmentLine:
    """One segment's line as it is now in the project (after the user chose another pick)."""
    fresh = store.segments.candidates([segment.id]).get(segment.id, segment.candidates)
    now = replace(segment, candidates=list(fresh), pick=None)  # the caller's line keeps what it showed
    store.recommendations.fill([now])
    return _line(now, bands)


PER_DOCUMENT = ("xliff", "xliff2", "po", "original")
"""Export formats that write one file per document."""


def export_shown(
    store: Store, query: SegmentQuery, fmt: str, out: str, *, bands: PickBands | None = None, reporter: Reporter | None = None
):  # noqa: ANN201 - ExportResult
    """Export the segments ``query`` accepts (what the list shows), to one file when one file is asked for.

    A format written per document, asked to write several documents to a file
    name (``picks.xlf``), is refused with what to do, never turned into a folder.
    """
    from pathlib import Path

    from tmtprime.errors import UsageError
    from tmtprime.workflows.exporting import export

    shown = [(line.segment.id, line.segment.document) for line in segment_lines(store, query, bands)]
    if not shown:
        raise UsageError("the list shows no segments: nothing to export (loosen the filters)")
    ids = [segment_id for segment_id, _doc in shown]
    documents = {doc for _id, doc in shown} if fmt in PER_DOCUMENT else set()
    if len(documents) > 1 and Path(out).suffix and not Path(out).is_dir():
        raise UsageError(
            f"{fmt} writes one file per document and the list shows {len(documents)} documents: give a folder "
            f"instead of {Path(out).name}, or choose one document in the Document filter"
        )
    document = query.document or (next(iter(documents)) if len(documents) == 1 else None)
    role = None if document else ("all" if query.role is None else query.role)
    return export(store, fmt, out, document=document, role=role, segment_ids=ids, reporter=reporter)


def choose(
    store: Store, line: SegmentLine, candidate_id: int | None, *, text: str | None = None, bands: PickBands | None = None
) -> SegmentLine:
    """Record the user's pick for a segment (None: back to the model's); returns the line as it now is.

    With ``text`` (the chosen candidate's text as the user edited it) the text
    is kept as a candidate of its own, ``edited TM match`` or ``edited MT``, and
    that is the pick: exports write it; the estimate keeps pricing the model's
    prediction (an edited text has none).
    """
    if line.pick is None:
        raise ModelError("this segment has no recommendation yet: recommend first, then choose")
    if text is not None and candidate_id is not None:
        base = next(c for c in line.segment.candidates if c.id == candidate_id)
        if text != base.text:
            system = EDITED_SYSTEMS[base.kind]
            store.segments.add_candidates([NewCandidate(
                line.segment.id, system, base.kind, text, tm_source=base.tm_source, fuzzy=base.fuzzy, origin="edited",
                attributes={"edited_from": base.system},
            )])  # fmt: skip
            fresh = store.segments.candidates([line.segment.id])[line.segment.id]
            candidate_id = next(c.id for c in fresh if c.system == system)
    store.recommendations.set_override(line.segment.id, candidate_id, model=line.pick.model)
    return segment_line(store, line.segment, bands)
