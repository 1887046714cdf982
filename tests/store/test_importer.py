"""Importing files: atomic, idempotent, streaming, with clear errors."""

from __future__ import annotations

import gzip
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import select

from tests.conftest import ProgressSpy
from tmtprime.errors import InputError, StoreError
from tmtprime.formats import ColumnMapping
from tmtprime.store import Store
from tmtprime.store import schema as db
from tmtprime.store.importer import import_file

DEV_HEADER = "doc_id\tseg_id\tmsgctxt\tsource\treference\ttm_source\ttm_target\ttm_fuzzy\tmt_a\tmt_b\n"
DEV_ROWS = [
    "app/a\t1\t\tOpen the file\tAbra el archivo\tOpen a file\tAbra un archivo\t80.5\tAbierto el archivo\tAbrir el archivo\n",
    "app/a\t2\tmenu\tSave\tGuardar\t\t\t\tAhorrar\tGuardar\n",
    "app/b\t1\t\tQuit now\tSalir ahora\tQuit\tSalir\t50\tDejar ahora\tSalir ahora\n",
]
DEV_MAPPING = ColumnMapping(
    source="source",
    reference="reference",
    tm="tm_target",
    tm_source="tm_source",
    tm_score="tm_fuzzy",
    mt={"sys-a": "mt_a", "sys-b": "mt_b"},
)

TMX = """<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="test" creationtoolversion="1" segtype="sentence"
 o-tmf="x" adminlang="en" srclang="{src}" datatype="plaintext"/>
<body>
<tu tuid="1"><tuv xml:lang="{src}"><seg>Open the file</seg></tuv><tuv xml:lang="{tgt}"><seg>Abra el archivo</seg></tuv></tu>
<tu tuid="2"><tuv xml:lang="{src}"><seg>Close   the file</seg></tuv><tuv xml:lang="{tgt}"><seg>Cierre el archivo</seg></tuv></tu>
<tu tuid="3"><tuv xml:lang="{src}"><seg>Save <bpt i="1">&lt;b&gt;</bpt>all<ept i="1">&lt;/b&gt;</ept></seg></tuv>
 <tuv xml:lang="{tgt}"><seg>Guardar <bpt i="1">&lt;b&gt;</bpt>todo<ept i="1">&lt;/b&gt;</ept></seg></tuv></tu>
</body></tmx>
"""


def write_dev(path: Path, rows: list[str] = DEV_ROWS, *, gz: bool = False) -> Path:
    text = DEV_HEADER + "".join(rows)
    if gz:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text, encoding="utf-8")
    return path


def write_tmx(path: Path, src: str = "en", tgt: str = "es") -> Path:
    path.write_text(TMX.format(src=src, tgt=tgt), encoding="utf-8")
    return path


def dump(store: Store) -> list[tuple]:
    """Every row of every table, to compare a store before and after a failed import."""
    with store.connection() as conn:
        return [
            (table.name, *row)
            for table in db.Base.metadata.sorted_tables
            for row in conn.execute(select(table).order_by(*table.primary_key.columns))
        ]


def test_dev_tsv_gz_import_keeps_order_candidates_context_and_attributes(store, tmp_path):
    result = import_file(store, write_dev(tmp_path / "dev.tsv.gz", gz=True), role="dev", mapping=DEV_MAPPING)
    assert (result.units, result.candidates, result.already) == (3, 8, False)
    assert result.systems == ("tm", "sys-a", "sys-b")
    segs = store.segments.list(role="dev")
    assert [s.source for s in segs] == ["Open the file", "Save", "Quit now"]
    assert [s.reference for s in segs] == ["Abra el archivo", "Guardar", "Salir ahora"]
    assert segs[1].context == "menu" and segs[0].context is None
    assert segs[0].attributes["doc_id"] == "app/a" and segs[0].key == "app/a#1"
    first = {c.system: c for c in segs[0].candidates}
    assert (first["tm"].kind, first["tm"].fuzzy, first["tm"].tm_source) == ("tm", 80.5, "Open a file")
    assert first["sys-a"].kind == "mt" and first["sys-b"].text == "Abrir el archivo"
    # An empty TM cell means no TM candidate.
    assert [c.system for c in segs[1].candidates] == ["sys-a", "sys-b"]
    doc = store.documents.list()[0]
    assert (doc.name, doc.role, doc.format, doc.unit_count) == ("dev.tsv.gz", "dev", "tsv", 3)
    assert doc.details["mapping"]["mt"] == {"sys-a": "mt_a", "sys-b": "mt_b"}


def test_reimporting_the_same_file_changes_nothing(store, tmp_path):
    path = write_dev(tmp_path / "dev.tsv")
    import_file(store, path, role="dev", mapping=DEV_MAPPING)
    before = dump(store)
    again = import_file(store, path, role="dev", mapping=DEV_MAPPING)
    assert again.already and "already imported" in again.render()
    assert dump(store) == before
    # The same content under another file name is still the same file.
    copy = tmp_path / "copy.tsv"
    copy.write_bytes(path.read_bytes())
    assert import_file(store, copy, role="dev", mapping=DEV_MAPPING).already


def test_a_different_file_with_the_same_name_gets_a_distinct_name(store, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    import_file(store, write_dev(tmp_path / "a" / "dev.tsv"), role="dev", mapping=DEV_MAPPING)
    second = import_file(store, write_dev(tmp_path / "b" / "dev.tsv", DEV_ROWS[:2]), role="dev", mapping=DEV_MAPPING)
    assert second.document.name == "dev.tsv#2"
    assert [d.unit_count for d in store.documents.list()] == [3, 2]


def test_a_bad_row_late_in_the_file_leaves_the_store_as_it_was(store, tmp_path):
    import_file(store, write_dev(tmp_path / "first.tsv"), role="dev", mapping=DEV_MAPPING)
    before = dump(store)
    good = [f"app/c\t{i}\t\tLine {i}\tLínea {i}\tx\ty\t70\tm{i}\tn{i}\n" for i in range(12_000)]
    bad = "app/c\t99999\t\tBroken\tRoto\tx\ty\tseventy\tm\tn\n"
    path = write_dev(tmp_path / "bad.tsv", good + [bad])
    with pytest.raises(InputError) as caught:
        import_file(store, path, role="dev", mapping=DEV_MAPPING)
    message = str(caught.value)
    assert "bad.tsv" in message and "line 12002" in message and "'seventy'" in message
    assert dump(store) == before


def test_tm_import_and_exact_lookup(store, tmp_path):
    result = import_file(store, write_tmx(tmp_path / "mem.tmx", "en-US", "es-ES"), role="tm")
    assert (result.units, result.document.format) == (3, "tmx")
    assert store.tm.count() == 3
    assert [u.target for u in store.tm.exact("Close the file")] == ["Cierre el archivo"]
    assert store.tm.exact("close the file") == []
    tagged = [u for u in store.tm.iter_units() if u.tags]
    assert len(tagged) == 1 and tagged[0].tags_dialect == "tmx" and "&lt;b&gt;" in "".join(tagged[0].tags.values())
    assert [u.position for u in store.tm.iter_units(batch_size=2)] == [0, 1, 2]


def test_tsv_tm_import_skips_units_without_target(store, tmp_path):
    path = tmp_path / "tm.tsv"
    # "Four" is a short row (no tab at all): padded, so it has no target either.
    path.write_text("source\ttarget\nOne\tUno\nTwo\t\nThree\tTres\nFour\n", encoding="utf-8")
    result = import_file(store, path, role="tm", mapping=ColumnMapping(source="source", target="target"))
    assert result.units == 2
    assert [u.source for u in store.tm.iter_units()] == ["One", "Three"]
    # The user is told what did not reach the store, and the document remembers it.
    assert result.skipped == {"row with an empty source or target": 2}
    # ...and where to look: the first such row (file line 3, the header being line 1).
    assert "2 units skipped (row with an empty source or target: 2, first at line 3)" in result.render()
    assert result.document.details["skipped"] == {"row with an empty source or target": 2}


def test_wrong_languages_are_refused(store, tmp_path):
    with pytest.raises(InputError, match="fr") as caught:
        import_file(store, write_tmx(tmp_path / "enfr.tmx", "en", "fr"), role="tm")
    assert "enfr.tmx" in str(caught.value)
    with pytest.raises(InputError, match="de"):
        import_file(store, write_tmx(tmp_path / "dees.tmx", "de", "es"), role="tm")
    assert store.tm.count() == 0 and store.documents.list() == []


def test_dev_data_without_references_is_refused(store, tmp_path):
    path = tmp_path / "noref.tsv"
    path.write_text("source\tmt_x\nHello\tHola\n", encoding="utf-8")
    with pytest.raises(InputError, match="reference"):
        import_file(store, path, role="dev")
    assert import_file(store, path, role="document").units == 1


def test_empty_and_missing_files_are_errors(store, tmp_path):
    empty = tmp_path / "empty.tsv"
    empty.write_text("source\ttarget\n", encoding="utf-8")
    with pytest.raises(InputError, match="no translation units"):
        import_file(store, empty, role="tm")
    with pytest.raises(InputError, match="file not found"):
        import_file(store, tmp_path / "nope.tsv", role="tm")
    with pytest.raises(StoreError, match="unknown role"):
        import_file(store, empty, role="reference")
    assert store.documents.list() == []


def test_an_error_raised_from_the_reporter_rolls_back(store, tmp_path):
    rows = [f"app/c\t{i}\t\tLine {i}\tLínea {i}\t\t\t\tm\tn\n" for i in range(20_000)]
    path = write_dev(tmp_path / "big.tsv", rows)

    class Cancelled(Exception):
        pass

    def progress(done: int, total: int | None) -> None:
        if done == 15_000:
            raise Cancelled

    with pytest.raises(Cancelled):
        import_file(store, path, role="dev", mapping=DEV_MAPPING, reporter=ProgressSpy(progress))
    assert store.documents.list() == [] and store.segments.count() == 0
    assert import_file(store, path, role="dev", mapping=DEV_MAPPING).units == 20_000


def test_a_reader_can_open_the_store_while_an_import_is_running(sqlite_store, tmp_path, project_path):
    """WAL: another connection reads the committed state during a long import."""
    rows = [f"app/c\t{i}\t\tLine {i}\tLínea {i}\t\t\t\tm\tn\n" for i in range(12_000)]
    seen: list[int] = []

    def progress(done: int, total: int | None) -> None:
        if done == 11_000:
            with sqlite3.connect(project_path, timeout=1) as other:
                seen.append(other.execute("SELECT count(*) FROM segments").fetchone()[0])
            other.close()

    import_file(sqlite_store, write_dev(tmp_path / "big.tsv", rows), role="dev", mapping=DEV_MAPPING, reporter=ProgressSpy(progress))
    assert seen == [0] and sqlite_store.segments.count() == 12_000
