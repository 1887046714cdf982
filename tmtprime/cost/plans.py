"""What an estimate says: the cost of each plan (:class:`PlanCost`) and the whole :class:`CostEstimate`.

Kept apart from the arithmetic of :mod:`tmtprime.cost.estimate` because every
report writer, the window and the estimate cache read these types (and a kept
estimate is rebuilt from its JSON with :meth:`CostEstimate.from_dict`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tmtprime.cost.scheme import CostScheme

SINGLE_KINDS = ("tm", "mt", "repair")
"""Kinds of a single system's plan; ``repair`` (TM matches repaired with MT) is a system of its own."""


@dataclass
class PlanCost:
    """What a job costs under one plan; money in the scheme's currency, ``None`` where unknown."""

    plan: str
    """A system's name, ``rule``, ``tmtprime`` or ``cost-aware``."""
    kind: str
    """``tm`` or ``mt`` for a single system, else the plan's name."""
    segments: int
    words: int
    weighted_words: float
    cost: float
    """The expected estimate (base costs included)."""
    cat_weighted_words: float
    cat_cost: float
    base_cost: float
    days: float
    actual_cost: float | None
    """Over the segments with a reference (None without any)."""
    actual_weighted_words: float | None
    estimate_on_references: float | None
    """The expected estimate over the same segments as ``actual_cost``."""
    error_pct: float | None
    """(estimate - actual) / actual x 100 over the segments with a reference."""
    reference_segments: int
    by_band: dict[str, dict[str, float]]
    by_document: dict[str, dict[str, float | None]]
    by_system: dict[str, dict[str, int]]
    savings_vs_tm: float | None = None
    savings_vs_best_single: float | None = None
    actual_time_cost: float | None = None
    """Post-editing time x the scheme's hourly rate (plus base costs), over the segments whose chosen
    candidate has a time (None without times or an hourly rate)."""
    time_segments: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {k: _json(v) for k, v in self.__dict__.items()}


@dataclass
class CostEstimate:
    """Every plan's cost for one job, the band confusion and the confidence statistics."""

    scheme: CostScheme
    job: str
    """``all documents`` or the document's name."""
    model: str
    currency: str
    word_rate: float
    segments: int
    words: int
    repeated_segments: int
    repeated_words: int
    reference_segments: int
    documents: list[str]
    systems: list[str]
    calibrated: bool
    plans: list[PlanCost]
    confusion: dict[str, Any]
    """Predicted vs actual quality band of TMTprime's picks on segments with a reference."""
    confidence: dict[str, Any]
    """Segments and words of TMTprime's picks per confidence bin and system."""
    analysis: dict[str, dict[str, dict[str, int]]]
    """The CAT analysis of the TM alone, per document then band (``context``, ``repetitions``,
    ``cross-file repetitions``, ``100``, the fuzzy bands, ``new``): segments, words, characters."""
    notes: list[str] = field(default_factory=list)
    word_rate_pair: str | None = None
    """The scheme's ``word_rate_by_pair`` key whose rate applied (None: the full rate ``word_rate``)."""
    job_systems: list[str] = field(default_factory=list)
    """Every system with candidates in the job (``systems``: those taking part)."""

    def plan(self, name: str) -> PlanCost:
        for p in self.plans:
            if p.plan == name:
                return p
        raise KeyError(name)

    @property
    def single_plans(self) -> list[PlanCost]:
        return [p for p in self.plans if p.kind in SINGLE_KINDS]

    @property
    def best_single(self) -> PlanCost:
        return min(self.single_plans, key=lambda p: p.cost)

    @property
    def has_actual(self) -> bool:
        return self.reference_segments > 0

    def to_dict(self) -> dict[str, Any]:
        """Everything, with stable keys (``plans`` first among the results)."""
        return {
            "job": self.job,
            "model": self.model,
            "currency": self.currency,
            "word_rate": self.word_rate,
            "word_rate_pair": self.word_rate_pair,
            "segments": self.segments,
            "words": self.words,
            "repeated_segments": self.repeated_segments,
            "repeated_words": self.repeated_words,
            "reference_segments": self.reference_segments,
            "documents": list(self.documents),
            "systems": list(self.systems),
            "job_systems": list(self.job_systems),
            "calibrated": self.calibrated,
            "plans": [p.to_dict() for p in self.plans],
            "best_single": self.best_single.plan,
            "confusion": _json(self.confusion),
            "confidence": _json(self.confidence),
            "analysis": _json(self.analysis),
            "scheme": self.scheme.to_dict(),
            "scheme_source": self.scheme.source,
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CostEstimate:
        """The estimate :meth:`to_dict` wrote (an estimate kept in the project)."""
        fields = {k: v for k, v in data.items() if k not in ("plans", "best_single", "scheme", "scheme_source")}
        scheme = CostScheme.from_dict(data["scheme"], source=data.get("scheme_source") or "")
        plans = [PlanCost(**p) for p in data["plans"]]
        return cls(scheme=scheme, plans=plans, **fields)


def _json(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return None if np.isnan(value) else float(value)
    if isinstance(value, float) and np.isnan(value):
        return None
    return value
