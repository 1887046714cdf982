"""Plain-text and CSV renderings of the report's tables (terminal, spreadsheets)."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING

from tmtprime.report.tables import Table, all_tables, summary

if TYPE_CHECKING:
    from tmtprime.cost.plans import CostEstimate


def render_table(table: Table) -> str:
    cells = table.text_rows()
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(table.header)]
    line = "  ".join("-" * w for w in widths)
    out = [table.title, line, "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(table.header, widths))), line]
    out += ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in cells]
    if table.note:
        out.append(f"({table.note})")
    return "\n".join(out)


def text_report(est: CostEstimate) -> str:
    """CAT-style analysis tables, then the plan comparison, bands, documents, confidence, confusion."""
    width = max(len(k) for k, _ in summary(est))
    parts = ["TMTprime cost report", "\n".join(f"{k.ljust(width)}  {v}" for k, v in summary(est))]
    parts += [render_table(t) for t in all_tables(est)]
    if est.notes:
        parts.append("notes:\n" + "\n".join(f"- {n}" for n in est.notes))
    return "\n\n".join(parts) + "\n"


def csv_report(est: CostEstimate) -> str:
    """Every table as rows of one CSV: ``table``, then the table's own columns (header rows repeated per table)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for table in all_tables(est):
        writer.writerow(["table", *table.header])
        for row in table.rows:
            writer.writerow([table.key, *["" if v is None else v for v in row]])
    return buf.getvalue()
