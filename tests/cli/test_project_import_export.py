"""The product's command sequence: project create -> import -> (recommend) -> export, and project info."""

from __future__ import annotations

import csv
import gzip
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.store.conftest import postgres_server, postgres_url  # noqa: F401 - PostgreSQL fixtures
from tmtprime.cli import main
from tmtprime.formats import read_document, read_tm
from tmtprime.store import CandidatePrediction, NewRecommendation, Store
from tmtprime.store import schema as db

ROOT = Path(__file__).resolve().parents[2]
DOC_MAPPING_ARGS = [
    "--source-col", "source",
    "--tm-col", "tm_target",
    "--tm-source-col", "tm_source",
    "--tm-score-col", "tm_fuzzy_word",
    "--mt-col", "mt_apertium_eng-spa",
    "--mt-col", "apertium_eng-cat-spa=mt_apertium_eng-cat-spa",
]  # fmt: skip
DEV_MAPPING_ARGS = [*DOC_MAPPING_ARGS, "--reference-col", "reference"]
HEADER = ["split", "doc_id", "seg_id", "msgctxt", "source", "reference", "tm_source", "tm_target", "tm_fuzzy_word",
          "mt_apertium_eng-spa", "mt_apertium_eng-cat-spa"]  # fmt: skip
ROWS = [
    ["dev", "app/a", "1", "", "Open the file", "Abra el archivo", "Open a file", "Abra un archivo", "80.0",
     "Abierto el archivo", "Abrir el archivo"],
    ["dev", "app/a", "2", "menu", "Save all", "Guardar todo", "", "", "", "Ahorrar todo", "Guardar todo"],
    ["dev", "app/b", "7", "", "Quit", "Salir", "Quit!", "¡Salir!", "66.67", "Dejar", "Salir"],
]  # fmt: skip


def write_table(path: Path, rows: list[list[str]], *, drop: tuple[str, ...] = ()) -> Path:
    keep = [i for i, name in enumerate(HEADER) if name not in drop]
    text = "".join("\t".join(r[i] for i in keep) + "\n" for r in [HEADER, *rows])
    path.write_bytes(gzip.compress(text.encode()))
    return path


def run(*args: str) -> int:
    return main([str(a) for a in args])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with a TM, a dev file and a document to translate, built through the CLI."""
    p = tmp_path / "P.db"
    tm = tmp_path / "tm.tsv.gz"
    tm.write_bytes(gzip.compress(b"tm_id\tsource\ttarget\n0\tOpen a file\tAbra un archivo\n1\tQuit!\t\xc2\xa1Salir!\n"))
    assert run("project", "create", p, "--source-lang", "en", "--target-lang", "es") == 0
    assert run("import", p, tm, "--as", "tm", "--source-col", "source", "--target-col", "target", "-q") == 0
    assert run("import", p, write_table(tmp_path / "dev.tsv.gz", ROWS), "--as", "dev", *DEV_MAPPING_ARGS, "-q") == 0
    new = write_table(tmp_path / "new.tsv.gz", list(reversed(ROWS)), drop=("reference",))
    assert run("import", p, new, "--as", "document", *DOC_MAPPING_ARGS, "-q") == 0
    return p


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def recommend_first_mt(p: Path, *, confidence: float = 0.75) -> dict[str, int]:
    """Stand-in for the recommender: pick apertium_eng-cat-spa everywhere; returns {source: segment id}."""
    with Store.open(p) as store:
        store.models.save("stub", b"", {"what": "test stand-in"})
        segments = store.segments.list(role="document")
        recs = []
        for seg in segments:
            chosen = next(c for c in seg.candidates if c.system == "apertium_eng-cat-spa")
            predictions = {c.id: CandidatePrediction(0.1, 50.0) for c in seg.candidates}
            predictions[chosen.id] = CandidatePrediction(confidence, 20.0)
            recs.append(NewRecommendation(seg.id, chosen.id, confidence, predictions))
        store.recommendations.save("stub", recs)
        return {seg.source: seg.id for seg in segments}


def test_csv_export_without_recommendations_leaves_the_pick_empty(project, tmp_path):
    out = tmp_path / "picks.csv"
    assert run("export", project, "--format", "csv", "-o", out, "-q") == 0
    rows = read_csv(out)
    assert list(rows[0]) == ["document", "index", "key", "doc_id", "seg_id", "context", "source", "system", "kind",
                             "confidence", "fuzzy", "text"]  # fmt: skip
    # Only the document to translate, in the order of its file.
    assert [(r["document"], r["index"], r["source"]) for r in rows] == [
        ("new.tsv.gz", "1", "Quit"),
        ("new.tsv.gz", "2", "Save all"),
        ("new.tsv.gz", "3", "Open the file"),
    ]
    assert [(r["doc_id"], r["seg_id"], r["context"]) for r in rows] == [
        ("app/b", "7", ""),
        ("app/a", "2", "menu"),
        ("app/a", "1", ""),
    ]
    assert [r["fuzzy"] for r in rows] == ["66.67", "", "80"]
    assert all(r["system"] == r["kind"] == r["confidence"] == r["text"] == "" for r in rows)


def test_csv_export_gives_the_recommended_candidate_and_the_users_override(project, tmp_path):
    ids = recommend_first_mt(project)
    with Store.open(project) as store:
        seg = store.segments.list(role="document")[0]
        tm = next(c for c in seg.candidates if c.system == "tm")
        store.recommendations.set_override(seg.id, tm.id)
    out = tmp_path / "picks.csv"
    assert run("export", project, "--format", "csv", "-o", out, "-q") == 0
    rows = {r["source"]: r for r in read_csv(out)}
    assert set(ids) == set(rows)
    save = rows["Save all"]
    assert (save["system"], save["kind"], save["confidence"], save["text"]) == ("apertium_eng-cat-spa", "mt", "0.75", "Guardar todo")
    quit_ = rows["Quit"]  # overridden by the user: the TM match, with the model's own probability for it
    assert (quit_["system"], quit_["kind"], quit_["confidence"], quit_["text"]) == ("tm", "tm", "0.1", "¡Salir!")


def test_dev_rows_are_exported_on_request_and_to_stdout(project, capsys):
    assert run("export", project, "--format", "csv", "-o", "-", "--role", "dev", "-q") == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["source"] for r in rows] == ["Open the file", "Save all", "Quit"]
    assert {r["document"] for r in rows} == {"dev.tsv.gz"}


def test_json_export_has_every_candidate_and_the_pick(project, tmp_path):
    import json

    recommend_first_mt(project)
    out = tmp_path / "all.json"
    assert run("export", project, "--format", "json", "-o", out, "-q") == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["source_lang"], data["target_lang"], data["model"]) == ("en", "es", "stub")
    first = data["segments"][0]
    assert [c["system"] for c in first["candidates"]] == ["tm", "apertium_eng-spa", "apertium_eng-cat-spa"]
    assert first["recommendation"]["system"] == "apertium_eng-cat-spa" and first["recommendation"]["confidence"] == 0.75
    assert [c["probability"] for c in first["candidates"]] == [0.1, 0.1, 0.75]


@pytest.mark.parametrize("fmt", ["xliff", "xliff2"])
def test_xliff_export_has_the_pick_as_target_and_every_candidate_as_alternative(project, tmp_path, fmt):
    recommend_first_mt(project, confidence=0.9)
    out = tmp_path / f"job.{fmt}"
    assert run("export", project, "--format", fmt, "-o", out, "-q") == 0
    info, segments = read_document(out)
    segments = list(segments)
    assert (info.source_lang, info.target_lang) == ("en", "es")
    assert [s.source for s in segments] == ["Quit", "Save all", "Open the file"]
    for seg in segments:
        assert seg.pick is not None and seg.pick.candidate.system == "apertium_eng-cat-spa"
        assert seg.pick.confidence == pytest.approx(0.9) and seg.pick.reason == "file"
        assert {c.system for c in seg.candidates} >= {"apertium_eng-spa", "apertium_eng-cat-spa"}
    first = segments[0]
    assert {c.system: first.confidence_of(i) for i, c in enumerate(first.candidates)}["apertium_eng-spa"] == pytest.approx(0.1)


def test_tmx_export_holds_the_tm_and_the_reference_translations(project, tmp_path):
    out = tmp_path / "memory.tmx"
    assert run("export", project, "--format", "tmx", "-o", out, "-q") == 0
    _info, units = read_tm(out, source_lang="en", target_lang="es")
    pairs = [(u.source, u.target) for u in units]
    assert pairs[:2] == [("Open a file", "Abra un archivo"), ("Quit!", "¡Salir!")]
    assert ("Save all", "Guardar todo") in pairs and len(pairs) == 5  # 2 TM units + 3 dev references


def test_project_info_reports_languages_documents_systems_and_recommendations(project, capsys):
    capsys.readouterr()
    assert run("project", "info", project) == 0
    text = capsys.readouterr().out
    assert "en -> es" in text and f"schema version:  {db.SCHEMA_VERSION}" in text
    assert "tm.tsv.gz  [tm, tsv]  2 TM units" in text
    assert "dev.tsv.gz  [dev, tsv]  3 segments" in text and "new.tsv.gz  [document, tsv]  3 segments" in text
    assert "apertium_eng-cat-spa  [mt]  6 candidates" in text and "tm  [tm]  4 candidates" in text
    assert "recommendations: none" in text
    recommend_first_mt(project)
    assert run("project", "info", project) == 0
    text = capsys.readouterr().out
    assert "recommendations: yes, 3 segments" in text and "stub  created" in text


def test_reimport_says_already_imported(project, tmp_path, capsys):
    capsys.readouterr()
    assert run("import", project, tmp_path / "dev.tsv.gz", "--as", "dev", *DEV_MAPPING_ARGS, "-q") == 0
    assert "already imported" in capsys.readouterr().out


def _cli(*args: object) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(
        [sys.executable, "-m", "tmtprime", *map(str, args)], capture_output=True, text=True, env=env, check=False
    )


def _contents(p: Path) -> tuple[object, ...]:
    with Store.open(p) as store:
        return (
            [(d.name, d.unit_count) for d in store.documents.list()],
            [(s.source, tuple(c.text for c in s.candidates)) for s in store.segments.iter()],
            store.tm.count(),
        )


def test_errors_are_one_line_and_change_nothing(project, tmp_path):
    bad = write_table(tmp_path / "bad.tsv.gz", [*ROWS, ["dev", "app/c", "1", "", "X", "Y", "x", "y", "lots", "a", "b"]])
    before = _contents(project)
    done = _cli("import", project, bad, "--as", "dev", *DEV_MAPPING_ARGS, "-q")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "bad.tsv.gz" in done.stderr and "line 5" in done.stderr and "'lots'" in done.stderr
    assert _contents(project) == before
    for args, status, words in [
        (("import", project, bad, "--mt-col", "oops="), 2, "[NAME=]COLUMN"),
        (("import", tmp_path / "none.db", bad), 1, "no project at"),
        (("project", "create", project, "--source-lang", "en", "--target-lang", "es"), 1, "already exists"),
        (("export", project, "--format", "csv", "-o", tmp_path / "x.csv", "--document", "nope"), 1, "no document named"),
        (("export", project, "--format", "xliff", "-o", "x", "--document", "tm.tsv.gz"), 2, "translation memory"),
    ]:
        done = _cli(*args)
        assert done.returncode == status, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and words in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("score", ["-34903", "nan", "250"])
def test_a_tm_score_outside_0_to_102_is_one_line_and_changes_nothing(project, tmp_path, score):
    bad = write_table(tmp_path / "bad.tsv.gz", [*ROWS, ["dev", "app/c", "1", "", "X", "Y", "x", "y", score, "a", "b"]])
    before = _contents(project)
    done = _cli("import", project, bad, "--as", "dev", *DEV_MAPPING_ARGS, "-q")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "line 5" in done.stderr and "outside 0-102" in done.stderr
    assert _contents(project) == before


@pytest.mark.postgres
def test_the_sequence_works_on_a_postgresql_url(postgres_url, tmp_path):  # noqa: F811 - fixture
    assert run("project", "create", postgres_url, "--source-lang", "en", "--target-lang", "es-ES") == 0
    assert run("import", postgres_url, write_table(tmp_path / "dev.tsv.gz", ROWS), "--as", "dev", *DEV_MAPPING_ARGS, "-q") == 0
    out = tmp_path / "dev.csv"
    assert run("export", postgres_url, "--format", "csv", "-o", out, "--role", "dev", "-q") == 0
    assert [r["source"] for r in read_csv(out)] == ["Open the file", "Save all", "Quit"]


@pytest.mark.slow
@pytest.mark.shared_data
def test_the_product_sequence_on_the_shared_data(shared_data, tmp_path):
    """The exact command sequence of the product on the real TM/dev data (a 'new' file made from dev rows)."""
    data = shared_data / "tm_l10n_en-es" / "update"
    p = tmp_path / "P.db"
    mapping = [
        "--source-col", "source", "--tm-col", "tm_target", "--tm-source-col", "tm_source",
        "--tm-score-col", "tm_fuzzy_word", "--mt-col", "mt_apertium_eng-spa",
        "--mt-col", "mt_apertium_eng-cat-spa", "--mt-col", "mt_apertium_en-gl-es",
    ]  # fmt: skip
    with gzip.open(data / "dev.tsv.gz", "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    columns = lines[0].split("\t")
    ref = columns.index("reference")
    new_rows = [line.split("\t") for line in lines[1:1001]]
    new = tmp_path / "new.tsv.gz"
    new.write_bytes(gzip.compress("".join(
        "\t".join(c for i, c in enumerate(r) if i != ref) + "\n" for r in [columns, *new_rows]
    ).encode()))  # fmt: skip
    assert run("project", "create", p, "--source-lang", "en", "--target-lang", "es") == 0
    assert run("import", p, data / "tm.tsv.gz", "--as", "tm", "--source-col", "source", "--target-col", "target", "-q") == 0
    assert run("import", p, data / "dev.tsv.gz", "--as", "dev", *mapping, "--reference-col", "reference", "-q") == 0
    assert run("import", p, new, "--as", "document", *mapping, "-q") == 0
    out = tmp_path / "picks.csv"
    assert run("export", p, "--format", "csv", "-o", out, "-q") == 0
    rows = read_csv(out)
    assert len(rows) == 1000
    assert [(r["doc_id"], r["seg_id"], r["source"]) for r in rows] == [
        (r[columns.index("doc_id")], r[columns.index("seg_id")], r[columns.index("source")]) for r in new_rows
    ]
    assert [r["index"] for r in rows] == [str(i) for i in range(1, 1001)]
    assert sum(r["context"] != "" for r in rows) == sum(r[columns.index("msgctxt")] != "" for r in new_rows)
    with Store.open(p) as store:
        assert store.tm.count() == 75_507 and store.segments.count(role="dev") == 3_068
        assert [s.name for s in store.systems.list()] == ["tm", "apertium_eng-spa", "apertium_eng-cat-spa", "apertium_en-gl-es"]


def test_several_documents_export_to_one_xliff_file_each_and_one_document_by_name(project, tmp_path):
    out = tmp_path / "xliff-out"
    assert run("export", project, "--format", "xliff", "-o", out, "--role", "all", "-q") == 0
    files = sorted(p.name for p in out.iterdir())
    assert files == ["dev.tsv.gz.xliff", "new.tsv.gz.xliff"]
    _info, segments = read_document(out / "dev.tsv.gz.xliff")
    assert [s.reference for s in segments] == ["Abra el archivo", "Guardar todo", "Salir"]
    one = tmp_path / "one.csv"
    assert run("export", project, "--format", "csv", "-o", one, "--document", "dev.tsv.gz", "-q") == 0
    assert [r["document"] for r in read_csv(one)] == ["dev.tsv.gz"] * 3


def test_alternatives_show_the_candidates_own_confidence_when_the_model_gives_one(project, tmp_path):
    with Store.open(project) as store:
        store.models.save("scaled", b"", {})
        seg = store.segments.list(role="document")[0]
        pick, other = seg.candidates[0], seg.candidates[1]
        predictions = {
            pick.id: CandidatePrediction(probability=0.9, predicted_ter=10.0, confidence=0.6),
            other.id: CandidatePrediction(probability=0.5, predicted_ter=40.0, confidence=0.2),
        }
        store.recommendations.save("scaled", [NewRecommendation(seg.id, pick.id, 0.6, predictions)])
    out = tmp_path / "one.xliff"
    assert run("export", project, "--format", "xliff", "-o", out, "-q") == 0
    first = next(iter(read_document(out)[1]))
    by_system = {c.system: first.confidence_of(i) for i, c in enumerate(first.candidates)}
    assert by_system[pick.system] == pytest.approx(0.6) and by_system[other.system] == pytest.approx(0.2)


def test_a_failed_export_leaves_no_partial_file_and_keeps_the_previous_one(project, tmp_path, monkeypatch):
    out = tmp_path / "picks.csv"
    assert run("export", project, "--format", "csv", "-o", out, "-q") == 0
    before = out.read_bytes()
    from tmtprime.report import exporter

    def broken(seg):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(exporter, "_csv_row", broken)
    with pytest.raises(RuntimeError):
        run("export", project, "--format", "csv", "-o", out, "-q")
    assert out.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir() if "picks" in p.name) == ["picks.csv"]
    assert run("export", project, "--format", "csv", "-o", tmp_path / "no" / "such.csv", "-q") == 1


def test_parallel_plain_text_tm_with_target_file(tmp_path: Path, capsys) -> None:
    p = tmp_path / "P.db"
    src, tgt = tmp_path / "tm.en.txt", tmp_path / "tm.es.txt"
    src.write_text("Open a file\nQuit\n", encoding="utf-8")
    tgt.write_text("Abra un archivo\nSalir\n", encoding="utf-8")
    assert run("project", "create", p, "--source-lang", "en", "--target-lang", "es") == 0
    assert run("import", p, src, "--as", "tm", "--target-file", tgt, "-q") == 0
    assert run("import", p, src, "--as", "tm", "--target-file", tgt, "-q") == 0  # same pair: nothing new
    with Store.open(p) as store:
        assert [(u.source, u.target) for u in store.tm.iter_units()] == [("Open a file", "Abra un archivo"), ("Quit", "Salir")]
    capsys.readouterr()
    tgt.write_text("Abra un archivo\n", encoding="utf-8")  # one line short: refused, store unchanged
    assert run("import", p, src, "--as", "tm", "--target-file", tgt, "-q") == 1
    assert "has 2 lines but the target file" in capsys.readouterr().err
    with Store.open(p) as store:
        assert store.tm.count() == 2
    assert run("import", p, src, "--as", "tm", "-q") == 1
    assert "--target-file" in capsys.readouterr().err
