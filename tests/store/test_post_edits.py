"""Post-editing data in the store: import per system, several editors per segment, bad input refused whole."""

from __future__ import annotations

import pytest

from tmtprime.cli import main
from tmtprime.store import Store

HEADER = "id\tsource\tmt\tpe\ttime\tkeys\tscore\teditor\n"
ROWS = [
    "1\tOpen the file\tAbrir el archivo\tAbra el archivo\t3000\t12\t4\tA\n",
    "2\tClose it\tCerrarlo\t\t\t\t\tA\n",  # not post-edited: every cell empty
    "1\tOpen the file\tAbrir el archivo\tAbre el archivo\t5000\t20\t3\tB\n",  # a second editor of segment 1
]
FLAGS = ["--mt-col", "smt=mt", "--post-edit-col", "smt=pe", "--pe-time-col", "smt=time", "--keystrokes-col", "smt=keys",
         "--effort-col", "smt=score", "--editor-col", "editor", "--key-col", "id"]


def _project(tmp_path, rows, name="pe.tsv"):
    table = tmp_path / name
    table.write_text(HEADER + "".join(rows), encoding="utf-8")
    db = str(tmp_path / "P.db")
    if not (tmp_path / "P.db").exists():
        assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    return db, str(table)


def test_rows_of_one_segment_are_its_editors_and_empty_cells_mean_not_post_edited(tmp_path, capsys):
    db, table = _project(tmp_path, ROWS)
    assert main(["import", db, table, "--as", "dev", *FLAGS, "-q"]) == 0
    assert "2 post-editing records, 1 rows were further editors" in capsys.readouterr().out  # the empty row has none
    with Store.open(db) as store:
        segments = store.segments.list(role="dev")
        assert [s.source for s in segments] == ["Open the file", "Close it"]
        first, second = (s.candidates[0] for s in segments)
        records = store.post_edits.of([first.id, second.id])
    assert second.id not in records
    assert [(p.text, p.time_ms, p.keystrokes, p.effort, p.effort_more, p.editor) for p in records[first.id]] == [
        ("Abra el archivo", 3000.0, 12.0, 4.0, False, "A"),
        ("Abre el archivo", 5000.0, 20.0, 3.0, False, "B"),
    ]


def test_the_effort_direction_is_stated_at_import(tmp_path):
    db, table = _project(tmp_path, ROWS[:1])
    assert main(["import", db, table, "--as", "dev", *FLAGS, "--effort-scale", "higher-is-more", "-q"]) == 0
    with Store.open(db) as store:
        (seg,) = store.segments.list(role="dev")
        assert store.post_edits.of([seg.candidates[0].id])[seg.candidates[0].id][0].effort_more is True


@pytest.mark.parametrize(
    ("row", "flags", "message"),
    [
        ("3\tSave\tGuardar\tGuarde\tabc\t1\t4\tA\n", [], "line 5: column 'time': 'abc' is not a number"),
        ("3\tSave\tGuardar\tGuarde\t-5\t1\t4\tA\n", [], "line 5: column 'time': '-5' is negative"),
        ("3\tSave\tGuardar\tGuarde\t10\t1\tgood\tA\n", [], "line 5: column 'score': 'good' is not a number"),
        ("3\tSave\tGuardar\tGuarde\t10\t1\t4\tA\n", ["--effort-col", "nmt=score"], "no system 'nmt' is imported"),
    ],
)
def test_bad_post_editing_data_is_one_clear_line_and_the_import_writes_nothing(tmp_path, capsys, row, flags, message):
    db, table = _project(tmp_path, [*ROWS, row])
    flags = FLAGS + flags if not flags else [f for f in FLAGS if not f.startswith("smt=score") and f != "--effort-col"] + flags
    assert main(["import", db, table, "--as", "dev", *flags, "-q"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "pe.tsv" in err and message in err, err
    with Store.open(db) as store:
        assert store.documents.list() == [] and store.post_edits.count() == 0


def test_dev_data_with_post_edits_needs_no_reference(tmp_path):
    db, table = _project(tmp_path, ROWS)
    assert main(["import", db, table, "--as", "dev", "--mt-col", "smt=mt", "--post-edit-col", "smt=pe", "-q"]) == 0
    with Store.open(db) as store:
        # no --key-col: rows repeating the source and the MT output are the same segment
        assert store.segments.count(role="dev") == 2 and store.post_edits.count() == 2


def test_corpora_are_project_resources_features_can_read(tmp_path, capsys):
    from tmtprime.workflows.project_data import resource_pairs, resource_targets

    db, _ = _project(tmp_path, ROWS)
    mono = tmp_path / "news.es.txt"
    mono.write_text("El presidente habla.\n\nLa economía crece.\n", encoding="utf-8")
    pairs = tmp_path / "bitext.tsv"
    pairs.write_text("source\ttarget\nThe house\tLa casa\n", encoding="utf-8")
    assert main(["import", db, str(mono), "--as", "corpus", "-q"]) == 0
    assert main(["import", db, str(pairs), "--as", "corpus", "-q"]) == 0
    assert main(["import", db, str(mono), "--as", "corpus", "-q"]) == 0
    out = capsys.readouterr().out
    assert "'news.es.txt' as monolingual corpus: 2 sentences" in out and "'bitext.tsv' as parallel corpus: 1 pairs" in out
    assert "already imported" in out
    with Store.open(db) as store:
        assert list(resource_targets(store, "corpus")) == ["El presidente habla.", "La economía crece.", "La casa"]
        assert list(resource_pairs(store, "corpus")) == [("The house", "La casa")]
        assert list(resource_pairs(store, "tm")) == [] and store.tm.count() == 0  # a corpus is not a TM
    bad = tmp_path / "bad.tsv"
    bad.write_text("source\ttarget\nA\tB\n\x00\tC\n", encoding="utf-8")
    assert main(["import", db, str(bad), "--as", "corpus", "-q"]) == 1
    assert "bad.tsv" in capsys.readouterr().err
    with Store.open(db) as store:
        assert [c.name for c in store.corpora.list()] == ["news.es.txt", "bitext.tsv"]


def test_json_lines_carry_post_editing_data_too(tmp_path):
    import json

    db, _ = _project(tmp_path, ROWS)
    lines = tmp_path / "pe.jsonl"
    lines.write_text("\n".join(json.dumps(r) for r in [
        {"id": "1", "source": "Open the file", "mt": "Abrir el archivo", "pe": "Abra el archivo", "time": 3000, "score": 4},
        {"id": "2", "source": "Close it", "mt": "Cerrarlo", "pe": "", "time": None, "score": None},
    ]) + "\n", encoding="utf-8")
    flags = ["--mt-col", "smt=mt", "--post-edit-col", "smt=pe", "--pe-time-col", "smt=time", "--effort-col", "smt=score"]
    assert main(["import", db, str(lines), "--as", "dev", *flags, "-q"]) == 0
    with Store.open(db) as store:
        first, second = (s.candidates[0] for s in store.segments.list(role="dev"))
        records = store.post_edits.of([first.id, second.id])
    assert [(p.text, p.time_ms, p.effort) for p in records[first.id]] == [("Abra el archivo", 3000.0, 4.0)]
    assert second.id not in records
