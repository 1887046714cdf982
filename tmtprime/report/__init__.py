"""Report writers for a cost estimate: text, CSV, JSON, HTML, PDF and a Trados-style analysis XML.

``write_report(est, fmt, out)`` writes ``out`` (or returns the text when
``out`` is None, for stdout); :mod:`tmtprime.report.figures` holds the chart
functions the HTML/PDF reports and the desktop application share.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from tmtprime.errors import InputError, UsageError

if TYPE_CHECKING:
    from tmtprime.cost.plans import CostEstimate

REPORT_FORMATS = ("text", "csv", "json", "html", "pdf", "trados-xml")
SUFFIXES = {"text": ".txt", "csv": ".csv", "json": ".json", "html": ".html", "pdf": ".pdf", "trados-xml": ".xml"}


def render(est: CostEstimate, fmt: str) -> str | bytes:
    """The report in ``fmt`` as text (bytes for trados-xml); not for pdf, which needs a file."""
    if fmt == "text":
        from tmtprime.report.text import text_report

        return text_report(est)
    if fmt == "csv":
        from tmtprime.report.text import csv_report

        return csv_report(est)
    if fmt == "json":
        return json.dumps(est.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if fmt == "html":
        from tmtprime.report.html import html_report

        return html_report(est)
    if fmt == "trados-xml":
        from tmtprime.report.trados import trados_xml

        return trados_xml(est)
    raise UsageError(f"unknown report format {fmt!r} (formats: {', '.join(REPORT_FORMATS)})")


def write_report(est: CostEstimate, fmt: str, out: Path | str | None = None) -> str | Path:
    """Write the report to ``out`` and return its path; without ``out``, return the text (not for pdf)."""
    if fmt not in REPORT_FORMATS:
        raise UsageError(f"unknown report format {fmt!r} (formats: {', '.join(REPORT_FORMATS)})")
    if out is None:
        if fmt == "pdf":
            raise UsageError("a PDF report needs an output file (-o report.pdf)")
        content = render(est, fmt)
        return content.decode("utf-8") if isinstance(content, bytes) else content
    out = Path(out)
    if not out.parent.is_dir():
        raise InputError(f"directory {out.parent} does not exist", file=out)
    tmp = out.with_name(f".{out.name}.part")
    try:
        if fmt == "pdf":
            from tmtprime.report.pdf import write_pdf

            write_pdf(est, tmp)
        else:
            content = render(est, fmt)
            if isinstance(content, bytes):
                tmp.write_bytes(content)
            else:
                tmp.write_text(content, encoding="utf-8")
        tmp.replace(out)
    except OSError as error:
        raise InputError(f"cannot write the report ({error.strerror})", file=out) from None
    finally:
        tmp.unlink(missing_ok=True)
    return out
