"""Use case "TM repair": a repaired candidate for every segment's best fuzzy TM match.

The best TM candidate of each segment at or above ``min_fuzzy`` is repaired
(:mod:`tmtprime.tm.repair`) with the project TM's own word alignment and an MT
engine for the differing spans; a repaired match becomes a candidate of kind
``repair`` (system ``tm-repair``) that keeps the TM unit it came from and the
spans it changed in its attributes. Matches that need no repair, or whose
alignment is not trustworthy, get none (the report says why). Re-running
replaces the system's candidates of the documents repaired, in one transaction
after the last cancel check, so a cancelled run changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tmtprime.errors import StoreError, UsageError
from tmtprime.formats.model import Candidate
from tmtprime.mt.engine import MTEngine
from tmtprime.mt.imported import ImportedEngine
from tmtprime.progress import Reporter
from tmtprime.store import NewCandidate, Store
from tmtprime.tm.repair import REPAIRED, Repair, Repairer
from tmtprime.workflows.selection import work_segments
from tmtprime.workflows.translation import make_engine

DEFAULT_SYSTEM = "tm-repair"
_IMPORTED = ("{name} is imported MT (translations of whole segments): it cannot translate the spans a repair "
             "needs; use --engine apertium or a plug-in engine")
ORIGIN = "machine-repaired TM"
"""The ``origin`` of a repaired candidate: what exports mark it as."""


@dataclass
class RepairResult:
    """What a repair run did."""

    system: str
    engine: str
    segments: int = 0
    matches: int = 0
    """Segments whose best TM match reaches the threshold."""
    repaired: int = 0
    unchanged: Counter[str] = field(default_factory=Counter)
    """Matches left as they were, by reason."""
    warnings: list[str] = field(default_factory=list)
    """Picks a re-run made stale or lost (the repaired text changed): what the user must act on."""

    def render(self) -> str:
        lines = [f"{self.system} ({self.engine}): {self.segments:,} segments, {self.matches:,} TM matches at or above "
                 f"the threshold, {self.repaired:,} repaired candidates stored"]
        if self.unchanged:
            lines.append("left unchanged: " + ", ".join(f"{why} {n:,}" for why, n in self.unchanged.most_common()))
        lines.extend(f"warning: {w}" for w in self.warnings)
        return "\n".join(lines) + "\n"


def _best_match(candidates: Sequence[Candidate], min_fuzzy: float) -> Candidate | None:
    matches = [c for c in candidates if c.kind == "tm" and c.text and c.tm_source and (c.fuzzy or 0.0) >= min_fuzzy]
    return max(matches, key=lambda c: (c.fuzzy or 0.0, -c.rank), default=None)


def repair_attributes(match: Candidate, repair: Repair) -> dict[str, Any]:
    """What a repaired candidate keeps: its TM unit and match, the spans and the alignment facts the features use."""
    return {
        "tm_unit_id": match.attributes.get("tm_unit_id"),
        "tm_candidate_id": match.id,
        "tm_system": match.system,
        "tm_target": match.text,
        "spans": [asdict(s) for s in repair.spans],
        "changed_share": repair.changed_share,
        "context_spans": repair.context_spans,
        "coverage": repair.coverage,
    }


def repair_engine(store: Store, engine: MTEngine | str, options: Mapping[str, Any] | None = None) -> MTEngine:
    """The checked engine that translates the spans; imported MT (whole segments only) is refused in one line."""
    imported = {s.name for s in store.systems.list() if s.kind == "mt"}
    if isinstance(engine, str) and (engine == "file" or engine in imported):
        raise UsageError(_IMPORTED.format(name=engine))
    if isinstance(engine, str):
        engine = make_engine(store, engine, options)
    if isinstance(engine, ImportedEngine):
        raise UsageError(_IMPORTED.format(name=engine.name))
    engine.check()
    return engine


def repair_tm(
    store: Store,
    engine: MTEngine | str = "apertium",
    *,
    engine_options: Mapping[str, Any] | None = None,
    min_fuzzy: float = 50.0,
    documents: Sequence[str] | None = None,
    system: str = DEFAULT_SYSTEM,
    reporter: Reporter | None = None,
) -> RepairResult:
    """Store a repaired candidate of ``system`` for every segment whose best TM match can be repaired."""
    reporter = reporter or Reporter()
    if not 0.0 <= min_fuzzy <= 100.0:
        raise UsageError(f"the fuzzy threshold must be between 0 and 100, got {min_fuzzy:g}")
    engine = repair_engine(store, engine, engine_options)
    if store.tm.count() == 0:
        raise StoreError(f"{store.location} has no TM: import one first (tmtprime import PATH FILE --as tm)")
    segments = work_segments(store, documents, action="repair", with_candidates=True)
    report = RepairResult(system=system, engine=engine.describe(), segments=len(segments))
    todo = [(s, m) for s in segments if (m := _best_match(s.candidates, min_fuzzy)) is not None]
    report.matches = len(todo)
    pairs = reporter.track(((u.source, u.target) for u in store.tm.iter_units()), total=store.tm.count(),
                           desc="reading TM", unit="unit")
    repairer = Repairer.from_tm(pairs, engine, reporter=reporter)
    results = repairer.repair([(s.source, m.tm_source or "", m.text) for s, m in todo], reporter=reporter)
    new: list[NewCandidate] = []
    for (seg, match), repair in zip(todo, results):
        if repair.reason != REPAIRED or repair.text is None:
            report.unchanged[repair.reason] += 1
            continue
        new.append(NewCandidate(
            segment_id=seg.id or 0, system=system, kind="repair", text=repair.text, tm_source=match.tm_source,
            fuzzy=match.fuzzy, origin=ORIGIN, engine=report.engine, attributes=repair_attributes(match, repair),
        ))
    reporter.check()
    doc_ids = sorted({s.document_id for s in segments if s.document_id is not None})
    merged = store.segments.replace_candidates(system, "repair", report.engine, doc_ids, new)
    report.repaired, report.warnings = merged.stored, merged.warnings(store.location)
    return report
