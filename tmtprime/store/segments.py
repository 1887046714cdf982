"""Segments of dev/work documents, their candidates, and the systems that made them.

Reads stream in keyset pages (short transactions, bounded memory); writes of
candidates are bulk Core inserts in one transaction per call.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import Connection, Row, and_, exists, func, insert, or_, select, tuple_
from sqlalchemy import false as sa_false

from tmtprime.errors import StoreError
from tmtprime.parallel import batched
from tmtprime.store import schema as db
from tmtprime.store.bulk import insert_rows
from tmtprime.formats.model import Candidate, Segment
from tmtprime.store.merge import MergeOutcome, apply_changes, merge_candidates
from tmtprime.store.records import NewCandidate, SystemRecord
from tmtprime.store.steps import NewStep, record_steps

if TYPE_CHECKING:
    from tmtprime.store.project import Store

_SEG = db.SegmentRow.__table__
_DOC = db.DocumentRow.__table__
_CAND = db.CandidateRow.__table__
_SYS = db.SystemRow.__table__

_BATCH = 2000


class Systems:
    """Systems (TMs and MT engines) known to the project."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def list(self) -> list[SystemRecord]:
        """Every system, in the order they were first seen."""
        with self._store.connection() as conn:
            rows = conn.execute(select(_SYS).order_by(_SYS.c.id)).all()
        return [SystemRecord(id=r.id, name=r.name, kind=r.kind, engine=r.engine) for r in rows]


def ensure_systems(conn: Connection, wanted: dict[str, tuple[str, str | None]]) -> dict[str, SystemRecord]:
    """Look up or create systems ``{name: (kind, engine)}`` inside the caller's transaction."""
    for name, (kind, _engine) in wanted.items():
        if kind not in db.KINDS:
            raise StoreError(f"system {name!r}: unknown kind {kind!r} (expected one of {', '.join(db.KINDS)})")
        if not name.strip():
            raise StoreError("a system needs a non-empty name")
    names = list(wanted)
    existing = {r.name: r for r in conn.execute(select(_SYS).where(_SYS.c.name.in_(names)))}
    for name, row in existing.items():
        if row.kind != wanted[name][0]:
            raise StoreError(
                f"system {name!r} already exists as a {row.kind.upper()} system, "
                f"it cannot also be {wanted[name][0].upper()}; give the new one another name"
            )
    missing = [n for n in names if n not in existing]
    if missing:
        now = db.utcnow()
        conn.execute(
            insert(_SYS),
            [{"name": n, "kind": wanted[n][0], "engine": wanted[n][1], "created_at": now} for n in missing],
        )
        existing.update({r.name: r for r in conn.execute(select(_SYS).where(_SYS.c.name.in_(missing)))})
    return {n: SystemRecord(id=r.id, name=r.name, kind=r.kind, engine=r.engine) for n, r in existing.items()}


def _candidate_row(c: NewCandidate, system_id: int) -> dict[str, Any]:
    return {
        "segment_id": c.segment_id,
        "system_id": system_id,
        "rank": c.rank,
        "text": c.text,
        "tm_source": c.tm_source,
        "fuzzy": c.fuzzy,
        "origin": c.origin,
        "attributes": dict(c.attributes) or None,
    }


def insert_candidates(conn: Connection, candidates: Sequence[NewCandidate]) -> int:
    """Insert the candidates of new segments inside the caller's transaction (an import); returns how many."""
    if not candidates:
        return 0
    systems = ensure_systems(conn, {c.system: (c.kind, c.engine) for c in candidates})
    insert_rows(conn, _CAND, [_candidate_row(c, systems[c.system].id) for c in candidates])
    return len(candidates)


_CANDIDATE_COLUMNS = (
    _CAND.c.id,
    _CAND.c.segment_id,
    _SYS.c.name.label("system"),
    _SYS.c.kind,
    _CAND.c.rank,
    _CAND.c.text,
    _CAND.c.tm_source,
    _CAND.c.fuzzy,
    _CAND.c.origin,
    _CAND.c.attributes,
)


def load_candidates(conn: Connection, segment_ids: Sequence[int]) -> dict[int, list[Candidate]]:
    """Candidates of the given segments, grouped by segment, ordered by system id then rank."""
    found: dict[int, list[Candidate]] = defaultdict(list)
    for chunk in batched(segment_ids, 900):  # stay under SQLite's bound-parameter limit
        rows = conn.execute(
            select(*_CANDIDATE_COLUMNS)
            .join(_SYS, _SYS.c.id == _CAND.c.system_id)
            .where(_CAND.c.segment_id.in_(chunk))
            .order_by(_CAND.c.segment_id, _CAND.c.system_id, _CAND.c.rank)
        )
        for cid, segment_id, system, kind, rank, text, tm_source, fuzzy, origin, attributes in rows:
            # positional: 100,000s of rows per job, where each named lookup on a row counts
            found[segment_id].append(Candidate(system=system, kind=kind, text=text, fuzzy=fuzzy, tm_source=tm_source,
                                               origin=origin, attributes=attributes or {}, id=cid,
                                               segment_id=segment_id, rank=rank))
    return found


class WorkSegment(NamedTuple):
    """What TM lookup and MT read of a segment (no candidates, no attributes: a light read)."""

    id: int
    document_id: int
    document: str
    source: str
    context: str | None
    has_system: bool
    """Whether one of its candidates is the asked system's."""


class Segments:
    """Segments of ``dev`` and ``document`` files, with their candidates."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def count(self, *, document_id: int | None = None, role: str | None = None) -> int:
        """Number of segments (of one document, or of all documents of a role)."""
        query = select(func.count()).select_from(_SEG.join(_DOC, _DOC.c.id == _SEG.c.document_id))
        query = query.where(*segment_filters(document_id, role))
        with self._store.connection() as conn:
            return int(conn.execute(query).scalar_one())

    def iter(
        self,
        *,
        document_id: int | None = None,
        role: str | None = None,
        with_candidates: bool = True,
        batch_size: int = _BATCH,
    ) -> Iterator[Segment]:
        """Segments in document import order, then file order; candidates attached if asked."""
        base = (
            select(_SEG, _DOC.c.name.label("document_name"), _DOC.c.role)
            .join(_DOC, _DOC.c.id == _SEG.c.document_id)
            .where(*segment_filters(document_id, role))
            .order_by(_SEG.c.document_id, _SEG.c.position)
            .limit(batch_size)
        )
        after: tuple[int, int] | None = None
        while True:
            query = base
            if after is not None:
                doc, pos = after
                query = query.where(
                    or_(_SEG.c.document_id > doc, and_(_SEG.c.document_id == doc, _SEG.c.position > pos))
                )
            with self._store.connection() as conn:
                rows = conn.execute(query).all()
                candidates = load_candidates(conn, [r.id for r in rows]) if with_candidates and rows else {}
            if not rows:
                return
            for row in rows:
                yield _segment(row, candidates.get(row.id, []))
            after = (rows[-1].document_id, rows[-1].position)

    def work(self, *, document_id: int | None = None, system: str | None = None) -> list[WorkSegment]:
        """:class:`WorkSegment` rows of one document, or of every non-TM document, in :meth:`iter`'s order;
        ``has_system`` tells whether the segment has a candidate of ``system`` (False without one)."""
        has: Any = sa_false()
        if system is not None:
            has = exists().where(_CAND.c.segment_id == _SEG.c.id, _CAND.c.system_id == _SYS.c.id, _SYS.c.name == system)
        query = (
            select(_SEG.c.id, _SEG.c.document_id, _DOC.c.name, _SEG.c.source, _SEG.c.context, has)
            .join(_DOC, _DOC.c.id == _SEG.c.document_id)
            .where(*(segment_filters(document_id, None) if document_id is not None else [_DOC.c.role != "tm"]))
            .order_by(_SEG.c.document_id, _SEG.c.position)
        )
        with self._store.connection() as conn:
            return [WorkSegment(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in conn.execute(query)]

    def list(
        self, *, document_id: int | None = None, role: str | None = None, with_candidates: bool = True
    ) -> list[Segment]:
        """:meth:`iter` as a list (fine for dev sets and single documents)."""
        return list(self.iter(document_id=document_id, role=role, with_candidates=with_candidates))

    def candidates(self, segment_ids: Sequence[int]) -> dict[int, list[Candidate]]:
        """Candidates of the given segments, grouped by segment id."""
        with self._store.connection() as conn:
            return dict(load_candidates(conn, segment_ids))

    def add_candidates(
        self, candidates: Iterable[NewCandidate], *, replace: bool = True, step: NewStep | None = None
    ) -> int:
        """Add candidates (TM matches, MT outputs) in one transaction; returns how many were written.

        With ``replace`` (the default) a candidate with the same segment, system and
        rank is updated in place (re-running an MT engine updates its output; see
        :mod:`~tmtprime.store.merge` for what happens to picks and overrides).
        """
        return self.write_candidates(candidates, replace=replace, step=step).stored

    def write_candidates(
        self, candidates: Iterable[NewCandidate], *, replace: bool, step: NewStep | None = None
    ) -> MergeOutcome:
        """:meth:`add_candidates`, returning what changed: picks marked stale, overrides cleared."""
        outcome = MergeOutcome()
        filled: dict[int, bool] = {}  # system id -> whether it had candidates before this call
        with self._store.connection(write=True) as conn:
            for chunk in batched(candidates, _BATCH):
                systems = ensure_systems(conn, {c.system: (c.kind, c.engine) for c in chunk})
                new = [_candidate_row(c, systems[c.system].id) for c in chunk]
                if replace:
                    for system_id in {r["system_id"] for r in new} - filled.keys():
                        filled[system_id] = _has_candidates(conn, system_id)
                    outcome.add(_replace_slots(conn, new, {s for s, had in filled.items() if had}))
                else:
                    outcome.add(apply_changes(conn, [], [], new))
            if step is not None:
                record_steps(conn, step.document_ids, step.step, step.name, step.inputs)
        return outcome

    def replace_candidates(
        self, system: str, kind: str, engine: str | None, document_ids: Sequence[int],
        candidates: Iterable[NewCandidate], *, step: NewStep | None = None,
    ) -> MergeOutcome:
        """Make ``candidates`` the candidates of ``system`` for the given documents, in one transaction.

        A re-run of a lookup merges into its earlier results (:mod:`~tmtprime.store.merge`):
        unchanged candidates keep their ids, so picks and overrides stay; changed
        ones mark their picks stale. The project never shows half of either run.
        """
        new = list(candidates)
        with self._store.connection(write=True) as conn:
            system_id = ensure_systems(conn, {system: (kind, engine)})[system].id
            segment_ids: list[int] = []
            for chunk in batched(document_ids, 500):
                segment_ids.extend(conn.execute(select(_SEG.c.id).where(_SEG.c.document_id.in_(chunk))).scalars())
            outcome = merge_candidates(conn, system_id, segment_ids, new)
            if step is not None:
                record_steps(conn, step.document_ids, step.step, step.name, step.inputs)
        return outcome


def _has_candidates(conn: Connection, system_id: int) -> bool:
    return conn.execute(select(_CAND.c.id).where(_CAND.c.system_id == system_id).limit(1)).first() is not None


def _replace_slots(conn: Connection, new: list[dict[str, Any]], used: set[int]) -> MergeOutcome:
    """Pair new candidate rows with stored ones of the same (segment, system, rank); insert the rest.

    Only systems in ``used`` (those that had candidates before the call) are looked up: a first
    translation has no slot to pair, also in its later chunks (the query would find only its own rows).
    """
    keys = {(r["segment_id"], r["system_id"], r["rank"]) for r in new if r["system_id"] in used}
    stored = {
        (r.segment_id, r.system_id, r.rank): dict(r._mapping)
        for r in conn.execute(select(_CAND).where(tuple_(_CAND.c.segment_id, _CAND.c.system_id, _CAND.c.rank).in_(list(keys))))
    } if keys else {}
    updates = [(stored[k], r) for r in new if (k := (r["segment_id"], r["system_id"], r["rank"])) in stored]
    return apply_changes(conn, updates, [], [r for r in new if (r["segment_id"], r["system_id"], r["rank"]) not in stored])


def segment_filters(document_id: int | None, role: str | None) -> list[Any]:
    """Conditions (on segments joined with documents) for one document, or every document of a role."""
    filters: list[Any] = []
    if document_id is not None:
        filters.append(_SEG.c.document_id == document_id)
    if role is not None:
        filters.append(_DOC.c.role == role)
    return filters


def _segment(row: Row[Any], candidates: list[Candidate]) -> Segment:
    return Segment(
        id=row.id,
        document_id=row.document_id,
        document=row.document_name,
        role=row.role,
        position=row.position,
        key=row.key,
        source=row.source,
        context=row.context,
        reference=row.reference,
        attributes=row.attributes or {},
        tags=row.tags or {},
        tags_dialect=row.tags_dialect,
        notes=list(row.notes or ()),
        candidates=candidates,
    )
