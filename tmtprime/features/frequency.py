"""General-domain word frequencies of 40+ languages, from the ``wordfreq`` package.

A project with no corpus of its own still knows how common each word is in
the language at large: ``wordfreq`` ships its frequency lists in the wheel (no
download at run time). Rare source words are hard to translate; a target with
words the target language hardly uses, or that are far more common in the
source language, has garbled or untranslated words. Frequencies are on the
Zipf scale (log10 of occurrences per billion words: 7 for "the", 0 unknown).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from tmtprime.errors import ResourceError
from tmtprime.tokens import is_word

FREQUENCY_NAMES = ("zipf_mean", "zipf_min", "unknown_share", "rare_share", "foreign_share")
_RARE_ZIPF = 3.0
"""Below this Zipf value (one in a million words) a word counts as rare."""
_FOREIGN_MARGIN = 1.0
"""A target word is foreign when it is this many Zipf units more common in the source language."""


def base_language(code: str) -> str:
    """``es``, ``es-ES``, ``es_MX`` -> ``es``: wordfreq's lists are per language."""
    return code.replace("_", "-").split("-")[0].lower()


@lru_cache(maxsize=8)
def frequency_table(lang: str) -> dict[str, float] | None:
    """word -> frequency (share of all words) of ``lang``, or None where wordfreq has no list."""
    import wordfreq  # loaded on first use: each list takes a few tenths of a second

    lang = base_language(lang)
    if lang not in wordfreq.available_languages("best"):
        return None
    return wordfreq.get_frequency_dict(lang, wordlist="best")


def has_frequencies(lang: str) -> bool:
    return frequency_table(lang) is not None


def _zipf(freq: float) -> float:
    return math.log10(freq) + 9.0 if freq > 0 else 0.0


def frequency_features(sentences: Sequence[Sequence[str]], lang: str, other_lang: str | None = None) -> np.ndarray:
    """Per sentence of lower-cased tokens, over its words (shape n x 5, :data:`FREQUENCY_NAMES`):
    mean and min Zipf frequency, share unknown to the list, share rare, and share more common
    in ``other_lang`` than in ``lang`` (0 where ``other_lang`` has no list or is the same).
    A sentence without words gets zeros."""
    table = frequency_table(lang)
    if table is None:
        raise ResourceError(f"no general word frequencies for language {lang!r} (wordfreq has none): leave the frequency features out")
    other = frequency_table(other_lang) if other_lang and base_language(other_lang) != base_language(lang) else None
    out = np.zeros((len(sentences), len(FREQUENCY_NAMES)))
    for i, sent in enumerate(sentences):
        words = [t for t in sent if is_word(t)]
        if not words:
            continue
        z = [_zipf(table.get(w, 0.0)) for w in words]
        out[i, 0] = sum(z) / len(z)
        out[i, 1] = min(z)
        out[i, 2] = sum(1 for v in z if v == 0.0) / len(z)
        out[i, 3] = sum(1 for v in z if v < _RARE_ZIPF) / len(z)
        if other is not None:
            out[i, 4] = sum(1 for w, v in zip(words, z) if _zipf(other.get(w, 0.0)) > v + _FOREIGN_MARGIN) / len(z)
    return out
