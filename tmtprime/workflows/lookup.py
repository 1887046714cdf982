"""Use case "TM lookup": the project's TM against its documents' segments.

Reads the TM units and segments through the store API, looks every segment
up (:func:`tmtprime.tm.lookup.lookup_segments`) and stores the best matches as
``tm`` candidates of one system (default ``tm-lookup``: imported TM matches,
e.g. system ``tm`` of the shared data, are left alone). Re-running merges into
that system's candidates of the documents looked up (unchanged matches keep
their ids, so picks and overrides stay; changed ones make their picks stale:
:mod:`tmtprime.store.merge`) in one transaction after the last cancel check,
so the project never shows half a lookup and a cancelled one changes nothing.
The lookup is recorded per document with the TM it used, holds the project's
job lock (two lookups never interleave) and names any document imported while
it ran, which it did not look up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tmtprime.errors import StoreError, UsageError
from tmtprime.progress import Reporter
from tmtprime.formats.model import TMUnit
from tmtprime.store import NewCandidate, Store
from tmtprime.store.steps import NewStep
from tmtprime.tm.index import TMIndex, TMMatch
from tmtprime.tm.lookup import lookup_segments
from tmtprime.tm.repetitions import repetition_stats
from tmtprime.workflows.selection import imported_meanwhile, work_rows

DEFAULT_SYSTEM = "tm-lookup"
ENGINE = "tmtprime.tm fuzzy lookup"
CONTEXT_PROPERTIES = ("context", "x-context", "msgctxt")
"""TM unit properties holding the unit's context (readers and our TMX writer use these names)."""


@dataclass
class LookupResult:
    """What a project lookup did, for the CLI and the GUI."""

    tm_units: int = 0
    segments: int = 0
    matched: int = 0
    candidates: int = 0
    best_types: Counter[str] = field(default_factory=Counter)
    """Segments by match type of their best match (``context``, ``exact``, ``100``, ``fuzzy``)."""
    repetitions: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Document name -> (repeated segments, repeated words)."""
    unchanged: int = 0
    """Stored matches found again as they were (ids, picks and overrides kept)."""
    warnings: list[str] = field(default_factory=list)
    """Picks made stale or lost, documents left out: what the user must act on."""

    def render(self) -> str:
        lines = [
            f"TM units: {self.tm_units:,}; segments looked up: {self.segments:,}; "
            f"with a match: {self.matched:,}; candidates stored: {self.candidates:,} ({self.unchanged:,} unchanged)",
        ]
        if self.best_types:
            lines.append("best match: " + ", ".join(f"{t} {n:,}" for t, n in sorted(self.best_types.items())))
        for name, (segments, words) in self.repetitions.items():
            lines.append(f"{name}: {segments:,} repeated segments ({words:,} words)")
        lines.extend(f"warning: {w}" for w in self.warnings)
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
) -> LookupResult:
    """Look up every segment (of ``documents``, or of all non-TM documents) and store the matches."""
    reporter = reporter or Reporter()
    if not 0.0 <= threshold <= 100.0:
        raise UsageError(f"the fuzzy threshold must be between 0 and 100, got {threshold:g}")
    if k < 1:
        raise UsageError(f"the number of matches kept must be at least 1, got {k}")
    with store.job_lock("lookup", reporter):
        return _lookup(store, threshold, k, documents, system, n_jobs, reporter)


def _lookup(
    store: Store, threshold: float, k: int, documents: Sequence[str] | None, system: str, n_jobs: int, reporter: Reporter
) -> LookupResult:
    segments = work_rows(store, documents, action="look up")
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
    report = LookupResult(tm_units=len(units), segments=len(segments))
    new: list[NewCandidate] = []
    for seg, matches in zip(segments, results):
        if matches:
            report.matched += 1
            report.best_types[matches[0].match_type] += 1
        new.extend(_candidate(seg.id, rank, m, units[m.unit], tm_names, system) for rank, m in enumerate(matches))
    reporter.check()
    looked_up = sorted({s.document_id for s in segments})
    inputs = {"tm": store.steps.tm_documents(), "threshold": threshold, "k": k}
    merged = store.segments.replace_candidates(
        system, "tm", ENGINE, looked_up, new, step=NewStep("lookup", system, looked_up, inputs)
    )
    report.candidates, report.unchanged = merged.stored, merged.unchanged
    report.warnings = merged.warnings(store.location)
    if documents is None:
        report.warnings.extend(imported_meanwhile(store, looked_up, f"tmtprime tm lookup {store.location}", "looked up"))
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
