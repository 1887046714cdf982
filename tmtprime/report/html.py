"""The HTML report: one self-contained file (charts inlined as PNG) a reader who never saw TMTprime follows."""

from __future__ import annotations

import base64
import io
import json
from html import escape
from typing import TYPE_CHECKING

from tmtprime.report.figures import FIGURES
from tmtprime.report.tables import Table, all_tables, summary

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tmtprime.cost.plans import CostEstimate

CHART_TEXT = {
    "systems": "Which system TMTprime recommends, counted in segments and in words.",
    "costs": "What the job costs with each system alone, with the classic pre-translation rule, with TMTprime's "
    "per-segment choice and with the cost-aware choice; the actual cost, where references exist, beside the estimate.",
    "confidence": "How sure TMTprime is of its picks: each pick's predicted share of words that survive post-editing.",
}

STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 2em auto; max-width: 68em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f0f0f0; }
dl.summary { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.summary dt { font-weight: bold; } dl.summary dd { margin: 0; }
p.note { font-size: 0.85em; color: #555; max-width: 60em; }
img.chart { max-width: 100%; height: auto; display: block; }
pre { background: #f7f7f7; padding: 0.8em; font-size: 0.85em; overflow-x: auto; }
"""


def png_data_uri(fig: Figure, dpi: int = 110) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _table(table: Table) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in table.header)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in table.text_rows()
    )
    note = f'<p class="note">{escape(table.note)}</p>' if table.note else ""
    return f'<h2 id="{escape(table.key)}">{escape(table.title)}</h2><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note}'


def html_report(est: CostEstimate) -> str:
    """The whole report as one HTML document (no external files, scripts or fonts)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>TMTprime cost report: {escape(est.job)}</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>TMTprime cost report</h1>",
        '<dl class="summary">' + "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in summary(est)) + "</dl>",
    ]
    for key, draw in FIGURES.items():
        fig = draw(est)
        parts.append(
            f'<h2 id="chart-{key}">{escape(fig.get_suptitle() or fig.axes[0].get_title())}</h2>'
            f'<p class="note">{escape(CHART_TEXT[key])}</p>'
            f'<img class="chart" id="img-{key}" alt="{escape(key)} chart" src="{png_data_uri(fig)}">'
        )
    parts += [_table(t) for t in all_tables(est)]
    if est.notes:
        parts.append("<h2>Notes</h2><ul>" + "".join(f"<li>{escape(n)}</li>" for n in est.notes) + "</ul>")
    parts.append("<h2>Cost scheme used</h2>")
    parts.append(f"<pre>{escape(json.dumps(est.scheme.to_dict(), indent=2, ensure_ascii=False))}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
