"""Parity with the reference Meteor 1.5 jar on our own corpus (``fixtures/corpus``).

The jar runs once per configuration on the whole corpus file; ``tmtprime
meteor`` runs in-process on the same file with the same options. The *entire text
output* must be identical, for every configuration, the paraphrase module
included.
Skips without Java + jar on a developer machine, fails under CI.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from tests.conftest import require
from tmtprime.cli import main

CORPUS = Path(__file__).parent / "fixtures" / "corpus"
pytestmark = pytest.mark.jar


def run_jar(jar: Path, args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["java", "-Xmx2G", "-jar", str(jar), *args], capture_output=True, text=True, input=stdin, timeout=600
    )


def run_ours(capsys, args: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(["meteor", *args])
    out, err = capsys.readouterr()
    return status, out, err


def segment_scores(text: str) -> tuple[list[float], float]:
    segs = [float(line.split("\t")[-1]) for line in text.split("\n") if line.startswith("Segment ")]
    final = next(float(line.split()[-1]) for line in text.split("\n") if line.startswith("Final score:"))
    return segs, final


EXACT_CONFIGS = [
    ("en", "-l en -norm -m exact"),
    ("en", "-l en -norm -m 'exact stem'"),
    ("en", "-l en -norm -m 'exact stem synonym'"),
    ("en", "-l en -lower -m 'exact stem synonym'"),
    ("en", "-l en -m 'exact stem' -t adq"),
    ("en", "-l en -norm -noPunct -m 'exact stem synonym' -t hter"),
    ("en", "-l en -norm -m 'exact stem synonym' -t li"),
    ("en", "-l en -norm -m 'exact stem synonym' -t tune"),
    ("en", "-l en -norm -m 'exact stem synonym' -t util"),
    ("en", "-l en -norm -m 'exact stem' -p '0.5 0.3 0.4 0.6' -w '1.0 0.5'"),
    ("fr", "-l fr -norm -m 'exact stem'"),
    ("de", "-l de -norm -m 'exact stem'"),
    ("es", "-l es -norm -m 'exact stem'"),
    ("cz", "-l cz -norm -m exact"),
    ("de", "-l de -norm -m 'exact stem' -t tune"),
]


@pytest.mark.parametrize("lang, options", EXACT_CONFIGS)
def test_text_output_is_identical_to_the_jar(meteor_jar: Path, capsys, lang: str, options: str) -> None:
    args = [str(CORPUS / f"{lang}.hyp"), str(CORPUS / f"{lang}.ref"), *shlex.split(options)]
    jar = run_jar(meteor_jar, args)
    assert jar.returncode == 0, jar.stderr[-500:]
    status, out, err = run_ours(capsys, args)
    assert status == 0 and err == ""
    assert out == jar.stdout


@pytest.mark.parametrize("flag", ["-vOut", "-ssOut", "-q"])
def test_other_output_modes_are_identical(meteor_jar: Path, capsys, flag: str) -> None:
    args = [str(CORPUS / "en.hyp"), str(CORPUS / "en.ref"), "-l", "en", "-norm", "-m", "exact stem synonym", flag]
    jar = run_jar(meteor_jar, args)
    status, out, err = run_ours(capsys, args)
    assert (status, out, err) == (jar.returncode, jar.stdout, jar.stderr)


def test_multiple_references_and_alignment_files(meteor_jar: Path, capsys, tmp_path: Path) -> None:
    base = [str(CORPUS / "en.multi.hyp"), str(CORPUS / "en.refs2"), "-l", "en", "-norm", "-m", "exact stem", "-r", "2"]
    jar = run_jar(meteor_jar, base + ["-writeAlignments", "-f", str(tmp_path / "jar")])
    status, out, _ = run_ours(capsys, base + ["-writeAlignments", "-f", str(tmp_path / "ours")])
    assert status == 0 and out == jar.stdout
    assert (tmp_path / "ours-align.out").read_text(encoding="utf-8") == (tmp_path / "jar-align.out").read_text(
        encoding="utf-8"
    )


def test_stdio_protocol_is_identical(meteor_jar: Path, capsys, monkeypatch) -> None:
    import io

    hyps = (CORPUS / "en.hyp").read_text(encoding="utf-8").split("\n")[:40]
    refs = (CORPUS / "en.ref").read_text(encoding="utf-8").split("\n")[:40]
    lines = [f"SCORE ||| {r} ||| {h}" for h, r in zip(hyps, refs)]
    lines += ["SCORE ||| " + refs[0] + " ||| " + refs[1] + " ||| " + hyps[0], "foo", "SCORE ||| x", "EVAL"]
    stats = "4 4 1 1 3 3 1 1 0 0 0 0 0 0 0 0 0 0 0 0 2 4 4"
    lines += [f"EVAL ||| {stats} ||| {stats}", f"SING ||| {stats}", f"sing|||{stats}"]
    text = "\n".join(lines) + "\n"
    jar = run_jar(meteor_jar, ["-", "-", "-stdio", "-l", "en", "-norm", "-m", "exact stem synonym"], stdin=text)
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    status, out, _ = run_ours(capsys, ["-", "-", "-stdio", "-l", "en", "-norm", "-m", "exact stem synonym"])
    assert status == jar.returncode == 0
    assert out == jar.stdout


def _paraphrase_table_present() -> bool:
    from tmtprime.meteor.paraphrase import default_sources

    return any(p.is_file() for p in default_sources("en"))


@pytest.mark.slow
def test_all_english_modules_with_paraphrases(meteor_jar: Path, capsys) -> None:
    """Default English configuration (exact stem synonym paraphrase): the whole text output is the jar's, and
    so are the statistics of every segment (``-ssOut``), from which every task's scores follow
    (``test_numbers_print_like_the_jar`` and the task headers check the scoring; the alignment does not depend
    on the task, and this avoids one 10 s jar start per task)."""
    require(_paraphrase_table_present(), "Meteor's English paraphrase table")
    args = [str(CORPUS / "en.hyp"), str(CORPUS / "en.ref"), "-l", "en", "-norm"]
    jar = run_jar(meteor_jar, args)
    assert jar.returncode == 0, jar.stderr[-500:]
    status, out, _ = run_ours(capsys, args)
    assert status == 0
    assert len(segment_scores(out)[0]) == 300
    assert out == jar.stdout
    jar_stats = run_jar(meteor_jar, args + ["-ssOut"])
    status, our_stats, _ = run_ours(capsys, args + ["-ssOut"])
    assert status == 0 and our_stats == jar_stats.stdout


def test_task_headers_match_the_jar(meteor_jar: Path, capsys, tmp_path: Path) -> None:
    one = tmp_path / "one.txt"
    one.write_text("a b\n", encoding="utf-8")
    for lang in ("en", "fr", "de", "es", "cz", "ru", "da", "other"):
        for task in ("rank", "adq", "hter", "li", "tune", "util"):
            args = [str(one), str(one), "-l", lang, "-t", task, "-m", "exact"]
            jar = run_jar(meteor_jar, args)
            _, out, _ = run_ours(capsys, args)
            assert out.split("\n")[:11] == jar.stdout.split("\n")[:11], (lang, task)


def test_numbers_print_like_the_jar(meteor_jar: Path) -> None:
    # a SING for every pattern of the formula, answered by the jar, re-answered by us
    from tmtprime.meteor.scorer import Meteor
    from tmtprime.meteor.stdio import answer

    stats = [
        "4 4 0 0 4 4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 4 4",
        "7 9 2 3 3 4 1 2 1 1 0 0 0 0 0 0 0 0 0 0 3 5 7",
        "12 10 4 3 5 4 2 2 1 1 0 1 1 0 0 0 0 1 0 0 4 9 9",
        "0 4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
    ]
    text = "".join(f"SING ||| {s}\n" for s in stats)
    jar = run_jar(meteor_jar, ["-", "-", "-stdio", "-l", "en"], stdin=text)
    m = Meteor(lang="en", modules=("exact", "stem", "synonym", "paraphrase"), paraphrase_table=object())
    ours = [answer(m, line)[0] for line in text.strip().split("\n")]
    assert ours == jar.stdout.strip().split("\n")
