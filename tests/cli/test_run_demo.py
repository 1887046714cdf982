"""``tmtprime run`` and ``tmtprime demo`` from the command line: deliverables, failures, progress and -q."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from tests.conftest import ROOT
from tmtprime.paths import resource_path

DEMO = resource_path("demo")
XLIFF = {"x": "urn:oasis:names:tc:xliff:document:1.2"}


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it: stderr is a pipe, not a terminal."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout, from any working directory
    return subprocess.run(
        [sys.executable, "-m", "tmtprime", *args], capture_output=True, text=True, cwd=cwd or ROOT, env=env, timeout=600
    )


def _job_args(out: Path, *docs: Path) -> list[str]:
    mt = [f"--mt={p.stem}={p}" for p in sorted((DEMO / "mt").glob("*.tsv"))]
    return ["run", "--tm", str(DEMO / "tm.tmx"), *mt, *map(str, docs), "-o", str(out)]


def test_run_with_one_unreadable_document_writes_the_others_and_fails(tmp_path):
    bad = tmp_path / "broken.xlf"
    bad.write_text('<?xml version="1.0"?>\n<xliff version="1.2"><file source-language="en"><body><trans-unit id="1">', encoding="utf-8")
    good = [DEMO / "jobs" / "ui-strings.xlf", DEMO / "jobs" / "messages.po"]
    out = tmp_path / "out"
    done = _cli(*_job_args(out, good[0], bad, good[1]), "-q")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    # -q: nothing on stderr but the one line naming the bad file
    (line,) = done.stderr.splitlines()
    assert line.startswith("tmtprime: error: ") and "broken.xlf" in line
    assert "2 of 3 documents done" in done.stdout and "FAILED" in done.stdout
    for stem, n in (("ui-strings", 85), ("messages", 73)):
        units = etree.parse(str(out / f"{stem}.xlf")).getroot().findall(".//x:trans-unit", XLIFF)
        assert len(units) == n
        assert all(u.find("x:target", XLIFF) is not None and u.findall("x:alt-trans", XLIFF) for u in units)
        with (out / f"{stem}.csv").open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == n and all(r["system"] and r["text"] for r in rows)
    assert not (out / "broken.xlf").exists() and not (out / "broken.csv").exists()
    # each document also comes back in its own format, the picks filled in (as export --format original)
    from tmtprime.formats import read_document

    for stem, suffix, fmt, n in (("ui-strings", ".xlf", "xliff12", 85), ("messages", ".po", "po", 73)):
        own = out / f"{stem}.pretranslated{suffix}"
        assert own.read_bytes() != (DEMO / "jobs" / f"{stem}{suffix}").read_bytes()
        info, segments = read_document(own)
        assert info.format == fmt and len(list(segments)) == n
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    plans = {p["plan"]: p for p in report["plans"]}
    assert {"tm-lookup", "apertium_eng-spa", "apertium_eng-cat-spa", "tmtprime"} <= set(plans)
    assert plans["tmtprime"]["cost"] <= min(plans[s]["cost"] for s in ("tm-lookup", "apertium_eng-spa", "apertium_eng-cat-spa"))
    assert (out / "report.html").stat().st_size > 0 and (out / "report.txt").read_text(encoding="utf-8").strip()
    assert f"report: {out / 'report.html'}" in done.stdout


def test_run_refuses_what_stops_the_whole_job(tmp_path):
    for args, words in (
        (["run", str(DEMO / "jobs" / "ui-strings.xlf"), "-o", str(tmp_path / "o")], "--tm"),
        (["run", "--tm", str(DEMO / "tm.tmx"), "--mt", "nofile", str(DEMO / "jobs" / "ui-strings.xlf"), "-o", str(tmp_path / "o")], "NAME=FILE"),
        (["run", "--tm", str(DEMO / "tm.tmx"), "--format", "xliff,docx", str(DEMO / "jobs" / "ui-strings.xlf"), "-o", str(tmp_path / "o")], "docx"),
    ):
        done = _cli(*args)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        (error,) = [line for line in done.stderr.splitlines() if "error:" in line]  # after argparse's usage
        assert words in error


def test_a_bad_scheme_or_mt_file_stops_the_job_before_any_work(tmp_path):
    scheme = tmp_path / "rates.toml"
    scheme.write_text("currency = 'EUR'\nword_rate = -0.1\n", encoding="utf-8")
    doc = str(DEMO / "jobs" / "ui-strings.xlf")
    for extra, words in (
        (["--scheme", str(scheme)], "rates.toml"),
        (["--mt", f"vendor={tmp_path / 'missing.tsv'}"], "missing.tsv"),
    ):
        out = tmp_path / "out"
        done = _cli("run", "--tm", str(DEMO / "tm.tmx"), *extra, doc, "-o", str(out), "-q")
        assert done.returncode == 1 and "Traceback" not in done.stderr
        (line,) = done.stderr.splitlines()
        assert line.startswith("tmtprime: error: ") and words in line, line
        assert not out.exists()


def test_demo_keeps_its_project_prints_the_report_and_reports_progress_in_plain_lines(tmp_path):
    done = _cli("demo", "--out", "demo-out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "demo-out"
    assert (out / "demo.db").is_file()
    assert f"report: {Path('demo-out') / 'report.html'}" in done.stdout
    assert "3 of 3 documents done (188 segments)" in done.stdout
    # stderr is not a terminal: a few plain lines per phase, no carriage returns
    assert "\r" not in done.stderr and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    phases = ("importing tm.tmx ...", "importing documents ...", "TM lookup ...", "MT apertium_eng-spa ...",
              "training the TM models ...", "features ...", "recommending ...", "writing the documents ...", "writing the report ...")
    for phase in phases:
        assert phase in lines, (phase, lines)
    assert len(lines) < 80
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    actual = [p["actual_cost"] for p in report["plans"]]
    assert all(a is not None and a > 0 for a in actual)  # the demo has references for part of it
    # again: the demo starts afresh (the old demo.db is replaced, not added to)
    again = _cli("demo", "--out", "demo-out", "-q", cwd=tmp_path)
    assert again.returncode == 0 and again.stderr == ""
    assert "3 of 3 documents done (188 segments)" in again.stdout


@pytest.mark.parametrize("quiet", [False, True])
def test_long_commands_report_progress_unless_quiet(tmp_path, quiet):
    """tm lookup, translate and recommend move progress on stderr, and -q silences it."""
    db = tmp_path / "P.db"
    q = ["-q"] if quiet else []
    assert _cli("project", "create", str(db), "-s", "en", "-t", "es").returncode == 0
    assert _cli("import", str(db), str(DEMO / "tm.tmx"), "--as", "tm", *q).returncode == 0
    assert _cli("import", str(db), str(DEMO / "jobs" / "messages.po"), *q).returncode == 0
    steps = {
        "tm lookup": ["tm", "lookup", str(db), *q],
        "translate": ["translate", str(db), "--engine", "file", "--file", str(DEMO / "mt" / "apertium_eng-spa.tsv"), "--system", "mt1", *q],
        "recommend": ["recommend", str(db), *q],
    }
    for name, args in steps.items():
        done = _cli(*args)
        assert done.returncode == 0, (name, done.stderr)
        if quiet:
            assert done.stderr == "", name
        else:
            assert "\r" not in done.stderr and done.stderr.count(" ...\n") >= 1, (name, done.stderr)


def test_train_and_evaluate_report_their_phases_unless_quiet(tmp_path):
    """The long ones (grid search, out-of-fold fits, calibration, cross-validation folds) are never silent."""
    from tests.recommend.synthetic import build
    from tests.test_product_workflow import _mapping

    paths, _ = build(tmp_path, n_dev=60, n_new=10)
    db = tmp_path / "P.db"
    assert _cli("project", "create", str(db), "-s", "en", "-t", "es").returncode == 0
    assert _cli("import", str(db), str(paths["tm"]), "--as", "tm", "--source-col", "source", "--target-col", "target", "-q").returncode == 0
    assert _cli("import", str(db), str(paths["dev"]), "--as", "dev", "--reference-col", "reference", *_mapping(), "-q").returncode == 0
    train = _cli("train", str(db))
    assert train.returncode == 0, train.stderr
    lines = train.stderr.splitlines()
    for phase in ("training the TM models ...", "features ...", "TER regressor: grid search: ", "TER regressor: out-of-fold predictions: ",
                  "classifier: grid search: ", "classifier: out-of-fold decision values: ", "calibration (Platt scaling) ..."):
        assert any(line.startswith(phase) for line in lines), (phase, lines)
    assert "\r" not in train.stderr
    evaluate = _cli("evaluate", str(db), "--folds", "2", "--no-meteor")
    assert evaluate.returncode == 0, evaluate.stderr
    assert "cross-validation by document ..." in evaluate.stderr.splitlines()
    assert "cross-validation by document: 2/2 done" in evaluate.stderr.splitlines()
    quiet = _cli("train", str(db), "-q")
    assert quiet.returncode == 0 and quiet.stderr == ""
