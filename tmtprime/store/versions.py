"""A newer version of an imported document takes the older one's place and keeps its picks.

A file imported again from the same path with other content is the next
version of that document, not a second document. It is first written as a
document of its own (the importer's streaming path), then, in the same
transaction, folded into the older one:

* a new segment with the key and source of an old one takes over the old
  segment's row (its id, so its lookup and MT candidates, picks and overrides
  stay); its position, reference, context and markup come from the new file,
  and the candidates the file itself carries are merged in
  (:func:`~tmtprime.store.merge.merge_candidates`: changed ones make picks stale);
* new segments move into the document (not looked up yet: the document's
  lookup and translation records are dropped so its status says so);
* old segments absent from the new file go, with their picks (counted).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, select, update

from tmtprime.parallel import batched
from tmtprime.store import schema as db
from tmtprime.store.merge import MergeOutcome, merge_candidates
from tmtprime.store.records import NewCandidate

_DOC = db.DocumentRow.__table__
_SEG = db.SegmentRow.__table__
_CAND = db.CandidateRow.__table__
_REC = db.RecommendationRow.__table__
_FILE = db.DocumentFileRow.__table__
_STEP = db.DocumentStepRow.__table__

_FROM_FILE = ("position", "attributes", "tags", "tags_dialect", "notes", "reference", "context")
_DOC_FIELDS = ("content_hash", "path", "format", "original", "source_lang", "target_lang", "unit_count", "details", "imported_at")


@dataclass
class VersionOutcome:
    """What folding a newer version into its document did."""

    kept: int = 0
    """Segments found again (same key and source): ids, picks and overrides kept."""
    added: int = 0
    removed: int = 0
    merge: MergeOutcome = field(default_factory=MergeOutcome)

    def warnings(self, location: str) -> list[str]:
        lines = self.merge.warnings(location)
        if self.added:
            lines.append(f"{self.added:,} new segments have no TM match or MT yet: "
                         f"run 'tmtprime tm lookup {location}' and 'tmtprime translate {location}', then recommend")
        return lines


def older_version(conn: Connection, path: str, role: str, new_id: int) -> int | None:
    """The document this import is a newer version of: same role, imported from the same path."""
    return conn.execute(
        select(_DOC.c.id).where(_DOC.c.path == path, _DOC.c.role == role, _DOC.c.id != new_id).order_by(_DOC.c.id.desc())
    ).scalar()


def fold_into(conn: Connection, old_id: int, new_id: int) -> VersionOutcome:
    """Make document ``old_id`` hold the content of ``new_id`` (see the module) and delete ``new_id``."""
    outcome = VersionOutcome()
    pool: dict[tuple[str, str], list[int]] = defaultdict(list)
    for r in conn.execute(select(_SEG.c.id, _SEG.c.key, _SEG.c.source).where(_SEG.c.document_id == old_id).order_by(_SEG.c.position)):
        pool[(r.key, r.source)].append(r.id)
    pairs: list[tuple[int, Any]] = []
    moved: list[int] = []
    for r in conn.execute(select(_SEG).where(_SEG.c.document_id == new_id).order_by(_SEG.c.position)):
        found = pool.get((r.key, r.source))
        if found:
            pairs.append((found.pop(0), r))
        else:
            moved.append(r.id)
    dropped = [i for ids in pool.values() for i in ids]
    outcome.kept, outcome.added, outcome.removed = len(pairs), len(moved), len(dropped)
    for chunk in batched(dropped, 900):
        outcome.merge.lost_picks += _count(conn, _REC.c.segment_id.in_(chunk))
        outcome.merge.lost_overrides += _count(conn, _REC.c.segment_id.in_(chunk), _REC.c.override_candidate_id.is_not(None))
        conn.execute(delete(_SEG).where(_SEG.c.id.in_(chunk)))
    conn.execute(update(_SEG).where(_SEG.c.document_id == old_id).values(position=-_SEG.c.id))
    if pairs:
        conn.execute(
            update(_SEG).where(_SEG.c.id == bindparam("b_id")).values({k: bindparam(f"b_{k}") for k in _FROM_FILE}),
            [{"b_id": old, **{f"b_{k}": getattr(new, k) for k in _FROM_FILE}} for old, new in pairs],
        )
        _merge_file_candidates(conn, pairs, outcome.merge)
    for chunk in batched(moved, 900):
        conn.execute(update(_SEG).where(_SEG.c.id.in_(chunk)).values(document_id=old_id))
    if moved:
        conn.execute(delete(_STEP).where(_STEP.c.document_id == old_id, _STEP.c.step.in_(("lookup", "translate"))))
    newer = conn.execute(select(_DOC).where(_DOC.c.id == new_id)).one()
    conn.execute(delete(_FILE).where(_FILE.c.document_id == old_id))
    conn.execute(update(_FILE).where(_FILE.c.document_id == new_id).values(document_id=old_id))
    conn.execute(delete(_DOC).where(_DOC.c.id == new_id))  # its paired segments go with it
    conn.execute(update(_DOC).where(_DOC.c.id == old_id).values({k: getattr(newer, k) for k in _DOC_FIELDS}))
    return outcome


def _merge_file_candidates(conn: Connection, pairs: list[tuple[int, Any]], outcome: MergeOutcome) -> None:
    """The candidates the new file carries, merged per system into the old segments."""
    old_of = {new.id: old for old, new in pairs}
    by_system: dict[int, list[NewCandidate]] = defaultdict(list)
    for chunk in batched(list(old_of), 900):
        for c in conn.execute(select(_CAND).where(_CAND.c.segment_id.in_(chunk))):
            by_system[c.system_id].append(NewCandidate(
                segment_id=old_of[c.segment_id], system="", kind="", text=c.text, rank=c.rank,
                tm_source=c.tm_source, fuzzy=c.fuzzy, origin=c.origin, attributes=c.attributes or {},
            ))
    old_ids = [old for old, _ in pairs]
    for system_id, candidates in by_system.items():
        outcome.add(merge_candidates(conn, system_id, old_ids, candidates))


def _count(conn: Connection, *conditions: Any) -> int:
    return int(conn.execute(select(func.count()).select_from(_REC).where(*conditions)).scalar_one())
