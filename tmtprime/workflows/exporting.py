"""Use case "export": picks (CSV, JSON, a picks TMX), documents for translators (XLIFF 1.2/2.1, PO, each file in its own format) or the TM (TMX)."""

from __future__ import annotations

import os
from collections.abc import Collection

from tmtprime.progress import Reporter
from tmtprime.report.exporter import EXPORT_FORMATS, ExportResult, export_project

__all__ = ["EXPORT_FORMATS", "ExportResult", "export"]
from tmtprime.store import Store


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
    """Write the project (or one document) as ``fmt`` to ``out``; see :func:`tmtprime.report.exporter.export_project`.

    Only files are written; a cancel stops between pages of segments.
    """
    return export_project(
        store, fmt, out, document=document, role=role, model=model, picks=picks, fuzzy_below=fuzzy_below,
        segment_ids=segment_ids, reporter=reporter,
    )  # fmt: skip
