"""TM neighbours: the TM entries closest to a new source, and how much a candidate uses their target words.

A software project translates its terms one way ("Preferences" ->
"Preferencias", not "Preferencias de usuario" in one catalog and
"Configuración" in the next). The TM match shows that for one string; the
other strings of the TM that share the new source's words show it for every
term. A candidate whose words and word pairs occur in the targets of close
neighbours follows the project's usage, and tends to be nearer the reference
than one that phrases things its own way. The global TM n-gram coverage
(:mod:`~tmtprime.features.ngrams`) and IBM Model 1 cannot say that: they count
a phrase seen once in an unrelated catalog like one seen in the next string.

Neighbours are the ``k`` TM entries with the highest TF-IDF cosine of source
words (sublinear term frequency, smoothed idf, unit vectors). Two columns per
candidate, each a mean over the candidate's units of the similarity of the
closest neighbour whose target contains that unit (0 if none does):
``cand_nb_word_support`` over its words, ``cand_nb_bigram_support`` over its
adjacent token pairs. A neighbour whose target is the candidate itself (the
TM match's own entry) does not count for that candidate: the TM match would
otherwise always support itself fully, and the columns would say nothing about
it that ``cand_is_tm`` does not.

Speed: the similarity of a query to every TM entry is one sparse product, but
words in more than ``common_df`` of the TM sources (and more than
``min_common`` of them: a small TM has no such words) such as "the" or "file" make it
dense (12,000 non-zeros per query on a 75,000-entry TM against 1,200
without them). So candidates are the entries sharing at least one other word, and the
``10 k`` best of them by those words' part of the cosine are ranked by their
exact cosine (adding the common words' part from a small dense matrix). An
entry sharing only common words with the query is never a neighbour (its
cosine is low anyway: common words carry little idf).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat

import numpy as np
import scipy.sparse as sp

from tmtprime.errors import ModelError
from tmtprime.sorted_lookup import sorted_lookup
from tmtprime.tokens import is_word

NEIGHBOUR_NAMES = ("cand_nb_word_support", "cand_nb_bigram_support")
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
_QUERY_BATCH = 1024
"""Queries per sparse product: bounds the dense gather of the common-word part (non-zeros x common words)."""
_SHORTLIST = 10
"""Entries per neighbour wanted that are ranked by their exact cosine (shortlisted by the rare words' part)."""
_SUPPORT_CHUNK = 4096
"""Segments per support table: keeps (owner, bigram) keys inside int64 for target vocabularies up to 5 million."""


def _gather(flat: np.ndarray, offsets: np.ndarray, items: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Concatenation of the slices ``flat[offsets[i]:offsets[i+1]]`` for ``i`` in ``items``,
    and for each element the position in ``items`` it came from."""
    lengths = offsets[items + 1] - offsets[items]
    owner = np.repeat(np.arange(len(items)), lengths)
    ends = np.cumsum(lengths)
    positions = np.arange(int(ends[-1]) if len(ends) else 0) - np.repeat(ends - lengths - offsets[items], lengths)
    return flat[positions], owner


def _top_per_row(rows: np.ndarray, cols: np.ndarray, values: np.ndarray, starts: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``k`` highest values of each row, sorted by row then decreasing value (ties keep
    their input order); the input is grouped by row, ``starts`` giving where each row begins.
    Values are cosines (at most 1), so one stable sort of row - value/2 does it."""
    counts = np.diff(starts)
    if len(counts) and counts.max() > 2 * k:
        # sorting every entry costs most of a lookup: first drop, row by row, what is
        # below the row's k-th highest value (ties with it stay, so the result is the same)
        floor = np.full(len(counts), -np.inf)
        for r in np.nonzero(counts > k)[0]:
            floor[r] = np.partition(values[starts[r] : starts[r + 1]], -k)[-k]
        mask = values >= floor[rows]
        rows, cols, values = rows[mask], cols[mask], values[mask]
        starts = np.searchsorted(rows, np.arange(len(counts) + 1))
    order = np.argsort(rows - 0.5 * values, kind="stable")
    keep = order[np.arange(len(order)) - starts[rows[order]] < k]
    return rows[keep], cols[keep], values[keep]


def _sequence_hashes(ids: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each id sequence ``ids[offsets[i]:offsets[i+1]]`` (polynomial, wrapping),
    so that a candidate is recognised as a TM target by comparing one number."""
    lengths = np.diff(offsets)
    out = lengths.astype(np.uint64) * _MULTIPLIER
    if not len(ids):
        return out.view(np.int64)
    row = np.repeat(np.arange(len(lengths)), lengths)
    powers = np.cumprod(np.full(int(lengths.max()), _MULTIPLIER, dtype=np.uint64))
    terms = (ids.astype(np.uint64) + np.uint64(1)) * powers[np.arange(len(ids)) - offsets[row]]
    filled = lengths > 0
    out[filled] += np.add.reduceat(terms, offsets[:-1][filled])
    return out.view(np.int64)


def _flatten(lists: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(x) for x in lists])
    flat = np.fromiter((v for x in lists for v in x), dtype=np.int64, count=int(offsets[-1]))
    return flat, offsets


class TMNeighbours:
    """The ``k`` most similar TM entries of new sources, and target-word support of candidates.

    ``fit(sources, targets)`` takes the TM's token lists (lower-cased, as
    :func:`~tmtprime.tokens.lower_tokens` gives them);
    :meth:`query` returns neighbours and similarities; :meth:`support` the
    :data:`NEIGHBOUR_NAMES` columns of candidate rows.
    """

    def __init__(self, k: int = 20, common_df: float = 0.01, min_common: int = 100) -> None:
        self.k = k
        self.common_df = common_df
        self.min_common = min_common
        self.src_vocab_: dict[str, int] | None = None

    # -- fitting ----------------------------------------------------------
    def fit(self, sources: Sequence[Sequence[str]], targets: Sequence[Sequence[str]]) -> TMNeighbours:
        if self.k < 1:
            raise ModelError(f"the number of TM neighbours must be at least 1, got {self.k}")
        if len(sources) != len(targets):
            raise ModelError(f"{len(sources)} TM sources for {len(targets)} targets")
        vocab: dict[str, int] = {}
        for toks in sources:
            for t in toks:
                if is_word(t):
                    vocab.setdefault(t, len(vocab))
        self.src_vocab_ = vocab
        n = len(sources)
        df = np.zeros(len(vocab))
        for toks in sources:
            for j in {vocab[t] for t in toks if t in vocab}:
                df[j] += 1
        self.idf_ = np.log((1.0 + n) / (1.0 + df)) + 1.0
        common = df > max(self.common_df * n, self.min_common)
        self.common_cols_ = np.nonzero(common)[0]
        tm = self._vectors(sources).tocsc()
        self.tm_common_ = sp.csr_matrix(tm[:, self.common_cols_])  # entries x common words, about one per entry
        rare = tm.T.tocsr()  # words x entries
        rare = sp.diags((~common).astype(np.float32)) @ rare
        rare.eliminate_zeros()
        self.tm_rare_ = rare.tocsr()

        tgt_vocab: dict[str, int] = {}
        ids = [[tgt_vocab.setdefault(t, len(tgt_vocab)) for t in toks] for toks in targets]
        self.tgt_vocab_ = tgt_vocab
        size = max(len(tgt_vocab), 1)
        self.tgt_words_, self.tgt_word_offsets_ = _flatten([[i for i, t in zip(x, toks) if is_word(t)] for x, toks in zip(ids, targets)])
        self.tgt_bigrams_, self.tgt_bigram_offsets_ = _flatten([[a * size + b for a, b in zip(x, x[1:])] for x in ids])
        self.tgt_hash_ = _sequence_hashes(*_flatten(ids))
        return self

    def _check_fitted(self) -> None:
        if self.src_vocab_ is None:
            raise ModelError("the TM neighbours are not built; call fit() with the TM first")

    def _vectors(self, sources: Sequence[Sequence[str]]) -> sp.csr_matrix:
        """Unit TF-IDF vectors of the source words (words the TM never had are left out)."""
        vocab = self.src_vocab_
        lengths = np.fromiter(map(len, sources), dtype=np.int64, count=len(sources))
        ids = np.fromiter(map(vocab.get, (t for toks in sources for t in toks), repeat(-1)), dtype=np.int64, count=int(lengths.sum()))
        keys = np.repeat(np.arange(len(sources)), lengths) * len(vocab) + ids
        keys, counts = np.unique(keys[ids >= 0], return_counts=True)
        rows, cols = np.divmod(keys, max(len(vocab), 1))
        data = (1.0 + np.log(counts)) * self.idf_[cols]
        m = sp.csr_matrix((np.asarray(data, dtype=np.float32), (rows, cols)), shape=(len(sources), len(vocab)))
        norm = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
        norm[norm == 0] = 1.0
        return sp.csr_matrix(sp.diags((1.0 / norm).astype(np.float32)) @ m)

    # -- neighbours -------------------------------------------------------
    def query(self, sources: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
        """Per source: the ``k`` nearest TM entries (row numbers in fit order, most similar
        first, ties by lower number; -1 pads) and their cosine similarities (0 pads)."""
        self._check_fitted()
        n = len(sources)
        index = np.full((n, self.k), -1, dtype=np.int64)
        similarity = np.zeros((n, self.k))
        q_all = self._vectors(sources)
        for start in range(0, n, _QUERY_BATCH):
            q = q_all[start : start + _QUERY_BATCH]
            r = (q @ self.tm_rare_).tocsr()
            rows = np.repeat(np.arange(q.shape[0]), np.diff(r.indptr))
            # shortlist by the rare words' part, then rank the shortlist by the exact cosine
            rows, cols, values = _top_per_row(rows, r.indices, r.data, r.indptr, _SHORTLIST * self.k)
            if len(self.common_cols_) and len(cols):
                q_common = q[:, self.common_cols_].toarray()
                common = self.tm_common_
                at, pair = _gather(np.arange(len(common.data)), common.indptr, cols)
                part = common.data[at] * q_common[rows[pair], common.indices[at]]
                values = values + np.bincount(pair, weights=part, minlength=len(values))
            starts = np.searchsorted(rows, np.arange(q.shape[0] + 1))
            rows, cols, values = _top_per_row(rows, cols, values, starts, self.k)
            rank = np.arange(len(rows)) - np.searchsorted(rows, rows)
            index[start + rows, rank] = cols
            similarity[start + rows, rank] = values
        return index, similarity

    # -- candidate columns --------------------------------------------------
    def support(self, sources: Sequence[Sequence[str]], candidates: Sequence[Sequence[str]], segment_of: np.ndarray) -> np.ndarray:
        """The :data:`NEIGHBOUR_NAMES` columns of candidate rows.

        ``sources``: token lists of the segments; ``candidates``: token lists
        of the rows; ``segment_of``: the segment (position in ``sources``) of
        each row, non-decreasing.
        """
        self._check_fitted()
        segment_of = np.asarray(segment_of, dtype=np.int64)
        if len(segment_of) != len(candidates):
            raise ModelError(f"{len(segment_of)} segment numbers for {len(candidates)} candidates")
        out = np.zeros((len(candidates), len(NEIGHBOUR_NAMES)))
        bounds = np.searchsorted(segment_of, np.arange(0, len(sources) + _SUPPORT_CHUNK, _SUPPORT_CHUNK))
        for chunk, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])):
            if hi > lo:
                first = chunk * _SUPPORT_CHUNK
                out[lo:hi] = self._support_chunk(sources[first : first + _SUPPORT_CHUNK], candidates[lo:hi], segment_of[lo:hi] - first)
        return out

    def _support_chunk(self, sources: Sequence[Sequence[str]], candidates: Sequence[Sequence[str]], seg: np.ndarray) -> np.ndarray:
        index, similarity = self.query(sources)
        size = max(len(self.tgt_vocab_), 1)
        tokens = [t for toks in candidates for t in toks]
        lengths = np.fromiter(map(len, candidates), dtype=np.int64, count=len(candidates))
        offsets = np.concatenate(([0], np.cumsum(lengths)))
        ids = np.fromiter(map(self.tgt_vocab_.get, tokens, repeat(-1)), dtype=np.int64, count=len(tokens))
        row_of = np.repeat(np.arange(len(candidates)), lengths)
        cand_known = np.bincount(row_of, weights=ids < 0, minlength=len(candidates)) == 0
        cand_hash = _sequence_hashes(ids, offsets)

        # Owners of support tables: one per segment, plus one per row that is itself the
        # target of one of its segment's neighbours (its table leaves that neighbour out).
        n_seg = len(sources)
        pair_seg, pair_rank = np.nonzero(index >= 0)
        pair_entry = index[pair_seg, pair_rank]
        pair_sim = similarity[pair_seg, pair_rank]
        by_seg = np.searchsorted(pair_seg, np.arange(n_seg + 1))
        own = np.arange(len(candidates))[cand_known]
        own = own[np.isin(cand_hash[own], self.tgt_hash_[pair_entry])]
        pair, which = _gather(np.arange(len(pair_seg)), by_seg, seg[own])
        same = self.tgt_hash_[pair_entry[pair]] == cand_hash[own[which]]
        own = own[np.bincount(which, weights=same, minlength=len(own)) > 0]
        row_owner = seg.copy()
        row_owner[own] = n_seg + np.arange(len(own))
        # pairs (owner, neighbour entry, similarity): the segments', then each self row's
        # (its segment's pairs but those whose target is the row's candidate)
        pair, which = _gather(np.arange(len(pair_seg)), by_seg, seg[own])
        keep = self.tgt_hash_[pair_entry[pair]] != cand_hash[own[which]]
        pair, which = pair[keep], which[keep]
        owners = [pair_seg, n_seg + which]
        entries = [pair_entry, pair_entry[pair]]
        sims = [pair_sim, pair_sim[pair]]
        owner, entry, sim = np.concatenate(owners), np.concatenate(entries), np.concatenate(sims)

        out = np.zeros((len(candidates), len(NEIGHBOUR_NAMES)))
        is_word_token = np.fromiter(map(is_word, tokens), dtype=bool, count=len(tokens))
        left = np.nonzero(row_of[:-1] == row_of[1:])[0]
        bigrams = np.where((ids[left] >= 0) & (ids[left + 1] >= 0), ids[left] * size + ids[left + 1], -1)
        units = ((ids[is_word_token], row_of[is_word_token]), (bigrams, row_of[left]))
        tables = ((self.tgt_words_, self.tgt_word_offsets_, size), (self.tgt_bigrams_, self.tgt_bigram_offsets_, size * size))
        for col, ((flat, tgt_offsets, space), unit) in enumerate(zip(tables, units)):
            values, which = _gather(flat, tgt_offsets, entry)
            # pairs come owner by owner, most similar neighbour first: the first
            # occurrence of an (owner, unit) key carries its highest similarity
            table_keys, first = np.unique(owner[which] * space + values, return_index=True)
            table_sim = sim[which[first]]
            unit_flat, unit_row = unit
            found = sorted_lookup(table_keys, table_sim, row_owner[unit_row] * space + unit_flat, 0.0)
            found[unit_flat < 0] = 0.0
            counts = np.bincount(unit_row, minlength=len(candidates))
            total = np.bincount(unit_row, weights=found, minlength=len(candidates))
            out[:, col] = np.where(counts > 0, total / np.maximum(counts, 1), 0.0)
        return out
