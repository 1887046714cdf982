"""The PDF report: the HTML report's content on printable A4 landscape pages (matplotlib's PdfPages)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from tmtprime.report.figures import FIGURES
from tmtprime.report.tables import Table, all_tables, summary

if TYPE_CHECKING:
    from tmtprime.cost.plans import CostEstimate

A4_LANDSCAPE = (11.69, 8.27)


def _table_page(tables: list[Table], heading: list[tuple[str, str]] | None = None) -> Figure:
    fig = Figure(figsize=A4_LANDSCAPE)
    y = 0.95
    if heading:
        fig.text(0.05, y, "TMTprime cost report", fontsize=16, weight="bold", va="top")
        y -= 0.05
        for label, value in heading:
            fig.text(0.05, y, f"{label}:", fontsize=9, weight="bold", va="top")
            fig.text(0.2, y, value, fontsize=9, va="top")
            y -= 0.028
        y -= 0.02
    for table in tables:
        fig.text(0.05, y, table.title, fontsize=11, weight="bold", va="top")
        height = 0.03 * (len(table.rows) + 1)
        ax = fig.add_axes((0.05, y - 0.025 - height, 0.9, height))
        ax.axis("off")
        cells = table.text_rows()
        t = ax.table(cellText=cells or [[""] * len(table.header)], colLabels=table.header, loc="upper left", cellLoc="right")
        t.auto_set_font_size(False)
        t.set_fontsize(7.5)
        y -= height + 0.08
    return fig


def _pages(tables: list[Table], rows_per_page: int = 22) -> list[list[Table]]:
    """Tables packed onto pages; a long table continues on the next page."""
    chunks = []
    for t in tables:
        for start in range(0, max(len(t.rows), 1), rows_per_page):
            title = t.title if start == 0 else f"{t.title} (continued)"
            chunks.append(Table(t.key, title, t.header, t.rows[start : start + rows_per_page], t.note, t.money))
    pages: list[list[Table]] = [[]]
    used = 0
    for chunk in chunks:
        need = len(chunk.rows) + 3
        if pages[-1] and used + need > rows_per_page:
            pages.append([])
            used = 0
        pages[-1].append(chunk)
        used += need
    return pages


def write_pdf(est: CostEstimate, out: Path) -> Path:
    """Summary and plan comparison, the three charts, then the remaining tables, one group per page."""
    tables = {t.key: t for t in all_tables(est)}
    with PdfPages(out) as pdf:
        pdf.savefig(_table_page([tables.pop("plans"), tables.pop("analysis")], summary(est)))
        for draw in FIGURES.values():
            fig = draw(est, Figure(figsize=A4_LANDSCAPE, layout="constrained"))
            pdf.savefig(fig)
        for page in _pages(list(tables.values())):
            pdf.savefig(_table_page(page))
        info = pdf.infodict()
        info["Title"] = f"TMTprime cost report: {est.job}"
        info["Creator"] = "TMTprime"
    return out
