"""Schema versions: an older project file is upgraded in place when opened."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import create_engine, inspect

from tmtprime.errors import StoreError
from tmtprime.store import NewCandidate, Store
from tmtprime.store import schema as db

# The v1 layout (import tables only; no markup, no TM lookup columns), written
# as raw SQL the way a v1 TMTprime left it, with some data in it.
V1_SQL = """
CREATE TABLE project (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(200) NOT NULL,
  source_lang VARCHAR(35) NOT NULL, target_lang VARCHAR(35) NOT NULL,
  schema_version INTEGER NOT NULL, created_at DATETIME NOT NULL);
CREATE TABLE documents (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(500) NOT NULL,
  role VARCHAR(16) NOT NULL, format VARCHAR(32) NOT NULL, content_hash VARCHAR(64) NOT NULL,
  path TEXT NOT NULL, original TEXT, source_lang VARCHAR(35), target_lang VARCHAR(35),
  unit_count INTEGER NOT NULL, details JSON, imported_at DATETIME NOT NULL,
  CONSTRAINT ck_documents_role CHECK (role IN ('tm', 'dev', 'document')),
  CONSTRAINT uq_documents_hash_role UNIQUE (content_hash, role), UNIQUE (name));
CREATE TABLE systems (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(200) NOT NULL,
  kind VARCHAR(8) NOT NULL, engine TEXT, created_at DATETIME NOT NULL,
  CONSTRAINT ck_systems_kind CHECK (kind IN ('tm', 'mt')), UNIQUE (name));
CREATE TABLE segments (id INTEGER NOT NULL PRIMARY KEY,
  document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  position INTEGER NOT NULL, "key" TEXT NOT NULL, source TEXT NOT NULL, context TEXT,
  reference TEXT, attributes JSON,
  CONSTRAINT uq_segments_document_position UNIQUE (document_id, position));
CREATE TABLE tm_units (id INTEGER NOT NULL PRIMARY KEY,
  document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  position INTEGER NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL, properties JSON);
CREATE INDEX ix_tm_units_document ON tm_units (document_id);
CREATE TABLE candidates (id INTEGER NOT NULL PRIMARY KEY,
  segment_id INTEGER NOT NULL REFERENCES segments (id) ON DELETE CASCADE,
  system_id INTEGER NOT NULL REFERENCES systems (id) ON DELETE CASCADE,
  rank INTEGER NOT NULL, text TEXT NOT NULL, tm_source TEXT, fuzzy FLOAT, origin TEXT, attributes JSON,
  CONSTRAINT uq_candidates_segment_system_rank UNIQUE (segment_id, system_id, rank));
CREATE INDEX ix_candidates_system ON candidates (system_id);

INSERT INTO project VALUES (1, 'old', 'en', 'es', 1, '2024-01-01 10:00:00.000000');
INSERT INTO documents VALUES (1, 'tm.tmx', 'tm', 'tmx', 'aa', '/x/tm.tmx', NULL, 'en', 'es', 2, NULL,
  '2024-01-01 10:00:00.000000');
INSERT INTO documents VALUES (2, 'job.tsv', 'dev', 'tsv', 'bb', '/x/job.tsv', NULL, NULL, NULL, 1, NULL,
  '2024-01-01 10:00:00.000000');
INSERT INTO tm_units VALUES (1, 1, 0, 'Open  the file', 'Abra el archivo', '{"x": "1"}');
INSERT INTO tm_units VALUES (2, 1, 1, 'Close it', 'Ciérrelo', NULL);
INSERT INTO systems VALUES (1, 'eng-spa', 'mt', NULL, '2024-01-01 10:00:00.000000');
INSERT INTO segments VALUES (1, 2, 0, 'k1', 'Open the file', NULL, 'Abra el fichero', '{"doc_id": "d"}');
INSERT INTO candidates VALUES (1, 1, 1, 0, 'Abrir el archivo', NULL, NULL, NULL, NULL);
"""


def _write_v1(path) -> None:
    with sqlite3.connect(path) as conn:
        conn.executescript(V1_SQL)
    conn.close()


def _layout(url: str) -> dict[str, object]:
    """Tables -> (columns with nullability, index and unique-constraint column sets)."""
    engine = create_engine(url)
    inspector = inspect(engine)
    layout = {
        table: (
            sorted((c["name"], c["nullable"]) for c in inspector.get_columns(table)),
            sorted(tuple(i["column_names"]) for i in inspector.get_indexes(table)),
            sorted(tuple(u["column_names"]) for u in inspector.get_unique_constraints(table)),
            sorted(tuple(fk["constrained_columns"]) for fk in inspector.get_foreign_keys(table)),
        )
        for table in inspector.get_table_names()
    }
    engine.dispose()
    return layout


def test_v1_file_is_upgraded_in_place_with_data_kept(tmp_path):
    old = tmp_path / "old.db"
    _write_v1(old)
    with Store.open(old) as store:
        assert store.project().schema_version == db.SCHEMA_VERSION
        # The data survived, and the new TM lookup columns were backfilled.
        assert [u.target for u in store.tm.exact("Open the file")] == ["Abra el archivo"]
        assert store.tm.count() == 2 and [u.source for u in store.tm.iter_units(max_words=2)] == ["Close it"]
        seg = store.segments.list(role="dev")[0]
        assert (seg.reference, seg.attributes, seg.tags) == ("Abra el fichero", {"doc_id": "d"}, {})
        assert [c.text for c in seg.candidates] == ["Abrir el archivo"]
        # The v2 tables work.
        store.models.save("m", b"blob", {})
        store.cost_schemes.save("default", {"rate": 1})
    fresh = tmp_path / "fresh.db"
    Store.create(fresh, source_lang="en", target_lang="es").close()
    assert _layout(f"sqlite:///{old}") == _layout(f"sqlite:///{fresh}")
    with Store.open(old) as again:  # opening an up-to-date file changes nothing
        assert again.project().schema_version == db.SCHEMA_VERSION


def test_v2_file_gets_the_candidate_confidence_column(tmp_path):
    v2 = tmp_path / "v2.db"
    Store.create(v2, source_lang="en", target_lang="es").close()
    with sqlite3.connect(v2) as conn:  # what a v2 TMTprime wrote
        conn.execute("ALTER TABLE candidate_scores DROP COLUMN confidence")
        conn.execute("UPDATE project SET schema_version = 2")
    conn.close()
    with Store.open(v2) as store:
        assert store.project().schema_version == db.SCHEMA_VERSION
        assert store.recommendations.count() == 0
    fresh = tmp_path / "fresh.db"
    Store.create(fresh, source_lang="en", target_lang="es").close()
    assert _layout(f"sqlite:///{v2}") == _layout(f"sqlite:///{fresh}")


def test_v3_file_gets_the_document_files_table(tmp_path):
    v3 = tmp_path / "v3.db"
    Store.create(v3, source_lang="en", target_lang="es").close()
    with sqlite3.connect(v3) as conn:  # what a v3 TMTprime wrote
        conn.execute("DROP TABLE document_files")
        conn.execute("UPDATE project SET schema_version = 3")
    conn.close()
    with Store.open(v3) as store:
        assert store.project().schema_version == db.SCHEMA_VERSION
    fresh = tmp_path / "fresh.db"
    Store.create(fresh, source_lang="en", target_lang="es").close()
    assert _layout(f"sqlite:///{v3}") == _layout(f"sqlite:///{fresh}")


def test_v4_file_with_picks_gets_the_stale_flag_and_document_steps(tmp_path):
    v4 = tmp_path / "v4.db"
    Store.create(v4, source_lang="en", target_lang="es").close()
    with sqlite3.connect(v4) as conn:  # what a v4 TMTprime wrote, with a pick in it
        conn.execute("DROP TABLE document_steps")
        conn.execute("DROP TABLE post_edits")
        conn.execute("DROP TABLE corpus_lines")
        conn.execute("DROP TABLE corpora")
        conn.execute("ALTER TABLE candidate_scores DROP COLUMN predicted_effort")
        conn.execute("ALTER TABLE recommendations DROP COLUMN stale")
        conn.execute("UPDATE project SET schema_version = 4")
        conn.executescript("""
            INSERT INTO documents VALUES (1, 'job.po', 'document', 'po', 'h', '/x/job.po', NULL, 'en', 'es', 1, NULL,
              '2024-01-01 10:00:00.000000');
            INSERT INTO segments (id, document_id, position, key, source) VALUES (1, 1, 0, 'k', 'Open');
            INSERT INTO systems VALUES (1, 'mt', 'mt', NULL, '2024-01-01 10:00:00.000000');
            INSERT INTO candidates (id, segment_id, system_id, rank, text) VALUES (1, 1, 1, 0, 'Abrir');
            INSERT INTO models VALUES (1, 'm', x'00', '{}', '2024-01-01 10:00:00.000000');
            INSERT INTO recommendations (id, segment_id, model_id, candidate_id, confidence, created_at)
              VALUES (1, 1, 1, 1, 0.5, '2024-01-01 10:00:00.000000');
        """)
    conn.close()
    with Store.open(v4) as store:
        assert store.project().schema_version == db.SCHEMA_VERSION
        segments = store.segments.list(role="document")
        store.recommendations.fill(segments)
        (pick,) = [s.pick for s in segments]
        assert (pick.candidate.id, pick.reason, pick.stale) == (1, "model", False)
        (state,) = store.steps.status()
        assert (state.name, state.recommended, state.stale, state.steps) == ("job.po", 1, 0, ())
    fresh = tmp_path / "fresh.db"
    Store.create(fresh, source_lang="en", target_lang="es").close()
    assert _layout(f"sqlite:///{v4}") == _layout(f"sqlite:///{fresh}")


def test_v5_file_gets_the_post_edits_table_and_takes_post_edits(tmp_path):
    v5 = tmp_path / "v5.db"
    Store.create(v5, source_lang="en", target_lang="es").close()
    with sqlite3.connect(v5) as conn:  # what a v5 TMTprime wrote
        conn.execute("DROP TABLE post_edits")
        conn.execute("DROP TABLE corpus_lines")
        conn.execute("DROP TABLE corpora")
        conn.execute("ALTER TABLE candidate_scores DROP COLUMN predicted_effort")
        conn.execute("UPDATE project SET schema_version = 5")
    conn.close()
    with Store.open(v5) as store:
        assert store.project().schema_version == db.SCHEMA_VERSION
        assert store.post_edits.of([1, 2]) == {}
    fresh = tmp_path / "fresh.db"
    Store.create(fresh, source_lang="en", target_lang="es").close()
    assert _layout(f"sqlite:///{v5}") == _layout(f"sqlite:///{fresh}")


def test_v6_file_admits_repaired_candidates_and_keeps_its_candidates(tmp_path):
    v4 = tmp_path / "v6.db"
    _write_v1(v4)
    with Store.open(v4):
        pass
    with sqlite3.connect(v4) as conn:  # what a v6 TMTprime wrote: systems.kind limited to tm/mt
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'systems'").fetchone()[0]
        version = conn.execute("PRAGMA schema_version").fetchone()[0]
        conn.execute("PRAGMA writable_schema = ON")
        conn.execute("UPDATE sqlite_master SET sql = ? WHERE name = 'systems'",
                     (sql.replace("'tm', 'mt', 'repair'", "'tm', 'mt'"),))
        conn.execute(f"PRAGMA schema_version = {version + 1}")
        conn.execute("PRAGMA writable_schema = OFF")
        conn.execute("UPDATE project SET schema_version = 6")
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("INSERT INTO systems (name, kind, created_at) VALUES ('x', 'repair', '2026-01-01')")
    conn.close()
    with Store.open(v4) as store:
        assert store.project().schema_version == db.SCHEMA_VERSION
        seg = store.segments.list(role="dev")[0]
        assert [c.text for c in seg.candidates] == ["Abrir el archivo"]  # the rewrite cascaded nothing
        store.segments.add_candidates([NewCandidate(seg.id, "tm-repair", "repair", "Abrir el fichero")])
        assert sorted(c.kind for c in store.segments.list(role="dev")[0].candidates) == ["mt", "repair"]
    with sqlite3.connect(v4) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_a_failed_upgrade_leaves_the_old_version(tmp_path, monkeypatch):
    old = tmp_path / "old.db"
    _write_v1(old)
    from tmtprime.store import migrations

    def broken(connection):
        migrations._v1_to_v2(connection)
        raise StoreError("simulated failure in the middle of an upgrade")

    monkeypatch.setitem(migrations.STEPS, 1, broken)
    with pytest.raises(StoreError, match="simulated failure"):
        Store.open(old)
    with sqlite3.connect(old) as conn:
        assert conn.execute("SELECT schema_version FROM project").fetchone() == (1,)
        columns = [row[1] for row in conn.execute("PRAGMA table_info(tm_units)")]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert "source_hash" not in columns and "models" not in tables


def test_newer_or_foreign_files_are_refused(tmp_path):
    newer = tmp_path / "newer.db"
    Store.create(newer, source_lang="en", target_lang="es").close()
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE project SET schema_version = 99")
    conn.close()
    with pytest.raises(StoreError, match="schema version 99, newer than this TMTprime supports"):
        Store.open(newer)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    with pytest.raises(StoreError, match="not a TMTprime project"):
        Store.open(other)


@pytest.mark.postgres
def test_v4_database_on_postgresql_upgrades_too(postgres_url):
    Store.create(postgres_url, source_lang="en", target_lang="es").close()
    engine = create_engine(postgres_url)
    with engine.begin() as conn:  # what a v4 TMTprime wrote
        for table in ("document_steps", "post_edits", "corpus_lines", "corpora", "estimate_cache"):
            conn.exec_driver_sql(f"DROP TABLE {table} CASCADE")
        conn.exec_driver_sql("ALTER TABLE recommendations DROP COLUMN stale")
        conn.exec_driver_sql("ALTER TABLE candidate_scores DROP COLUMN predicted_effort")
        conn.exec_driver_sql("UPDATE project SET schema_version = 4")
    engine.dispose()
    with Store.open(postgres_url) as store:
        assert store.project().schema_version == db.SCHEMA_VERSION and store.steps.status() == []
    engine = create_engine(postgres_url)
    columns = {c["name"]: c for c in inspect(engine).get_columns("recommendations")}
    engine.dispose()
    assert not columns["stale"]["nullable"]


@pytest.mark.postgres
def test_v6_postgresql_project_admits_repaired_candidates(postgres_url):
    with Store.create(postgres_url, source_lang="en", target_lang="es") as store:
        store.segments.list()
    engine = create_engine(postgres_url)
    with engine.begin() as conn:  # what a v6 TMTprime wrote
        conn.exec_driver_sql("ALTER TABLE systems DROP CONSTRAINT ck_systems_kind")
        conn.exec_driver_sql("ALTER TABLE systems ADD CONSTRAINT ck_systems_kind CHECK (kind IN ('tm', 'mt'))")
        conn.exec_driver_sql("UPDATE project SET schema_version = 6")
    engine.dispose()
    with Store.open(postgres_url) as store:
        assert store.project().schema_version == db.SCHEMA_VERSION
        with store.connection(write=True) as conn:
            conn.exec_driver_sql("INSERT INTO systems (name, kind, created_at) VALUES ('tm-repair', 'repair', now())")
        assert [s.kind for s in store.systems.list()] == ["repair"]
