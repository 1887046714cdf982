"""Features of a repaired TM match (kind ``repair``, :mod:`tmtprime.tm.repair`): how much was repaired, how.

A repaired candidate is the TM match with some words machine-translated; how
far to trust it depends on how much of it is new (share of the TM target
replaced, number of spans), how the spans were put in (a function word in front
taken along for agreement) and how well the TM's lexical model confirmed the
spans' MT. The repair workflow keeps these facts in the candidate's attributes.
``cand_is_repair`` holds for every candidate; the other columns are NaN (absent,
not made up) for the other kinds and for a fact an older repair did not record.

These columns come after the base feature set and carry their own version
(:data:`REPAIR_FEATURE_SET_VERSION`, in the extractor's version and the model
card), so models trained before them still read exactly the columns their
card names.
"""

from __future__ import annotations

import math
from typing import Any

from tmtprime.formats.model import Candidate

REPAIR_FEATURE_SET_VERSION = "1"
REPAIR_NAMES = (
    "cand_is_repair",
    "cand_repair_changed_share",
    "cand_repair_spans",
    "cand_repair_context_share",
    "cand_repair_coverage",
)


def _number(attributes: dict[str, Any], key: str) -> float:
    value = attributes.get(key)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan


def repair_key(candidate: Candidate) -> tuple | None:
    """The facts :func:`repair_values` reads, hashable (for the extractor's ``feature_key``)."""
    if candidate.kind != "repair":
        return None
    attrs = candidate.attributes or {}
    spans = attrs.get("spans")
    n_spans = len(spans) if isinstance(spans, list) else None
    return (attrs.get("changed_share"), n_spans, attrs.get("context_spans"), attrs.get("coverage"))


def repair_values(candidate: Candidate) -> list[float]:
    """The :data:`REPAIR_NAMES` columns of one candidate."""
    if candidate.kind != "repair":
        return [0.0] + [math.nan] * (len(REPAIR_NAMES) - 1)
    attrs = candidate.attributes or {}
    spans = attrs.get("spans")
    n_spans = len(spans) if isinstance(spans, list) else math.nan
    context = _number(attrs, "context_spans")
    return [
        1.0,
        _number(attrs, "changed_share"),
        math.log1p(n_spans),
        context / n_spans if n_spans else math.nan,
        _number(attrs, "coverage"),
    ]
