"""``tmtprime translate`` on a real SQLite project."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import require
from tmtprime.cli import main
from tmtprime.mt.apertium import installed_modes
from tmtprime.store import Store
from tmtprime.store.importer import import_file

DOC = "key\tsource\n1\tThe dog is happy.\n2\tI have two houses.\n3\tThe dog is happy.\n4\t\n"


@pytest.fixture
def project(tmp_path):
    (tmp_path / "doc.tsv").write_text(DOC, encoding="utf-8")
    path = tmp_path / "p.db"
    with Store.create(path, source_lang="en", target_lang="es") as store:
        import_file(store, tmp_path / "doc.tsv", role="document")
    return path


def mt(path, system):
    with Store.open(path) as store:
        return {s.key: [c.text for c in s.candidates if c.system == system and c.kind == "mt"] for s in store.segments.list()}


def test_apertium_fills_every_segment_once(project, capsys):
    require(shutil.which("apertium") is not None and "eng-spa" in installed_modes(), "apertium + apertium-eng-spa")
    assert main(["translate", str(project), "--engine", "apertium", "-q"]) == 0
    assert "apertium_eng-spa (apertium -u eng-spa): 3 segments translated" in capsys.readouterr().out
    got = mt(project, "apertium_eng-spa")
    assert "perro" in got["1"][0] and got["1"] == got["3"] and "casas" in got["2"][0]
    assert got["4"] == []  # an empty source gives no candidate
    assert main(["translate", str(project), "-q"]) == 0
    assert "0 segments translated, 3 already had a candidate" in capsys.readouterr().out
    assert mt(project, "apertium_eng-spa") == got
    with Store.open(project) as store:
        system = next(s for s in store.systems.list() if s.name == "apertium_eng-spa")
    assert (system.kind, system.engine) == ("mt", "apertium -u eng-spa")


def test_pivot_chain_under_its_own_system_name(project, capsys):
    require(shutil.which("apertium") is not None and {"eng-cat", "cat-spa"} <= installed_modes().keys(), "Apertium eng-cat + cat-spa")
    assert main(["translate", str(project), "--pair", "eng-cat-spa", "-q"]) == 0
    assert "perro" in mt(project, "apertium_eng-cat-spa")["1"][0]


def test_file_engine(project, tmp_path, capsys):
    (tmp_path / "vendor.tsv").write_text("source\tmt_vendor\nThe dog is happy.\tEl perro está feliz.\n", encoding="utf-8")
    assert main(["translate", str(project), "--engine", "file", "--file", str(tmp_path / "vendor.tsv"), "-q"]) == 0
    assert "vendor (file" in capsys.readouterr().out
    assert mt(project, "vendor") == {"1": ["El perro está feliz."], "2": [], "3": ["El perro está feliz."], "4": []}


def test_errors_are_one_line(project, capsys):
    assert main(["translate", str(project), "--engine", "nope"]) == 2
    assert "unknown MT engine 'nope'" in capsys.readouterr().err
    assert main(["translate", str(project), "--engine", "file"]) == 2
    assert main(["translate", str(project), "--document", "nope"]) == 1
    if shutil.which("apertium"):
        assert main(["translate", str(project), "--pair", "eng-cat"]) == 2
        assert "translates eng->cat" in capsys.readouterr().err
