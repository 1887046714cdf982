"""The kernel library (issue 30): the scorer's kernels compiled once ahead of time, loaded without numba, scoring
exactly as numba's JIT and plain Python do; where it cannot be built, numba's JIT takes over after one line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.meteor.test_compiled_cache import _corpus_pairs, _corpus_table
from tmtprime.errors import Cancelled
from tmtprime.meteor import kernel_library, matchers
from tmtprime.meteor.compiled import compiled_in_use, library_in_use, use_compiled
from tmtprime.meteor.kernel_library import Native, argument_types
from tmtprime.meteor.scorer import Meteor
from tmtprime.progress import Reporter

ROOT = Path(__file__).resolve().parents[2]
_BIG = 300  # pairs of 10 words: 12,000 words x modules with two modules, enough for machine code


@pytest.fixture
def restore_mode() -> Iterator[None]:
    before = compiled_in_use()
    yield
    use_compiled(before)


@pytest.fixture
def natives_run(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Names of the library functions that ran (their arguments fitted)."""
    ran: set[str] = set()
    fits = Native.fits

    def spy(self: Native, args: tuple) -> bool:
        ok = fits(self, args)
        if ok:
            ran.add(self.func.__name__)
        return ok

    monkeypatch.setattr(Native, "fits", spy)
    return ran


def _scores(meteor: Meteor, hyps: list[str], refs: list[list[str]]) -> list[tuple]:
    return [(s.score, s.stats.to_list(), s.alignment) for s in meteor.score_each(hyps, refs)]


@pytest.mark.parametrize("lang, modules", [("en", ("exact", "stem", "synonym", "paraphrase")), ("es", ("exact", "stem")),
                                           ("de", ("exact", "stem", "paraphrase"))])  # fmt: skip
def test_the_library_scores_as_numba_and_plain_python_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_mode: None, natives_run: set[str],
    lang: str, modules: tuple[str, ...],
) -> None:  # fmt: skip
    hyps, refs = _corpus_pairs(lang)
    table = _corpus_table(tmp_path, hyps, refs) if "paraphrase" in modules else None
    use_compiled()  # the session's cache holds the library (tests/meteor/conftest.py built it)
    assert library_in_use()
    library = _scores(Meteor(lang, modules=modules, paraphrase_table=table), hyps, refs)
    expected = {"matchers__equal_key_matches__0", "stats__segment_stats__0", "aligner__search_all__0"}
    if "synonym" in modules:
        expected.add("matchers__shared_set_matches__0")
    if "paraphrase" in modules:
        expected |= {"paraphrase_lookup__known_phrases__0", "paraphrase_lookup__listed_pairs__0"}
    assert expected <= natives_run
    monkeypatch.setenv("TMTPRIME_CACHE_DIR", str(tmp_path / "fresh-cache"))  # no library there: numba's JIT
    use_compiled()
    assert compiled_in_use() and not library_in_use()
    jit = _scores(Meteor(lang, modules=modules, paraphrase_table=table), hyps, refs)
    use_compiled(False)
    python = _scores(Meteor(lang, modules=modules, paraphrase_table=table), hyps, refs)
    assert library == jit == python
    assert sum(len(a) for _s, _st, a in library) > len(hyps)  # words were aligned: the comparison is not vacuous


def test_a_call_with_other_types_runs_in_numba_not_in_the_library(restore_mode: None, natives_run: set[str]) -> None:
    use_compiled()
    assert library_in_use()
    ids, offsets = np.array([0, 1, 2, 1], np.int64), np.array([0, 2, 4], np.int64)
    keys = np.array([5, 6, 7], np.int64)
    exact = matchers._equal_key_matches(ids, offsets, ids[::-1].copy(), offsets, keys, keys, False, 0)
    assert natives_run == {"matchers__equal_key_matches__0"}
    natives_run.clear()
    narrow = matchers._equal_key_matches(ids.astype(np.int32), offsets, ids[::-1].copy(), offsets, keys, keys, False, 0)
    assert natives_run == set()  # int32 ids: the machine code would read them as int64 garbage
    assert np.array_equal(exact, narrow) and len(exact) == 2


def test_signatures_are_read_for_the_argument_checks() -> None:
    assert argument_types("Tuple((int64[:], int64[:]))(int64[:,:], int64[:], boolean[:], int64)") == [
        ("int64", 2), ("int64", 1), ("boolean", 1), ("int64", 0)]  # fmt: skip
    assert argument_types("uint64(uint32[:], uint64, boolean)") == [("uint32", 1), ("uint64", 0), ("boolean", 0)]
    native = Native(len, "int64(int64[:], boolean, int64)")  # type: ignore[arg-type]
    assert native.fits((np.zeros(2, np.int64), True, 3))
    assert not native.fits((np.zeros(2, np.int64), True, True))  # a bool is not a count
    assert not native.fits((np.zeros((2, 2), np.int64), True, 3))
    assert not native.fits(([1, 2], True, 3))
    with pytest.raises(ValueError, match="unsupported argument type"):
        argument_types("int64(list(int64))")


def _env(cache: Path | None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=str(ROOT), **extra)
    if cache is not None:
        env["TMTPRIME_CACHE_DIR"] = str(cache)
    return env


def _big_files(tmp_path: Path) -> tuple[Path, Path]:
    hyp, ref = tmp_path / "big.hyp", tmp_path / "big.ref"
    hyp.write_text("".join(f"the quick brown fox {k} jumps over the lazy dog\n" for k in range(_BIG)), encoding="utf-8")
    ref.write_text("".join(f"a quick brown fox {k} jumped over the lazy dogs\n" for k in range(_BIG)), encoding="utf-8")
    return hyp, ref


_RUN = """
import sys
from tmtprime.cli import main
status = main(['meteor', sys.argv[1], sys.argv[2], '-l', 'en', '-m', 'exact stem', '-q'])
print(status, 'numba' in sys.modules, file=sys.stderr)
"""


def test_a_command_with_the_library_built_never_imports_numba(tmp_path: Path) -> None:
    hyp, ref = _big_files(tmp_path)
    cache = os.environ.get("TMTPRIME_CACHE_DIR")  # the session's, where conftest built the library
    out = subprocess.run([sys.executable, "-c", _RUN, str(hyp), str(ref)], env=_env(Path(cache) if cache else None),
                         capture_output=True, text=True, check=True)  # fmt: skip
    expected = Meteor("en", modules=("exact", "stem")).corpus_score(
        hyp.read_text(encoding="utf-8").splitlines(), [ref.read_text(encoding="utf-8").splitlines()])
    assert float(out.stdout) == expected.score
    assert out.stderr.splitlines()[-1] == "0 False"


def test_without_a_compiler_numba_takes_over_after_one_line_and_it_is_not_tried_again(tmp_path: Path) -> None:
    hyp, ref = _big_files(tmp_path)
    env = _env(tmp_path / "cache", CC="/bin/false", LDSHARED="/bin/false")
    cmd = [sys.executable, "-m", "tmtprime", "meteor", str(hyp), str(ref), "-l", "en", "-m", "exact stem"]
    first = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    said = first.stderr.splitlines()
    assert len(said) == 2 and said[0].startswith("compiling the Meteor scorer once"), said
    assert said[1].startswith("could not compile the Meteor scorer ahead of time (") and "numba compiles it" in said[1]
    assert [p.suffix for p in (tmp_path / "cache" / "kernels").iterdir() if not p.name.startswith(".")] == [".failed"]
    again = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == first.stdout
    assert "Final score:" in first.stdout


class _CancelAtOnce(Reporter):
    def check(self) -> None:
        raise Cancelled("cancelled")


def test_cancelling_the_build_stops_the_compiler_and_keeps_nothing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TMTPRIME_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(Cancelled):
        kernel_library.build(_CancelAtOnce())
    assert list((tmp_path / "cache" / "kernels").iterdir()) == []  # no library, no failure note, no build dir
    assert kernel_library.failure() is None


def test_a_damaged_library_is_not_loaded_and_makes_way_for_a_new_build(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TMTPRIME_CACHE_DIR", str(tmp_path / "cache"))
    path = kernel_library._library_file(kernel_library.library_dir(), kernel_library._name())
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x7fELF but truncated")
    monkeypatch.delitem(sys.modules, kernel_library._name(), raising=False)  # as in a new process
    assert kernel_library.load() is None
    assert not path.exists()


def test_a_new_build_drops_this_environments_older_libraries_only(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TMTPRIME_CACHE_DIR", str(tmp_path / "cache"))
    directory = kernel_library.library_dir()
    directory.mkdir(parents=True)
    mine, keep = kernel_library._name(), "tmtprime_kernels_0123abcd_feedfacefeedface.so"  # another environment's
    older = f"{mine.rsplit('_', 1)[0]}_0000000000000000"
    for name in (f"{older}.so", f"{older}.failed", f"{mine}.so", keep):
        (directory / name).write_bytes(b"")
    kernel_library._drop_others(directory, mine)
    assert sorted(p.name for p in directory.iterdir()) == sorted([f"{mine}.so", keep])
