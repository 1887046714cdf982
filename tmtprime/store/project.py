"""The :class:`Store`: one open project database and its units of work.

Every public operation of the store API is one unit of work: it opens a
session (or a Core connection for bulk rows), commits on success and rolls
back on any exception, so a failure never leaves half a change behind.
Callers that need their own queries use the same scopes::

    with store.session() as s:                 # read
        s.scalars(select(db.SystemRow)).all()
    with store.session(write=True) as s:       # write: BEGIN IMMEDIATE on SQLite
        s.add(db.CostSchemeRow(name="x", scheme={}))

Database errors (locked, unreachable, not a database) become
:class:`~tmtprime.errors.StoreError` with a message a user can act on.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, select
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool

from tmtprime.errors import StoreError
from tmtprime.store import schema as db
from tmtprime.store.database import WRITE_OPTION, is_sqlite, make_engine, project_url, sqlite_path
from tmtprime.store.migrations import stored_version, upgrade
from tmtprime.store.records import ProjectRecord

if TYPE_CHECKING:
    from types import TracebackType

    from tmtprime.store.documents import Documents
    from tmtprime.store.estimate_cache import EstimateCache
    from tmtprime.store.features import Features
    from tmtprime.store.models import Models
    from tmtprime.store.corpora import Corpora
    from tmtprime.store.post_edits import PostEdits
    from tmtprime.store.recommendations import Recommendations
    from tmtprime.store.schemes import CostSchemes
    from tmtprime.progress import Reporter
    from tmtprime.store.segments import Segments, Systems
    from tmtprime.store.steps import DocumentSteps
    from tmtprime.store.tm import TranslationMemory


def _database_error(error: Exception, where: str) -> StoreError:
    """A one-line StoreError for a driver error (the SQL statement is left out).

    ``error`` is SQLAlchemy's wrapper, or the driver's own error when the store
    talked to the driver directly (PostgreSQL ``COPY``).
    """
    orig = error.orig if isinstance(error, DBAPIError) else error
    reason = (str(orig).strip().splitlines() or [type(orig).__name__])[0] if orig is not None else str(error)
    if "locked" in reason or "busy" in reason:
        reason += " (another process is writing to this project; try again when it has finished)"
    elif "deadlock" in reason or "could not serialize" in reason or "duplicate key" in reason:
        reason += " (another process changed the project at the same time; run the command again)"
    return StoreError(f"{where}: {reason}")


class Store:
    """An open TMTprime project. Use :meth:`create` or :meth:`open`, then :meth:`close` (or ``with``).

    The API is grouped by what it holds: ``documents``, ``segments``,
    ``systems``, ``tm``, ``features``, ``models``, ``recommendations``,
    ``cost_schemes``, ``steps``; see each class.
    """

    def __init__(self, url: URL, engine: Engine) -> None:
        """Use :meth:`create` or :meth:`open`; this only wires an already checked engine."""
        self.url = url
        self.engine = engine
        self._write_engine = engine.execution_options(**{WRITE_OPTION: True})
        self._read_sessions = sessionmaker(bind=engine, expire_on_commit=False)
        self._write_sessions = sessionmaker(bind=self._write_engine, expire_on_commit=False)
        self.location = str(sqlite_path(url) or url.render_as_string(hide_password=True))
        """The project file, or the database URL without its password (for messages)."""

        from tmtprime.store.documents import Documents
        from tmtprime.store.estimate_cache import EstimateCache
        from tmtprime.store.features import Features
        from tmtprime.store.models import Models
        from tmtprime.store.corpora import Corpora
        from tmtprime.store.post_edits import PostEdits
        from tmtprime.store.recommendations import Recommendations
        from tmtprime.store.schemes import CostSchemes
        from tmtprime.store.segments import Segments, Systems
        from tmtprime.store.steps import DocumentSteps
        from tmtprime.store.tm import TranslationMemory

        self.documents: Documents = Documents(self)
        self.segments: Segments = Segments(self)
        self.systems: Systems = Systems(self)
        self.tm: TranslationMemory = TranslationMemory(self)
        self.features: Features = Features(self)
        self.models: Models = Models(self)
        self.recommendations: Recommendations = Recommendations(self)
        self.cost_schemes: CostSchemes = CostSchemes(self)
        self.steps: DocumentSteps = DocumentSteps(self)
        self.post_edits: PostEdits = PostEdits(self)
        self.corpora: Corpora = Corpora(self)
        self.estimate_cache: EstimateCache = EstimateCache(self)

    # -- opening -----------------------------------------------------------------

    @classmethod
    def create(
        cls,
        location: str | os.PathLike[str],
        *,
        source_lang: str,
        target_lang: str,
        name: str | None = None,
    ) -> Store:
        """Create a new project (an SQLite file, or the tables in an empty database at a URL)."""
        from tmtprime.store.languages import check_language_tag

        source_lang = check_language_tag(source_lang, "source language")
        target_lang = check_language_tag(target_lang, "target language")
        url = project_url(location)
        path = sqlite_path(url)
        if path is not None:
            if path.exists():
                raise StoreError(f"{path} already exists; open it, or choose another file name")
            if not path.parent.is_dir():
                raise StoreError(f"cannot create {path}: directory {path.parent} does not exist")
        store = cls(url, make_engine(url))
        try:
            with store.connection(write=True) as conn:
                if stored_version(conn) is not None:
                    raise StoreError(f"{store.location} already holds a TMTprime project")
                db.Base.metadata.create_all(conn)
                conn.execute(
                    db.ProjectRow.__table__.insert().values(
                        id=1,
                        name=name or (path.stem if path is not None else url.database or "project"),
                        source_lang=source_lang,
                        target_lang=target_lang,
                        schema_version=db.SCHEMA_VERSION,
                        created_at=db.utcnow(),
                    )
                )
        except BaseException:
            store.close()
            if path is not None and path.exists() and path.stat().st_size == 0:
                path.unlink()
            raise
        return store

    @classmethod
    def open(cls, location: str | os.PathLike[str], *, hold_files: bool = True) -> Store:
        """Open an existing project, upgrading an older schema in place.

        ``hold_files=False`` (the desktop application) keeps no SQLite file open
        between units of work: a long-lived process whose other code may open
        and close the project file (a file dialog reading it) would otherwise
        lose its POSIX locks, and another process could delete the WAL under it.
        """
        url = project_url(location)
        path = sqlite_path(url)
        if path is not None and not path.is_file():
            raise StoreError(f"no project at {path}; create one with 'tmtprime project create {path}'")
        store = cls(url, make_engine(url) if hold_files or path is None else make_engine(url, poolclass=NullPool))
        try:
            with store.connection() as conn:
                version = stored_version(conn)
            if version is None or version != db.SCHEMA_VERSION:
                with store.connection(write=True) as conn:
                    upgrade(conn)
        except StoreError as error:
            store.close()
            if str(error).startswith(store.location):
                raise
            raise StoreError(f"{store.location}: {error}") from None
        except BaseException:
            store.close()
            raise
        return store

    def close(self) -> None:
        """Release every pooled connection (and SQLite file handle)."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.location!r})"

    @property
    def is_sqlite(self) -> bool:
        """True when the project is an SQLite file (or in-memory database)."""
        return is_sqlite(self.url)

    # -- units of work -------------------------------------------------------------

    @contextmanager
    def session(self, *, write: bool = False) -> Iterator[Session]:
        """An ORM session for one unit of work: committed on success, rolled back on error."""
        factory = self._write_sessions if write else self._read_sessions
        try:
            with factory() as session, session.begin():
                yield session
        except (DBAPIError, self.engine.dialect.dbapi.Error) as error:
            raise _database_error(error, self.location) from None

    @contextmanager
    def connection(self, *, write: bool = False) -> Iterator[Connection]:
        """A Core connection inside one transaction, for bulk inserts and streaming reads."""
        engine = self._write_engine if write else self.engine
        try:
            with engine.begin() as conn:
                yield conn
        except (DBAPIError, self.engine.dialect.dbapi.Error) as error:
            raise _database_error(error, self.location) from None

    def job_lock(self, job: str, reporter: Reporter | None = None) -> AbstractContextManager[None]:
        """Hold the project's job lock (``lookup``, ``translate``, ``recommend``): see :mod:`~tmtprime.store.locks`."""
        from tmtprime.store.locks import job_lock

        return job_lock(self, job, reporter)

    # -- the project itself -----------------------------------------------------------

    def project(self) -> ProjectRecord:
        """Name, language pair and schema version of the project."""
        with self.session() as s:
            row = s.scalars(select(db.ProjectRow)).one()
            return ProjectRecord(
                name=row.name,
                source_lang=row.source_lang,
                target_lang=row.target_lang,
                schema_version=row.schema_version,
                created_at=row.created_at,
            )
