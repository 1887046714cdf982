"""Pivot paraphrase tables (seed 000) with the filters of seeds 000/003, alignment and phrase extraction."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from tmtprime.errors import InputError
from tmtprime.meteor.paraphrase import ParaphraseTable
from tmtprime.meteor.phrase_extract import align, extract_phrases, read_pharaoh, symmetrize
from tmtprime.meteor.pivot import (
    BilingualTable, build_from_bitext, format_table, is_accumulation, merge, pivot, read_moses, read_table, threshold,
    write_table,
)  # fmt: skip
from tmtprime.meteor.scorer import Meteor


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TMTPRIME_CACHE_DIR", str(tmp_path / "cache"))


def _table(entries: list[tuple[str, str, float, float]], common: frozenset[str] = frozenset()) -> BilingualTable:
    """(native, foreign, P(f|n), P(n|f)) rows."""
    natives = list(dict.fromkeys(n for n, *_ in entries))
    foreigns = list(dict.fromkeys(f for _, f, *_ in entries))
    return BilingualTable(
        natives, foreigns,
        np.array([natives.index(n) for n, *_ in entries]), np.array([foreigns.index(f) for _, f, *_ in entries]),
        np.array([e[2] for e in entries]), np.array([e[3] for e in entries]), 10, common, frozenset(),
    )  # fmt: skip


def test_pivot_sums_over_foreign_phrases() -> None:
    table = _table([
        ("archivo", "file", 0.8, 0.6), ("fichero", "file", 0.5, 0.4),
        ("archivo", "document", 0.2, 0.3), ("documento", "document", 0.9, 0.7),
    ])  # fmt: skip
    got = pivot(table)
    assert got[("archivo", "fichero")] == pytest.approx(0.8 * 0.4)
    assert got[("fichero", "archivo")] == pytest.approx(0.5 * 0.6)
    assert got[("archivo", "documento")] == pytest.approx(0.2 * 0.7)
    assert got[("documento", "archivo")] == pytest.approx(0.9 * 0.3)
    assert ("archivo", "archivo") not in got  # n2 != n1


def test_sum_over_two_pivots() -> None:
    table = _table([("a b", "x", 0.5, 0.5), ("c d", "x", 0.5, 0.5), ("a b", "y", 0.5, 0.2), ("c d", "y", 0.5, 0.8)])
    assert pivot(table)[("a b", "c d")] == pytest.approx(0.5 * 0.5 + 0.5 * 0.8)


def test_instance_filter_punctuation_common_words_and_accumulation() -> None:
    table = _table(
        [
            ("uno", "one", 0.9, 0.9), ("una", "one", 0.0005, 0.9),  # P(f|n1)P(n2|f) < 0.001 one way only
            ("hola", "hi", 0.5, 0.5), ("hola !", "hi", 0.5, 0.5),  # punctuation
            ("el", "the", 0.5, 0.5), ("la", "the", 0.5, 0.5),  # only common words
            ("el coche", "car", 0.5, 0.5), ("coche", "car", 0.5, 0.5), ("auto", "car", 0.5, 0.5),  # accumulation
        ],
        common=frozenset({"el", "la"}),
    )
    got = pivot(table)
    assert ("uno", "una") in got and ("una", "uno") not in got
    assert not any("hola" in a or "hola" in b for a, b in got)
    assert not any(a in {"el", "la"} for a, _ in got)
    assert ("el coche", "coche") not in got and ("coche", "el coche") not in got
    assert ("el coche", "auto") in got and ("coche", "auto") in got
    assert is_accumulation("a b c", "b c") and not is_accumulation("a bc", "b")


def test_merge_is_the_size_weighted_mean_and_threshold_drops_small_pairs() -> None:
    merged = merge([({("a", "b"): 0.4, ("a", "c"): 0.02}, 1), ({("a", "b"): 0.8}, 3)])
    assert merged[("a", "b")] == pytest.approx((1 * 0.4 + 3 * 0.8) / 4)
    assert merged[("a", "c")] == pytest.approx(0.02 / 4)  # absent from the larger corpus: counts as 0
    assert threshold(merged) == {("a", "b"): merged[("a", "b")]}


def test_written_table_is_meteors_format_and_the_scorer_uses_it(tmp_path: Path) -> None:
    table = {("archivo", "fichero"): 0.5, ("abrir el archivo", "abre el fichero"): 0.25, ("archivo", "documento"): 0.125}
    path = write_table(table, tmp_path / "para-es.gz")
    text = gzip.open(path, "rt", encoding="utf-8").read()
    assert text.startswith("0.25\nabrir el archivo\nabre el fichero\n0.125\narchivo\ndocumento\n0.5\narchivo\nfichero\n")
    assert read_table(path) == table
    compiled = ParaphraseTable.open("es", path=path)
    assert compiled.paraphrases(["archivo"]) == [(("documento",), 0.125), (("fichero",), 0.5)]
    with_para = Meteor(lang="es", modules=["exact", "paraphrase"], paraphrase_table=path)
    plain = Meteor(lang="es", modules=["exact"])
    hyp, ref = "guardar el fichero", "guardar el archivo"
    assert with_para.sentence_score(hyp, ref).score > plain.sentence_score(hyp, ref).score


def test_moses_table(tmp_path: Path) -> None:
    lines = ["file ||| archivo ||| 0.7 0.5 0.6 0.4\n", "file ||| Fichero ||| 0.3 0.2 0.4 0.1 ||| 0-0 ||| 3 4 2\n"]
    table = read_moses(lines)
    got = pivot(table)
    assert got[("archivo", "fichero")] == pytest.approx(0.7 * 0.4)  # P(f|n1) = p(f|e) of archivo, P(n2|f) = p(e|f) of fichero
    source_side = pivot(read_moses(["a ||| x ||| 0.5 0 0.5 0\n", "b ||| x ||| 0.5 0 0.5 0\n"], native="source"))
    assert source_side[("a", "b")] == pytest.approx(0.25)
    with pytest.raises(InputError, match="line 2"):
        read_moses(["a ||| b ||| 0.1 0.1 0.1 0.1\n", "a ||| b\n"], name="pt.txt")


def test_extraction_and_symmetrization() -> None:
    pairs = extract_phrases("la casa verde".split(), "the green house".split(), [(0, 0), (1, 2), (2, 1)], 3)
    assert (("casa", "verde"), ("green", "house")) in pairs
    assert (("la", "casa"), ("the", "green")) not in pairs  # inconsistent with the links
    # an unaligned source edge word extends a pair unless asked not to
    loose = extract_phrases("a b c".split(), "x y".split(), [(0, 0), (2, 1)], 3)
    tight = extract_phrases("a b c".split(), "x y".split(), [(0, 0), (2, 1)], 3, extend_unaligned=False)
    assert (("a", "b"), ("x",)) in loose and (("a", "b"), ("x",)) not in tight
    # grow-diag: a neighbouring link of the union joins when one of its words is still unaligned
    assert symmetrize([(0, 0), (1, 1)], [(0, 0), (1, 1), (2, 1)]) == [(0, 0), (1, 1), (2, 1)]
    assert symmetrize([(0, 0), (1, 1)], [(0, 0), (1, 1), (0, 1)]) == [(0, 0), (1, 1)]  # both words aligned already
    # final-and: a link of one direction far from the others joins when both its words are unaligned
    assert symmetrize([(0, 0), (3, 3)], [(0, 0)]) == [(0, 0), (3, 3)]
    assert read_pharaoh(["0-0 1-2", ""]) == [[(0, 0), (1, 2)], []]
    with pytest.raises(InputError, match="line 1"):
        read_pharaoh(["0:1"], name="al.txt")


SYNTHETIC = [
    ("open the file", "abrir el archivo"), ("save the file", "guardar el fichero"), ("close the file", "cerrar el archivo"),
    ("print the file", "imprimir el fichero"), ("open the window", "abrir la ventana"), ("close the window", "cerrar la ventana"),
    ("save the document", "guardar el documento"), ("print the document", "imprimir el documento"),
] * 3


def test_aligner_links_translations() -> None:
    src = [s.split() for s, _ in SYNTHETIC]
    tgt = [t.split() for _, t in SYNTHETIC]
    links = align(src, tgt)
    assert links[0] == [(0, 0), (1, 1), (2, 2)]


def test_build_from_bitext_finds_the_pivoted_synonyms() -> None:
    table, size = build_from_bitext(SYNTHETIC, source_lang="en", target_lang="es", common_frequency=0.2)
    assert size == len(SYNTHETIC)
    kept = threshold(table)
    best = {a: max((p, b) for (x, b), p in kept.items() if x == a)[1] for a in ("archivo", "fichero")}
    assert best["archivo"] in {"fichero", "el fichero"} and best["fichero"] in {"archivo", "el archivo"}
    assert kept[("archivo", "fichero")] > 0.1 and kept[("fichero", "archivo")] > 0.1
    assert ("archivo", "ventana") not in table
    assert format_table(table).count("\n") == 3 * len(table)


def test_cancel_and_bad_links() -> None:
    from tmtprime.errors import Cancelled
    from tmtprime.progress import Reporter

    reporter = Reporter()
    reporter.request_cancel()
    with pytest.raises(Cancelled):
        build_from_bitext(SYNTHETIC, source_lang="en", target_lang="es", reporter=reporter)
    with pytest.raises(InputError, match="past the end"):
        extract_phrases(["a"], ["x"], [(0, 3)])
