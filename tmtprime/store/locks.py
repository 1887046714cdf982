"""One job at a time per project: lookups, translations and recommendations do not overlap.

Each of these jobs reads the project, computes for minutes, then writes what it
computed against what it read. Two at once on PostgreSQL collide (the same
candidate slot inserted twice, the shipped model stored twice, a pick pointing
at a candidate the other run replaced). So they take a session-level
``pg_advisory_lock`` of the project's database (advisory locks are local to a
database, and a database is one project); the second one says which job is
running and waits, and can be cancelled while it waits. A killed process's
lock goes with its connection.

On SQLite the write transaction (``BEGIN IMMEDIATE``) already serialises the
writes, and every write of these jobs re-reads what it merges into inside that
transaction, so no lock is taken there.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError

from tmtprime.progress import Reporter

if TYPE_CHECKING:
    from tmtprime.store.project import Store

LOCK_CLASS = 0x746D7470
"""First key of TMTprime's advisory locks ("tmtp"); the second is 0 for the project lock, else the job's."""
JOBS = {"lookup": 1, "translate": 2, "recommend": 3}
POLL_SECONDS = 0.5


@contextmanager
def job_lock(store: Store, job: str, reporter: Reporter | None = None) -> Iterator[None]:
    """Hold the project's job lock while the body runs (PostgreSQL; nothing to do on SQLite)."""
    if store.is_sqlite:
        yield
        return
    reporter = reporter or Reporter()
    conn = store.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    try:
        _acquire(conn, job, reporter)
        try:
            yield
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:c, :j), pg_advisory_unlock(:c, 0)"), {"c": LOCK_CLASS, "j": JOBS[job]})
    except DBAPIError:
        conn.invalidate()  # a connection in an unknown lock state never goes back to the pool
        raise
    finally:
        conn.close()


def _acquire(conn: Connection, job: str, reporter: Reporter) -> None:
    said = False
    while not conn.execute(text("SELECT pg_try_advisory_lock(:c, 0)"), {"c": LOCK_CLASS}).scalar():
        if not said:
            running = _running(conn) or "job"
            reporter.status(f"another {running} is running on this project, waiting")
            said = True
        reporter.check()
        time.sleep(POLL_SECONDS)
    # the job's own key tells a waiting process what it waits for
    conn.execute(text("SELECT pg_advisory_lock(:c, :j)"), {"c": LOCK_CLASS, "j": JOBS[job]})


def _running(conn: Connection) -> str | None:
    """The job holding the project's lock, read from ``pg_locks``."""
    codes = conn.execute(
        text(
            "SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND classid = :c AND objid <> 0 AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        ),
        {"c": LOCK_CLASS},
    ).scalars()
    names = {code: name for name, code in JOBS.items()}
    return next((names[int(c)] for c in codes if int(c) in names), None)
