"""One job at a time per project: lookups, translations and recommendations do not overlap.

Each of these jobs reads the project, computes for minutes, then writes what it
computed against what it read. Two at once on PostgreSQL collide (the same
candidate slot inserted twice, the shipped model stored twice, a pick pointing
at a candidate the other run replaced). So they take a session-level
``pg_advisory_lock`` of the project's database (advisory locks are local to a
database, and a database is one project); the second one says which job is
running and waits, and can be cancelled while it waits. A killed process's
lock goes with its connection.

An SQLite project file gets the same from an exclusive ``flock`` on a file
beside it (``P.db-jobs``, which holds the running job's name for the waiting
message): its write transaction alone would serialise the writes, not a
recommendation computed from candidates that a lookup changes meanwhile. The
lock goes with the process, however it ends. In-memory databases, and systems
without ``fcntl``, take no lock.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError

from tmtprime.progress import Reporter
from tmtprime.store.database import sqlite_path

try:
    import fcntl
except ImportError:  # not on Windows: the SQLite write lock alone serialises the writes there
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from tmtprime.store.project import Store

LOCK_CLASS = 0x746D7470
"""First key of TMTprime's advisory locks ("tmtp"); the second is 0 for the project lock, else the job's."""
JOBS = {"lookup": 1, "translate": 2, "recommend": 3}
POLL_SECONDS = 0.5


@contextmanager
def job_lock(store: Store, job: str, reporter: Reporter | None = None) -> Iterator[None]:
    """Hold the project's job lock while the body runs (see the module)."""
    reporter = reporter or Reporter()
    if store.is_sqlite:
        path = sqlite_path(store.url)
        with nullcontext() if path is None or fcntl is None else _file_lock(Path(f"{path}-jobs"), job, reporter):
            yield
        return
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


@contextmanager
def _file_lock(path: Path, job: str, reporter: Reporter) -> Iterator[None]:
    assert fcntl is not None
    try:
        f = open(path, "a+", encoding="utf-8")  # noqa: SIM115 (closed below)
    except OSError:  # a read-only directory: the write lock alone will serialise the writes
        yield
        return
    with f:
        said = False
        while True:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not said:
                    f.seek(0)
                    reporter.status(_waiting_message(f.read().strip() or None))
                    said = True
                reporter.check()
                time.sleep(POLL_SECONDS)
        f.truncate(0)
        f.write(job)
        f.flush()
        try:
            yield
        finally:
            f.truncate(0)
            fcntl.flock(f, fcntl.LOCK_UN)


def _waiting_message(running: str | None) -> str:
    return f"another {running or 'job'} is running on this project, waiting"


def _acquire(conn: Connection, job: str, reporter: Reporter) -> None:
    said = False
    while not conn.execute(text("SELECT pg_try_advisory_lock(:c, 0)"), {"c": LOCK_CLASS}).scalar():
        if not said:
            reporter.status(_waiting_message(_running(conn)))
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
