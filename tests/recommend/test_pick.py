"""The pick of a segment: the user's override, else the model's, with the model's confidence and never an invented one."""

from __future__ import annotations

from datetime import UTC, datetime

from tmtprime.formats.model import Candidate, Segment
from tmtprime.recommend.pick import best_fuzzy, candidate_confidence, confidence_band, pick_of
from tmtprime.store.records import CandidatePrediction, RecommendationRecord


def _segment() -> Segment:
    return Segment(key="s1", source="Open the file", candidates=[
        Candidate("tm", "tm", "Abra el archivo", fuzzy=92.0, id=1),
        Candidate("tm", "tm", "Abra el fichero", fuzzy=75.0, id=2),
        Candidate("deepl", "mt", "Abrir el archivo", id=3),
    ])  # fmt: skip


def _rec(override: int | None = None) -> RecommendationRecord:
    predictions = {1: CandidatePrediction(probability=0.4, confidence=0.45), 3: CandidatePrediction(probability=0.7)}
    return RecommendationRecord(1, 1, "m", candidate_id=1, confidence=0.81, override_candidate_id=override,
                                created_at=datetime.now(UTC), predictions=predictions)  # fmt: skip


def test_the_models_pick_carries_the_recommendations_confidence():
    pick = pick_of(_segment(), _rec())
    assert pick.candidate.id == 1 and pick.confidence == 0.81 and not pick.overridden
    assert confidence_band(pick.confidence) == "high"


def test_an_override_carries_the_models_word_on_that_candidate_or_none():
    to_mt = pick_of(_segment(), _rec(override=3))
    assert to_mt.candidate.id == 3 and to_mt.overridden and to_mt.confidence == 0.7  # probability: no confidence stored
    unscored = pick_of(_segment(), _rec(override=2))
    assert unscored.candidate.id == 2 and unscored.confidence is None and confidence_band(None) == "unknown"
    assert candidate_confidence(_rec(), 1) == 0.45 and candidate_confidence(None, 1) is None


def test_no_recommendation_or_a_vanished_candidate_is_no_pick():
    assert pick_of(_segment(), None) is None
    assert pick_of(Segment(key="s2", source="x"), _rec()) is None
    assert best_fuzzy(_segment()) == 92.0 and best_fuzzy(Segment(key="s3", source="y")) is None
