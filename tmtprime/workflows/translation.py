"""Use case "translate": MT candidates for every segment that has none from the system yet.

Segments are read through the store API; identical sources are translated
once. The outputs are stored in one transaction after the last cancel check,
so a cancelled or failed run changes nothing, and re-running only translates
what is still missing (idempotent). Empty outputs (e.g. a ``file`` engine
with ``missing="skip"``) are not stored. A new candidate for a segment that
already has a pick makes the pick stale (the model did not see it), and the
report says so; the run is recorded per document, holds the project's job
lock, and names documents imported while it ran.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tmtprime.mt.engine import MTEngine, create_engine
from tmtprime.parallel import batched
from tmtprime.progress import CancelOnly, Reporter
from tmtprime.store import NewCandidate, Store
from tmtprime.store.steps import NewStep
from tmtprime.workflows.selection import imported_meanwhile, work_rows

CHUNK = 400
"""Segments per engine call: each call is one progress step and one cancel check (a few seconds of
Apertium: four of its batches, two rounds on two workers)."""


@dataclass
class TranslateResult:
    """What a project translation did."""

    system: str
    engine: str
    segments: int = 0
    already: int = 0
    translated: int = 0
    empty: int = 0
    warnings: list[str] = field(default_factory=list)
    """Picks made stale, documents left out: what the user must act on."""

    def render(self) -> str:
        return (
            f"{self.system} ({self.engine}): {self.translated:,} segments translated, "
            f"{self.already:,} already had a candidate, {self.empty:,} empty outputs not stored\n"
        ) + "".join(f"warning: {w}\n" for w in self.warnings)


def make_engine(store: Store, engine: str, options: Mapping[str, Any] | None = None) -> MTEngine:
    """The engine called ``engine`` (``apertium``, ``file``, a plug-in) for the project's language pair."""
    project = store.project()
    return create_engine(engine, source_lang=project.source_lang, target_lang=project.target_lang, **dict(options or {}))


def translate(
    store: Store,
    engine: MTEngine | str,
    *,
    engine_options: Mapping[str, Any] | None = None,
    system: str | None = None,
    documents: Sequence[str] | None = None,
    reporter: Reporter | None = None,
) -> TranslateResult:
    """Add ``engine``'s output as an ``mt`` candidate to every segment lacking one from ``system``.

    ``engine`` is an :class:`~tmtprime.mt.engine.MTEngine` or the name of one
    (built by :func:`make_engine` with ``engine_options``).
    """
    reporter = reporter or Reporter()
    if isinstance(engine, str):
        engine = make_engine(store, engine, engine_options)
    engine.check()
    with store.job_lock("translate", reporter):
        return _translate(store, engine, system or engine.name, documents, reporter)


def _translate(store: Store, engine: MTEngine, name: str, documents: Sequence[str] | None, reporter: Reporter) -> TranslateResult:
    report = TranslateResult(system=name, engine=engine.describe())
    segments = work_rows(store, documents, action="translate", system=name)
    todo = [s for s in segments if not s.has_system]
    report.segments, report.already = len(segments), len(segments) - len(todo)
    chunks = list(batched(todo, CHUNK))
    new: list[NewCandidate] = []
    reporter.status(f"MT {name}")
    done = 0
    reporter.progress(0, len(todo))
    for chunk in chunks:
        reporter.check()
        sources = list(dict.fromkeys(s.source for s in chunk))
        translated = dict(zip(sources, engine.translate(sources, reporter=CancelOnly(reporter))))
        new.extend(
            NewCandidate(segment_id=s.id, system=name, kind="mt", text=translated[s.source], engine=report.engine)
            for s in chunk
            if translated[s.source].strip()
        )
        done += len(chunk)
        reporter.progress(done, len(todo))
    reporter.finish_phase()
    reporter.check()
    seen = sorted({s.document_id for s in segments})
    # replace: a run that wrote the same segments meanwhile (SQLite has no job lock) is merged, not a conflict
    written = store.segments.write_candidates(
        new, replace=True, step=NewStep("translate", name, seen, {"engine": report.engine})
    )
    report.translated, report.empty = written.stored, len(todo) - len(new)
    report.warnings = written.warnings(store.location)
    if documents is None:
        report.warnings.extend(imported_meanwhile(store, seen, f"tmtprime translate {store.location}", "translated"))
    return report

