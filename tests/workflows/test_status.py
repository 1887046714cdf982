"""A document that arrives after ``recommend`` is named, and no report total silently leaves it out."""

from __future__ import annotations

from pathlib import Path

import pytest

from tmtprime.cli import main
from tmtprime.paths import resource_path

DEMO = resource_path("demo")


def _cli(*args: object) -> int:
    return main([str(a) for a in args])


@pytest.fixture(scope="module")
def late_document(tmp_path_factory) -> Path:
    """The demo job with messages.po and release-notes.xlf recommended, then ui-strings.xlf imported."""
    db = tmp_path_factory.mktemp("late") / "P.db"
    assert _cli("project", "create", db, "-s", "en", "-t", "es") == 0
    assert _cli("import", db, DEMO / "tm.tmx", "-q") == 0
    assert _cli("import", db, DEMO / "jobs" / "messages.po", DEMO / "jobs" / "release-notes.xlf", "-q") == 0
    assert _cli("tm", "lookup", db, "-q") == 0
    for tsv in sorted((DEMO / "mt").glob("*.tsv")):
        assert _cli("translate", db, "--engine", "file", "--file", tsv, "--system", tsv.stem, "-q") == 0
    assert _cli("recommend", db, "-q") == 0
    assert _cli("import", db, DEMO / "jobs" / "ui-strings.xlf", "-q") == 0
    return db


def test_project_info_names_the_document_and_what_to_run(late_document, capsys):
    capsys.readouterr()
    assert _cli("project", "info", late_document) == 0
    out = capsys.readouterr().out
    assert "ui-strings.xlf  [imported]  0/0 segments picked" in out
    assert "messages.po  [recommended]  73/73 segments picked" in out
    assert f"1 document not looked up yet: ui-strings.xlf; run 'tmtprime tm lookup {late_document}'" in out
    assert "1 document without any candidate: ui-strings.xlf" in out


def test_report_refuses_a_total_that_leaves_the_document_out(late_document, capsys):
    # once it has candidates it can be recommended, and the report will not quote a total without it
    assert _cli("tm", "lookup", late_document, "--document", "ui-strings.xlf", "-q") == 0
    capsys.readouterr()
    assert _cli("report", late_document, "-q") != 0
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "1 document not recommended yet (77 segments): ui-strings.xlf" in err  # those with a TM match
    assert f"run 'tmtprime recommend {late_document}'" in err and "--partial" in err and "103 segments" in err
    assert _cli("report", late_document, "--partial", "-f", "json") == 0
    captured = capsys.readouterr()
    assert '"segments": 103' in captured.out and "77 segments without a recommendation" in captured.out
    assert "note: 1 document not recommended yet (77 segments): ui-strings.xlf" in captured.err
    assert _cli("report", late_document, "--document", "messages.po", "-q") == 0  # that one is complete


def test_a_tm_imported_after_the_lookup_shows_the_documents_as_behind(late_document, tmp_path, capsys):
    # runs last: it changes the module's project
    extra = tmp_path / "extra.tsv"
    extra.write_text("source\ttarget\nShare every profile\tCompartir cada perfil\n", encoding="utf-8")
    assert _cli("import", late_document, extra, "--as", "tm", "--source-col", "source", "--target-col", "target", "-q") == 0
    capsys.readouterr()
    assert _cli("project", "info", late_document) == 0
    out = capsys.readouterr().out
    assert "(TM changed since)" in out
    assert "3 documents looked up before the TM changed: messages.po, release-notes.xlf, ui-strings.xlf" in out
