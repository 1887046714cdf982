"""What a new user meets in the first hour with the CLI (issue 22), each through ``tmtprime``."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

from tests.recommend.synthetic import build
from tests.test_product_workflow import _mapping
from tmtprime.cli import main
from tmtprime.errors import InputError, TmtprimeError
from tmtprime.store import Store

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "formats"
EMPTY_TMX = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="CafeTran Espresso" '
    'creationtoolversion="10" datatype="plaintext" segtype="sentence" adminlang="en" srclang="en-US" o-tmf="CT"/>'
    "<body/></tmx>\n"
)


def run(capsys, *args: object) -> tuple[int, str, str]:
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("tmtprime: error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture
def project(tmp_path: Path, capsys) -> Path:
    db = tmp_path / "P.db"
    assert run(capsys, "project", "create", db, "--source-lang", "en", "--target-lang", "es")[0] == 0
    return db


# ---------------------------------------------------------------- bad input: one line, exit 1


CLEAN_ERRORS = [
    pytest.param("bad.po", b'msgid ""\nmsgstr "Language: es\\n"\n\nmsgid "a\\xg"\nmsgstr "b"\n',
                 "line 4: bad escape", id="po-x-escape"),
    pytest.param("deep.jsonl", b'{"source": "a", "target": "b"}\n' + b"[" * 10_000 + b"\n",
                 "line 2: JSON nested too deeply", id="jsonl-deep-nesting"),
    pytest.param("damaged.tsv.gz", gzip.compress(b"source\ttarget\n" + b"a\tb\n" * 50_000)[:-40] + b"\0" * 8,
                 "damaged or truncated gzip", id="damaged-gzip"),
    pytest.param("huge.csv", b'source,target\n"' + b"a" * 140_000 + b",b\n",
                 "line 2: a field longer than 131,072", id="csv-runaway-field"),
    pytest.param("long-encoding.tmx", b'<?xml version="1.0" encoding="' + b"a" * 70_000 + b'"?>\n<tmx version="1.4"/>\n',
                 "line 1: unknown encoding 'aaaa", id="xml-encoding-name-of-70-kb"),
    pytest.param("brace-namespace.mxliff", (FIXTURES / "phrase.mxliff").read_bytes().replace(
        b"memsource.com/", b"memsource.com/{1}", 1), "a namespace URI of the root element contains", id="xmlns-with-brace"),
    pytest.param("quoted-huge.tsv", b'source\ttarget\n"x""y"\tz\n' + b"a" * 140_000 + b"\tb\n",
                 "line 3: a field longer than 131,072", id="excel-quoted-tsv-huge-field"),
]


@pytest.mark.parametrize(("name", "content", "expected"), CLEAN_ERRORS)
def test_what_the_fuzzer_found_is_one_clean_line(capsys, project: Path, tmp_path: Path, name: str, content: bytes,
                                                 expected: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    status, _, err = run(capsys, "import", project, path, "--as", "tm", "-q")
    assert status == 1
    assert expected in one_error_line(err)


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b'source\ttarget\n"x"\tz\n' + b"a" * 140_000 + b"\tb\n", id="field-over-csv-limit"),
        pytest.param(b'source\ttarget\n"x"\tz\nab\rc\td\n', id="line-break-in-unquoted-field"),
    ],
)
def test_tsv_sniffing_takes_long_fields_and_stray_line_breaks(capsys, project: Path, tmp_path: Path,
                                                             content: bytes) -> None:
    """The TSV quoting sniffer used to raise csv's own errors on these; they are plain, unquoted TSV."""
    path = tmp_path / "t.tsv"
    path.write_bytes(content)
    status, out, err = run(capsys, "import", project, path, "--as", "tm", "-q")
    assert status == 0, err
    assert "as tm: 2 TM units" in out


def test_no_traceback_in_a_real_process(project: Path, tmp_path: Path) -> None:
    path = tmp_path / "bad.po"
    path.write_bytes(b'msgid "a\\xg"\nmsgstr "b"\n')
    done = subprocess.run([sys.executable, "-m", "tmtprime", "import", str(project), str(path), "-q"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("tmtprime: error:"), done.stderr


def test_an_error_message_is_one_line_whatever_it_quotes() -> None:
    error = InputError("malformed XML: Input is not proper UTF-8\nBytes: 0xFF 0x3C\r\n", file="a.tmx",
                       location="line 3")
    assert str(error) == "a.tmx:line 3: malformed XML: Input is not proper UTF-8 Bytes: 0xFF 0x3C"
    assert error.reason == "malformed XML: Input is not proper UTF-8 Bytes: 0xFF 0x3C"
    assert str(TmtprimeError("two\u2028lines")) == "two lines"
    quoting_a_megabyte = InputError("unit has no 'en' variant (it has: " + "\t" * 1_100_000 + "x)", file="a.tmx")
    assert len(str(quoting_a_megabyte)) < 2100 and str(quoting_a_megabyte).endswith("more characters)")


# ---------------------------------------------------------------- import: role, undo, empty TMX, languages


def test_a_tmx_without_as_is_a_tm_and_every_import_says_how_to_undo_it(capsys, project: Path, tmp_path: Path) -> None:
    tmx = FIXTURES / "multilingual.tmx"
    status, out, err = run(capsys, "import", project, tmx, "-q")
    assert status == 0, err
    assert "as tm" in out and "a TMX file is a translation memory" in out
    assert f"undo: tmtprime document remove {project} multilingual.tmx" in out
    with Store.open(project) as store:
        assert [(d.name, d.role) for d in store.documents.list()] == [("multilingual.tmx", "tm")]
        assert store.tm.count() > 0
    doc = tmp_path / "job.txt"
    doc.write_text("Open the file.\nSave as...\n", encoding="utf-8")
    status, out, _ = run(capsys, "import", project, doc, "-q")
    assert status == 0 and "as document" in out and "undo: tmtprime document remove" in out
    status, out, _ = run(capsys, "document", "remove", project, "multilingual.tmx")
    assert status == 0 and "removed tm 'multilingual.tmx'" in out
    with Store.open(project) as store:
        assert [d.name for d in store.documents.list()] == ["job.txt"]
        assert store.tm.count() == 0
    status, _, err = run(capsys, "document", "remove", project, "nope")
    assert status == 1 and "no document named 'nope'" in one_error_line(err)


def test_an_empty_tmx_imports_as_zero_units_with_a_warning(capsys, project: Path, tmp_path: Path) -> None:
    path = tmp_path / "project-tm.tmx"
    path.write_text(EMPTY_TMX, encoding="utf-8")
    status, out, err = run(capsys, "import", project, path, "-q")
    assert status == 0
    assert "as tm: 0 TM units" in out
    assert "tmtprime: warning:" in err and "no translation units" in err
    # a file that is empty for another reason is still refused
    table = tmp_path / "tm.tsv"
    table.write_text("source\ttarget\n", encoding="utf-8")
    assert run(capsys, "import", project, table, "--as", "tm", "-q")[0] == 1


def test_a_language_mismatch_names_the_projects_language(capsys, project: Path) -> None:
    status, _, err = run(capsys, "import", project, FIXTURES / "memoq.mqxliff", "-q")
    assert status == 1
    assert "'es' is the project's target language" in one_error_line(err)
    assert "asked for" not in err


def test_column_hints_speak_the_cli_options(capsys, project: Path, tmp_path: Path) -> None:
    table = tmp_path / "t.tsv"
    table.write_text("col_a\tcol_b\nOpen\tAbrir\n", encoding="utf-8")
    _, _, err = run(capsys, "import", project, table, "--as", "tm", "-q")
    assert "--source-col" in one_error_line(err) and "source=COLUMN" not in err
    _, _, err = run(capsys, "import", project, table, "--as", "tm", "--source-col", "col_a", "-q")
    assert "--target-col" in one_error_line(err) and "target=COLUMN" not in err
    _, _, err = run(capsys, "import", project, table, "--as", "tm", "--source-col", "inglés", "--target-col", "col_b", "-q")
    assert "--source-col" in one_error_line(err)
    text = tmp_path / "tm.en.txt"
    text.write_text("Open\n", encoding="utf-8")
    _, _, err = run(capsys, "import", project, text, "--as", "tm", "--format", "text", "-q")
    assert "--target-file" in one_error_line(err)
    _, _, err = run(capsys, "import", project, table, "--as", "tm", "--target-file", text, "--source-col", "col_a",
                    "--target-col", "col_b", "-q")
    assert "--target-file" in one_error_line(err) and "target_file= is" not in err


# ---------------------------------------------------------------- exit statuses


def test_exit_statuses_are_0_ok_1_runtime_2_usage(capsys, project: Path, tmp_path: Path) -> None:
    assert run(capsys, "project", "info", project)[0] == 0
    assert run(capsys, "tm", "lookup", project, "-q")[0] == 1  # no TM: the project, not the command line
    with pytest.raises(SystemExit) as usage:
        main(["import", str(project)])  # argparse: FILE missing
    assert usage.value.code == 2
    assert run(capsys, "tm", "lookup", project, "--threshold", "101")[0] == 2
    assert run(capsys, "project", "info", tmp_path / "missing.db")[0] == 1


def test_meteor_with_files_of_different_lengths_exits_1(capsys, tmp_path: Path) -> None:
    (tmp_path / "hyp").write_text("a b\nc d\n", encoding="utf-8")
    (tmp_path / "ref").write_text("a b\n", encoding="utf-8")
    status, _, err = run(capsys, "meteor", tmp_path / "hyp", tmp_path / "ref", "-m", "exact")
    assert status == 1 and "not same length" in err


# ---------------------------------------------------------------- recommend, train and evaluate


def test_recommend_without_candidates_says_what_is_missing(capsys, project: Path, tmp_path: Path) -> None:
    doc = tmp_path / "job.txt"
    doc.write_text("Open the file.\nSave as...\n", encoding="utf-8")
    assert run(capsys, "import", project, doc, "-q")[0] == 0
    status, _, err = run(capsys, "recommend", project, "-q")
    line = one_error_line(err)
    assert status == 1
    assert "'job.txt' have no candidates" in line and "tm lookup" in line and "translate" in line
    assert "import a document" not in line


def test_recommend_without_a_document_says_so(capsys, project: Path) -> None:
    status, _, err = run(capsys, "recommend", project, "-q")
    assert status == 1 and "no document to recommend for" in one_error_line(err)


def test_train_and_evaluate_label_their_different_gap_figures(capsys, tmp_path: Path) -> None:
    paths, _ = build(tmp_path, n_dev=60, n_new=10)
    db = tmp_path / "T.db"
    assert run(capsys, "project", "create", db, "--source-lang", "en", "--target-lang", "es")[0] == 0
    assert run(capsys, "import", db, paths["tm"], "--as", "tm", "--source-col", "source", "--target-col", "target",
               "-q")[0] == 0
    assert run(capsys, "import", db, paths["dev"], "--as", "dev", "--reference-col", "reference", *_mapping(),
               "-q")[0] == 0
    status, out, err = run(capsys, "train", db, "-q")
    assert status == 0, err
    assert "in-training estimate" in out and "chosen on all the dev data" in out and "tmtprime evaluate" in out
    status, out, err = run(capsys, "evaluate", db, "--folds", "2", "--no-meteor", "-q")
    assert status == 0, err
    assert out.startswith("held-out evaluation: the whole training procedure cross-validated in 2 folds")
    assert "differs from the in-training estimate" in out and "gap closed" in out
