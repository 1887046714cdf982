"""``tmtprime meteor``: the jar's output layout, streams, -stdio protocol and bad input (no jar needed).

The layout expectations are the jar's (header labels padded to 16 columns,
statistics labels to 24, tab after ``score:``); ``test_jar_parity.py`` compares
whole outputs with the jar when it is available.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tmtprime.cli import main
from tmtprime.meteor.compiled import compiled_in_use, use_compiled
from tmtprime.meteor.scorer import Meteor
from tmtprime.meteor.stdio import answer, java_split, serve

MODULES = ["-m", "exact stem"]


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\nthe quick brown fox jumps\nred car\n\nx\n", encoding="utf-8")
    ref.write_text("the cat sat on the mat\nquick the fox brown jumped\nred automobile\ny\n\n", encoding="utf-8")
    return str(hyp), str(ref)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["meteor", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_default_output_is_the_jars_layout(capsys, files) -> None:
    status, out, err = run(capsys, *files, "-l", "en", "-norm", *MODULES)
    assert status == 0 and err == ""
    lines = out.split("\n")
    assert lines[:11] == [
        "Meteor version: 1.5",
        "",
        "Eval ID:        meteor-1.5-wo-en-norm-0.85_0.2_0.6_0.75-ex_st-1.0_0.6",
        "",
        "Language:       English",
        "Format:         plaintext",
        "Task:           Custom",
        "Modules:        exact stem",
        "Weights:        1.0 0.6",
        "Parameters:     0.85 0.2 0.6 0.75",
        "",
    ]
    assert lines[11:16] == [
        "Segment 1 score:\t1.0",
        "Segment 2 score:\t0.3630769230769232",
        "Segment 3 score:\t0.2",
        "Segment 4 score:\t0.0",
        "Segment 5 score:\t0.0",
    ]
    assert "Stage      Content  Function    Total    Content  Function    Total" in lines
    assert "1                7         4       11          7         4       11" in lines
    assert "Chunks:                 6" in lines
    assert lines[-2] == "Final score:            0.3765160865352448"


def test_quiet_puts_segment_scores_on_stderr_and_the_final_score_on_stdout(capsys, files) -> None:
    status, out, err = run(capsys, *files, "-l", "en", "-norm", *MODULES, "-q")
    assert status == 0
    assert out == "0.3765160865352448\n"
    assert err.split("\n")[:3] == ["1.0", "0.3630769230769232", "0.2"]


def test_verbose_and_statistics_outputs(capsys, files) -> None:
    _, out, _ = run(capsys, *files, "-l", "en", "-norm", *MODULES, "-vOut")
    assert "Segment 4 score:\tNaN\t0.0\tNaN\t0.0" in out
    assert "Segment 1 score:\t1.0\t1.0\t0.0\t1.0" in out
    _, out, _ = run(capsys, *files, "-l", "en", "-norm", *MODULES, "-ssOut")
    rows = out.strip().split("\n")
    assert len(rows) == 5 and all(len(r.split()) == 23 for r in rows)
    assert rows[0] == "6.0 6.0 3.0 3.0 3.0 3.0 3.0 3.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 1.0 6.0 6.0"


def test_json_output(capsys, files) -> None:
    status, out, _ = run(capsys, *files, "-l", "en", "-norm", *MODULES, "--json")
    data = json.loads(out)
    assert status == 0 and len(data["segments"]) == 5
    assert data["system"]["score"] == pytest.approx(0.3765160865352448)
    assert data["segments"][1]["matches"]["stem"]["test_content"] == 1
    assert data["config"]["modules"] == ["exact", "stem"]


def test_write_alignments_file(capsys, files, tmp_path: Path) -> None:
    prefix = tmp_path / "run"
    run(capsys, *files, "-l", "en", "-norm", *MODULES, "-writeAlignments", "-f", str(prefix))
    text = (tmp_path / "run-align.out").read_text(encoding="utf-8")
    first = text.split("\n\n")[0].split("\n")
    assert first[0] == "Alignment\t1\t1.0\t1.0\t0.0\t1.0"
    assert first[3] == "Line2Start:Length\tLine1Start:Length\tModule\t\tScore"
    assert first[4] == "0:1\t\t\t0:1\t\t\t0\t\t1.0"


def test_multiple_references(capsys, tmp_path: Path) -> None:
    hyp = tmp_path / "h"
    ref = tmp_path / "r"
    hyp.write_text("the cat sat\nhello world\n", encoding="utf-8")
    ref.write_text("a dog ran\nthe cat sat\nhi world\nhello world\n", encoding="utf-8")
    _, out, _ = run(capsys, str(hyp), str(ref), "-l", "en", "-norm", *MODULES, "-r", "2", "-q")
    assert out == "1.0\n"


@pytest.mark.parametrize(
    "args, status, stream, message",
    [
        (["-zz"], 1, "err", 'Unknown option "-zz"'),
        (["-t", "foo"], 1, "err", "Unknown task (foo)"),
        (["-l", "xy"], 1, "err", "Unknown language (xy)"),
        (["-m", "exact foo"], 1, "err", "Unknown module (foo)"),
        (["-x"], 1, "err", "option -x needs a value"),
        (["-l", "cz", "-m", "stem"], 1, "err", "No stemmer for language (czech)"),
        (["-l", "it", "-norm", "-m", "exact"], 1, "err", "No normalizer for language (italian)"),
        (["-sgml"], 1, "err", "SGML input is not supported"),
    ],
)
def test_bad_options_give_one_line_and_the_jars_status(capsys, files, args, status, stream, message) -> None:
    got, out, err = run(capsys, *files, *args)
    assert got == status
    text = err if stream == "err" else out
    assert message in text
    assert "Traceback" not in err and len(err.strip().split("\n")) <= 1


def test_usage_without_files(capsys) -> None:
    status, out, err = run(capsys)
    assert status == 2 and "Usage: tmtprime meteor <test> <reference> [options]" in err


def test_mismatched_line_counts_are_reported_like_the_jar_but_fail(capsys, tmp_path: Path) -> None:
    (tmp_path / "h").write_text("a\nb\nc\n", encoding="utf-8")
    (tmp_path / "r").write_text("a\nb\n", encoding="utf-8")
    status, out, err = run(capsys, str(tmp_path / "h"), str(tmp_path / "r"), "-m", "exact")
    assert status == 1  # the jar exits 0: a documented, deliberate difference (scripts must see it)
    assert out.startswith("Meteor version: 1.5") and "Segment" not in out
    assert err.strip() == "Error: test and reference not same length (test: 3 lines, reference: 2 lines)"


def test_missing_file_and_empty_files(capsys, tmp_path: Path) -> None:
    (tmp_path / "r").write_text("a\n", encoding="utf-8")
    status, _, err = run(capsys, str(tmp_path / "nope"), str(tmp_path / "r"), "-m", "exact")
    assert status == 1 and "Could not score text files" in err and "nope" in err
    (tmp_path / "e1").write_text("", encoding="utf-8")
    (tmp_path / "e2").write_text("", encoding="utf-8")
    status, _, err = run(capsys, str(tmp_path / "e1"), str(tmp_path / "e2"), "-m", "exact")
    assert status == 1 and "nothing to score" in err


def test_invalid_utf8_is_scored_with_replacement_and_reported(capsys, tmp_path: Path) -> None:
    (tmp_path / "h").write_bytes(b"a b\n\xff\xfe bad\n")
    (tmp_path / "r").write_bytes(b"a b\nc d\n")
    status, out, err = run(capsys, str(tmp_path / "h"), str(tmp_path / "r"), "-m", "exact", "-q")
    assert status == 0 and out == "0.4\n"
    assert "h:2: invalid UTF-8" in err


def test_java_line_splitting(tmp_path: Path, capsys) -> None:
    # \r\n and lone \r end lines; U+2028 does not (Java's readLine)
    (tmp_path / "h").write_bytes("a\r\nb\rc\u2028d\n".encode())
    (tmp_path / "r").write_bytes(b"a\nb\nc d\n")
    status, out, _ = run(capsys, str(tmp_path / "h"), str(tmp_path / "r"), "-m", "exact", "-ssOut")
    assert status == 0 and len(out.strip().split("\n")) == 3


def test_a_byte_order_mark_is_not_part_of_the_first_word(tmp_path: Path, capsys) -> None:
    # The one deliberate difference from the jar, which would score this 0.0 (BOM glued to "a").
    (tmp_path / "h").write_bytes("\ufeffa\n".encode())
    (tmp_path / "r").write_bytes(b"a\n")
    status, out, _ = run(capsys, str(tmp_path / "h"), str(tmp_path / "r"), "-m", "exact", "-q")
    assert status == 0 and float(out) > 0.0


# -- the -stdio protocol ----------------------------------------------------------------------------

STATS = "4 4 0 0 4 4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2 4 4"


@pytest.fixture(scope="module")
def exact() -> Meteor:
    return Meteor(lang="en", modules=("exact",))


@pytest.mark.parametrize(
    "line, expected",
    [
        ("SCORE ||| a b c ||| a b", ["2.0 3.0 1.0 1.0 1.0 1.0 1.0 1.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 1.0 2.0 2.0"]),
        ("score ||| x ||| a b ||| a b", ["2.0 2.0 1.0 1.0 1.0 1.0 1.0 1.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 1.0 2.0 2.0"]),
        ("SING ||| " + STATS, ["0.4776696620223255"]),
        ("EVAL ||| " + STATS, ["0.4776696620223255", "0.4776696620223255"]),
        ("SCORE ||| a", ["Error: specify hypothesis and at least one reference"]),
        ("SCORE ||| a |||", ["Error: specify hypothesis and at least one reference"]),
        (" SCORE ||| a ||| a", ["Error: specify SCORE or EVAL or SING"]),
        ("foo", ["Error: specify SCORE or EVAL or SING"]),
        ("", ["Error: specify SCORE or EVAL or SING"]),
        ("EVAL", ["Error: specify Meteor stats"]),
        ("SING ||| " + STATS + " ||| " + STATS, ["Error: specify Meteor stats"]),
    ],
)  # fmt: skip
def test_stdio_answers(exact: Meteor, line: str, expected: list[str]) -> None:
    assert answer(exact, line) == expected


def test_java_split_drops_trailing_empty_fields_only() -> None:
    assert java_split("SCORE ||| a |||") == ["SCORE ", " a "]
    assert java_split("SCORE ||| a ||| ") == ["SCORE ", " a ", " "]
    assert java_split("|||a") == ["", "a"]


def test_stdio_flushes_every_answer(exact: Meteor) -> None:
    class Out(io.StringIO):
        flushes = 0

        def flush(self) -> None:
            Out.flushes += 1
            super().flush()

    out = Out()
    serve(exact, ["SCORE ||| a ||| a\n", "SING ||| " + STATS + "\n"], out)
    assert out.getvalue().split("\n")[1] == "0.4776696620223255" and Out.flushes == 2


def test_stdio_bad_statistics_end_with_one_line_and_status_1(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("SING ||| " + STATS + "\nEVAL ||| 1 2 3\nSING ||| " + STATS + "\n"))
    status, out, err = run(capsys, "-", "-", "-stdio", "-m", "exact")
    assert status == 1
    assert out == "0.4776696620223255\n"
    assert err.strip() == "Error: stdin line 2: Meteor statistics need 23 numbers, got 3"


@pytest.fixture
def big_files(tmp_path: Path) -> tuple[str, str]:
    """Enough words (12,000 with two modules) to pay for the compiled scorer."""
    hyp, ref = tmp_path / "big.hyp", tmp_path / "big.ref"
    hyp.write_text("the quick brown fox jumps over the lazy dog again\n" * 300, encoding="utf-8")
    ref.write_text("a quick brown fox jumped over the lazy dogs again\n" * 300, encoding="utf-8")
    return str(hyp), str(ref)


@pytest.fixture
def python_first() -> Iterator[None]:
    """Start from plain Python, as a fresh process does, and leave the mode as it was found."""
    before = compiled_in_use()
    use_compiled(False)
    yield
    use_compiled(before)


def test_the_one_off_compile_is_announced_once_per_installation(
    capsys, big_files, tmp_path: Path, monkeypatch, python_first: None
) -> None:
    monkeypatch.setenv("TMTPRIME_CACHE_DIR", str(tmp_path / "fresh-cache"))  # no record of a compiled aligner
    status, first_out, first_err = run(capsys, *big_files, "-l", "en", "-norm", *MODULES)
    assert status == 0 and "compiling the Meteor scorer once" in first_err
    status, out, err = run(capsys, *big_files, "-l", "en", "-norm", *MODULES)
    assert status == 0 and err == "" and out == first_out
    status, out, err = run(capsys, *big_files, "-l", "en", "-norm", *MODULES, "-q")  # -q says nothing either way
    assert status == 0 and "compiling" not in err


def test_a_small_input_is_scored_without_compiling(capsys, files, tmp_path: Path, monkeypatch, python_first: None) -> None:
    monkeypatch.setenv("TMTPRIME_CACHE_DIR", str(tmp_path / "fresh-cache"))
    status, _out, err = run(capsys, *files, "-l", "en", "-norm", *MODULES)
    assert status == 0 and err == ""
    assert not compiled_in_use()
