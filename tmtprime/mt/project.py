"""MT for a whole project: every segment that has no candidate from the system yet.

Segments are read through the store API; identical sources are translated
once; results are stored chunk by chunk, so an interrupted run keeps what it
finished and the next run only does the rest (re-running is idempotent).
Empty outputs (e.g. a ``file`` engine with ``missing="skip"``) are not stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tmtprime.mt.engine import MTEngine
from tmtprime.parallel import batched
from tmtprime.progress import ProgressCallback, track
from tmtprime.store import NewCandidate, Store
from tmtprime.tm.project import work_segments

CHUNK = 2000
"""Segments translated and stored per transaction."""


@dataclass
class TranslateReport:
    """What a project translation did."""

    system: str
    engine: str
    segments: int = 0
    already: int = 0
    translated: int = 0
    empty: int = 0

    def render(self) -> str:
        return (
            f"{self.system} ({self.engine}): {self.translated:,} segments translated, "
            f"{self.already:,} already had a candidate, {self.empty:,} empty outputs not stored\n"
        )


def translate_project(
    store: Store,
    engine: MTEngine,
    *,
    system: str | None = None,
    documents: Sequence[str] | None = None,
    quiet: bool = True,
    callback: ProgressCallback | None = None,
) -> TranslateReport:
    """Add ``engine``'s output as an ``mt`` candidate to every segment lacking one from ``system``."""
    engine.check()
    name = system or engine.name
    report = TranslateReport(system=name, engine=engine.describe())
    segments = work_segments(store, documents, action="translate", with_candidates=True)
    todo = [s for s in segments if not any(c.system == name for c in s.candidates)]
    report.segments, report.already = len(segments), len(segments) - len(todo)
    chunks = list(batched(todo, CHUNK))
    for chunk in track(chunks, total=len(chunks), desc=f"MT {name}", quiet=quiet, unit="chunk", callback=callback):
        sources = list(dict.fromkeys(s.source for s in chunk))
        translated = dict(zip(sources, engine.translate(sources, quiet=True)))
        new = [
            NewCandidate(segment_id=s.id, system=name, kind="mt", text=translated[s.source], engine=report.engine)
            for s in chunk
            if translated[s.source].strip()
        ]
        store.segments.add_candidates(new, replace=False)
        report.translated += len(new)
        report.empty += len(chunk) - len(new)
    return report
