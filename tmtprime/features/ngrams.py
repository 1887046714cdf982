"""Which word n-grams of a text the TM targets already contain.

A candidate built from phrases the team has already approved (same
terminology, same word order for the same constructions) tends to need less
post-editing than one that reads fluently but phrases things its own way.
The trigram LM blurs this with smoothing; the plain share of a candidate's
2-, 3- and 4-grams found verbatim in the TM targets says it directly.

N-grams are stored as 64-bit hashes of their word ids in one sorted array per
order, so a batch of 100,000 segments is a few ``searchsorted`` calls; with a
few million n-grams the chance that a hash collision makes an unseen n-gram
count as seen is below 1e-6 per query.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, repeat

import numpy as np

from tmtprime.errors import ModelError

ORDERS = (2, 3, 4)
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # odd 64-bit constant (golden ratio): mixes ids when wrapping


def _hashes(ids: np.ndarray, owner: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Hashes of every n-gram inside one sentence (no unknown word), and the sentence of each."""
    if len(ids) < n:
        return np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.int64)
    starts = np.arange(len(ids) - n + 1)
    ok = owner[starts] == owner[starts + n - 1]
    key = np.zeros(len(starts), dtype=np.uint64)
    for k in range(n):
        part = ids[starts + k]
        ok &= part >= 0
        key = key * _MULTIPLIER + part.astype(np.uint64)
    return key[ok], owner[starts][ok]


class NgramSet:
    """The set of word n-grams (orders :data:`ORDERS`) of a corpus of token lists."""

    def __init__(self) -> None:
        self.vocab_: dict[str, int] | None = None

    def fit(self, sentences: Iterable[Sequence[str]]) -> NgramSet:
        vocab: dict[str, int] = {}
        sentences = list(sentences)
        ids = np.fromiter((vocab.setdefault(t, len(vocab)) for t in chain.from_iterable(sentences)), dtype=np.int64)
        owner = np.repeat(np.arange(len(sentences)), [len(s) for s in sentences])
        self.vocab_ = vocab
        self.keys_ = {n: np.unique(_hashes(ids, owner, n)[0]) for n in ORDERS}
        return self

    def coverage(self, sentences: Sequence[Sequence[str]]) -> np.ndarray:
        """Per sentence and order: the share of its n-grams found in the corpus (shape n x 3).

        A sentence too short to have n-grams of an order gets 1.0 there:
        nothing in it is new phrasing.
        """
        if self.vocab_ is None:
            raise ModelError("the n-gram set is not built; call fit() first")
        ids = np.fromiter(map(self.vocab_.get, chain.from_iterable(sentences), repeat(-1)), dtype=np.int64)
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        owner = np.repeat(np.arange(len(sentences)), lengths)
        out = np.ones((len(sentences), len(ORDERS)))
        for j, n in enumerate(ORDERS):
            keys, where = _hashes(ids, owner, n)
            table = self.keys_[n]
            pos = np.minimum(np.searchsorted(table, keys), max(len(table) - 1, 0))
            seen = table[pos] == keys if len(table) else np.zeros(len(keys), dtype=bool)
            total = np.maximum(lengths - n + 1, 0)
            has = total > 0
            out[has, j] = np.bincount(where, weights=seen, minlength=len(sentences))[has] / total[has]
        return out
