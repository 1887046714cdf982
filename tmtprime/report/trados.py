"""The TM analysis as a Trados-style analysis report (XML), for TMS and invoicing tools.

The layout follows the analysis reports Trados Studio writes: ``<task
name="analyse">`` with ``<taskInfo>``, one ``<file>`` per document holding an
``<analyse>`` element, and a ``<batchTotal>`` for the whole job. Inside
``<analyse>``: ``inContextExact`` (context, 101 %), ``exact`` (100 %),
``repeated`` and ``crossFileRepeated``, ``total``, ``new`` and one
``<fuzzy min= max=>`` per fuzzy band of the cost scheme, each with
``segments``, ``words`` and ``characters``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from lxml import etree

if TYPE_CHECKING:
    from tmtprime.cost.plans import CostEstimate

ELEMENTS = {"context": "inContextExact", "repetitions": "repeated", "cross-file repetitions": "crossFileRepeated", "new": "new"}


def _counts(parent: etree._Element, tag: str, counts: Mapping[str, int], **extra: str) -> None:
    etree.SubElement(
        parent, tag, **extra, segments=str(counts["segments"]), words=str(counts["words"]),
        characters=str(counts["characters"]), placeables="0", tags="0",
    )


def _analyse(parent: etree._Element, est: CostEstimate, bands: Mapping[str, Mapping[str, int]]) -> None:
    node = etree.SubElement(parent, "analyse")
    exact_label = next((b.label for b in est.scheme.tm_bands if b.low == 100), None)
    _counts(node, "inContextExact", bands["context"])
    _counts(node, "exact", bands[exact_label] if exact_label else {"segments": 0, "words": 0, "characters": 0})
    _counts(node, "crossFileRepeated", bands["cross-file repetitions"])
    _counts(node, "repeated", bands["repetitions"])
    total = {k: sum(int(b[k]) for b in bands.values()) for k in ("segments", "words", "characters")}
    _counts(node, "total", total)
    _counts(node, "new", bands["new"])
    for band in est.scheme.tm_bands:
        if band.low < 100:
            _counts(node, "fuzzy", bands[band.label], min=str(band.low), max=str(band.high))


def trados_xml(est: CostEstimate) -> bytes:
    """The analysis as UTF-8 XML."""
    task = etree.Element("task", name="analyse")
    info = etree.SubElement(task, "taskInfo", runAt=datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S"), tool="TMTprime")
    etree.SubElement(info, "project", name=est.job)
    etree.SubElement(info, "settings", reportCrossFileRepetitions="yes", scheme=est.scheme.name)
    totals: dict[str, dict[str, int]] = {}
    for doc, bands in est.analysis.items():
        _analyse(etree.SubElement(task, "file", name=doc), est, bands)
        for band, counts in bands.items():
            t = totals.setdefault(band, {"segments": 0, "words": 0, "characters": 0})
            for k in t:
                t[k] += counts[k]
    _analyse(etree.SubElement(task, "batchTotal"), est, totals)
    return etree.tostring(task, xml_declaration=True, encoding="utf-8", pretty_print=True)
