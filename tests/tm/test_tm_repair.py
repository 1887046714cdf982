"""Repair of fuzzy TM matches (tmtprime.tm.repair) with a small engine that translates from a table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from tmtprime.mt.engine import MTEngine
from tmtprime.tm.repair import REPAIRED, Repairer, apply_repair, plan_repair
from tmtprime.tm.repair_align import Tokens, word_edits

NOUNS = [("image", "imagen", "la"), ("file", "archivo", "el"), ("comment", "comentario", "el"), ("folder", "carpeta", "la"),
         ("window", "ventana", "la"), ("document", "documento", "el"), ("message", "mensaje", "el"), ("table", "tabla", "la")]
TEMPLATES = [("Could not open the {n}.", "No se ha podido abrir {a} {t}."),
             ("Could not archive the {n}.", "No se ha podido archivar {a} {t}."),
             ("Delete the {n}", "Eliminar {a} {t}"), ("Save %s to the {n}", "Guardar %s en {a} {t}"),
             ("Save 3 copies of the {n}", "Guardar 3 copias de {a} {t}")]
TM = [(s.format(n=n), t.format(a=a, t=tt)) for s, t in TEMPLATES for n, tt, a in NOUNS]
"""A TM in which every noun is seen with its article in five contexts: enough for IBM Model 1 to align them."""


class TableEngine(MTEngine):
    """Translates from a fixed table (unknown text comes back unchanged) and records its calls."""

    name = "table"

    def __init__(self, table: Mapping[str, str]) -> None:
        self.table = dict(table)
        self.calls: list[list[str]] = []

    def check(self) -> None:
        pass

    def translate(self, segments: Sequence[str], *, quiet=True, callback=None, reporter=None) -> list[str]:
        self.calls.append(list(segments))
        return [self.table.get(s, s) for s in segments]


TABLE = {f"the {n}": f"{a} {t}" for n, t, a in NOUNS} | {n: t for n, t, _ in NOUNS}


@pytest.fixture(scope="module")
def repairer() -> Repairer:
    return Repairer.from_tm(TM, TableEngine(TABLE))


def test_the_issue_example_is_repaired_with_the_article_taken_along(repairer):
    [rep] = repairer.repair([("Could not archive the comment.", "Could not archive the image.", "No se ha podido archivar la imagen.")])
    assert rep.reason == REPAIRED
    assert rep.text == "No se ha podido archivar el comentario."
    [span] = rep.spans
    assert (span.source, span.tm_source, span.tm_target, span.target) == ("the comment", "the image", "la imagen", "el comentario")
    assert rep.text[span.start:span.end] == "el comentario"
    assert rep.context_spans == 1 and rep.changed_share == pytest.approx(2 / 8)


def test_shared_placeholders_and_numbers_survive(repairer):
    reps = repairer.repair([("Save %s to the folder", "Save %s to the file", "Guardar %s en el archivo"),
                            ("Save 3 copies of the window", "Save 3 copies of the image", "Guardar 3 copias de la imagen")])
    assert [r.text for r in reps] == ["Guardar %s en la carpeta", "Guardar 3 copias de la ventana"]


def test_distinct_spans_are_translated_once_per_chunk():
    engine = TableEngine(TABLE)
    rep = Repairer.from_tm(TM, engine)
    items = [("Delete the folder", "Delete the file", "Eliminar el archivo")] * 3 + [("Delete the window", "Delete the file", "Eliminar el archivo")]
    assert [r.text for r in rep.repair(items)] == ["Eliminar la carpeta"] * 3 + ["Eliminar la ventana"]
    assert engine.calls == [["the folder", "the window"]]


def test_an_engine_that_breaks_a_code_leaves_the_match_unchanged():
    rep = Repairer.from_tm(TM, TableEngine({"the folder %d": "la carpeta % d"}))
    [out] = rep.repair([("Delete the folder %d", "Delete the file", "Eliminar el archivo")])
    assert out.text is None and out.reason in ("the engine lost an inline code", "a span grew too much")


def test_an_unconfirmed_translation_is_not_used():
    """The TM's lexical model does not know 'ventana' as a translation of 'folder': the match stays."""
    rep = Repairer.from_tm(TM, TableEngine({"the folder": "la ventana"}))
    [out] = rep.repair([("Delete the folder", "Delete the file", "Eliminar el archivo")])
    assert out.text is None and out.reason == "the TM's lexical model does not confirm a span's MT"


def test_identical_and_punctuation_only_differences():
    assert word_edits(Tokens.of("Delete the file"), Tokens.of("delete the FILE")) == []
    for source in ("Delete the file!", "Delete, the file"):  # the TM target's punctuation conventions stand
        plan = plan_repair(source, "Delete the file", "Eliminar el archivo", set())
        assert apply_repair(plan, {}).reason == "punctuation only"


def test_unaligned_and_crossing_spans_are_refused():
    # no links at all: the span cannot be placed in the target
    plan = plan_repair("Delete the folder", "Delete the file", "Eliminar el archivo", set())
    assert apply_repair(plan, {"folder": "carpeta"}).reason == "unaligned"
    # "file" linked to "Eliminar" and "archivo", and "Delete" to "el" in between: crossing
    links = {(2, 0), (2, 2), (0, 1)}
    plan = plan_repair("Delete the folder", "Delete the file", "Eliminar el archivo", links)
    assert apply_repair(plan, {"folder": "carpeta"}).reason == "crossing"


def test_a_changed_shared_number_is_refused():
    """The new source shares 3 with the TM source; a repair whose output lost it is not kept."""
    links = {(0, 0), (1, 1), (2, 2)}
    plan = plan_repair("Save 3 folders", "Save 3 files", "Guardar 3 archivos", links)
    assert apply_repair(plan, {"folders": "carpetas"}).text == "Guardar 3 carpetas"
    links = {(0, 0), (2, 1), (2, 2)}  # "files" aligned over the number
    plan = plan_repair("Save 3 folders", "Save 3 files", "Guardar 3 archivos", links)
    assert apply_repair(plan, {"folders": "carpetas"}).text is None


def test_the_article_goes_along_even_where_a_small_tms_alignment_links_it_elsewhere():
    """The bundled demo TM (358 units) links "the" to "ha" in this match; its lexical model still takes "la"
    for "the" both ways, so the article is replaced with the noun ("la comentario" would not agree)."""
    from tmtprime.formats.base import ReadOptions
    from tmtprime.formats.tmx import read_tm
    from tmtprime.paths import resources_dir

    _info, units = read_tm(ReadOptions(str(resources_dir() / "demo" / "tm.tmx"), "tmx", source_lang="en", target_lang="es"))
    rep = Repairer.from_tm([(u.source, u.target) for u in units], TableEngine({"the comment": "el comentario", "comment": "comentario"}))
    [out] = rep.repair([("Could not archive the comment.", "Could not archive the image.", "No se ha podido archivar la imagen.")])
    assert out.text == "No se ha podido archivar el comentario." and out.context_spans == 1
