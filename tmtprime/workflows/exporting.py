"""Use case "export": picks (CSV, JSON, a picks TMX), documents for translators (XLIFF 1.2/2.1, PO, each file in its own format) or the TM (TMX).

The use case is :func:`tmtprime.report.exporter.export_project` itself: it
already takes the open store, its options and a Reporter (a cancel stops
between pages of segments; only files are written), so nothing wraps it.
"""

from __future__ import annotations

from tmtprime.report.exporter import EXPORT_FORMATS, ExportResult, export_project

export = export_project

__all__ = ["EXPORT_FORMATS", "ExportResult", "export"]
