"""Meteor tokenization (-norm / -lower / plain / -noPunct) against the reference jar.

``fixtures/normalize_cases.jsonl`` holds tricky lines (URLs, placeholders,
quotes and apostrophes in every language, hyphens, acronyms, ellipses, unicode
dashes and spaces, control characters, non-breaking and numeric-only prefixes)
with the tokens the Meteor 1.5 jar produced for them (``-writeAlignments``).
The jar tests re-derive those expectations from the jar itself, and the
shared-data test measures agreement on real text nobody here wrote.
"""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import pytest

from tmtprime.errors import ResourceError, UsageError
from tmtprime.meteor.normalize import tokenize

FIXTURES = Path(__file__).parent / "fixtures"
CASES = [json.loads(line) for line in (FIXTURES / "normalize_cases.jsonl").read_text("utf-8").split("\n") if line]


def _case_id(case: dict) -> str:
    return f"{case['lang']}-{case['mode']}{'-nopunct' if case['no_punct'] else ''}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_fixture_tokens_match_jar_output(case: dict) -> None:
    assert tokenize(case["line"], case["lang"], case["mode"], no_punct=case["no_punct"]) == case["tokens"]


@pytest.mark.parametrize(
    ("line", "lang", "expected"),
    [
        (
            "The U.S.-based firm paid $1.5 billion (about 15,000 euros) on Jan. 5, 2010.",
            "en",
            "the us based firm paid $ 1.5 billion ( about 15,000 euros ) on jan . 5 , 2010 .",
        ),
        (
            "He didn't say \"no\" -- it's Mr. Smith's e-mail at 3:30 p.m.",
            "en",
            "he didn 't say \" no \" - it 's mr. smith 's e mail at 3 : 30 pm",
        ),
        ("It’s “quoted” — really ’90s", "en", "it 's \" quoted \" — really ' 90s"),
        ("l'homme aujourd'hui", "fr", "l' homme aujourd' hui"),
        ("l'homme it's", "de", "l ' homme it ' s"),
        ("No. 7 and no. 8", "en", "no. 7 and no . 8"),
        ("Use %s or <b>bold</b>", "en", "use % s or < b > bold < / b >"),
        ("3-4-5 x-ray --x-- ---", "en", "3 4-5 x ray -x- --"),
        ("M. Dupont", "cz", "m . dupont"),
    ],
)
def test_documented_examples(line: str, lang: str, expected: str) -> None:
    assert " ".join(tokenize(line, lang, "norm")) == expected


def test_lower_and_plain_modes_only_split_on_space_tab_formfeed() -> None:
    line = "  Foo,\tBar.\x0cBaz\u00a0Qux\x0bZ  "
    assert tokenize(line, "en", "lower") == ["foo,", "bar.", "baz\u00a0qux\x0bz"]
    assert tokenize(line, "da", "none") == ["Foo,", "Bar.", "Baz\u00a0Qux\x0bZ"]


def test_no_punct_blanks_non_alphanumerics_only_with_norm() -> None:
    assert tokenize("Hello, U.S. world! 1,000 x.y", "en", "norm", no_punct=True) == [
        "hello", "us", "world", "1", "000", "x", "y"
    ]
    assert tokenize("a , b !", "en", "lower", no_punct=True) == ["a", ",", "b", "!"]


def test_language_codes_and_names_are_accepted_like_the_jar() -> None:
    for lang in ("en", "EN", "english", "English"):
        assert tokenize("Hi there.", lang, "norm") == ["hi", "there", "."]
    assert tokenize("Hi.", "cs", "norm") == tokenize("Hi.", "cz", "norm")


def test_unknown_language_is_a_usage_error_with_the_jar_wording() -> None:
    with pytest.raises(UsageError, match=r"^Unknown language \(klingon\)$"):
        tokenize("x", "klingon", "norm")


@pytest.mark.parametrize(("lang", "name"), [("da", "danish"), ("it", "italian"), ("other", "other"), ("xx", "other")])
def test_languages_without_normalizer_fail_like_the_jar(lang: str, name: str) -> None:
    with pytest.raises(ResourceError, match=rf"^No normalizer for language \({name}\)$"):
        tokenize("x", lang, "norm")
    assert tokenize("X Y", lang, "lower") == ["x", "y"]


def test_unknown_mode_is_rejected() -> None:
    with pytest.raises(UsageError, match="unknown tokenization mode"):
        tokenize("x", "en", "upper")


# --- against the jar itself ------------------------------------------------------------------


def jar_tokens(jar: Path, lines: list[str], lang: str, flags: list[str], workdir: Path) -> list[list[str]]:
    """Normalized tokens of ``lines`` as the jar prints them with ``-writeAlignments``."""
    src = workdir / "lines.txt"
    src.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    prefix = workdir / "out"
    subprocess.run(
        ["java", "-Xmx1G", "-jar", str(jar), str(src), str(src), "-l", lang, "-m", "exact", *flags,
         "-writeAlignments", "-f", str(prefix)],
        check=True, capture_output=True,
    )
    out = (workdir / "out-align.out").read_text(encoding="utf-8").split("\n")
    hyp = [out[i + 1] for i, row in enumerate(out) if row.startswith("Alignment\t")]
    assert len(hyp) == len(lines)
    return [row.split(" ") if row else [] for row in hyp]


_JAR_RUNS = [("en", "norm", False), ("en", "lower", False), ("en", "norm", True), ("fr", "norm", False),
             ("de", "norm", False), ("es", "norm", False), ("cz", "norm", False)]


@pytest.mark.jar
@pytest.mark.parametrize(("lang", "mode", "no_punct"), _JAR_RUNS)
def test_fixture_expectations_still_come_from_the_jar(meteor_jar: Path, tmp_path: Path, lang: str, mode: str,
                                                      no_punct: bool) -> None:
    cases = [c for c in CASES if (c["lang"], c["mode"], c["no_punct"]) == (lang, mode, no_punct)]
    assert cases
    flags = [f"-{mode}"] + (["-noPunct"] if no_punct else [])
    jar = jar_tokens(meteor_jar, [c["line"] for c in cases], lang, flags, tmp_path)
    assert jar == [c["tokens"] for c in cases]
    assert [tokenize(c["line"], lang, mode, no_punct=no_punct) for c in cases] == jar


def _real_lines(shared_data: Path) -> dict[str, list[str]]:
    """A few thousand real lines per language from ../shared/data."""
    by_lang: dict[str, list[str]] = {"en": [], "es": [], "de": []}

    def rows(path: Path):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            header = f.readline().rstrip("\n").split("\t")
            for raw in f:
                yield dict(zip(header, raw.rstrip("\n").split("\t")))

    for row in rows(shared_data / "tm_l10n_en-es" / "update" / "dev.tsv.gz"):
        by_lang["en"].append(row["source"])
        by_lang["es"].append(row["reference"])
    for row in rows(shared_data / "human_judgments" / "mqm_ted_en-de.tsv.gz"):
        by_lang["de"].append(row["hypothesis"])
    return {lang: [x for x in lines if x.strip() and "\r" not in x][:3000] for lang, lines in by_lang.items()}


@pytest.mark.slow
@pytest.mark.jar
@pytest.mark.shared_data
@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_real_text_matches_the_jar_line_for_line(meteor_jar: Path, shared_data: Path, tmp_path: Path,
                                                 lang: str) -> None:
    lines = _real_lines(shared_data)[lang]
    jar = jar_tokens(meteor_jar, lines, lang, ["-norm"], tmp_path)
    mismatches = [(line, want) for line, want in zip(lines, jar) if tokenize(line, lang, "norm") != want]
    assert mismatches == []


def test_one_pass_comma_split_equals_the_three_moses_rules() -> None:
    """split_commas takes one pass where the three rules cannot interfere; random lines of commas, digits and
    letters, close commas included (where it falls back to the rules), give the rules' text."""
    import random

    from tmtprime.meteor.moses_norm import comma_rules, split_commas

    rng = random.Random(3)
    alphabet = ["a", "1", "2", ",", ",", " ", ".", "\n", "é", "'"]
    texts = [" " + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) + " " for _ in range(20000)]
    texts += [" 1,000 , a,b ", " a,,b ", " a,b,c ", " 1,a,1 ", " x,\n,1 "]
    assert [split_commas(t) for t in texts] == [comma_rules(t) for t in texts]
    assert split_commas(" 1,000 , a,b ") == " 1,000  ,  a , b " and split_commas(" a,b,c ") == " a , b,c "
