"""An interpolated Kneser-Ney trigram language model held in sorted numpy arrays.

The recommender scores every candidate (and every new source string) with a
model of the project's own TM: a candidate that reads like the translations the
team already approved (same terminology, same phrasing) is more likely to need
little post-editing. N-gram counts are kept as sorted int64 keys so scoring a
batch is a handful of ``searchsorted`` calls instead of a Python loop per token,
which is what makes 100,000-segment jobs affordable.

Smoothing: interpolated Kneser-Ney (Chen & Goodman 1998) with one absolute
discount per order, D = n1 / (n1 + 2 n2) from the count-of-counts, continuation
counts for the lower orders, and the unigram level interpolated with a uniform
distribution so that unknown words get a small, finite probability.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, repeat
from dataclasses import dataclass

import numpy as np

from tmtprime.errors import ModelError
from tmtprime.sorted_lookup import sorted_lookup, sorted_lookups

BOS, EOS, UNK = "<s>", "</s>", "<unk>"
_UNIFORM_WEIGHT = 0.01


def _discount(counts: np.ndarray) -> float:
    n1 = np.count_nonzero(counts == 1)
    n2 = np.count_nonzero(counts == 2)
    return float(n1 / (n1 + 2 * n2)) if n1 + n2 > 0 else 0.5


@dataclass
class _Level:
    """Counts of one order: n-gram keys with (continuation) counts, and per context
    the count total and the number of distinct continuations."""

    keys: np.ndarray
    counts: np.ndarray
    ctx_keys: np.ndarray
    ctx_totals: np.ndarray
    ctx_types: np.ndarray
    discount: float


class KneserNeyLM:
    """Interpolated Kneser-Ney trigram model over lower-cased tokens.

    ``fit(sentences)`` takes token lists; ``score(sentences)`` returns per-sentence
    log10 probabilities per token (including the end-of-sentence token) and
    the out-of-vocabulary rate.
    """

    order = 3

    def __init__(self) -> None:
        self.vocab_: dict[str, int] | None = None

    # -- training ---------------------------------------------------------
    def fit(self, sentences: Iterable[Sequence[str]]) -> KneserNeyLM:
        vocab: dict[str, int] = {BOS: 0, EOS: 1, UNK: 2}
        ids: list[int] = []
        for sent in sentences:
            ids.extend((0, 0))
            for tok in sent:
                ids.append(vocab.setdefault(tok, len(vocab)))
            ids.append(1)
        if len(vocab) <= 3:
            raise ModelError("cannot train a language model: the TM side is empty")
        self.vocab_ = vocab
        self._v = np.int64(len(vocab))
        arr = np.asarray(ids, dtype=np.int64)
        # trigram (u, v, w) positions: w is any token that is not a BOS pad.
        w_pos = np.nonzero(arr != 0)[0]
        u, v, w = arr[w_pos - 2], arr[w_pos - 1], arr[w_pos]
        tri, tri_counts = np.unique((u * self._v + v) * self._v + w, return_counts=True)
        self._tri = self._level(tri, tri_counts)
        # bigram continuation counts N1+(. v w): distinct trigram types ending in (v, w)
        bi, bi_counts = np.unique(tri % (self._v * self._v), return_counts=True)
        self._bi = self._level(bi, bi_counts)
        uni, uni_counts = np.unique(bi % self._v, return_counts=True)
        self._uni_p = np.zeros(int(self._v), dtype=np.float64)
        self._uni_p[uni] = uni_counts / uni_counts.sum()
        # mix with a uniform distribution over every predictable token (not <s>)
        self._uni_p = (1 - _UNIFORM_WEIGHT) * self._uni_p + _UNIFORM_WEIGHT / float(self._v - 1)
        self._uni_p[0] = 0.0
        return self

    def _level(self, keys: np.ndarray, counts: np.ndarray) -> _Level:
        ctx = keys // self._v
        ctx_keys, start = np.unique(ctx, return_index=True)
        totals = np.add.reduceat(counts, start)
        types = np.diff(np.append(start, len(keys)))
        return _Level(keys, counts, ctx_keys, totals, types, _discount(counts))

    # -- scoring ----------------------------------------------------------
    def _ids(self, sentences: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self.vocab_ is None:
            raise ModelError("the language model is not trained; call fit() first")
        vocab = self.vocab_
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        # each sentence: <s> <s> w1 .. wn </s>; owner -1 marks the padding
        padded = []
        for sent in sentences:
            padded.append(("<s>", "<s>"))
            padded.append(sent)
            padded.append(("</s>",))
        ids = np.fromiter(map(vocab.get, chain.from_iterable(padded), repeat(2)), dtype=np.int64)
        owner = np.repeat(np.arange(len(sentences)), lengths + 3)
        starts = np.concatenate(([0], np.cumsum(lengths + 3)[:-1]))
        owner[starts] = -1
        owner[starts + 1] = -1
        return ids, owner, np.arange(len(ids))

    def _interpolate(self, level: _Level, key: np.ndarray, lower: np.ndarray) -> np.ndarray:
        ctx = key // self._v
        count = sorted_lookup(level.keys, level.counts, key, 0).astype(np.float64)
        total, types = (v.astype(np.float64) for v in sorted_lookups(level.ctx_keys, (level.ctx_totals, level.ctx_types), ctx, 0))
        seen = total > 0
        safe = np.where(seen, total, 1.0)
        p = np.maximum(count - level.discount, 0) / safe + level.discount * types / safe * lower
        return np.where(seen, p, lower)

    def token_logprobs(self, sentences: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """log10 P of every predicted token, the sentence each belongs to, and whether it is unknown."""
        ids, owner, _ = self._ids(sentences)
        pos = np.nonzero(owner >= 0)[0]
        u, v, w = ids[pos - 2], ids[pos - 1], ids[pos]
        p1 = self._uni_p[w]
        p2 = self._interpolate(self._bi, v * self._v + w, p1)
        p3 = self._interpolate(self._tri, (u * self._v + v) * self._v + w, p2)
        return np.log10(p3), owner[pos], w == 2

    def score(self, sentences: Sequence[Sequence[str]]) -> np.ndarray:
        """Per sentence: [mean log10 P per token, min token log10 P, OOV rate] (shape n x 3)."""
        logp, owner, unk = self.token_logprobs(sentences)
        n = len(sentences)
        lengths = np.bincount(owner, minlength=n).astype(np.float64)
        out = np.empty((n, 3))
        out[:, 0] = np.bincount(owner, weights=logp, minlength=n) / lengths
        mins = np.full(n, np.inf)
        np.minimum.at(mins, owner, logp)
        out[:, 1] = mins
        # The end-of-sentence token is never unknown; do not count it in the rate.
        out[:, 2] = np.bincount(owner, weights=unk, minlength=n) / np.maximum(lengths - 1, 1)
        return out
