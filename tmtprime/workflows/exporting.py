"""Use case "export": picks (CSV, JSON, a picks TMX), documents for translators (XLIFF 1.2/2.1, PO, each file in its own format) or the TM (TMX)."""

from __future__ import annotations

import os
from collections.abc import Collection

from tmtprime.progress import Reporter
from tmtprime.store import ExportResult, Store, export_project


def export(
    store: Store,
    fmt: str,
    out: str | os.PathLike[str],
    *,
    document: str | None = None,
    role: str | None = None,
    model: str | None = None,
    picks: bool = False,
    fuzzy_below: float | None = None,
    segment_ids: Collection[int] | None = None,
    reporter: Reporter | None = None,
) -> ExportResult:
    """Write the project (or one document) as ``fmt`` to ``out``; see :func:`tmtprime.store.export_project`.

    Only files are written; a cancel stops between pages of segments.
    """
    reporter = reporter or Reporter()
    started = False

    def progress(done: int, total: int | None) -> None:
        nonlocal started
        if not started:  # once the output is being written: a refused export prints only its error
            reporter.status(f"exporting {document or 'the project'} as {fmt}")
            started = True
        reporter.check()
        reporter.progress(done, total)

    result = export_project(
        store, fmt, out, document=document, role=role, model=model, picks=picks, fuzzy_below=fuzzy_below,
        segment_ids=segment_ids, progress=progress,
    )  # fmt: skip
    if started:
        reporter.finish_phase()
    return result
