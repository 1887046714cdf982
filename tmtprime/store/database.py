"""Turning a project path or URL into a configured SQLAlchemy engine.

A plain path means an SQLite file; anything with ``://`` is an SQLAlchemy URL
(``postgresql+psycopg://user@host/db`` for a team server).

SQLite is set up so that the GUI and a CLI job can share one project file:
WAL journal (readers never block the writer), foreign keys enforced, and a
busy timeout instead of an immediate "database is locked". Python's sqlite3
module would otherwise open transactions lazily and let a read transaction
fail when it later tries to write; here transactions are begun explicitly,
``BEGIN IMMEDIATE`` for units of work that will write (they wait for the lock
up front) and a plain ``BEGIN`` for reads.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.engine import URL, make_url

from tmtprime.errors import StoreError

BUSY_TIMEOUT_MS = 60_000
"""How long an SQLite writer waits for another process's transaction before giving up."""

BULK_CACHE_KIB = 131_072
"""SQLite page cache during a bulk import (128 MiB; the default is 2 MiB)."""

WRITE_OPTION = "tmtprime_write"
"""Execution option marking a connection whose transactions will write (``BEGIN IMMEDIATE``)."""


def project_url(location: str | os.PathLike[str]) -> URL:
    """The SQLAlchemy URL of a project given as a file path or as a URL."""
    text = os.fspath(location)
    if "://" in text:
        try:
            return make_url(text)
        except Exception as error:  # SQLAlchemy raises ArgumentError with its own wording
            raise StoreError(f"not a valid database URL: {text!r} ({error})") from None
    return URL.create("sqlite+pysqlite", database=str(Path(text).expanduser().resolve()))


def is_sqlite(url: URL) -> bool:
    """True for an SQLite URL (a project file)."""
    return url.get_backend_name() == "sqlite"


def sqlite_path(url: URL) -> Path | None:
    """The file of an SQLite URL (None for an in-memory database)."""
    if not is_sqlite(url) or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database)


def make_engine(url: URL, **kwargs: Any) -> Engine:
    """An engine for ``url``; for SQLite with the pragmas and explicit transactions described above."""
    if not is_sqlite(url):
        return create_engine(url, pool_pre_ping=True, **kwargs)
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        # Autocommit at the driver level: transactions are begun by _begin below.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        if sqlite_path(url) is not None:
            cursor.execute("PRAGMA journal_mode = WAL")
            # In WAL mode NORMAL is still atomic and crash-safe for the application;
            # only a power cut may lose the last committed transactions.
            cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        immediate = connection.get_execution_options().get(WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


@contextmanager
def bulk_cache(conn: Connection) -> Iterator[None]:
    """A large SQLite page cache for the duration of a bulk import.

    A TM's exact-match index receives hash keys in random order; once it
    outgrows the default 2 MiB cache every insert rereads and rewrites index
    pages, and a 1,000,000-unit import slows down by half. The cache is given
    back afterwards (the connection returns to the pool). No-op elsewhere.
    """
    if conn.dialect.name != "sqlite":
        yield
        return
    previous = conn.exec_driver_sql("PRAGMA cache_size").scalar()
    conn.exec_driver_sql(f"PRAGMA cache_size = -{BULK_CACHE_KIB}")
    try:
        yield
    finally:
        with suppress(DBAPIError):  # a broken connection is discarded anyway
            conn.exec_driver_sql(f"PRAGMA cache_size = {int(previous)}")
