"""Plain values that the store API returns and takes.

They are detached from any database session, so callers (TM lookup, the
recommender, the GUI, other processes) can keep and pass them around without
caring about session lifetimes; ids in them refer to rows of the store.
Segments, candidates and TM units are the domain dataclasses of
:mod:`tmtprime.formats.model` (mutable: each read hands out fresh objects);
the rest are frozen records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tmtprime.formats.model import Candidate, Segment, TMUnit


@dataclass(frozen=True, slots=True)
class ProjectRecord:
    """The project's identity: name, language pair and schema version."""

    name: str
    source_lang: str
    target_lang: str
    schema_version: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class DocumentRecord:
    """One imported file (see :class:`tmtprime.store.schema.DocumentRow`)."""

    id: int
    name: str
    role: str
    format: str
    content_hash: str
    path: str
    original: str | None
    source_lang: str | None
    target_lang: str | None
    unit_count: int
    imported_at: datetime
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SystemRecord:
    """A producer of candidates: kind ``tm`` or ``mt``."""

    id: int
    name: str
    kind: str
    engine: str | None


# Segments, candidates and TM units come back as the domain classes themselves
# (store ids filled in); the record names stay for callers that think in records.
SegmentRecord = Segment
CandidateRecord = Candidate
TMRecord = TMUnit


@dataclass(frozen=True, slots=True)
class NewCandidate:
    """A candidate to add to a segment (by TM lookup, an MT engine or an import).

    The system is created on first use with ``kind`` (and ``engine``); using an
    existing system name with another kind is refused.
    """

    segment_id: int
    system: str
    kind: str
    text: str
    rank: int = 0
    tm_source: str | None = None
    fuzzy: float | None = None
    origin: str | None = None
    engine: str | None = None
    attributes: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FeatureSetRecord:
    """A named feature set: the column order of its vectors."""

    id: int
    name: str
    feature_names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ModelRecord:
    """A stored recommender model; ``blob`` is empty in listings (``Models.list``)."""

    id: int
    name: str
    card: Mapping[str, Any]
    created_at: datetime
    blob: bytes = b""


@dataclass(frozen=True, slots=True)
class CandidatePrediction:
    """What a model predicted for one candidate.

    ``probability``: of being (one of) the best candidates; ``predicted_ter``: the
    post-editing effort expected; ``confidence``: the candidate's confidence on the
    same scale as the recommendation's own ``confidence`` (what exports show next to
    each alternative; when None they show ``probability``).
    """

    probability: float | None = None
    predicted_ter: float | None = None
    confidence: float | None = None
    predicted_effort: float | None = None
    """The prediction in the model's label unit (TER, HTER, ms per word, effort score: see its card)."""


@dataclass(frozen=True, slots=True)
class NewRecommendation:
    """A model's pick for a segment; ``predictions`` maps candidate id -> prediction."""

    segment_id: int
    candidate_id: int
    confidence: float | None
    predictions: Mapping[int, CandidatePrediction] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RecommendationRecord:
    """A stored recommendation. ``chosen_id`` is the user's override if any, else the model's pick."""

    id: int
    segment_id: int
    model: str
    candidate_id: int
    confidence: float | None
    override_candidate_id: int | None
    created_at: datetime
    predictions: Mapping[int, CandidatePrediction] = field(default_factory=dict)
    stale: bool = False
    """The segment's candidates changed after the pick: ``recommend`` again to refresh it."""

    @property
    def chosen_id(self) -> int:
        """The candidate to use: the user's override when set, else the model's pick."""
        return self.override_candidate_id if self.override_candidate_id is not None else self.candidate_id
