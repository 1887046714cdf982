"""``tmtprime tm repair`` / :func:`tmtprime.workflows.repair.repair_tm` on a real SQLite project."""

from __future__ import annotations

import pytest

from tmtprime.cli import main
from tmtprime.errors import Cancelled, UsageError
from tmtprime.progress import Reporter
from tmtprime.store import Store
from tmtprime.store.importer import import_file
from tmtprime.workflows.lookup import lookup_tm
from tmtprime.workflows.repair import DEFAULT_SYSTEM, ORIGIN, repair_tm

from tests.tm.test_tm_repair import TABLE, TM, TableEngine

DOC = "key\tsource\n1\tCould not archive the comment.\n2\tDelete the folder\n3\tSomething entirely different here\n"


def _po(pairs):
    head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: es\\n"\n\n'
    return head + "".join(f'msgid "{s}"\nmsgstr "{t}"\n\n' for s, t in pairs)


@pytest.fixture
def project(tmp_path):
    tm = [p for p in TM if p[0] not in ("Could not archive the comment.", "Delete the folder")]
    (tmp_path / "tm.po").write_text(_po(tm), encoding="utf-8")
    (tmp_path / "doc.tsv").write_text(DOC, encoding="utf-8")
    path = tmp_path / "p.db"
    with Store.create(path, source_lang="en", target_lang="es") as store:
        import_file(store, tmp_path / "tm.po", role="tm")
        import_file(store, tmp_path / "doc.tsv", role="document")
        lookup_tm(store, threshold=50.0, k=2)
    return path


def _repaired(path):
    with Store.open(path) as store:
        return {s.key: [c for c in s.candidates if c.system == DEFAULT_SYSTEM] for s in store.segments.list()}


def test_repaired_candidates_are_stored_with_their_match_and_spans(project):
    with Store.open(project) as store:
        report = repair_tm(store, TableEngine(TABLE))
        unit_ids = {u.source: u.id for u in store.tm.iter_units()}
    assert (report.matches, report.repaired) == (2, 2)
    got = _repaired(project)
    assert [c.text for c in got["1"]] == ["No se ha podido archivar el comentario."]
    assert [c.text for c in got["2"]] == ["Eliminar la carpeta"]
    assert got["3"] == []
    cand = got["1"][0]
    assert cand.kind == "repair" and cand.origin == ORIGIN and cand.fuzzy is not None
    assert cand.attributes["tm_unit_id"] == unit_ids[cand.tm_source]
    assert [s["source"] for s in cand.attributes["spans"]] == ["the comment"]
    assert cand.attributes["tm_target"].startswith("No se ha podido archivar")
    span = cand.attributes["spans"][0]
    assert cand.text[span["start"]:span["end"]] == "el comentario"


def test_rerunning_replaces_the_repaired_candidates(project):
    with Store.open(project) as store:
        repair_tm(store, TableEngine(TABLE))
        first = sum(len(c) for c in _repaired(project).values())
        report = repair_tm(store, TableEngine(TABLE))
    assert report.repaired == first == sum(len(c) for c in _repaired(project).values()) == 2


def test_a_cancelled_repair_leaves_the_store_unchanged(project):
    class CancelWhileTranslating(TableEngine):
        def translate(self, segments, *, quiet=True, callback=None, reporter=None):
            outer.request_cancel()
            return super().translate(segments)

    outer = Reporter()
    with Store.open(project) as store, pytest.raises(Cancelled):
        repair_tm(store, CancelWhileTranslating(TABLE), reporter=outer)
    assert all(not c for c in _repaired(project).values())


def test_an_imported_mt_system_cannot_repair(project, capsys):
    with Store.open(project) as store:
        with pytest.raises(UsageError, match="cannot translate the spans"):
            repair_tm(store, "file")
    assert main(["tm", "repair", str(project), "--engine", "file", "-q"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "imported MT" in err[0]


def test_cli_repairs_with_apertium(project, capsys):
    from tmtprime.mt.apertium import ApertiumEngine

    if not ApertiumEngine(source_lang="en", target_lang="es").available():
        pytest.skip("Apertium with an English->Spanish pair is not installed")
    assert main(["tm", "repair", str(project), "-q"]) == 0
    out = capsys.readouterr().out
    assert "tm-repair (apertium -u eng-spa)" in out and "2 TM matches" in out
    repaired = [c for cands in _repaired(project).values() for c in cands]
    assert all(c.kind == "repair" and c.attributes["spans"] for c in repaired)


def test_run_with_repair_offers_repaired_candidates_prices_and_reports_them(tmp_path):
    """The whole job (demo data, shipped model): repaired candidates are alternatives, priced, and a plan of their own."""
    import json

    from lxml import etree

    from tests.cli.test_run_demo import DEMO, XLIFF, _cli, _job_args
    from tmtprime.mt.apertium import ApertiumEngine

    if not ApertiumEngine(source_lang="en", target_lang="es").available():
        pytest.skip("Apertium with an English->Spanish pair is not installed")
    out = tmp_path / "out"
    done = _cli(*_job_args(out, DEMO / "jobs" / "ui-strings.xlf"), "--repair", "-q")
    assert done.returncode == 0, done.stderr
    alts = etree.parse(str(out / "ui-strings.xlf")).getroot().findall(".//x:alt-trans", XLIFF)
    repaired = [a for a in alts if a.get("origin") == ORIGIN]
    assert repaired and all(a.get("{urn:tmtprime:xliff:1}kind") == "repair" for a in repaired)
    plans = {p["plan"]: p for p in json.loads((out / "report.json").read_text(encoding="utf-8"))["plans"]}
    assert plans[DEFAULT_SYSTEM]["cost"] > 0
    bad = _cli(*_job_args(tmp_path / "o2", DEMO / "jobs" / "ui-strings.xlf"), "--repair", "file", "-q")
    assert bad.returncode != 0 and len(bad.stderr.strip().splitlines()) == 1 and "imported MT" in bad.stderr
