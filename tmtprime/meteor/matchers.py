"""The four Meteor matchers: they list every candidate match of segment pairs.

A candidate is a :data:`Match` ``(hyp_start, hyp_len, ref_start, ref_len,
stage)``; ``stage`` is the module's position in the module list (the jar's
statistics are per stage, so ``-m "stem exact"`` counts stem in stage 1).
What each matcher accepts, as observed on the jar:

* exact: identical tokens;
* stem: *different* tokens with identical Snowball stems (``-m stem`` alone
  never matches ``car``/``car``);
* synonym: different tokens whose WordNet synsets intersect
  (:meth:`SynonymDictionary.are_synonyms`);
* paraphrase: a hypothesis phrase and a reference phrase listed as
  paraphrases in the language's table.

Every matcher lists all candidates, including words another module already
matched; choosing among them is the aligner's job.

Words (and stems) are compared the way the jar compares them: by Java's
``String.hashCode``, so the rare strings with equal hash codes match
(``le`` / ``n'`` is an exact match for the jar, and so for us; measured on
French gettext text, where it changes scores).

WHY in batches: the scorer matches a batch of segment pairs at once (a
:class:`PairBatch`, tokens as integer ids, :mod:`tmtprime.meteor.word_ids`),
each module in one compiled pass over all pairs, the paraphrase table in a
few compiled lookups (:mod:`tmtprime.meteor.paraphrase_lookup`); a module's
candidates come back as rows ``(pair, hyp_start, hyp_len, ref_start,
ref_len, stage)`` of one array, at about half the CPU time of pair by pair
(docs/experiments/meteor-speed.md). Within a pair the order is the one the
jar offers them in (it breaks the aligner's ties): by hypothesis position,
then reference position, for the word modules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np

from tmtprime.errors import ResourceError, UsageError
from tmtprime.meteor.compiled import compiled
from tmtprime.meteor.word_ids import WordIds, WordSets, WordValues

Match = tuple[int, int, int, int, int]
"""(hyp_start, hyp_len, ref_start, ref_len, stage)."""

Pairs = Sequence[tuple[Sequence[str], Sequence[str]]]


class PhraseTable(Protocol):
    """What the paraphrase matcher needs: :class:`tmtprime.meteor.paraphrase.ParaphraseTable`.

    ``match_batch`` lists, per (hypothesis, reference) pair, every candidate
    ``(hyp_start, hyp_len, ref_start, ref_len, prob, direction, listing)``:
    one per direction in which the table lists the two phrases (the jar
    matches both ways and a pair listed both ways gives two candidates on the
    same spans); ``listing`` is the pair's rank among the paraphrases listed
    for its first phrase, in table order. A table may also offer
    ``word_id(word)`` and ``match_word_ids(hyp_words, hyp_offsets,
    ref_words, ref_offsets)``: the same candidates of all pairs as arrays
    from the table's word ids of the tokens, which saves building tuples.
    """

    def match_batch(self, pairs: Pairs) -> list[Sequence[tuple[int, int, int, int, float, int, int]]]: ...


@dataclass(frozen=True)
class PairBatch:
    """Segment pairs as tokens and as word ids: pair k's hypothesis is ``hyp_ids[hyp_offsets[k]:hyp_offsets[k + 1]]``."""

    pairs: Pairs
    words: WordIds
    hyp_ids: np.ndarray
    hyp_offsets: np.ndarray
    ref_ids: np.ndarray
    ref_offsets: np.ndarray

    @classmethod
    def of(cls, pairs: Pairs, words: WordIds) -> PairBatch:
        hyp_ids, hyp_offsets = words.encode([h for h, _ in pairs])
        ref_ids, ref_offsets = words.encode([r for _, r in pairs])
        return cls(pairs, words, hyp_ids, hyp_offsets, ref_ids, ref_offsets)


BatchMatcher = Callable[[PairBatch, int], np.ndarray]
"""A module's candidates of a batch at a stage: rows (pair, hyp_start, hyp_len, ref_start, ref_len, stage)."""


@lru_cache(maxsize=1 << 18)
def java_hash(text: str) -> int:
    """Java's ``String.hashCode`` (over UTF-16 code units, 32-bit wrap-around)."""
    h = 0
    if text.isascii() or all(ord(c) < 0x10000 for c in text):
        for c in text:
            h = (31 * h + ord(c)) & 0xFFFFFFFF
        return h
    units = text.encode("utf-16-le")
    for k in range(0, len(units), 2):
        h = (31 * h + (units[k] | units[k + 1] << 8)) & 0xFFFFFFFF
    return h


@compiled
def room_for(out: np.ndarray, n: int, more: int) -> np.ndarray:
    """``out`` (``n`` rows filled), or a copy with room for at least ``more`` rows after them.

    Compiled loops collect a number of rows not known in advance. They make
    room before each hypothesis word for as many rows as it can give (one per
    reference word), so the inner loops never reassign ``out`` (growing it row
    by row made the exact matcher 3x slower) and memory grows with the matches
    found: room for hypothesis x reference rows per pair ran out of a 2 GB
    address space on a pair of 5,000-token segments.
    """
    if n + more <= out.shape[0]:
        return out
    bigger = np.empty((max(2 * out.shape[0], n + more), out.shape[1]), out.dtype)
    bigger[:n] = out[:n]
    return bigger


@compiled(exports=("int64[:,:](int64[:], int64[:], int64[:], int64[:], int64[:], int64[:], boolean, int64)",))
def _equal_key_matches(
    hyp: np.ndarray, hyp_off: np.ndarray, ref: np.ndarray, ref_off: np.ndarray,
    key: np.ndarray, word: np.ndarray, only_different: bool, stage: int,
) -> np.ndarray:  # fmt: skip
    """Word pairs with equal ``key`` (and, with ``only_different``, unequal ``word``), per pair by (i, j)."""
    out = np.empty((1024, 6), np.int64)
    n = 0
    for p in range(hyp_off.shape[0] - 1):
        h0, r0 = hyp_off[p], ref_off[p]
        for i in range(h0, hyp_off[p + 1]):
            out = room_for(out, n, ref_off[p + 1] - r0)
            k, w = key[hyp[i]], word[hyp[i]]
            for j in range(r0, ref_off[p + 1]):
                if key[ref[j]] == k and not (only_different and word[ref[j]] == w):
                    out[n, 0], out[n, 1], out[n, 2], out[n, 3], out[n, 4], out[n, 5] = p, i - h0, 1, j - r0, 1, stage
                    n += 1
    return out[:n].copy()


_POSITION_BITS = 24  # a reference position below 2**24 packed under a set element (elements < 2**39)


@compiled(exports=("int64[:,:](int64[:], int64[:], int64[:], int64[:], int64[:], int64[:], int64)",))
def _shared_set_matches(
    hyp: np.ndarray, hyp_off: np.ndarray, ref: np.ndarray, ref_off: np.ndarray,
    start: np.ndarray, data: np.ndarray, stage: int,
) -> np.ndarray:  # fmt: skip
    """Pairs of different words whose sets meet, per pair by (i, j).

    Per pair, the reference words' set elements are sorted once, each packed
    with its position; each hypothesis word looks its own elements up there.
    Merging the two sets of every word pair instead took 3x longer.
    """
    out = np.empty((1024, 6), np.int64)
    n = 0
    most = 1
    for p in range(hyp_off.shape[0] - 1):
        size = 0
        for j in range(ref_off[p], ref_off[p + 1]):
            size += start[ref[j] + 1] - start[ref[j]]
        most = max(most, size, ref_off[p + 1] - ref_off[p])
    packed = np.empty(most, np.int64)
    shared = np.zeros(most, np.bool_)
    for p in range(hyp_off.shape[0] - 1):
        h0, r0, r1 = hyp_off[p], ref_off[p], ref_off[p + 1]
        size = 0
        for j in range(r0, r1):
            for q in range(start[ref[j]], start[ref[j] + 1]):
                packed[size] = (data[q] << _POSITION_BITS) | (j - r0)
                size += 1
        if size == 0:
            continue
        mine = packed[:size]
        mine.sort()
        for i in range(h0, hyp_off[p + 1]):
            a = hyp[i]
            if start[a] == start[a + 1]:
                continue
            out = room_for(out, n, r1 - r0)
            for q in range(start[a], start[a + 1]):
                k = np.searchsorted(mine, data[q] << _POSITION_BITS)
                while k < size and mine[k] >> _POSITION_BITS == data[q]:
                    shared[mine[k] & ((1 << _POSITION_BITS) - 1)] = True
                    k += 1
            for j in range(r0, r1):
                if shared[j - r0]:
                    shared[j - r0] = False
                    if ref[j] != a:
                        out[n, 0], out[n, 1], out[n, 2], out[n, 3], out[n, 4], out[n, 5] = p, i - h0, 1, j - r0, 1, stage
                        n += 1
    return out[:n].copy()


class ExactMatcher:
    """Tokens the jar considers identical (equal ``hashCode``)."""

    def __init__(self) -> None:
        self._hash = WordValues(java_hash)

    def match_batch(self, batch: PairBatch, stage: int) -> np.ndarray:
        h = self._hash.of(batch.words)
        return _equal_key_matches(batch.hyp_ids, batch.hyp_offsets, batch.ref_ids, batch.ref_offsets, h, h, False, stage)


class StemMatcher:
    """Different tokens (unequal ``hashCode``) with the same stem (equal ``hashCode`` of the stems)."""

    def __init__(self, stem: Callable[[str], str]) -> None:
        self._hash = WordValues(java_hash)
        self._stem_hash = WordValues(lambda word: java_hash(stem(word)))

    def match_batch(self, batch: PairBatch, stage: int) -> np.ndarray:
        h, s = self._hash.of(batch.words), self._stem_hash.of(batch.words)
        return _equal_key_matches(batch.hyp_ids, batch.hyp_offsets, batch.ref_ids, batch.ref_offsets, s, h, True, stage)


class SynonymMatcher:
    """Different tokens that share a WordNet synset."""

    def __init__(self, synsets: Callable[[str], frozenset[int]]) -> None:
        self._synsets = WordSets(synsets)

    def match_batch(self, batch: PairBatch, stage: int) -> np.ndarray:
        start, data = self._synsets.of(batch.words)
        return _shared_set_matches(batch.hyp_ids, batch.hyp_offsets, batch.ref_ids, batch.ref_offsets, start, data, stage)


class ParaphraseMatcher:
    """Hypothesis and reference phrases the table lists as paraphrases (either direction), in the jar's offer order.

    The jar offers them in the order that decides between phrases that tie:
    first those found from the reference phrase (the table lists ``ref phrase
    -> hyp phrase``), in the order the table lists that phrase's paraphrases,
    then by hypothesis position; then those found from the hypothesis phrase,
    by hypothesis position. So ``in any case`` / ``anyway`` keeps ``any case``
    = ``anyway``: Meteor's English table lists ``anyway -> any case`` before
    ``anyway -> in any case`` (with the two listings swapped the jar keeps
    ``in any case``), while ``of a million`` / ``one million`` keeps ``a
    million`` = ``one million``, the only one found from the reference phrase.
    """

    def __init__(self, table: PhraseTable) -> None:
        self.table = table
        word_id = getattr(table, "word_id", None)
        self._table_ids = WordValues(word_id) if word_id is not None else None

    def match_batch(self, batch: PairBatch, stage: int) -> np.ndarray:
        pair, hs, hl, rs, rl, direction, listing = self._columns(batch)
        # a stable sort: candidates that tie keep the table's order (pair, hyp_start, ref_start, direction)
        order = np.lexsort((hs, listing * direction, rl * direction, 1 - direction, pair))
        out = np.empty((len(order), 6), np.int64)
        for c, column in enumerate((pair, hs, hl, rs, rl)):
            out[:, c] = column[order]
        out[:, 5] = stage
        return out

    def _columns(self, batch: PairBatch) -> list[np.ndarray]:
        """(pair, hyp_start, hyp_len, ref_start, ref_len, direction, listing) of every candidate, pair by pair."""
        if self._table_ids is not None:
            ids = self._table_ids.of(batch.words)
            found = self.table.match_word_ids(ids[batch.hyp_ids], batch.hyp_offsets, ids[batch.ref_ids], batch.ref_offsets)
            return list(found[:7])
        rows = [(k, m[0], m[1], m[2], m[3], m[5], m[6]) for k, ms in enumerate(self.table.match_batch(batch.pairs)) for m in ms]
        return list(np.array(rows, dtype=np.int64).reshape(-1, 7).T)


def candidates_by_pair(found: Sequence[np.ndarray], n_pairs: int) -> list[np.ndarray]:
    """Each pair's candidates ``(n, 5)``, the modules' rows (from :data:`BatchMatcher`) in module order."""
    rows = np.concatenate(found) if found else np.zeros((0, 6), np.int64)
    rows = rows[np.argsort(rows[:, 0], kind="stable")]
    spans = np.ascontiguousarray(rows[:, 1:])
    bounds = np.searchsorted(rows[:, 0], np.arange(n_pairs + 1)).tolist()
    return [spans[bounds[k] : bounds[k + 1]] for k in range(n_pairs)]


def _one_pair(matcher: BatchMatcher, hyp: Sequence[str], ref: Sequence[str], stage: int) -> list[Match]:
    """A batch matcher's candidates of one pair, as tuples."""
    found = matcher(PairBatch.of([(hyp, ref)], WordIds()), stage)
    return [tuple(row) for row in found[:, 1:].tolist()]


def exact_matches(hyp: Sequence[str], ref: Sequence[str], stage: int) -> list[Match]:
    """Exact candidates of one pair (:class:`ExactMatcher`)."""
    return _one_pair(ExactMatcher().match_batch, hyp, ref, stage)


def stem_matcher(stem: Callable[[str], str]) -> Callable[[Sequence[str], Sequence[str], int], list[Match]]:
    """Stem candidates of one pair (:class:`StemMatcher`)."""
    return lambda hyp, ref, stage: _one_pair(StemMatcher(stem).match_batch, hyp, ref, stage)


def synonym_matcher(synsets: Callable[[str], frozenset[int]]) -> Callable[[Sequence[str], Sequence[str], int], list[Match]]:
    """Synonym candidates of one pair (:class:`SynonymMatcher`)."""
    return lambda hyp, ref, stage: _one_pair(SynonymMatcher(synsets).match_batch, hyp, ref, stage)


def paraphrase_candidates(table: PhraseTable, pairs: Pairs, stage: int) -> list[list[Match]]:
    """Paraphrase candidates of many segment pairs, per pair in the jar's offer order (:class:`ParaphraseMatcher`)."""
    found = ParaphraseMatcher(table).match_batch(PairBatch.of(pairs, WordIds()), stage)
    return [[tuple(row) for row in spans.tolist()] for spans in candidates_by_pair([found], len(pairs))]


def build_matchers(
    modules: Sequence[str],
    lang: str,
    paraphrase_table: PhraseTable | Callable[[], PhraseTable] | None = None,
) -> list[BatchMatcher]:
    """One batch matcher per module, with the language's resources (errors worded as the jar's)."""
    from tmtprime.meteor import resources
    from tmtprime.meteor.languages import language_name

    out: list[BatchMatcher] = []
    for module in modules:
        if module == "exact":
            out.append(ExactMatcher().match_batch)
        elif module == "stem":
            out.append(StemMatcher(resources.stemmer(lang)).match_batch)
        elif module == "synonym":
            if language_name(lang) != "english":
                raise ResourceError("Synonym dictionary could not be loaded: synonyms exist for English only")
            out.append(SynonymMatcher(resources.synonyms().synsets).match_batch)
        elif module == "paraphrase":
            table = paraphrase_table() if callable(paraphrase_table) else paraphrase_table
            if table is None:
                raise ResourceError(f"no paraphrase table for language {lang}")
            out.append(ParaphraseMatcher(table).match_batch)
        else:
            raise UsageError(f"Unknown module ({module})")
    return out
