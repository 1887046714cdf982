"""Readers and writers of the files localisation teams bring: TMX, XLIFF 1.2/2.x, PO, CSV/TSV, text.

Public API::

    detect_format(path) -> str
    read_document(path, *, fmt=None, mapping=None, source_lang=None, target_lang=None)
        -> (DocumentInfo, Iterator[Segment])
    read_tm(path, *, fmt=None, mapping=None, source_lang=None, target_lang=None)
        -> (DocumentInfo, Iterator[TMUnit])
    write_document(fmt, out, info, segments)      # xliff12, xliff2, tmx, csv, tsv, json, po
    fill_document(fmt, data, segments, out, options)  # the imported file itself, targets filled (pretranslate)
    write_tm(fmt, out, info, units)               # tmx, csv, tsv, json (lines)
    ColumnMapping, FORMATS, WRITE_FORMATS

Readers stream (a unit is parsed only when the iterator reaches it) and raise
``tmtprime.errors.FormatError`` naming the file and the line/unit. The
``DocumentInfo`` comes back complete for everything in the file header;
``info.skipped`` fills while streaming. ``.gz`` input is read transparently.
What a segment's ``reference`` is in each format: see ``REFERENCE_SEMANTICS``
(and ``docs`` in each reader module).
"""

from __future__ import annotations

from .api import (
    FORMATS,
    REFERENCE_SEMANTICS,
    WRITE_FORMATS,
    detect_format,
    read_document,
    read_tm,
    write_document,
    write_tm,
)
from .mapping import ColumnMapping
from .pretranslate import ORIGINAL_FORMATS, FillOptions, FillReport, fill_document
from .model import Candidate, DocumentInfo, Segment, TMUnit

__all__ = [
    "FORMATS",
    "ORIGINAL_FORMATS",
    "REFERENCE_SEMANTICS",
    "WRITE_FORMATS",
    "Candidate",
    "ColumnMapping",
    "DocumentInfo",
    "FillOptions",
    "FillReport",
    "Segment",
    "TMUnit",
    "detect_format",
    "fill_document",
    "read_document",
    "read_tm",
    "write_document",
    "write_tm",
]
