"""The engine registry and the file engine."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tmtprime.errors import InputError, UsageError
from tmtprime.mt.engine import MTEngine, create_engine, engine_names, register_engine
from tmtprime.mt.imported import ImportedEngine


class Reverser(MTEngine):
    """A toy engine: proves a new engine plugs in through the registry alone."""

    def __init__(self, *, source_lang=None, target_lang=None, suffix=""):
        self.name, self.source_lang, self.target_lang, self.suffix = "reverser", source_lang, target_lang, suffix

    def check(self) -> None:
        return None

    def translate(self, segments: Sequence[str], *, reporter=None) -> list[str]:
        return [s[::-1] + self.suffix for s in segments]


def test_registered_factory_is_created_by_name_with_options():
    register_engine("reverser", Reverser)
    assert {"apertium", "file", "reverser"} <= set(engine_names())
    engine = create_engine("reverser", source_lang="en", target_lang="es", suffix="!")
    assert engine.translate(["abc"]) == ["cba!"] and engine.available() and engine.describe() == "reverser"


def test_unknown_engine_lists_the_known_ones():
    with pytest.raises(UsageError, match="unknown MT engine 'nope'; known engines: .*apertium.*file"):
        create_engine("nope")


def test_file_engine_from_a_mapping():
    engine = create_engine("file", outputs={"Hello": "Hola", "Bye": "Adiós"}, name="vendor")
    assert engine.name == "vendor" and engine.translate(["Bye", "Hello", "Bye"]) == ["Adiós", "Hola", "Adiós"]
    with pytest.raises(InputError, match="no translation for segment 2 \\('Unknown'\\)"):
        engine.translate(["Hello", "Unknown"])
    assert ImportedEngine(outputs={"a": "b"}, missing="skip").translate(["x"]) == [""]


def test_file_engine_reads_an_mt_column_of_a_table(tmp_path):
    table = tmp_path / "vendor.tsv"
    table.write_text("source\tmt_deepish\tmt_other\nOpen file\tAbrir archivo\tAbre fichero\nSave\tGuardar\tSalva\n", encoding="utf-8")
    engine = ImportedEngine(table, output="deepish")
    assert engine.name == "deepish"
    assert engine.translate(["Save", "Open file"]) == ["Guardar", "Abrir archivo"]
    with pytest.raises(InputError, match="several MT systems"):
        ImportedEngine(table).check()
    with pytest.raises(InputError, match="no MT output named 'x'.*deepish, other"):
        ImportedEngine(table, output="x").check()


def test_file_engine_uses_the_target_of_a_plain_bilingual_file(tmp_path):
    table = tmp_path / "done.tsv"
    table.write_text("source\ttarget\nOpen file\tAbrir archivo\n", encoding="utf-8")
    assert ImportedEngine(table).translate(["Open file"]) == ["Abrir archivo"]


def test_file_engine_argument_errors():
    with pytest.raises(UsageError, match="either a file"):
        ImportedEngine()
    with pytest.raises(UsageError, match="missing="):
        ImportedEngine(outputs={}, missing="maybe")
