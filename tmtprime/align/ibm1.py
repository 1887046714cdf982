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
from itertools import chain, repeat

import numpy as np
from scipy.sparse import csc_matrix, csr_matrix

from tmtprime.errors import ModelError
from tmtprime.sorted_lookup import sorted_lookup

NULL = "<null>"
_FLOOR = 1e-7
_MAX_LEN = 60
_TABLE_MIN = 1e-3  # t-table entries kept for scoring  # longer TM units (whole paragraphs) add cost and little lexical signal


def _encode(sentences: Sequence[Sequence[str]], vocab: dict[str, int], grow: bool) -> tuple[np.ndarray, np.ndarray]:
    """All tokens as one id array (unknown words -1 unless ``grow``) and the sentence lengths."""
    tokens = chain.from_iterable(sentences)
    if grow:
        ids = np.fromiter((vocab.setdefault(t, len(vocab)) for t in tokens), dtype=np.int64)
    else:
        ids = np.fromiter(map(vocab.get, tokens, repeat(-1)), dtype=np.int64)
    return ids, np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))


def _distinct_encoded(sentences: Sequence[Sequence[str]], vocab: dict[str, int]) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Each sentence's number among the distinct ones (first-seen order) and the
    :func:`_encode` ids and lengths of the distinct sentences."""
    number: dict[tuple[str, ...], int] = {}
    of = np.fromiter((number.setdefault(tuple(s), len(number)) for s in sentences), dtype=np.int64, count=len(sentences))
    return of, _encode(list(number), vocab, grow=False)


def _expand(ids: np.ndarray, lengths: np.ndarray, of: np.ndarray) -> np.ndarray:
    """The token ids of sentences ``of`` (numbers into the sentences ``ids``/``lengths`` encode), concatenated."""
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    wanted = lengths[of]
    first = np.concatenate(([0], np.cumsum(wanted)[:-1]))
    return ids[np.arange(int(wanted.sum())) + np.repeat(starts[of] - first, wanted)]


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


def _bag(rows: np.ndarray, ids: np.ndarray, shape: tuple[int, int]) -> csr_matrix:
    """Sparse bag-of-words counts (known words only) of each pair."""
    known = ids >= 0
    return csr_matrix((np.ones(int(known.sum())), (rows[known], ids[known])), shape=shape)


def _binary(matrix: csr_matrix) -> csr_matrix:
    out = matrix.copy()
    out.data[:] = 1.0
    return out


def _lookup_product(left: csr_matrix, right: csc_matrix, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """(left @ right)[rows, cols] (0 where absent or the column is unknown, i.e. -1).

    Only the columns asked for are multiplied: ``right`` is column-sliced
    (CSC) to the target words of the batch first, so the product holds the
    batch's words instead of every translation of every source word — the same
    values at about half the cost of the full product, whose sorting dominated.
    """
    asked = np.unique(cols[cols >= 0])
    product = csr_matrix(left @ right[:, asked])
    product.sum_duplicates()  # canonical: sorted column indices within each row
    n_cols = np.int64(len(asked))
    keys = np.repeat(np.arange(product.shape[0], dtype=np.int64), np.diff(product.indptr)) * n_cols + product.indices
    query = np.where(cols >= 0, rows * n_cols + np.searchsorted(asked, cols), -1)
    return sorted_lookup(keys, product.data, query, 0.0)


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
        # sparse t(e|f) table for batch scoring (tiny probabilities fall to the floor)
        kept = t >= _TABLE_MIN
        shape = (len(src_vocab), int(n_e))
        self._table = csc_matrix((t[kept], (key_f[kept], keys[kept] % n_e)), shape=shape)
        good = csr_matrix(((t >= self.coverage_threshold).astype(np.float64), (key_f, keys % n_e)), shape=shape)
        good.eliminate_zeros()
        self._good, self._good_t = csc_matrix(good), csc_matrix(good.T)  # column-sliced per batch
        return self

    def _probs(self, f: np.ndarray, e: np.ndarray) -> np.ndarray:
        key = np.where((f >= 0) & (e >= 0), f * self._n_e + e, -1)
        return sorted_lookup(self._keys, self._t, key, _FLOOR)

    def score(self, sources: Sequence[Sequence[str]], targets: Sequence[Sequence[str]]) -> np.ndarray:
        """Per pair: [mean log10 P(e_j|f) over target words, source coverage, target coverage].

        P(e_j | f) = (sum over source words and NULL of t(e_j|f_i)) / (l + 1).
        Source coverage: share of source words f with some target word e of
        t(e|f) >= threshold; target coverage: share of target words explained
        that well by some source word (NULL excluded). Computed with sparse
        products (distinct sentences x vocabulary) @ t-table, so the cost grows
        with the words of the sentences, not with the product of their lengths.
        """
        if self.src_vocab_ is None:
            raise ModelError("the lexical model is not trained; call fit() first")
        n = len(sources)
        out = np.zeros((n, 3))
        if n == 0:
            return out
        # The products run over the distinct sentences of each side: the extractor pairs
        # a segment's source with each of its candidates, and identical MT outputs recur.
        src_of, (s_ids_u, s_len_u) = _distinct_encoded(sources, self.src_vocab_)
        tgt_of, (t_ids_u, t_len_u) = _distinct_encoded(targets, self.tgt_vocab_)
        n_src, n_tgt = len(s_len_u), len(t_len_u)
        s_ids, s_len = _expand(s_ids_u, s_len_u, src_of), s_len_u[src_of]
        t_ids, t_len = _expand(t_ids_u, t_len_u, tgt_of), t_len_u[tgt_of]
        s_pair = np.repeat(np.arange(n), s_len)
        t_pair = np.repeat(np.arange(n), t_len)
        src_bag = _bag(np.repeat(np.arange(n_src), s_len_u), s_ids_u, (n_src, len(self.src_vocab_)))
        with_null = src_bag + csr_matrix((np.ones(n_src), (np.arange(n_src), np.zeros(n_src, dtype=np.int64))), shape=src_bag.shape)
        # log P(e_j | source) for every target token
        mass = _lookup_product(with_null, self._table, src_of[t_pair], t_ids)
        per_e = (mass + _FLOOR) / (s_len[t_pair] + 1)
        out[:, 0] = np.bincount(t_pair, weights=np.log10(per_e), minlength=n) / np.maximum(t_len, 1)
        # target coverage: some source word translates the target token well
        tgt_good = _lookup_product(_binary(src_bag), self._good, src_of[t_pair], t_ids) > 0
        out[:, 2] = np.bincount(t_pair, weights=tgt_good, minlength=n) / np.maximum(t_len, 1)
        # source coverage: some target word is a good translation of the source token
        tgt_bag = _binary(_bag(np.repeat(np.arange(n_tgt), t_len_u), t_ids_u, (n_tgt, int(self._n_e))))
        src_good = _lookup_product(tgt_bag, self._good_t, tgt_of[s_pair], s_ids) > 0
        out[:, 1] = np.bincount(s_pair, weights=src_good, minlength=n) / np.maximum(s_len, 1)
        return out

    def link_probabilities(self, sources: Sequence[Sequence[str]], targets: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """Per pair, the matrix t(e_j | f_i): one row per target word, column 0 for NULL, then the source words.

        What a word aligner needs (e.g. :mod:`tmtprime.meteor.phrase_extract`); unknown words get the floor.
        """
        if self.src_vocab_ is None:
            raise ModelError("the lexical model is not trained; call fit() first")
        f, e, _pos, _s_pos, src_len = _pairs(_encode(sources, self.src_vocab_, grow=False), _encode(targets, self.tgt_vocab_, grow=False))
        p = self._probs(f, e)
        sizes = src_len * np.fromiter(map(len, targets), dtype=np.int64, count=len(targets))
        blocks = np.split(p, np.cumsum(sizes)[:-1])
        return [b.reshape(-1, int(n)) for b, n in zip(blocks, src_len.tolist())]

    def translation_mass(self, words: Sequence[Sequence[str]], targets: Sequence[Sequence[str]]) -> np.ndarray:
        """Per pair: the sum over ``words`` of max t(e | word) over the ``target``'s words.

        How much of the given source words the target translates — e.g. the
        words deleted from a TM source whose translations linger in the TM target.
        """
        if self.src_vocab_ is None:
            raise ModelError("the lexical model is not trained; call fit() first")
        n = len(words)
        out = np.zeros(n)
        f, e, _pos, s_pos, src_len = _pairs(_encode(words, self.src_vocab_, grow=False), _encode(targets, self.tgt_vocab_, grow=False))
        if len(f) == 0:
            return out
        p = np.where(f == 0, 0.0, self._probs(f, e))  # NULL translates nothing here
        best = np.zeros(int(src_len.sum()))
        np.maximum.at(best, s_pos, p)
        np.add.at(out, np.repeat(np.arange(n), src_len), best)
        return out

    def translation_counts(self, threshold: float) -> np.ndarray:
        """Per source-vocabulary id, how many target words have t(e | f) > ``threshold``:
        how ambiguous the word is to translate (the WMT12 QE baseline's feature)."""
        if self.src_vocab_ is None:
            raise ModelError("the lexical model is not trained; call fit() first")
        key_f = self._keys // self._n_e
        return np.bincount(key_f[self._t > threshold], minlength=len(self.src_vocab_))
