"""``tmtprime tm lookup`` on a real SQLite project."""

from __future__ import annotations

import pytest

from tmtprime.cli import main
from tmtprime.store import Store
from tmtprime.store.importer import import_file

TM = r"""msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Language: es\n"

msgctxt "menu"
msgid "Open the file"
msgstr "Abrir el archivo"

msgid "Open the file"
msgstr "Abre el archivo"

#, c-format
msgid "Save the file as %s"
msgstr "Guardar el archivo como %s"

msgid "Delete all files"
msgstr "Eliminar todos los archivos"

msgid "Close the window"
msgstr "Cerrar la ventana"
"""

DOC = """key\tsource\tcontext
1\tOpen the file\tmenu
2\tSave the file as %d\t
3\tDelete all the files\t
4\tSomething entirely different here\t
5\tOpen the file\tmenu
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / "tm.po").write_text(TM, encoding="utf-8")
    (tmp_path / "doc.tsv").write_text(DOC, encoding="utf-8")
    path = tmp_path / "p.db"
    with Store.create(path, source_lang="en", target_lang="es") as store:
        import_file(store, tmp_path / "tm.po", role="tm")
        import_file(store, tmp_path / "doc.tsv", role="document")
    return path


def tm_candidates(path, system="tm-lookup"):
    with Store.open(path) as store:
        segs = store.segments.list()
    return {s.key: [(c.rank, c.text, c.fuzzy, c.tm_source, c.attributes.get("match_type")) for c in s.candidates if c.system == system] for s in segs}


def test_lookup_stores_best_matches_with_score_source_and_type(project, capsys):
    assert main(["tm", "lookup", str(project), "-q"]) == 0
    out = capsys.readouterr().out
    assert "segments looked up: 5" in out and "with a match: 4" in out and "repeated segments" in out
    got = tm_candidates(project)
    # the context match ranks first, the other exact one second
    assert got["1"][:2] == [
        (0, "Abrir el archivo", 100.0, "Open the file", "context"),
        (1, "Abre el archivo", 100.0, "Open the file", "exact"),
    ]
    assert got["2"][0] == (0, "Guardar el archivo como %s", 99.0, "Save the file as %s", "fuzzy")
    assert got["3"][0][1:4] == ("Eliminar todos los archivos", 75.0, "Delete all files")
    assert got["4"] == []
    with Store.open(project) as store:
        seg = store.segments.list()[0]
        cand = next(c for c in seg.candidates if c.system == "tm-lookup")
        assert cand.kind == "tm" and cand.origin == "tm.po" and cand.attributes["tm_unit_id"] > 0


def test_rerun_is_idempotent_and_obeys_new_settings(project):
    assert main(["tm", "lookup", str(project), "-q"]) == 0
    first = tm_candidates(project)
    assert main(["tm", "lookup", str(project), "-q"]) == 0
    assert tm_candidates(project) == first
    assert main(["tm", "lookup", str(project), "-q", "--threshold", "80", "--max-matches", "1"]) == 0
    again = tm_candidates(project)
    assert {k: len(v) for k, v in again.items()} == {"1": 1, "2": 1, "3": 0, "4": 0, "5": 1}


def test_one_document_and_another_system_name(project, tmp_path):
    (tmp_path / "doc2.tsv").write_text("source\nClose the window\n", encoding="utf-8")
    with Store.open(project) as store:
        import_file(store, tmp_path / "doc2.tsv", role="document")
    assert main(["tm", "lookup", str(project), "-q", "--document", "doc2.tsv", "--system", "tm2"]) == 0
    with Store.open(project) as store:
        segs = store.segments.list()
    by_doc = {s.document: [c.system for c in s.candidates] for s in segs}
    assert by_doc == {"doc.tsv": [], "doc2.tsv": ["tm2"]}


def test_errors_are_one_line(project, tmp_path, capsys):
    assert main(["tm", "lookup", str(project), "--document", "nope"]) == 1
    assert "no document named 'nope'" in capsys.readouterr().err
    assert main(["tm", "lookup", str(project), "--threshold", "101"]) == 2
    assert main(["tm", "lookup", str(project), "--max-matches", "0"]) == 2
    empty = tmp_path / "empty.db"
    Store.create(empty, source_lang="en", target_lang="es").close()
    assert main(["tm", "lookup", str(empty)]) == 1  # a runtime condition of the project, not a usage error
    assert "has no TM" in capsys.readouterr().err
