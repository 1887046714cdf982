"""The report's formats and the one an output path asks for.

Light on purpose (no store, no numpy): the CLI builds its parser from it on every
command, while :mod:`tmtprime.workflows.reporting` loads the store.
"""

from __future__ import annotations

from pathlib import Path

from tmtprime.report import REPORT_FORMATS, SUFFIXES

__all__ = ["REPORT_FORMATS", "report_format", "suffix_format"]

_BY_SUFFIX = {v: k for k, v in SUFFIXES.items()} | {".htm": "html", ".tsv": "csv"}


def suffix_format(output: Path) -> str | None:
    """The format ``output``'s suffix names (``.htm`` html, ``.tsv`` csv...), or None for another suffix."""
    return _BY_SUFFIX.get(output.suffix.lower())


def report_format(fmt: str | None, output: Path | None) -> str:
    """``fmt`` when given, else the format ``output``'s suffix names, else text."""
    if fmt:
        return fmt
    return (suffix_format(output) if output is not None else None) or "text"
