"""Schema versions of a project store, and the in-place upgrade of older files.

The version lives in ``project.schema_version``. Opening a project runs every
step from its version up to :data:`~tmtprime.store.schema.SCHEMA_VERSION` in
one transaction, so an interrupted upgrade leaves the file at its old version.
A file newer than this code is refused rather than silently misread.

History:

* **v1** — import tables only: ``project``, ``documents``, ``segments``,
  ``systems``, ``candidates``, ``tm_units``; no inline markup, no TM lookup columns.
* **v2** — inline markup (``segments.tags``/``tags_dialect``/``notes``,
  ``tm_units.tags``/``tags_dialect``); TM lookup columns
  ``tm_units.source_hash``/``source_words`` with their indexes (backfilled);
  the recommender and cost tables (``feature_sets``, ``feature_rows``,
  ``models``, ``recommendations``, ``candidate_scores``, ``cost_schemes``).
* **v3** — ``candidate_scores.confidence`` (a candidate's confidence on the
  scale of the recommendation's).
* **v4** — ``document_files``: the bytes of each imported dev/document file, so
  ``export --format original`` can write the file back with the picks filled in
  (documents imported before have none; the export then reads the file from its
  import path if it is still there, unchanged).
* **v5** — ``recommendations.stale`` (a pick whose segment's candidates changed
  after it was made) and ``document_steps`` (which step each document went
  through, when, with which inputs), so re-runs keep picks and stale state shows.
* **v6** — ``post_edits``: post-edited text, time (ms), keystrokes, effort score
  (with its direction) and editor per candidate, several per candidate;
  ``candidate_scores.predicted_effort`` (a prediction in the model's label unit);
  ``corpora``/``corpus_lines``: monolingual or parallel corpora as project resources.
* **v7** — system kind ``repair`` (TM matches repaired with MT of the differing
  spans): the check constraint on ``systems.kind`` admits it.
* **v8** — ``estimate_cache``: cost estimates kept by key, with the triggers that
  empty it on any write to the tables an estimate is computed from.

A step that creates whole tables creates them from the live table
definitions in :mod:`~tmtprime.store.schema`, so they arrive in their newest
shape; a later step that adds a column to such a table therefore adds it only
where it is missing. The test suite checks that upgraded v1 and v2 files have
exactly the layout of a new file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sqlalchemy import Connection, bindparam, inspect, select, text, update

from tmtprime.errors import StoreError
from tmtprime.store import schema as db
from tmtprime.store.tm import lookup_keys

Step = Callable[[Connection], None]

_BACKFILL_BATCH = 5000


def stored_version(connection: Connection) -> int | None:
    """The schema version recorded in the database, or None when it holds no project."""
    if not inspect(connection).has_table(db.ProjectRow.__tablename__):
        return None
    version = connection.execute(select(db.ProjectRow.schema_version)).scalar()
    if version is None:
        raise StoreError("the project table is empty: this is not a complete TMTprime project")
    return int(version)


def _v1_to_v2(connection: Connection) -> None:
    dialect = connection.dialect.name
    json_type = "JSONB" if dialect == "postgresql" else "JSON"
    for table, column, type_ in (
        ("segments", "tags", json_type),
        ("segments", "tags_dialect", "VARCHAR(16)"),
        ("segments", "notes", json_type),
        ("tm_units", "tags", json_type),
        ("tm_units", "tags_dialect", "VARCHAR(16)"),
    ):
        connection.execute(text(f"ALTER TABLE {table} ADD COLUMN {column} {type_}"))
    # NOT NULL needs a default to add a column to existing rows (SQLite); the
    # backfill below replaces it, and PostgreSQL drops the default afterwards.
    connection.execute(text("ALTER TABLE tm_units ADD COLUMN source_hash BIGINT NOT NULL DEFAULT 0"))
    connection.execute(text("ALTER TABLE tm_units ADD COLUMN source_words INTEGER NOT NULL DEFAULT 0"))
    _backfill_tm_lookup(connection)
    if dialect == "postgresql":
        connection.execute(text("ALTER TABLE tm_units ALTER COLUMN source_hash DROP DEFAULT"))
        connection.execute(text("ALTER TABLE tm_units ALTER COLUMN source_words DROP DEFAULT"))
    tm_table = db.TMUnitRow.__table__
    for index in tm_table.indexes:
        if index.name in ("ix_tm_units_source_hash", "ix_tm_units_source_words"):
            index.create(connection)
    for model in (db.FeatureSetRow, db.FeatureRow, db.ModelRow, db.RecommendationRow, db.CandidateScoreRow, db.CostSchemeRow):
        model.__table__.create(connection)


def _backfill_tm_lookup(connection: Connection) -> None:
    tm = db.TMUnitRow.__table__
    last_id = 0
    while True:
        rows = connection.execute(
            select(tm.c.id, tm.c.source).where(tm.c.id > last_id).order_by(tm.c.id).limit(_BACKFILL_BATCH)
        ).all()
        if not rows:
            return
        connection.execute(
            update(tm)
            .where(tm.c.id == bindparam("b_id"))
            .values(source_hash=bindparam("b_hash"), source_words=bindparam("b_words")),
            [dict(zip(("b_hash", "b_words"), lookup_keys(r.source), strict=True), b_id=r.id) for r in rows],
        )
        last_id = rows[-1].id


def _v2_to_v3(connection: Connection) -> None:
    columns = {c["name"] for c in inspect(connection).get_columns("candidate_scores")}
    if "confidence" not in columns:
        connection.execute(text("ALTER TABLE candidate_scores ADD COLUMN confidence FLOAT"))


def _v3_to_v4(connection: Connection) -> None:
    if not inspect(connection).has_table(db.DocumentFileRow.__tablename__):
        db.DocumentFileRow.__table__.create(connection)


def _v4_to_v5(connection: Connection) -> None:
    columns = {c["name"] for c in inspect(connection).get_columns("recommendations")}
    if "stale" not in columns:
        connection.execute(text("ALTER TABLE recommendations ADD COLUMN stale BOOLEAN DEFAULT '0' NOT NULL"))
    if not inspect(connection).has_table(db.DocumentStepRow.__tablename__):
        db.DocumentStepRow.__table__.create(connection)


def _v5_to_v6(connection: Connection) -> None:
    if not inspect(connection).has_table(db.PostEditRow.__tablename__):
        db.PostEditRow.__table__.create(connection)
    for table in (db.CorpusRow, db.CorpusLineRow):
        if not inspect(connection).has_table(table.__tablename__):
            table.__table__.create(connection)
    columns = {c["name"] for c in inspect(connection).get_columns("candidate_scores")}
    if "predicted_effort" not in columns:
        connection.execute(text("ALTER TABLE candidate_scores ADD COLUMN predicted_effort FLOAT"))


_OLD_KINDS = re.compile(r"kind\s+IN\s*\(\s*'tm'\s*,\s*'mt'\s*\)", re.I)
_NEW_KINDS = "kind IN ('tm', 'mt', 'repair')"


def _v6_to_v7(connection: Connection) -> None:
    """Admit system kind ``repair``. SQLite cannot alter a check constraint, and rebuilding
    ``systems`` would cascade into ``candidates``; SQLite's documented procedure for changes
    that leave the stored rows valid (widening a CHECK) rewrites the table's schema text."""
    if connection.dialect.name != "sqlite":
        connection.execute(text("ALTER TABLE systems DROP CONSTRAINT IF EXISTS ck_systems_kind"))
        connection.execute(text(f"ALTER TABLE systems ADD CONSTRAINT ck_systems_kind CHECK ({_NEW_KINDS})"))
        return
    sql = connection.exec_driver_sql("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'systems'").scalar()
    if sql is None or "'repair'" in sql:
        return
    if not _OLD_KINDS.search(sql):
        raise StoreError("cannot upgrade: the systems table has an unexpected kind constraint; this file was not written by TMTprime")
    version = int(connection.exec_driver_sql("PRAGMA schema_version").scalar() or 0)
    connection.exec_driver_sql("PRAGMA writable_schema = ON")
    connection.execute(
        text("UPDATE sqlite_master SET sql = :sql WHERE type = 'table' AND name = 'systems'"),
        {"sql": _OLD_KINDS.sub(_NEW_KINDS, sql)},
    )
    connection.exec_driver_sql(f"PRAGMA schema_version = {version + 1}")
    connection.exec_driver_sql("PRAGMA writable_schema = OFF")


def _v7_to_v8(connection: Connection) -> None:
    from tmtprime.store.estimate_cache import create_triggers

    if not inspect(connection).has_table(db.EstimateCacheRow.__tablename__):
        db.EstimateCacheRow.__table__.create(connection)
    create_triggers(connection)


STEPS: dict[int, Step] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5, 5: _v5_to_v6, 6: _v6_to_v7, 7: _v7_to_v8}
"""``STEPS[v]`` upgrades a store from version ``v`` to ``v + 1``."""


def upgrade(connection: Connection) -> int:
    """Bring the store up to :data:`SCHEMA_VERSION`; return the version it had before.

    Runs inside the caller's transaction (all steps commit or none).
    """
    found = stored_version(connection)
    if found is None:
        raise StoreError("not a TMTprime project (it has no project table); create one with 'tmtprime project create'")
    if found > db.SCHEMA_VERSION:
        raise StoreError(
            f"this project has schema version {found}, newer than this TMTprime supports "
            f"({db.SCHEMA_VERSION}); upgrade TMTprime to open it"
        )
    for version in range(found, db.SCHEMA_VERSION):
        step = STEPS.get(version)
        if step is None:
            raise StoreError(f"no upgrade from schema version {version}; this project file cannot be opened")
        step(connection)
        connection.execute(update(db.ProjectRow.__table__).values(schema_version=version + 1))
    return found
