"""TM lookup for a whole project: the project's TM against its documents' segments.

Reads the TM units and segments through the store API, looks every segment
up (:func:`tmtprime.tm.lookup.lookup_segments`) and stores the best matches as
``tm`` candidates of one system (default ``tm-lookup``: imported TM matches,
e.g. system ``tm`` of the shared data, are left alone). Re-running replaces
that system's candidates of the segments looked up — in the same transaction
as the insert, so the project never shows half a lookup.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy import delete, select

from tmtprime.errors import StoreError, UsageError
from tmtprime.progress import ProgressCallback
from tmtprime.store import NewCandidate, SegmentRecord, Store, TMRecord
from tmtprime.store import schema as db
from tmtprime.store.segments import batched, ensure_systems, insert_candidates
from tmtprime.tm.index import TMIndex, TMMatch
from tmtprime.tm.lookup import lookup_segments
from tmtprime.tm.repetitions import repetition_stats

DEFAULT_SYSTEM = "tm-lookup"
ENGINE = "tmtprime.tm fuzzy lookup"
CONTEXT_PROPERTIES = ("context", "x-context", "msgctxt")
"""TM unit properties holding the unit's context (readers and our TMX writer use these names)."""


@dataclass
class LookupReport:
    """What a project lookup did, for the CLI and the GUI."""

    tm_units: int = 0
    segments: int = 0
    matched: int = 0
    candidates: int = 0
    best_types: Counter[str] = field(default_factory=Counter)
    """Segments by match type of their best match (``context``, ``exact``, ``100``, ``fuzzy``)."""
    repetitions: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Document name -> (repeated segments, repeated words)."""

    def render(self) -> str:
        lines = [
            f"TM units: {self.tm_units:,}; segments looked up: {self.segments:,}; "
            f"with a match: {self.matched:,}; candidates stored: {self.candidates:,}",
        ]
        if self.best_types:
            lines.append("best match: " + ", ".join(f"{t} {n:,}" for t, n in sorted(self.best_types.items())))
        for name, (segments, words) in self.repetitions.items():
            lines.append(f"{name}: {segments:,} repeated segments ({words:,} words)")
        return "\n".join(lines) + "\n"


def _context(properties: Mapping[str, object]) -> str | None:
    return next((str(properties[k]) for k in CONTEXT_PROPERTIES if properties.get(k)), None)


def work_segments(
    store: Store, documents: Sequence[str] | None, *, action: str, with_candidates: bool = False
) -> list[SegmentRecord]:
    """Segments of the named documents, or of every dev/work document; naming a TM is an error.

    Shared by TM lookup and MT (``action`` words the error: "look up", "translate").
    """
    if not documents:
        return [s for s in store.segments.iter(with_candidates=with_candidates) if s.role != "tm"]
    out: list[SegmentRecord] = []
    for name in documents:
        doc = store.documents.get(name)
        if doc.role == "tm":
            raise UsageError(f"document {name!r} is a TM, not a document to {action}")
        out.extend(store.segments.iter(document_id=doc.id, with_candidates=with_candidates))
    return out


def lookup_project(
    store: Store,
    *,
    threshold: float = 50.0,
    k: int = 3,
    documents: Sequence[str] | None = None,
    system: str = DEFAULT_SYSTEM,
    n_jobs: int = 1,
    quiet: bool = True,
    callback: ProgressCallback | None = None,
) -> LookupReport:
    """Look up every segment (of ``documents``, or of all non-TM documents) and store the matches."""
    segments = work_segments(store, documents, action="look up")
    if store.tm.count() == 0:
        raise StoreError(f"{store.location} has no TM: import one first (tmtprime import PATH FILE --as tm)")
    units = list(store.tm.iter_units())
    tm_names = {d.id: d.name for d in store.documents.list(role="tm")}
    index = TMIndex(
        [u.source for u in units], [u.target for u in units], [_context(u.properties) for u in units], quiet=quiet
    )
    results = lookup_segments(
        index, [s.source for s in segments], [s.context for s in segments],
        threshold=threshold, k=k, n_jobs=n_jobs, quiet=quiet, callback=callback,
    )
    report = LookupReport(tm_units=len(units), segments=len(segments))
    new: list[NewCandidate] = []
    for seg, matches in zip(segments, results):
        if matches:
            report.matched += 1
            report.best_types[matches[0].match_type] += 1
        new.extend(_candidate(seg.id, rank, m, units[m.unit], tm_names, system) for rank, m in enumerate(matches))
    _replace_candidates(store, system, sorted({s.document_id for s in segments}), new)
    report.candidates = len(new)
    by_doc: dict[str, list[str]] = {}
    for seg in segments:
        by_doc.setdefault(seg.document, []).append(seg.source)
    for name, sources in by_doc.items():
        stats = repetition_stats(sources)
        report.repetitions[name] = (stats.repeated_segments, stats.repeated_words)
    return report


def _candidate(segment_id: int, rank: int, match: TMMatch, unit: TMRecord, tm_names: dict[int, str], system: str) -> NewCandidate:
    return NewCandidate(
        segment_id=segment_id, system=system, kind="tm", text=match.target, rank=rank,
        tm_source=match.source, fuzzy=match.score, origin=tm_names.get(unit.document_id), engine=ENGINE,
        attributes={
            "match_type": match.match_type, "tm_unit_id": unit.id,
            "content_score": match.content_score, "light_edits": match.light_edits,
        },
    )


def _replace_candidates(store: Store, system: str, document_ids: list[int], new: list[NewCandidate]) -> None:
    """Drop ``system``'s candidates of the looked-up documents and insert ``new``: one transaction."""
    candidates, segments = db.Candidate.__table__, db.Segment.__table__
    with store.connection(write=True) as conn:
        system_id = ensure_systems(conn, {system: ("tm", ENGINE)})[system].id
        for chunk in batched(document_ids, 500):
            in_docs = select(segments.c.id).where(segments.c.document_id.in_(chunk))
            conn.execute(delete(candidates).where(candidates.c.system_id == system_id, candidates.c.segment_id.in_(in_docs)))
        for chunk in batched(new, 2000):
            insert_candidates(conn, chunk, replace=False)
