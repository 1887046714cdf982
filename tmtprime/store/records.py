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

from tmtprime.formats.model import Candidate, CandidatePrediction, Segment, TMUnit


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
class NewRecommendation:
    """A model's pick for a segment, to save; ``predictions`` maps candidate id -> prediction.

    What the store reads back is the domain's :class:`~tmtprime.formats.model.Pick`
    (:meth:`tmtprime.store.recommendations.Recommendations.fill`).
    """

    segment_id: int
    candidate_id: int
    confidence: float | None
    predictions: Mapping[int, CandidatePrediction] = field(default_factory=dict)
