"""Use case "TM lookup": the project's TM against its documents' segments.

Reads the TM units and segments through the store API, looks every segment
up (:func:`tmtprime.tm.lookup.lookup_segments`) and stores the best matches as
``tm`` candidates of one system (default ``tm-lookup``: imported TM matches,
e.g. system ``tm`` of the shared data, are left alone). Re-running replaces
that system's candidates of the documents looked up — in the same transaction
as the insert, after the last cancel check, so the project never shows half a
lookup and a cancelled one changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tmtprime.errors import StoreError, UsageError
from tmtprime.progress import Reporter
from tmtprime.formats.model import TMUnit
from tmtprime.store import NewCandidate, Store
from tmtprime.tm.index import TMIndex, TMMatch
from tmtprime.tm.lookup import lookup_segments
from tmtprime.tm.repetitions import repetition_stats
from tmtprime.workflows.selection import work_segments

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


def lookup_tm(
    store: Store,
    *,
    threshold: float = 50.0,
    k: int = 3,
    documents: Sequence[str] | None = None,
    system: str = DEFAULT_SYSTEM,
    n_jobs: int = 1,
    reporter: Reporter | None = None,
) -> LookupReport:
    """Look up every segment (of ``documents``, or of all non-TM documents) and store the matches."""
    reporter = reporter or Reporter()
    if not 0.0 <= threshold <= 100.0:
        raise UsageError(f"the fuzzy threshold must be between 0 and 100, got {threshold:g}")
    if k < 1:
        raise UsageError(f"the number of matches kept must be at least 1, got {k}")
    segments = work_segments(store, documents, action="look up")
    if store.tm.count() == 0:
        raise StoreError(f"{store.location} has no TM: import one first (tmtprime import PATH FILE --as tm)")
    units = list(reporter.track(store.tm.iter_units(), total=store.tm.count(), desc="reading TM", unit="unit"))
    tm_names = {d.id: d.name for d in store.documents.list(role="tm")}
    index = TMIndex(
        [u.source for u in units], [u.target for u in units], [_context(u.properties) for u in units], reporter=reporter
    )
    results = lookup_segments(
        index, [s.source for s in segments], [s.context for s in segments],
        threshold=threshold, k=k, n_jobs=n_jobs, reporter=reporter,
    )
    report = LookupReport(tm_units=len(units), segments=len(segments))
    new: list[NewCandidate] = []
    for seg, matches in zip(segments, results):
        if matches:
            report.matched += 1
            report.best_types[matches[0].match_type] += 1
        new.extend(_candidate(seg.id, rank, m, units[m.unit], tm_names, system) for rank, m in enumerate(matches))
    reporter.check()
    report.candidates = store.segments.replace_candidates(system, "tm", ENGINE, sorted({s.document_id for s in segments}), new)
    by_doc: dict[str, list[str]] = {}
    for seg in segments:
        by_doc.setdefault(seg.document, []).append(seg.source)
    for name, sources in by_doc.items():
        stats = repetition_stats(sources)
        report.repetitions[name] = (stats.repeated_segments, stats.repeated_words)
    return report


def _candidate(segment_id: int, rank: int, match: TMMatch, unit: TMUnit, tm_names: dict[int, str], system: str) -> NewCandidate:
    return NewCandidate(
        segment_id=segment_id, system=system, kind="tm", text=match.target, rank=rank,
        tm_source=match.source, fuzzy=match.score, origin=tm_names.get(unit.document_id), engine=ENGINE,
        attributes={
            "match_type": match.match_type, "tm_unit_id": unit.id,
            "content_score": match.content_score, "light_edits": match.light_edits,
        },
    )
