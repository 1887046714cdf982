"""Use case "report": the analysis a project manager reads and forwards (text, CSV, JSON, HTML, PDF, Trados XML)."""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from tmtprime.cost import CostEstimate
from tmtprime.progress import Reporter
from tmtprime.report import write_report
from tmtprime.report.tables import Table, all_tables, summary
from tmtprime.store import Store
from tmtprime.workflows.estimation import Estimates, SchemeSpec, estimate


def report(
    store: Store,
    fmt: str = "text",
    out: str | os.PathLike[str] | None = None,
    *,
    scheme: SchemeSpec = None,
    document: str | None = None,
    systems: Collection[str] | None = None,
    model: str | None = None,
    estimates: Estimates | None = None,
    reporter: Reporter | None = None,
) -> str | Path:
    """Write the analysis report as ``fmt`` (:data:`tmtprime.report.REPORT_FORMATS`) to ``out`` and return its path;
    without ``out``, return the report's text (not for pdf). ``scheme`` as for
    :func:`~tmtprime.workflows.estimation.estimate` (None: the project's scheme); ``estimates``: the
    caller's already read job (the window's), else the job is read here."""
    if estimates is not None:
        est = estimates.estimate(scheme, systems, reporter)
    else:
        est = estimate(store, scheme=scheme, document=document, systems=systems, model=model, reporter=reporter)
    return write_report(est, fmt, None if out is None else Path(out))


def report_view(est: CostEstimate) -> tuple[list[tuple[str, str]], dict[str, Table]]:
    """What every report shows of ``est`` besides its charts: the summary lines and the tables by key
    (``analysis``, ``plans``, ``bands-tmtprime``, ``documents``, ``confidence``, ``confusion``);
    the window renders these, so its cells are the report's."""
    return summary(est), {t.key: t for t in all_tables(est)}
