"""The scorer's kernels: plain Python until a batch pays for numba, then machine code cached in TMTprime's
per-user cache directory, not in site-packages (issue 30); both give the same scores."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.meteor.test_paraphrase import write_table
from tmtprime.meteor import compiled
from tmtprime.meteor.compiled import compiled_in_use, use_compiled, want_compiled
from tmtprime.meteor.scorer import Meteor

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "meteor" / "fixtures" / "corpus"

_SNIPPET = """
from tmtprime.meteor.compiled import compiled, use_compiled

def add(a, b):
    return a + b

use_compiled()
print(compiled(add)(2, 3))
"""


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(TMTPRIME_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    return env


@pytest.fixture
def restore_mode() -> Iterator[None]:
    before = compiled_in_use()
    yield
    use_compiled(before)


def test_compiled_code_is_cached_in_the_user_cache_dir(tmp_path: Path) -> None:
    script = tmp_path / "snippet.py"
    script.write_text(_SNIPPET, encoding="utf-8")
    out = subprocess.run([sys.executable, str(script)], env=_env(tmp_path), capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "5"
    cached = [p.name for p in (tmp_path / "cache" / "numba").rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert any(name.endswith(".nbi") for name in cached) and any(name.endswith(".nbc") for name in cached), cached
    assert not list(tmp_path.glob("__pycache__/*.nb*"))  # nothing beside the source


_HEAVY = ("numba", "scipy", "sklearn", "matplotlib", "sqlalchemy", "nltk")
_ONE_PAIR = """
import sys
from tmtprime.meteor import Meteor
print(Meteor("es", modules=["exact", "stem"]).sentence_score("el gato negro", "los gatos negros").score)
print(sorted(m for m in sys.modules if m.split(".")[0] in {heavy!r}))
"""


def test_one_pair_in_the_library_loads_neither_numba_nor_scipy(tmp_path: Path) -> None:
    code = _ONE_PAIR.format(heavy=set(_HEAVY))
    out = subprocess.run([sys.executable, "-c", code], env=_env(tmp_path), capture_output=True, text=True, check=True)
    score, loaded = out.stdout.splitlines()
    assert 0 < float(score) < 1 and loaded == "[]"


def test_the_command_on_one_pair_loads_nothing_heavy(tmp_path: Path) -> None:
    """``tmtprime meteor`` skips the other commands' modules (``report`` imports matplotlib and the store)."""
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\n", encoding="utf-8")
    ref.write_text("a cat sat on the mat\n", encoding="utf-8")
    code = (
        "import sys\nfrom tmtprime.cli import main\n"
        f"status = main(['meteor', {str(hyp)!r}, {str(ref)!r}, '-l', 'en', '-norm', '-q'])\n"
        f"print(status, sorted(m for m in sys.modules if m.split('.')[0] in {set(_HEAVY)!r}), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=_env(tmp_path), capture_output=True, text=True, check=True)
    expected = Meteor("en").sentence_score("the cat sat on the mat", "a cat sat on the mat").score
    assert float(out.stdout) == expected
    assert out.stderr.splitlines()[-1] == "0 []"


def test_machine_code_is_loaded_once_the_work_would_have_paid_for_it(restore_mode: None) -> None:
    use_compiled(False)
    want_compiled(compiled.COMPILE_FROM // 4 - 1, 4)
    assert not compiled_in_use()
    want_compiled(1, 4)  # small batches add up: a pair-by-pair loop gets there too
    assert compiled_in_use()
    use_compiled(False)  # counts afresh
    want_compiled(compiled.COMPILE_FROM // 2, 1)
    assert not compiled_in_use()
    use_compiled(False)
    want_compiled(compiled.COMPILE_FROM // 2, 2)  # one big batch
    assert compiled_in_use()


def test_scoring_pair_by_pair_ends_up_in_machine_code(restore_mode: None) -> None:
    use_compiled(False)
    meteor = Meteor("en", modules=("exact", "stem"))
    for k in range(compiled.COMPILE_FROM // (2 * 12) + 1):  # 12 tokens, 2 modules; distinct pairs (a repeated
        meteor.sentence_score(f"the cat sat on mat {k}", f"a cat sat on a {k}")  # one is not matched again)
    assert compiled_in_use()


def _corpus_pairs(lang: str) -> tuple[list[str], list[list[str]]]:
    hyps = (CORPUS / f"{lang}.hyp").read_text(encoding="utf-8").splitlines()
    refs = (CORPUS / f"{lang}.ref").read_text(encoding="utf-8").splitlines()
    return hyps, [[r] for r in refs]


def _results(meteor: Meteor, hyps: list[str], refs: list[list[str]], machine_code: bool) -> list[tuple]:
    use_compiled(machine_code)
    return [(s.score, s.stats.to_list(), s.alignment) for s in meteor.score_each(hyps, refs)]


def _corpus_table(tmp_path: Path, hyps: list[str], refs: list[list[str]]) -> Path:
    """Paraphrases between overlapping n-grams of the corpus pairs, so that the search has ties to break."""
    rows = []
    for k, (h, (r,)) in enumerate(zip(hyps[:120], refs[:120])):
        hw, rw = h.lower().split(), r.lower().split()
        for n in (1, 2, 3):
            if len(hw) > n and len(rw) > n:
                rows.append((f"{0.9 / n:.3f}", " ".join(hw[k % (len(hw) - n) :][:n]), " ".join(rw[: n + k % 2])))
    return write_table(tmp_path / "para.gz", rows)


@pytest.mark.parametrize("lang, modules", [("en", ("exact", "stem", "synonym", "paraphrase")), ("es", ("exact", "stem")),
                                           ("de", ("exact", "stem", "paraphrase"))])  # fmt: skip
def test_plain_python_and_machine_code_score_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_mode: None, lang: str, modules: tuple[str, ...]
) -> None:
    monkeypatch.setenv("TMTPRIME_CACHE_DIR", str(tmp_path / "cache"))
    hyps, refs = _corpus_pairs(lang)
    table = _corpus_table(tmp_path, hyps, refs) if "paraphrase" in modules else None
    meteor = Meteor(lang, modules=modules, paraphrase_table=table)
    monkeypatch.setattr(compiled, "COMPILE_FROM", 10**12)  # the mode set below stays
    python = _results(meteor, hyps, refs, machine_code=False)
    machine = _results(meteor, hyps, refs, machine_code=True)
    assert python == machine
    assert sum(len(a) for _s, _st, a in python) > len(hyps)  # words were aligned: the comparison is not vacuous
