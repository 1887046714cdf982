"""Post-editing records per candidate: what editors made of it, how long it took, how hard it was.

Several editors may post-edit one candidate, so a candidate has any number of
records; labels average them (:mod:`tmtprime.recommend.labels`). Written by the
importer inside its transaction, read by the use cases per candidate id.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from sqlalchemy import Connection, func, insert, select

from tmtprime.formats.model import PostEdit
from tmtprime.parallel import batched
from tmtprime.store import schema as db

if TYPE_CHECKING:
    from tmtprime.store.project import Store

_PE = db.PostEditRow.__table__


def insert_post_edits(conn: Connection, records: Iterable[tuple[int, PostEdit]]) -> int:
    """Insert ``(candidate id, post-edit)`` pairs inside the caller's transaction; returns how many."""
    rows = [
        {"candidate_id": cid, "text": p.text, "time_ms": p.time_ms, "keystrokes": p.keystrokes, "effort": p.effort,
         "effort_more": p.effort_more, "editor": p.editor}
        for cid, p in records
    ]
    if rows:
        conn.execute(insert(_PE), rows)
    return len(rows)


class PostEdits:
    """The post-editing records of a project's candidates."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def count(self) -> int:
        with self._store.connection() as conn:
            return int(conn.execute(select(func.count()).select_from(_PE)).scalar_one())

    def of(self, candidate_ids: Sequence[int]) -> dict[int, list[PostEdit]]:
        """Records of the given candidates (only those that have some), in import order."""
        found: dict[int, list[PostEdit]] = defaultdict(list)
        with self._store.connection() as conn:
            for chunk in batched(candidate_ids, 900):  # SQLite's bound-parameter limit
                for r in conn.execute(select(_PE).where(_PE.c.candidate_id.in_(chunk)).order_by(_PE.c.id)):
                    found[r.candidate_id].append(PostEdit(r.text, r.time_ms, r.keystrokes, r.effort, bool(r.effort_more), r.editor))
        return dict(found)
