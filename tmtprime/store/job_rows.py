"""The cost job's columns in three queries: the segments in scope, their candidates, the model's scores.

The cost estimate (:func:`tmtprime.cost.job.job_from_store`) needs, per
candidate, its system, fuzzy score, match type, the model's predicted TER and
probability and whether it is the chosen one (the pick: the override, else the
model's, as :func:`tmtprime.store.recommendations._pick` decides it); reading these through
:meth:`Segments.iter` and :meth:`Recommendations.fill` builds a record
per segment and per candidate, which dominated opening a large project. Here
the columns come back as arrays; the match type (a string, as the TM lookup
writes it) is extracted from the candidate's JSON attributes in SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from sqlalchemy import and_, func, select

from tmtprime.parallel import batched
from tmtprime.store import schema as db

if TYPE_CHECKING:
    from sqlalchemy import Connection, CursorResult

_SEG = db.SegmentRow.__table__
_DOC = db.DocumentRow.__table__
_CAND = db.CandidateRow.__table__
_SYS = db.SystemRow.__table__
_REC = db.RecommendationRow.__table__
_SCORES = db.CandidateScoreRow.__table__


@dataclass
class JobRows:
    """Segments in document import order then file order; candidates by segment, system id, rank."""

    segment_ids: np.ndarray
    keys: list[str]
    sources: list[str]
    documents: np.ndarray
    references: list[str | None]
    chosen: np.ndarray
    """Per segment: the override, else the model's pick; -1 without a recommendation of the model."""
    candidate_segments: np.ndarray
    """Segment id of each candidate row."""
    candidate_ids: np.ndarray
    system_ids: np.ndarray
    systems: np.ndarray
    kinds: np.ndarray
    fuzzy: np.ndarray
    """NaN where the candidate has no fuzzy score."""
    match_types: np.ndarray
    predicted: np.ndarray
    """True where the model stored a predicted TER for the candidate."""
    predicted_ter: np.ndarray
    """NaN where it did not."""
    probability: np.ndarray


def read_job_rows(conn: Connection, model_id: int, filters: list[Any]) -> JobRows:
    """The segments matching ``filters`` (on segments/documents) and their candidates with ``model_id``'s predictions."""
    in_scope = _SEG.join(_DOC, _DOC.c.id == _SEG.c.document_id)
    of_model = and_(_REC.c.segment_id == _SEG.c.id, _REC.c.model_id == model_id)
    segments = conn.execute(
        select(_SEG.c.id, _SEG.c.key, _SEG.c.source, _SEG.c.document_id, _SEG.c.reference,
               func.coalesce(_REC.c.override_candidate_id, _REC.c.candidate_id, -1))
        .select_from(in_scope.outerjoin(_REC, of_model))
        .where(*filters)
        .order_by(_SEG.c.document_id, _SEG.c.position)
    )
    candidates = conn.execute(
        select(_CAND.c.segment_id, _CAND.c.id, _CAND.c.system_id, _CAND.c.fuzzy,
               _CAND.c.attributes["match_type"].as_string())
        .select_from(_CAND.join(in_scope, _SEG.c.id == _CAND.c.segment_id))
        .where(*filters)
        .order_by(_SEG.c.document_id, _SEG.c.position, _CAND.c.system_id, _CAND.c.rank)
    )
    # joined here rather than in SQL (a lookup per candidate); a candidate has at most one score per model
    scores = conn.execute(
        select(_SCORES.c.candidate_id, _SCORES.c.predicted_ter.is_not(None), _SCORES.c.predicted_ter,
               _SCORES.c.probability)
        .join(_REC, _REC.c.id == _SCORES.c.recommendation_id)
        .where(_REC.c.model_id == model_id)
    )
    names = {r.id: r.name for r in conn.execute(select(_DOC.c.id, _DOC.c.name))}
    systems = {r.id: (r.name, r.kind) for r in conn.execute(select(_SYS.c.id, _SYS.c.name, _SYS.c.kind))}
    seg_rows, cand_rows, score_rows = _table(segments, 6), _table(candidates, 5), _table(scores, 4)
    score_at = _positions(cand_rows[:, 1].astype(np.int64), score_rows[:, 0].astype(np.int64))
    system_ids = cand_rows[:, 2].astype(np.int64)
    used = np.unique(system_ids)
    at = np.searchsorted(used, system_ids)
    doc_ids = seg_rows[:, 3].astype(np.int64)
    docs = np.unique(doc_ids)
    return JobRows(
        segment_ids=seg_rows[:, 0].astype(np.int64),
        keys=seg_rows[:, 1].tolist(),
        sources=seg_rows[:, 2].tolist(),
        documents=_objects([names[d] for d in docs.tolist()])[np.searchsorted(docs, doc_ids)],
        references=seg_rows[:, 4].tolist(),
        chosen=seg_rows[:, 5].astype(np.int64),
        candidate_segments=cand_rows[:, 0].astype(np.int64),
        candidate_ids=cand_rows[:, 1].astype(np.int64),
        system_ids=system_ids,
        systems=_objects([systems[s][0] for s in used.tolist()])[at],
        kinds=_objects([systems[s][1] for s in used.tolist()])[at],
        fuzzy=cand_rows[:, 3].astype(np.float64),
        match_types=cand_rows[:, 4].copy(),
        predicted=np.append(score_rows[:, 1].astype(bool), False)[score_at],
        predicted_ter=np.append(score_rows[:, 2].astype(np.float64), np.nan)[score_at],
        probability=np.append(score_rows[:, 3].astype(np.float64), np.nan)[score_at],
    )


def _table(result: CursorResult[Any], width: int) -> np.ndarray:
    """The result as an object array, one row per row. Rows come straight from the driver's cursor:
    these columns need no type processing (numbers, text, and a JSON value already extracted as
    text), and building a SQLAlchemy row per candidate took as long as the query."""
    rows = result.cursor.fetchall()
    table = np.empty((len(rows), width), dtype=object)
    if rows:
        table[:] = rows
    return table


def _positions(wanted: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Index of each wanted value in ``keys`` (unique), or ``len(keys)`` where it is not there."""
    at = np.full(len(wanted), len(keys), dtype=np.int64)
    if len(keys):
        order = np.argsort(keys)
        found = order[np.minimum(np.searchsorted(keys, wanted, sorter=order), len(keys) - 1)]
        hit = keys[found] == wanted
        at[hit] = found[hit]
    return at


def _objects(values: Sequence[Any]) -> np.ndarray:
    return np.fromiter(values, dtype=object, count=len(values))


def candidate_texts(conn: Connection, candidate_ids: list[int]) -> dict[int, str]:
    """The text of each given candidate."""
    found: dict[int, str] = {}
    for chunk in batched(candidate_ids, 900):  # stay under SQLite's bound-parameter limit
        for cid, text in conn.execute(select(_CAND.c.id, _CAND.c.text).where(_CAND.c.id.in_(chunk))):
            found[cid] = text
    return found
