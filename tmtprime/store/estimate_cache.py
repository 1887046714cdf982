"""Cost estimates kept in the project, so a large project's dashboard opens without reading the whole job.

An estimate is stored under a key its caller makes from what it depends on
besides the data (model, document, scheme, systems, code version). The data
side is kept right by the database itself: triggers on every table an
estimate is computed from empty ``estimate_cache`` on any insert, update or
delete — whichever process or program writes. A caller reserves a token
before it reads the job and keeps estimates only while the token is there;
a change in between removes it, so an estimate of changed data is never kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, delete, event, insert, select, text

from tmtprime.errors import StoreError
from tmtprime.store import schema as db

if TYPE_CHECKING:
    from tmtprime.store.project import Store

WATCHED = ("documents", "segments", "systems", "candidates", "models", "recommendations", "candidate_scores", "post_edits")
"""The tables an estimate is computed from."""
KEEP = 50
"""Estimates kept at most (the newest): a user editing rates makes one per edit."""
_TABLE = db.EstimateCacheRow.__table__


def create_triggers(connection: Connection) -> None:
    """Make every write to a :data:`WATCHED` table empty the cache (SQLite and PostgreSQL)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text(
            "CREATE OR REPLACE FUNCTION tmtprime_forget_estimates() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN DELETE FROM estimate_cache; RETURN NULL; END $$"
        ))  # fmt: skip
        for table in WATCHED:
            connection.execute(text(f"DROP TRIGGER IF EXISTS forget_estimates ON {table}"))
            connection.execute(text(
                f"CREATE TRIGGER forget_estimates AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION tmtprime_forget_estimates()"
            ))  # fmt: skip
        return
    for table in WATCHED:
        for op in ("INSERT", "UPDATE", "DELETE"):
            connection.execute(text(
                f"CREATE TRIGGER IF NOT EXISTS forget_estimates_{table}_{op.lower()} AFTER {op} ON {table} "
                "WHEN EXISTS (SELECT 1 FROM estimate_cache) BEGIN DELETE FROM estimate_cache; END"
            ))  # fmt: skip


@event.listens_for(db.Base.metadata, "after_create")
def _after_create(_metadata: object, connection: Connection, **_kw: Any) -> None:
    create_triggers(connection)


class EstimateCache:
    """The project's kept estimates, by key (see the module's docstring for when they are dropped)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def get(self, key: str) -> dict[str, Any] | None:
        """The estimate kept under ``key``, or None."""
        with self._store.connection() as conn:
            found = conn.execute(select(_TABLE.c.estimate).where(_TABLE.c.key == key)).scalar()
        return None if found is None else dict(found)

    def holds(self, key: str) -> bool:
        """Whether ``key`` is kept or reserved (a reserved job read stays until the data changes)."""
        with self._store.connection() as conn:
            return conn.execute(select(_TABLE.c.id).where(_TABLE.c.key == key)).first() is not None

    def reserve(self, token: str) -> bool:
        """Note that a job is being read from the data as it is now (call before reading it).

        False when the project cannot be written (a read-only file): nothing is kept then.
        """
        try:
            with self._store.connection(write=True) as conn:
                conn.execute(delete(_TABLE).where(_TABLE.c.key == token))
                conn.execute(insert(_TABLE).values(key=token, estimate=None, created_at=db.utcnow()))
        except StoreError:
            return False
        return True

    def put(self, key: str, estimate: Mapping[str, Any], *, valid_while: str) -> bool:
        """Keep ``estimate`` under ``key`` if the data did not change since ``valid_while`` was reserved.

        Returns whether it was kept.
        """
        try:
            with self._store.connection(write=True) as conn:
                if conn.execute(select(_TABLE.c.id).where(_TABLE.c.key == valid_while)).first() is None:
                    return False
                conn.execute(delete(_TABLE).where(_TABLE.c.key == key))
                conn.execute(insert(_TABLE).values(key=key, estimate=dict(estimate), created_at=db.utcnow()))
                kept = _TABLE.c.estimate.is_not(None)
                newest = select(_TABLE.c.id).where(kept).order_by(_TABLE.c.id.desc()).limit(KEEP)
                conn.execute(delete(_TABLE).where(kept, _TABLE.c.id.not_in(newest)))
        except StoreError:
            return False
        return True

    def drop(self, key: str) -> None:
        """Forget what is kept or reserved under ``key`` (a read that was cancelled)."""
        try:
            with self._store.connection(write=True) as conn:
                conn.execute(delete(_TABLE).where(_TABLE.c.key == key))
        except StoreError:
            pass  # a read-only project never had it
