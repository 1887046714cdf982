"""``tmtprime meteor paraphrase|funcwords|bitext-paraphrases``: the resource tools behind ``tmtprime meteor``."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from tmtprime.cli import main

BITEXT = [
    ("open the file", "abrir el archivo"), ("save the file", "guardar el fichero"), ("close the file", "cerrar el archivo"),
    ("print the file", "imprimir el fichero"), ("open the window", "abrir la ventana"), ("close the window", "cerrar la ventana"),
    ("save the document", "guardar el documento"), ("print the document", "imprimir el documento"),
] * 3


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TMTPRIME_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def tm(tmp_path: Path) -> Path:
    path = tmp_path / "tm.tsv"
    path.write_text("source\ttarget\n" + "".join(f"{s}\t{t}\n" for s, t in BITEXT), encoding="utf-8")
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["meteor", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def test_build_a_table_from_a_tm_and_score_with_it(capsys, tm: Path, tmp_path: Path) -> None:
    table = tmp_path / "para-es.gz"
    status, out, _ = run(capsys, "paraphrase", "build", "-l", "es", "--source-lang", "en", "--bitext", tm,
                         "--common-frequency", "0.2", "-o", table, "-q")  # fmt: skip
    assert status == 0 and "paraphrase pairs" in out
    lines = gzip.open(table, "rt", encoding="utf-8").read().split("\n")
    pairs = {(lines[k + 1], lines[k + 2]) for k in range(0, len(lines) - 1, 3)}
    assert ("archivo", "fichero") in pairs
    assert any((tmp_path / "cache" / "paraphrase").iterdir())  # compiled into the scorer's index
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("guardar el fichero\n", encoding="utf-8")
    ref.write_text("guardar el archivo\n", encoding="utf-8")
    _, with_table, _ = run(capsys, hyp, ref, "-l", "es", "-m", "exact paraphrase", "-a", table, "-q")
    _, without, _ = run(capsys, hyp, ref, "-l", "es", "-m", "exact", "-q")
    assert float(with_table) > float(without)


def test_merge_weights_by_corpus_size(capsys, tmp_path: Path) -> None:
    a, b, out = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "m.txt"
    a.write_text("0.4\nx\ny\n", encoding="utf-8")
    b.write_text("0.8\nx\ny\n0.012\nx\nz\n", encoding="utf-8")
    status, _, _ = run(capsys, "paraphrase", "merge", f"{a}:1", f"{b}:3", "-l", "es", "-o", out, "--no-compile")
    assert status == 0
    prob, phrase, para = out.read_text(encoding="utf-8").split("\n")[:3]
    assert (float(prob), phrase, para) == (pytest.approx(0.7), "x", "y") and "z" not in out.read_text(encoding="utf-8")


def test_funcwords(capsys, tmp_path: Path) -> None:
    corpus = tmp_path / "mono.txt"
    corpus.write_text("el gato y el perro\nla casa de la playa\n" * 10, encoding="utf-8")
    status, out, _ = run(capsys, "funcwords", corpus, "-l", "es", "--min-frequency", "0.15", "-o", tmp_path / "fw.txt", "-q")
    assert status == 0 and out.startswith("2 function words")
    assert (tmp_path / "fw.txt").read_text(encoding="utf-8") == "el\nla\n"


def test_bitext_paraphrases_write_n_references_per_segment(capsys, tmp_path: Path) -> None:
    pairs = [("the question is open", "la cuestión está abierta"), ("the question is closed", "la pregunta está cerrada"),
             ("the door is open", "la puerta está abierta"), ("the door is closed", "la puerta está cerrada")] * 3  # fmt: skip
    src, ref, hyp, out = (tmp_path / n for n in ("src.txt", "ref.txt", "hyp.txt", "refs.txt"))
    src.write_text("".join(s + "\n" for s, _ in pairs), encoding="utf-8")
    ref.write_text("".join(r + "\n" for _, r in pairs), encoding="utf-8")
    hyp.write_text("la pregunta está abierta\n" * len(pairs), encoding="utf-8")
    status, text, _ = run(capsys, "bitext-paraphrases", src, ref, "-l", "es", "--source-lang", "en", "-o", out,
                          "--hyp", hyp, "-q")  # fmt: skip
    assert status == 0
    n = int(text.split("(-r ")[1].split(")")[0])
    refs = out.read_text(encoding="utf-8").splitlines()
    assert n >= 2 and len(refs) == n * len(pairs)
    assert refs[:2] == ["la cuestión está abierta", "la pregunta está abierta"]
    meteor = next(line for line in text.splitlines() if line.startswith("meteor:")).split()
    assert float(meteor[-1]) > float(meteor[3])
    # the file works with the scorer's -r N
    status, score, _ = run(capsys, hyp, out, "-l", "es", "-norm", "-m", "exact", "-r", n, "-q")
    assert status == 0 and float(score) > 0


def test_bad_input_is_one_line(capsys, tmp_path: Path) -> None:
    status, _, err = run(capsys, "paraphrase", "build", "-l", "es", "--bitext", "x.tsv", "-o", tmp_path / "o.gz")
    assert status == 2 and err == "tmtprime: error: --source-lang is needed with --bitext (the pivot language)\n"
    moses = tmp_path / "pt.txt"
    moses.write_text("a ||| b ||| 0.1 0.1 0.1 0.1\nbroken line\n", encoding="utf-8")
    status, _, err = run(capsys, "paraphrase", "build", "-l", "es", "--moses", moses, "-o", tmp_path / "o.gz")
    assert status == 1 and err.count("\n") == 1 and f"{moses}:line 2: expected" in err
    status, _, err = run(capsys, "paraphrase", "build", "-l", "es", "--moses", tmp_path / "missing.txt", "-o", tmp_path / "o.gz")
    assert status == 1 and "missing.txt" in err and "Traceback" not in err
    status, _, err = run(capsys, "funcwords")
    assert status == 2 and "usage: tmtprime meteor funcwords" in err


def test_jar_syntax_still_works_and_help_lists_the_tools(capsys) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "tmtprime meteor paraphrase" in out and out.startswith("Meteor version 1.5")
