"""Writing a system's candidates again without losing what users made of the old ones.

A lookup or translation that runs again must not delete and re-insert its
candidates: a recommendation points at the candidate it picked, an override at
the one a translator chose, and deleting either candidate deletes or clears
them. Instead the new candidates are merged into the stored ones:

* a stored candidate with the same identity (system, origin, text) keeps its
  id and is updated in place (rank, fuzzy score, TM source, attributes);
* an unmatched stored candidate is reused for an unmatched new one of its
  segment (those holding a pick first), its text changed in place;
* what is left over is deleted or inserted.

A segment whose candidates changed (text, TM source or fuzzy score, one added or
removed) gets its recommendations marked ``stale``, its changed candidates'
feature vectors dropped, and overrides on a changed candidate cleared: the user
chose that text, which no longer exists. :class:`MergeOutcome` counts it all for
the message that names what to run.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, select, update

from tmtprime.parallel import batched
from tmtprime.store import schema as db
from tmtprime.store.bulk import insert_rows

_CAND = db.CandidateRow.__table__
_REC = db.RecommendationRow.__table__
_FEAT = db.FeatureRow.__table__

_MATERIAL = ("text", "tm_source", "fuzzy")
"""Fields whose change makes a pick stale (what the features and the pick's meaning depend on)."""


@dataclass
class MergeOutcome:
    """What a merge did; adds up over chunks."""

    inserted: int = 0
    unchanged: int = 0
    changed: int = 0
    removed: int = 0
    stale_picks: int = 0
    """Recommendations marked stale (their segment's candidates changed)."""
    lost_overrides: int = 0
    """Overrides cleared because the text the user chose no longer exists."""
    lost_picks: int = 0
    """Recommendations deleted with their candidate: its system has none left for the segment."""

    def add(self, other: MergeOutcome) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def stored(self) -> int:
        """Candidates the system now has for the merged segments."""
        return self.inserted + self.unchanged + self.changed

    def warnings(self, location: str) -> list[str]:
        """The lines a user must read: picks gone stale or lost, overrides cleared, and what to run."""
        lines = []
        if self.stale_picks:
            lines.append(f"{self.stale_picks:,} picks are stale (their segment's candidates changed): "
                         f"run 'tmtprime recommend {location}'")
        if self.lost_picks:
            lines.append(f"{self.lost_picks:,} picks were removed: the system they chose has no candidate "
                         f"for the segment any more; run 'tmtprime recommend {location}'")
        if self.lost_overrides:
            lines.append(f"{self.lost_overrides:,} overrides were cleared: the text the user chose is gone; "
                         "review those segments")
        return lines


def _row(c: Any, system_id: int) -> dict[str, Any]:
    return {
        "segment_id": c.segment_id, "system_id": system_id, "rank": c.rank, "text": c.text,
        "tm_source": c.tm_source, "fuzzy": c.fuzzy, "origin": c.origin, "attributes": dict(c.attributes) or None,
    }


def merge_candidates(conn: Connection, system_id: int, segment_ids: Sequence[int], new: Iterable[Any]) -> MergeOutcome:
    """Make ``new`` (:class:`~tmtprime.store.records.NewCandidate`) the candidates of ``system_id`` for
    ``segment_ids``, merging as the module says, inside the caller's transaction."""
    by_segment: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for c in new:
        by_segment[c.segment_id].append(_row(c, system_id))
    outcome = MergeOutcome()
    for chunk in batched(sorted(set(segment_ids) | set(by_segment)), 900):
        old = _stored(conn, system_id, chunk)
        picked = _picked(conn, [r["id"] for rows in old.values() for r in rows])
        updates: list[tuple[dict[str, Any], dict[str, Any]]] = []
        deletes: list[int] = []
        inserts: list[dict[str, Any]] = []
        for segment_id in chunk:
            _pair(old.get(segment_id, []), by_segment.get(segment_id, []), picked, updates, deletes, inserts)
        outcome.add(apply_changes(conn, updates, deletes, inserts))
    return outcome


def _stored(conn: Connection, system_id: int, segment_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    found: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = conn.execute(
        select(_CAND).where(_CAND.c.system_id == system_id, _CAND.c.segment_id.in_(segment_ids)).order_by(_CAND.c.rank)
    )
    for r in rows:
        found[r.segment_id].append(dict(r._mapping))
    return found


def _picked(conn: Connection, candidate_ids: list[int]) -> set[int]:
    """Those of the candidates that a recommendation picked."""
    if not candidate_ids:
        return set()
    return set(conn.execute(select(_REC.c.candidate_id).where(_REC.c.candidate_id.in_(candidate_ids))).scalars())


def _pair(
    old: list[dict[str, Any]], new: list[dict[str, Any]], picked: set[int],
    updates: list[tuple[dict[str, Any], dict[str, Any]]], deletes: list[int], inserts: list[dict[str, Any]],
) -> None:
    """Pair one segment's stored candidates with its new ones (see the module)."""
    by_identity: dict[tuple[Any, str], list[dict[str, Any]]] = defaultdict(list)
    for row in old:
        by_identity[(row["origin"], row["text"])].append(row)
    unmatched_new = []
    for row in new:
        same = by_identity.get((row["origin"], row["text"]))
        if same:
            updates.append((same.pop(0), row))
        else:
            unmatched_new.append(row)
    left = sorted((r for rows in by_identity.values() for r in rows), key=lambda r: (r["id"] not in picked, r["rank"]))
    for old_row, new_row in zip(left, unmatched_new):
        updates.append((old_row, new_row))
    deletes.extend(r["id"] for r in left[len(unmatched_new):])
    inserts.extend(unmatched_new[len(left):])


def apply_changes(
    conn: Connection,
    updates: Sequence[tuple[dict[str, Any], dict[str, Any]]],
    deletes: Sequence[int],
    inserts: Sequence[dict[str, Any]],
) -> MergeOutcome:
    """Write a paired plan: ``updates`` are (stored row with ``id``, new values) pairs."""
    outcome = MergeOutcome(inserted=len(inserts), removed=len(deletes))
    changed = [old for old, new in updates if any(old[k] != new[k] for k in _MATERIAL)]
    changed_ids = [old["id"] for old in changed]
    outcome.changed, outcome.unchanged = len(changed), len(updates) - len(changed)
    touched = {old["segment_id"] for old in changed} | {r["segment_id"] for r in inserts}
    if deletes:
        touched |= set(conn.execute(select(_CAND.c.segment_id).where(_CAND.c.id.in_(deletes))).scalars())
    gone = [*changed_ids, *deletes]
    if gone:
        outcome.lost_overrides = _count(conn, _REC.c.override_candidate_id.in_(gone))
        conn.execute(update(_REC).where(_REC.c.override_candidate_id.in_(gone)).values(override_candidate_id=None))
        conn.execute(delete(_FEAT).where(_FEAT.c.candidate_id.in_(changed_ids)))
    if deletes:
        outcome.lost_picks = _count(conn, _REC.c.candidate_id.in_(deletes))
        conn.execute(delete(_CAND).where(_CAND.c.id.in_(deletes)))
    moved = [(old, new) for old, new in updates if any(old[k] != new[k] for k in (*_MATERIAL, "rank", "attributes"))]
    if moved:
        # two passes: ranks first set to -id (unique, never a real rank) so that swapping ranks
        # within a segment never meets the (segment, system, rank) constraint half-way
        conn.execute(update(_CAND).where(_CAND.c.id == bindparam("b_id")).values(rank=-_CAND.c.id),
                     [{"b_id": old["id"]} for old, _ in moved])
        conn.execute(
            update(_CAND).where(_CAND.c.id == bindparam("b_id")).values(
                rank=bindparam("b_rank"), text=bindparam("b_text"), tm_source=bindparam("b_tm_source"),
                fuzzy=bindparam("b_fuzzy"), origin=bindparam("b_origin"), attributes=bindparam("b_attributes"),
            ),
            [{"b_id": old["id"], **{f"b_{k}": new[k] for k in ("rank", *_MATERIAL, "origin", "attributes")}}
             for old, new in moved],
        )
    if inserts:
        insert_rows(conn, _CAND, list(inserts))
    outcome.stale_picks = mark_stale(conn, sorted(touched))
    return outcome


def mark_stale(conn: Connection, segment_ids: Sequence[int]) -> int:
    """Mark the fresh recommendations of these segments stale; returns how many."""
    marked = 0
    if not segment_ids or conn.execute(select(_REC.c.id).limit(1)).first() is None:
        return 0  # nothing recommended yet (a first run): no pick to mark
    for chunk in batched(segment_ids, 900):
        fresh = (_REC.c.segment_id.in_(chunk), _REC.c.stale.is_(False))
        marked += conn.execute(update(_REC).where(*fresh).values(stale=True)).rowcount
    return marked


def _count(conn: Connection, condition: Any) -> int:
    return int(conn.execute(select(func.count()).select_from(_REC).where(condition)).scalar_one())
