"""Recommendations: per segment and model, the chosen candidate and the model's predictions.

Stored as rows (the model's pick, the user's override, the predictions per
candidate); read back as the domain's :class:`~tmtprime.formats.model.Pick`
(:meth:`Recommendations.fill`): the rows are a persistence detail of this module.

Saving recommendations again for the same model updates them in place (and
clears ``stale``), so a user's override survives a re-run as long as the
candidate it points to still exists (a lookup or translation run again keeps
unchanged candidates' ids: :mod:`~tmtprime.store.merge`). ``predictions`` keep, per candidate, the probability of being the
best and the predicted TER, which exports and the GUI show next to each
alternative.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Row, bindparam, delete, exists, func, insert, select, update

from tmtprime.errors import StoreError
from tmtprime.formats.model import CandidatePrediction, Pick, Segment
from tmtprime.parallel import batched
from tmtprime.store import schema as db
from tmtprime.store.bulk import insert_rows
from tmtprime.store.job_rows import JobRows, candidate_texts, read_job_rows
from tmtprime.store.segments import segment_filters
from tmtprime.store.records import NewRecommendation
from tmtprime.store.steps import NewStep, record_steps

if TYPE_CHECKING:
    from tmtprime.store.project import Store

_REC = db.RecommendationRow.__table__
_SCORES = db.CandidateScoreRow.__table__
_MODELS = db.ModelRow.__table__
_CAND = db.CandidateRow.__table__


class Recommendations:
    """The recommender's picks and the user's overrides."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def save(self, model: str, recommendations: Iterable[NewRecommendation], *, step: NewStep | None = None) -> int:
        """Store (or update, no longer stale) the picks of model ``model``, in one transaction; returns how many.

        ``step`` is recorded in the same transaction (see :mod:`~tmtprime.store.steps`).
        """
        total = 0
        with self._store.connection(write=True) as conn:
            model_id = _model_id(conn, model)
            for chunk in batched(recommendations, 900):
                _check_candidates(conn, chunk)
                total += _upsert(conn, model_id, chunk)
            if step is not None:
                record_steps(conn, step.document_ids, step.step, step.name, step.inputs)
        return total

    def exist(self) -> bool:
        """True when any recommendation is stored."""
        with self._store.connection() as conn:
            return bool(conn.execute(select(exists().select_from(_REC))).scalar())

    def count(self, model: str | None = None) -> int:
        """Number of stored recommendations (of one model, or of all)."""
        query = select(func.count()).select_from(_REC)
        with self._store.connection() as conn:
            if model is not None:
                query = query.where(_REC.c.model_id == _model_id(conn, model))
            return int(conn.execute(query).scalar_one())

    def latest_model(self) -> str | None:
        """Name of the newest model that has recommendations (the default pick source)."""
        with self._store.connection() as conn:
            return conn.execute(
                select(_MODELS.c.name)
                .where(exists().where(_REC.c.model_id == _MODELS.c.id))
                .order_by(_MODELS.c.id.desc())
                .limit(1)
            ).scalar()

    def fill(self, segments: Sequence[Segment], *, model: str | None = None) -> None:
        """Set each segment's ``pick`` from ``model``'s stored recommendation (default: :meth:`latest_model`).

        The user's override wins over the model's pick. A segment without a
        recommendation, or read without its candidates, gets ``None``.
        """
        model = model if model is not None else self.latest_model()
        by_id = {s.id: s for s in segments}
        for seg in segments:
            seg.pick = None
        if model is None or not by_id:
            return
        with self._store.connection() as conn:
            model_id = _model_id(conn, model)
            for chunk in batched(list(by_id), 900):
                rows = conn.execute(
                    select(_REC).where(_REC.c.model_id == model_id, _REC.c.segment_id.in_(chunk))
                ).all()
                predictions = _predictions(conn, [r.id for r in rows])
                for r in rows:
                    seg = by_id[r.segment_id]
                    seg.pick = _pick(seg, r, model, predictions.get(r.id, {}))

    def job_rows(self, model: str, *, document_id: int | None = None, role: str | None = None) -> JobRows:
        """The cost job of ``model`` as arrays (one document, or every document of ``role``); see :mod:`~tmtprime.store.job_rows`."""
        with self._store.connection() as conn:
            return read_job_rows(conn, _model_id(conn, model), segment_filters(document_id, role))

    def candidate_texts(self, candidate_ids: Sequence[int]) -> dict[int, str]:
        """The text of each given candidate, by id."""
        with self._store.connection() as conn:
            return candidate_texts(conn, list(candidate_ids))

    def set_override(self, segment_id: int, candidate_id: int | None, *, model: str | None = None) -> None:
        """Record the user's choice for a segment (``None`` clears it, accepting the model's pick)."""
        model = model if model is not None else self.latest_model()
        if model is None:
            raise StoreError("no recommendations in this project yet; run the recommender first")
        with self._store.connection(write=True) as conn:
            model_id = _model_id(conn, model)
            if candidate_id is not None:
                owner = conn.execute(select(_CAND.c.segment_id).where(_CAND.c.id == candidate_id)).scalar()
                if owner != segment_id:
                    raise StoreError(f"candidate {candidate_id} is not a candidate of segment {segment_id}")
            done = conn.execute(
                update(_REC)
                .where(_REC.c.segment_id == segment_id, _REC.c.model_id == model_id)
                .values(override_candidate_id=candidate_id)
            ).rowcount
            if not done:
                raise StoreError(f"segment {segment_id} has no recommendation from model {model!r}")


def _model_id(conn: Connection, model: str) -> int:
    model_id = conn.execute(select(_MODELS.c.id).where(_MODELS.c.name == model)).scalar()
    if model_id is None:
        raise StoreError(f"no model named {model!r} in this project")
    return int(model_id)


def _check_candidates(conn: Connection, chunk: list[NewRecommendation]) -> None:
    """Every candidate named must belong to the recommendation's segment."""
    wanted = {rec.candidate_id for rec in chunk} | {cid for rec in chunk for cid in rec.predictions}
    rows = conn.execute(select(_CAND.c.id, _CAND.c.segment_id).where(_CAND.c.id.in_(sorted(wanted))))
    owners = {r.id: r.segment_id for r in rows}
    for rec in chunk:
        for cid in {rec.candidate_id, *rec.predictions}:
            if owners.get(cid) != rec.segment_id:
                raise StoreError(f"candidate {cid} is not a candidate of segment {rec.segment_id}")


def _recommendation_ids(conn: Connection, model_id: int, segment_ids: list[int]) -> dict[int, int]:
    """``{segment_id: recommendation_id}`` of the given segments' stored recommendations."""
    rows = conn.execute(
        select(_REC.c.segment_id, _REC.c.id).where(_REC.c.model_id == model_id, _REC.c.segment_id.in_(segment_ids))
    )
    return {r.segment_id: r.id for r in rows}


def _upsert(conn: Connection, model_id: int, chunk: list[NewRecommendation]) -> int:
    segment_ids = [rec.segment_id for rec in chunk]
    existing = _recommendation_ids(conn, model_id, segment_ids)
    now = db.utcnow()
    if existing:
        conn.execute(delete(_SCORES).where(_SCORES.c.recommendation_id.in_(list(existing.values()))))
        conn.execute(
            update(_REC)
            .where(_REC.c.id == bindparam("rec_id"))
            .values(candidate_id=bindparam("new_candidate"), confidence=bindparam("new_confidence"), created_at=now, stale=False),
            [
                {"rec_id": existing[r.segment_id], "new_candidate": r.candidate_id, "new_confidence": r.confidence}
                for r in chunk
                if r.segment_id in existing
            ],
        )
    fresh = [r for r in chunk if r.segment_id not in existing]
    if fresh:
        conn.execute(
            insert(_REC),
            [
                {
                    "segment_id": r.segment_id,
                    "model_id": model_id,
                    "candidate_id": r.candidate_id,
                    "confidence": r.confidence,
                    "created_at": now,
                    "stale": False,
                }
                for r in fresh
            ],
        )
    ids = _recommendation_ids(conn, model_id, segment_ids)
    scores = [
        {
            "recommendation_id": ids[r.segment_id],
            "candidate_id": cid,
            "probability": p.probability,
            "predicted_ter": p.predicted_ter,
            "confidence": p.confidence,
            "predicted_effort": p.predicted_effort,
        }
        for r in chunk
        for cid, p in r.predictions.items()
    ]
    insert_rows(conn, _SCORES, scores)
    return len(chunk)


def _pick(seg: Segment, row: Row, model: str, predictions: Mapping[int, CandidatePrediction]) -> Pick | None:
    """The domain's pick of a stored recommendation row (the override, else the model's pick; None if it is gone).

    The confidence of an override is the model's confidence (else probability)
    for that candidate, None when it recorded none; never that of its own pick.
    """
    index = {c.id: i for i, c in enumerate(seg.candidates)}
    chosen_id = row.override_candidate_id if row.override_candidate_id is not None else row.candidate_id
    if chosen_id not in index:
        return None
    scores = tuple(predictions.get(c.id) for c in seg.candidates)  # type: ignore[arg-type]
    mine = scores[index[chosen_id]]
    by_model = chosen_id == row.candidate_id
    return Pick(
        candidate=seg.candidates[index[chosen_id]],
        reason="model" if by_model else "override",
        confidence=row.confidence if by_model else mine.shown_confidence if mine else None,
        predicted_effort=mine.predicted_effort if mine else None,
        model=model,
        recommended=seg.candidates[index[row.candidate_id]] if row.candidate_id in index else None,
        stale=bool(row.stale),
        predictions=scores,
    )


def _predictions(conn: Connection, rec_ids: list[int]) -> dict[int, dict[int, CandidatePrediction]]:
    found: dict[int, dict[int, CandidatePrediction]] = defaultdict(dict)
    if rec_ids:
        columns = (_SCORES.c.recommendation_id, _SCORES.c.candidate_id, _SCORES.c.probability, _SCORES.c.predicted_ter,
                   _SCORES.c.confidence, _SCORES.c.predicted_effort)
        for rec_id, candidate_id, *scores in conn.execute(select(*columns).where(_SCORES.c.recommendation_id.in_(rec_ids))):
            found[rec_id][candidate_id] = CandidatePrediction(*scores)
    return found
