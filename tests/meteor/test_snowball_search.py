"""The dictionary lookups of snowball_search stem every word as Snowball's own binary search does (issue 30)."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from tmtprime.meteor import stemmers

FIXTURES = Path(__file__).parent / "fixtures"
SPANISH_DEV = Path("/work/shared/data/tm_l10n_en-es/update/dev.tsv.gz")
LANGUAGES = sorted(stemmers.SNOWBALL_LANGUAGES - {"english"})


def _fuzzed(name: str, n: int, seed: int) -> list[str]:
    """Words built from the stemmer's own table strings (suffixes and prefixes, chained) after random letters:
    every table is searched with hits, near misses and fallbacks."""
    cls = stemmers._snowball_class("dutch_porter" if name == "dutch" else name)
    strings = sorted({a.s for t in vars(cls).values() if isinstance(t, list) for a in t if hasattr(a, "s")})
    letters = sorted(set("".join(strings)) | set("aeiouybcdfglmnrst"))
    rng = random.Random(seed)
    words = []
    for _ in range(n):
        word = "".join(rng.choice(letters) for _ in range(rng.randint(0, 7)))
        word += "".join(rng.choice(strings) for _ in range(rng.randint(0, 3)))
        words.append(word.upper() if rng.random() < 0.05 else word)
    return words


def _fixture_words() -> list[str]:
    with open(FIXTURES / "stems.tsv", encoding="utf-8") as f:
        return [line.split("\t")[1] for line in f if not line.startswith("#")]


@pytest.mark.parametrize("name", LANGUAGES)
def test_dictionary_search_stems_as_snowball(name: str) -> None:
    words = _fixture_words() + _fuzzed(name, 6000, seed=len(name))
    slow, fast = stemmers._snowball(name, fast=False), stemmers._snowball(name)
    assert [fast(w) for w in words] == [slow(w) for w in words]


def test_dictionary_search_changes_stems() -> None:
    """The comparison above compares two different searches: the fast one is in use."""
    modules = [stemmers._snowball("spanish", fast=f).__self__.find_among_b.__module__ for f in (True, False)]
    assert modules == ["tmtprime.meteor.snowball_search", "_tmtprime_snowball.basestemmer"]


@pytest.mark.skipif(not SPANISH_DEV.exists(), reason="shared data not present")
def test_spanish_parity_words() -> None:
    """Every word of the 2,000 Spanish parity pairs (bench/meteor_speed.py --part spanish) and more."""
    with gzip.open(SPANISH_DEV, "rt", encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    words = sorted({w for row in rows[1:] for cell in row for w in cell.split()})
    slow, fast = stemmers._snowball("spanish", fast=False), stemmers._snowball("spanish")
    assert [fast(w) for w in words] == [slow(w) for w in words]
