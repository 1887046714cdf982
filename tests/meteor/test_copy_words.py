"""Meteor++ copy knowledge: extraction, the NE fallback, the corrected P~ and R~."""

from __future__ import annotations

from pathlib import Path

import pytest

from tmtprime.errors import InputError, UsageError
from tmtprime.meteor.copy_words import (
    CopyKnowledge,
    extract_copy_words,
    named_entities,
    read_copy_words,
    write_copy_words,
)
from tmtprime.meteor.scorer import Meteor


def test_extraction_keeps_words_frequent_and_copied_enough() -> None:
    pairs = [
        ("open gimp now".split(), "abra gimp ya".split()),
        ("save in gimp".split(), "guardar en gimp".split()),
        ("gimp crashed".split(), "se colgó".split()),
        ("version 2".split(), "versión 2".split()),
        ("page 2".split(), "página 2".split()),
        ("the file".split(), "el archivo".split()),
    ]
    words = extract_copy_words(pairs, min_count=2, min_probability=0.6)
    assert words == {"gimp": (3, pytest.approx(2 / 3)), "2": (2, 1.0)}
    assert "gimp" not in extract_copy_words(pairs, min_count=2, min_probability=0.8)
    assert "2" not in extract_copy_words(pairs, min_count=3, min_probability=0.5)


def test_copy_word_list_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "copy.tsv"
    write_copy_words({"gimp": (3, 0.9), "2": (5, 1.0)}, path)
    assert path.read_text().splitlines()[0] == "2\t5\t1.000"
    assert read_copy_words(path) == {"gimp", "2"}
    with pytest.raises(InputError, match="cannot be read"):
        read_copy_words(tmp_path / "missing.tsv")


def test_named_entity_fallback_skips_sentence_starts() -> None:
    assert named_entities("The President met Putin in Moscow on 12 May. Then he left.") == {
        "president", "putin", "moscow", "12", "may"}  # fmt: skip
    assert named_entities("Open the file") == set()


def test_corrected_precision_and_recall_follow_seed_004() -> None:
    base = Meteor("en", modules=("exact",))
    copy = Meteor("en", modules=("exact",), copy_knowledge=CopyKnowledge(frozenset({"putin"}), False, 4.0, "t"))
    hyp, ref = "the president met him today", "the president met putin today"
    a, b = base.sentence_score(hyp, ref), copy.sentence_score(hyp, ref)
    # the reference has one copy word, unmatched: R~ = (R*X + 0) / (X + 1); no copy word in the hypothesis
    assert b.precision == a.precision
    assert b.recall == pytest.approx(a.recall * 4.0 / 5.0)
    assert b.copy_counts == (0.0, 0.0, 0.0, 1.0)
    assert b.score < a.score
    # a matched copy word raises R~ above R (R < 1)
    hyp2 = "president putin met them"
    a2, b2 = base.sentence_score(hyp2, ref), copy.sentence_score(hyp2, ref)
    assert b2.copy_counts == (1.0, 1.0, 1.0, 1.0)
    assert b2.recall == pytest.approx((a2.recall * 4.0 + 1.0) / 5.0) and b2.recall > a2.recall
    # no copy word anywhere: the score is unchanged
    assert copy.sentence_score("a b c", "a b d").score == base.sentence_score("a b c", "a b d").score
    # corpus score: counts summed
    total = copy.aggregate([b, b2])
    assert total.copy_counts == (1.0, 1.0, 1.0, 2.0)


def test_spec_and_signature(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_text("gimp\n", encoding="utf-8")
    ck = CopyKnowledge.from_spec(f"{path}+ne", 6)
    assert ck.words == {"gimp"} and ck.named_entities and ck.smoothing == 6
    assert not CopyKnowledge.from_spec(str(path)).named_entities
    assert Meteor("en", modules=("exact",), copy_knowledge=ck).signature()["copy"] == "w.txt:1+ne,X=6"
    with pytest.raises(UsageError):
        CopyKnowledge.from_spec("ne", -1)


def test_cli_copy_words_from_a_tm_and_correlate_with_them(tmp_path: Path, capsys) -> None:
    import gzip

    from tmtprime.cli import main

    tm = tmp_path / "tm.tsv"
    tm.write_text("source\ttarget\nOpen GIMP\tAbrir GIMP\nClose GIMP now\tCerrar GIMP ya\nSave file\tGuardar archivo\n"
                  "Save file 2\tGuardar archivo 2\nPage 2\tPágina 2\n", encoding="utf-8")  # fmt: skip
    out = tmp_path / "copy.tsv"
    assert main(["meteor", "copy-words", str(tm), "-o", str(out), "-l", "es", "-q"]) == 0
    assert "2 copy words from 5 pairs" in capsys.readouterr().out
    assert read_copy_words(out) == {"gimp", "2"}
    table = tmp_path / "j.tsv.gz"
    rows = [("d", s, sys_, "src", ref, hyp, score) for s, (ref, rows_) in enumerate([
        ("open gimp now", [("open it now", 0.2), ("open gimp now", 1.0), ("open gimp", 0.9)]),
        ("save page 2", [("save page", 0.3), ("save the page 2", 0.8), ("page 2 save", 0.5)]),
    ]) for sys_, (hyp, score) in enumerate(rows_)]  # fmt: skip
    with gzip.open(table, "wt", encoding="utf-8") as f:
        f.write("doc_id\tseg_id\tsystem\tsource\treference\thypothesis\thuman_score\n")
        f.writelines("\t".join(map(str, r)) + "\n" for r in rows)
    lines = {}
    for extra in ([], ["--copy-words", str(out), "--copy-smoothing", "1"]):
        assert main(["meteor", "correlate", str(table), "-m", "exact", *extra, "-q"]) == 0
        lines[bool(extra)] = capsys.readouterr().out.splitlines()[-1]
    assert lines[True] != lines[False] and lines[True].endswith("n=6")
    assert main(["meteor", "copy-words", str(tm), "-o", str(out), "--from", "nowhere"]) == 2
    assert "--from 'nowhere'" in capsys.readouterr().err
