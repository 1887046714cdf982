"""IBM Model 1 lexical translation probabilities, trained by EM in numpy.

A candidate whose words are likely translations of the source words (as the
project's own TM translates them) is more likely to be adequate; the reverse
direction catches source words that the candidate leaves untranslated. The
model is trained on the TM at hand, so it also knows the team's terminology.

All (source word, target word) co-occurrences of the corpus are flattened into
arrays once; an EM iteration is then three ``bincount`` calls (Brown et al.
1993, Model 1, with a NULL source word).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tmtprime.errors import ModelError
from tmtprime.features._lookup import sorted_lookup

NULL = "<null>"
_FLOOR = 1e-7
_MAX_LEN = 60  # longer TM units (whole paragraphs) add cost and little lexical signal


def _encode(sentences: Sequence[Sequence[str]], vocab: dict[str, int], grow: bool) -> tuple[np.ndarray, np.ndarray]:
    """All tokens as one id array (unknown words -1 unless ``grow``) and the sentence lengths."""
    lookup = (lambda t: vocab.setdefault(t, len(vocab))) if grow else (lambda t: vocab.get(t, -1))
    ids = np.fromiter((lookup(t) for sent in sentences for t in sent), dtype=np.int64)
    return ids, np.fromiter((len(s) for s in sentences), dtype=np.int64, count=len(sentences))


def _pairs(src: tuple[np.ndarray, np.ndarray], tgt: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, ...]:
    """Every (source word, target word) pair of every sentence pair, flattened.

    Each source sentence gets a NULL word (id 0) in front. Returns f ids, e ids,
    the global target position of each pair, the global source position
    (NULL included) and the per-sentence source lengths with NULL.
    """
    s_ids, s_len = src
    t_ids, t_len = tgt
    n = len(s_len)
    ls = s_len + 1
    # source array with NULL in front of each sentence
    with_null = np.zeros(int(ls.sum()), dtype=np.int64)
    ls_start = np.concatenate(([0], np.cumsum(ls)[:-1]))
    word_slots = np.ones(len(with_null), dtype=bool)
    word_slots[ls_start] = False
    with_null[word_slots] = s_ids
    t_start = np.concatenate(([0], np.cumsum(t_len)[:-1]))
    sizes = ls * t_len
    total = int(sizes.sum())
    pair = np.repeat(np.arange(n), sizes)
    k = np.arange(total) - np.repeat(np.concatenate(([0], np.cumsum(sizes)[:-1])), sizes)
    f_local = k % ls[pair]
    e_pos = t_start[pair] + k // ls[pair]
    s_pos = ls_start[pair] + f_local
    return with_null[s_pos], t_ids[e_pos], e_pos, s_pos, ls


class IBMModel1:
    """t(e | f) for target words e given source words f.

    ``fit(sources, targets)`` trains on parallel token lists; ``score`` returns per
    pair the mean log10 P(e_j | f) over target words and the share of source
    words that have a likely translation (t >= ``coverage_threshold``) in the target.
    """

    def __init__(self, iterations: int = 5, coverage_threshold: float = 0.1) -> None:
        self.iterations = iterations
        self.coverage_threshold = coverage_threshold
        self.src_vocab_: dict[str, int] | None = None

    def fit(self, sources: Sequence[Sequence[str]], targets: Sequence[Sequence[str]]) -> IBMModel1:
        keep = [i for i, (s, t) in enumerate(zip(sources, targets)) if 0 < len(s) <= _MAX_LEN and 0 < len(t) <= _MAX_LEN]
        if not keep:
            raise ModelError("cannot train a lexical model: the TM has no usable sentence pairs")
        src_vocab: dict[str, int] = {NULL: 0}
        tgt_vocab: dict[str, int] = {}
        src = _encode([sources[i] for i in keep], src_vocab, grow=True)
        tgt = _encode([targets[i] for i in keep], tgt_vocab, grow=True)
        f, e, pos, _, _ = _pairs(src, tgt)
        n_e = np.int64(len(tgt_vocab))
        keys, inverse = np.unique(f * n_e + e, return_inverse=True)
        key_f = keys // n_e
        t = np.ones(len(keys))  # uniform start: the first E-step only needs proportionality
        for _ in range(self.iterations):
            p = t[inverse]
            norm = np.bincount(pos, weights=p)
            counts = np.bincount(inverse, weights=p / norm[pos], minlength=len(keys))
            totals = np.bincount(key_f, weights=counts, minlength=len(src_vocab))
            t = counts / totals[key_f]
        self.src_vocab_, self.tgt_vocab_ = src_vocab, tgt_vocab
        self._n_e = n_e
        self._keys, self._t = keys, t
        return self

    def _probs(self, f: np.ndarray, e: np.ndarray) -> np.ndarray:
        key = np.where((f >= 0) & (e >= 0), f * self._n_e + e, -1)
        return sorted_lookup(self._keys, self._t, key, _FLOOR)

    def score(self, sources: Sequence[Sequence[str]], targets: Sequence[Sequence[str]]) -> np.ndarray:
        """Per pair: [mean log10 P(e_j|f) over target words, source coverage, target coverage].

        Source coverage: share of source words f with some target word e of
        t(e|f) >= threshold; target coverage: share of target words explained
        that well by some source word (NULL excluded).
        """
        if self.src_vocab_ is None:
            raise ModelError("the lexical model is not trained; call fit() first")
        n = len(sources)
        src = _encode(sources, self.src_vocab_, grow=False)
        tgt = _encode(targets, self.tgt_vocab_, grow=False)
        out = np.zeros((n, 3))
        f, e, pos, s_pos, src_len = _pairs(src, tgt)
        if len(f) == 0:
            return out
        p = self._probs(f, e)
        tgt_len = tgt[1]
        pair_of_pos = np.repeat(np.arange(n), tgt_len)
        n_pos = int(tgt_len.sum())
        per_e = np.bincount(pos, weights=p, minlength=n_pos) / src_len[pair_of_pos]
        out[:, 0] = np.bincount(pair_of_pos, weights=np.log10(per_e), minlength=n) / np.maximum(tgt_len, 1)
        good = (p >= self.coverage_threshold) & (f != 0)
        e_good = np.bincount(pos, weights=good, minlength=n_pos) > 0
        out[:, 2] = np.bincount(pair_of_pos, weights=e_good, minlength=n) / np.maximum(tgt_len, 1)
        # a source token is covered when some target word translates it well (NULL slots never are)
        covered = np.bincount(s_pos, weights=good, minlength=int(src_len.sum())) > 0
        src_pair = np.repeat(np.arange(n), src_len)
        out[:, 1] = np.bincount(src_pair, weights=covered, minlength=n) / np.maximum(src_len - 1, 1)
        return out

    def best_translation_prob(self, words: Sequence[str], target: Sequence[str]) -> np.ndarray:
        """For each source word, max t(e|word) over the target words (0 if target is empty)."""
        if not words or not target:
            return np.zeros(len(words))
        f = np.array([self.src_vocab_.get(w, -1) for w in words], dtype=np.int64)
        e = np.array([self.tgt_vocab_.get(w, -1) for w in target], dtype=np.int64)
        p = self._probs(np.repeat(f, len(e)), np.tile(e, len(f)))
        return p.reshape(len(f), len(e)).max(axis=1)
