"""Apertium through its command line: real translations, batch alignment, pairs and errors."""

from __future__ import annotations

import shutil
import stat
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import require
from tmtprime.errors import ExternalToolError, UsageError
from tmtprime.mt.apertium import ApertiumEngine, installed_modes, language_code, pack, unpack
from tmtprime.mt.engine import create_engine

TRICKY = [
    "Open the file",
    "",
    "   ",
    "  Indented text with trailing space  ",
    "Line one\nline two",
    "First paragraph.\n\n\nSecond paragraph.",
    "Use *bold* and #hash @user",
    "[x] {0} <b>tag</b> \\ back $HOME ^caret^ /slash/",
    "%s: cannot execute: required file not found",
    ".",
    "---",
    "xyzzyq blorf frobnicates.",
    "You have to enter a resolver.",
    "Price: 5 € (approx.)",
]


@pytest.fixture(scope="module")
def apertium_eng_spa() -> None:
    require(shutil.which("apertium") is not None, "apertium (apt-get install apertium)")
    require("eng-spa" in installed_modes(), "Apertium pair eng-spa (apt-get install apertium-eng-spa)")


def test_language_codes():
    assert [language_code(x) for x in ("en", "en-US", "es_ES", "gl", "eng", "ca")] == ["eng", "eng", "spa", "glg", "eng", "cat"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab \n\t.", max_size=12), max_size=6))
def test_pack_unpack_round_trip(segments):
    paragraphs, layout = pack(segments)
    assert all(p and p == p.strip() and "\n\n" not in p for p in paragraphs)
    assert unpack(paragraphs, layout) == segments


def test_real_translation_of_a_few_sentences(apertium_eng_spa):
    engine = ApertiumEngine(source_lang="en", target_lang="es")
    assert engine.name == "apertium_eng-spa" and engine.available()
    out = engine.translate(["The dog is happy.", "I have two houses.", "Delete the file"])
    assert "perro" in out[0] and "feliz" in out[0]
    assert "casas" in out[1]
    assert "Eliminar" in out[2] or "Borrar" in out[2]


def test_batch_stays_aligned_and_equals_one_process_per_segment_for_tricky_segments(apertium_eng_spa):
    engine = ApertiumEngine("eng-spa")
    batched = engine.translate(TRICKY)
    alone = [engine.translate([s])[0] for s in TRICKY]
    assert batched == alone
    assert batched[1] == "" and batched[2] == "   "
    assert batched[3].startswith("  ") and batched[3].endswith("  ")
    assert batched[4].count("\n") == 1 and "\n\n\n" in batched[5]
    assert "{0}" in batched[7] and batched[8].startswith("%s:")


def test_unknown_word_marks_are_optional(apertium_eng_spa):
    plain = ApertiumEngine("eng-spa").translate(["The xyzzyq runs %s"])[0]
    marked = ApertiumEngine("eng-spa", mark_unknown=True).translate(["The xyzzyq runs %s"])[0]
    assert "*xyzzyq" in marked and "*" not in plain and "%s" in plain


def test_batches_and_worker_processes_keep_order(apertium_eng_spa):
    segments = [f"I have {n} dogs" for n in range(1, 13)] + TRICKY
    one = ApertiumEngine("eng-spa").translate(segments)
    assert ApertiumEngine("eng-spa", batch_size=5).translate(segments) == one
    assert ApertiumEngine("eng-spa", batch_size=7, n_jobs=2).translate(segments) == one
    assert [s.split()[1] for s in one[:12]] == [str(n) for n in range(1, 13)]


def test_pivot_chain(apertium_eng_spa):
    require({"eng-cat", "cat-spa"} <= installed_modes().keys(), "apertium-eng-cat and apertium-spa-cat")
    engine = ApertiumEngine("eng-cat-spa", source_lang="en", target_lang="es")
    assert engine.name == "apertium_eng-cat-spa" and [m.name for m in engine.chain] == ["eng-cat", "cat-spa"]
    assert "perro" in engine.translate(["The dog is happy."])[0]
    assert ApertiumEngine("eng-cat,cat-spa").name == "apertium_eng-cat-spa"


def test_missing_pair_names_the_package(apertium_eng_spa, monkeypatch):
    # Hide fra<->spa in case the machine has apertium-fr-es installed.
    real = installed_modes()
    hidden = {name: mode for name, mode in real.items() if {mode.source, mode.target} != {"fra", "spa"}}
    monkeypatch.setattr("tmtprime.mt.apertium.installed_modes", lambda executable="apertium": hidden)
    with pytest.raises(ExternalToolError, match="no Apertium pair fra->spa is installed") as info:
        ApertiumEngine("fra-spa").check()
    if shutil.which("apt-cache"):
        assert "apertium-fr-es" in str(info.value)
    assert not ApertiumEngine(source_lang="fr", target_lang="es").available()


def test_pair_must_fit_the_languages(apertium_eng_spa):
    with pytest.raises(UsageError, match="translates eng->spa, but the languages are en->ca"):
        ApertiumEngine("eng-spa", source_lang="en", target_lang="ca").check()
    with pytest.raises(UsageError, match="not an installed mode|expected an installed mode"):
        ApertiumEngine("x").check()


def test_missing_apertium_program_is_a_clear_error():
    engine = create_engine("apertium", pair="eng-spa", executable="no-such-apertium-here")
    with pytest.raises(ExternalToolError, match="install the Debian package 'apertium'"):
        engine.translate(["Hello"])
    assert not engine.available()


@pytest.fixture
def fake_apertium(tmp_path):
    """An 'apertium' that upper-cases, but glues a paragraph containing MERGE to the next one."""
    script = tmp_path / "fake-apertium"
    script.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import sys
        if "-l" in sys.argv:
            print("  eng-spa")
            sys.exit(0)
        paragraphs = sys.stdin.read().rstrip("\\n").split("\\n\\n")
        out = ""
        for i, p in enumerate(paragraphs):
            out += p.upper()
            if i < len(paragraphs) - 1:
                out += " " if "MERGE" in p.upper() else "\\n\\n"
        sys.stdout.write(out + "\\n")
    """))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_a_misaligned_batch_is_split_until_alignment_is_certain(fake_apertium):
    segments = ["one", "two", "merge me", "four", "five", "six"]
    out = ApertiumEngine("eng-spa", executable=fake_apertium).translate(segments)
    assert out == ["ONE", "TWO", "MERGE ME", "FOUR", "FIVE", "SIX"]
