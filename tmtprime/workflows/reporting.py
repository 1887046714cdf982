"""Use case "report": the analysis a project manager reads and forwards (text, CSV, JSON, HTML, PDF, Trados XML).

A report never quotes a total that silently covers only part of the job: when
segments of the documents in scope have no pick yet (a document imported after
``recommend``, or picks lost with their candidates) it refuses and says what to
run, unless ``partial`` asks for the rest; the report then says what it leaves
out, and notes stale picks (see :mod:`tmtprime.workflows.status`).
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from tmtprime.cost import CostEstimate
from tmtprime.errors import UsageError
from tmtprime.progress import Reporter
from tmtprime.report import REPORT_FORMATS, SUFFIXES, write_report
from tmtprime.report.tables import Table, all_tables, summary
from tmtprime.store import Store
from tmtprime.workflows.estimation import Estimates, SchemeSpec, estimate
from tmtprime.workflows.status import ProjectStatus, project_status

__all__ = ["REPORT_FORMATS", "SUFFIXES", "report", "report_scope", "report_view"]  # the formats: what --format offers


def report(
    store: Store,
    fmt: str = "text",
    out: str | os.PathLike[str] | None = None,
    *,
    scheme: SchemeSpec = None,
    document: str | None = None,
    systems: Collection[str] | None = None,
    model: str | None = None,
    partial: bool = False,
    estimates: Estimates | None = None,
    reporter: Reporter | None = None,
) -> str | Path:
    """Write the analysis report as ``fmt`` (:data:`tmtprime.report.REPORT_FORMATS`) to ``out`` and return its path;
    without ``out``, return the report's text (not for pdf). ``scheme`` as for
    :func:`~tmtprime.workflows.estimation.estimate` (None: the project's scheme); ``estimates``: the
    caller's already read job (the window's), else the job is read here. A report that would leave out
    segments without a pick is refused unless ``partial``."""
    status = report_scope(store, document=document, model=model)
    gap = status.unrecommended_notice()
    if gap is not None and status.model is not None and not partial:
        raise UsageError(
            f"the report would leave out segments: {gap}, or give --partial for a report on the "
            f"{sum(d.recommended for d in status.documents):,} segments that have a pick"
        )
    if estimates is not None:
        est = estimates.estimate(scheme, systems, reporter)
    else:
        est = estimate(store, scheme=scheme, document=document, systems=systems, model=model, reporter=reporter)
    if status.stale:
        est.notes.append(
            f"{status.stale} picks are stale: their segment's candidates changed after recommend "
            f"(run 'tmtprime recommend {store.location}')"
        )
    return write_report(est, fmt, None if out is None else Path(out))


def report_scope(store: Store, *, document: str | None = None, model: str | None = None) -> ProjectStatus:
    """The status of the documents a report covers (one, or every work document)."""
    status = project_status(store, model=model)
    if document is None:
        return status
    store.documents.get(document)  # an unknown name is refused with the known ones
    return ProjectStatus(status.location, status.model, status.has_tm,
                         tuple(d for d in status.documents if d.name == document))


def report_view(est: CostEstimate) -> tuple[list[tuple[str, str]], dict[str, Table]]:
    """What every report shows of ``est`` besides its charts: the summary lines and the tables by key
    (``analysis``, ``plans``, ``bands-tmtprime``, ``documents``, ``confidence``, ``confusion``);
    the window renders these, so its cells are the report's."""
    return summary(est), {t.key: t for t in all_tables(est)}
