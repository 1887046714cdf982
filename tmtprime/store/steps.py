"""Which steps each document has been through, and the per-document counts a status needs.

A use case that changes a document's candidates or picks records its step in
the same transaction as the change (:func:`record_steps`), so the record never
claims work that did not land. :meth:`DocumentSteps.status` reads, per work
document, its steps and how many of its segments the newest model has picked
(fresh or stale): what ``project info``, ``report`` and the window say about
documents that are behind.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Integer, and_, cast, delete, exists, func, insert, select

from tmtprime.parallel import batched
from tmtprime.store import schema as db

if TYPE_CHECKING:
    from tmtprime.store.project import Store

_STEP = db.DocumentStepRow.__table__
_DOC = db.DocumentRow.__table__
_SEG = db.SegmentRow.__table__
_REC = db.RecommendationRow.__table__
_MODELS = db.ModelRow.__table__
_CAND = db.CandidateRow.__table__

STEPS = ("lookup", "translate", "recommend")
"""The steps recorded, in the order of the data path (import is the document's ``imported_at``)."""


@dataclass(frozen=True, slots=True)
class NewStep:
    """A step to record with the write it describes: ``step`` by ``name`` on these documents."""

    step: str
    name: str
    document_ids: Sequence[int]
    inputs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StepRecord:
    """One step of one document: by which system or model, when, with which inputs."""

    step: str
    name: str
    done_at: datetime
    inputs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DocumentState:
    """A work document with its steps and the newest model's coverage of its segments."""

    id: int
    name: str
    content_hash: str
    imported_at: datetime
    segments: int
    with_candidates: int
    """Segments that have at least one candidate (only those can be recommended)."""
    recommended: int
    """Segments with a pick of the model (fresh or stale)."""
    stale: int
    """Of those, picks made before the segment's candidates last changed."""
    steps: tuple[StepRecord, ...] = ()


def record_steps(conn: Connection, document_ids: Sequence[int], step: str, name: str, inputs: Mapping[str, Any]) -> None:
    """Record (or overwrite) ``step`` by ``name`` for these documents, inside the caller's transaction."""
    if step not in STEPS:
        raise ValueError(f"unknown step {step!r}")
    now = db.utcnow()
    for chunk in batched(sorted(set(document_ids)), 500):
        conn.execute(delete(_STEP).where(_STEP.c.step == step, _STEP.c.name == name, _STEP.c.document_id.in_(chunk)))
        conn.execute(
            insert(_STEP),
            [{"document_id": d, "step": step, "name": name, "inputs": dict(inputs) or None, "done_at": now} for d in chunk],
        )


class DocumentSteps:
    """The step records of a project's documents."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def status(self, model: str | None = None) -> list[DocumentState]:
        """Every ``document``-role file in import order, with its steps and ``model``'s coverage
        (default: the newest model that has recommendations; none counts as 0 recommended)."""
        with self._store.connection() as conn:
            model_id = _model_id(conn, model)
            steps: dict[int, list[StepRecord]] = defaultdict(list)
            for r in conn.execute(select(_STEP).order_by(_STEP.c.done_at, _STEP.c.id)):
                steps[r.document_id].append(StepRecord(r.step, r.name, r.done_at, r.inputs or {}))
            of_model = and_(_REC.c.segment_id == _SEG.c.id, _REC.c.model_id == model_id)
            has_candidate = exists().where(_CAND.c.segment_id == _SEG.c.id)
            counts = {
                r.document_id: (r.segments, r.with_candidates or 0, r.recommended or 0, r.stale or 0)
                for r in conn.execute(
                    select(
                        _SEG.c.document_id,
                        func.count(_SEG.c.id).label("segments"),
                        func.sum(cast(has_candidate, Integer)).label("with_candidates"),
                        func.count(_REC.c.id).label("recommended"),
                        func.sum(cast(_REC.c.stale, Integer)).label("stale"),
                    )
                    .select_from(_SEG.outerjoin(_REC, of_model))
                    .group_by(_SEG.c.document_id)
                )
            }
            docs = conn.execute(select(_DOC).where(_DOC.c.role == "document").order_by(_DOC.c.id)).all()
        return [
            DocumentState(d.id, d.name, d.content_hash, d.imported_at, *counts.get(d.id, (0, 0, 0, 0)), tuple(steps.get(d.id, ())))
            for d in docs
        ]

    def tm_documents(self) -> dict[str, str]:
        """``{name: content hash}`` of the TM documents: the inputs a lookup records."""
        with self._store.connection() as conn:
            return {r.name: r.content_hash for r in conn.execute(select(_DOC.c.name, _DOC.c.content_hash).where(_DOC.c.role == "tm"))}


def _model_id(conn: Connection, model: str | None) -> int:
    """The id of ``model``, else of the newest model with recommendations; -1 matches nothing."""
    if model is not None:
        found = conn.execute(select(_MODELS.c.id).where(_MODELS.c.name == model)).scalar()
    else:
        found = conn.execute(select(func.max(_REC.c.model_id))).scalar()
    return -1 if found is None else int(found)
