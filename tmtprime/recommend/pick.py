"""The pick: which candidate a segment gets (the user's override, else the model's) and how sure the model is.

This is the one place that turns a stored recommendation into the candidate to
use: the exports, the report and the window all ask :func:`pick_of`, so an
override reaches every output the same way and no confidence is ever invented
(an override carries the model's confidence for that candidate, or none).
"""

from __future__ import annotations

from dataclasses import dataclass

from tmtprime.formats.model import Candidate, Segment
from tmtprime.store.records import RecommendationRecord


@dataclass(frozen=True, slots=True)
class Pick:
    """The candidate to use for a segment and how sure the model is of it."""

    candidate: Candidate
    confidence: float | None
    overridden: bool


def pick_of(segment: Segment, recommendation: RecommendationRecord | None) -> Pick | None:
    """The chosen candidate of a segment: the user's override, else the model's pick; None without one.

    The confidence of an override is the model's confidence (else probability)
    for that candidate, None when it recorded none; never that of its own pick.
    """
    if recommendation is None:
        return None
    chosen = recommendation.chosen_id
    candidate = next((c for c in segment.candidates if c.id == chosen), None)
    if candidate is None:
        return None
    if chosen == recommendation.candidate_id:
        return Pick(candidate, recommendation.confidence, overridden=False)
    return Pick(candidate, candidate_confidence(recommendation, chosen), overridden=True)


def candidate_confidence(recommendation: RecommendationRecord | None, candidate_id: int) -> float | None:
    """What the model says of one candidate: its confidence if recorded, else its probability."""
    prediction = recommendation.predictions.get(candidate_id) if recommendation else None
    if prediction is None:
        return None
    return prediction.confidence if prediction.confidence is not None else prediction.probability


def confidence_band(confidence: float | None) -> str:
    """``high`` (>= 0.8), ``medium`` (>= 0.5), ``low``, or ``unknown``: the band a picks TMX carries."""
    if confidence is None:
        return "unknown"
    return "high" if confidence >= 0.8 else "medium" if confidence >= 0.5 else "low"


def best_fuzzy(segment: Segment) -> float | None:
    """The highest TM fuzzy score among the segment's candidates."""
    scores = [c.fuzzy for c in segment.candidates if c.kind == "tm" and c.fuzzy is not None]
    return max(scores) if scores else None
