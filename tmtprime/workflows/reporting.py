"""Use case "report": the analysis a project manager reads and forwards (text, CSV, JSON, HTML, PDF, Trados XML)."""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from tmtprime.progress import Reporter
from tmtprime.report import write_report
from tmtprime.store import Store
from tmtprime.workflows.estimation import DEFAULT_SCHEME, estimate


def report(
    store: Store,
    fmt: str = "text",
    out: str | os.PathLike[str] | None = None,
    *,
    scheme: str | os.PathLike[str] = DEFAULT_SCHEME,
    document: str | None = None,
    systems: Collection[str] | None = None,
    model: str | None = None,
    reporter: Reporter | None = None,
) -> str | Path:
    """Write the analysis report as ``fmt`` (:data:`tmtprime.report.REPORT_FORMATS`) to ``out`` and return its path;
    without ``out``, return the report's text (not for pdf)."""
    est = estimate(store, scheme=scheme, document=document, systems=systems, model=model, reporter=reporter)
    return write_report(est, fmt, None if out is None else Path(out))
