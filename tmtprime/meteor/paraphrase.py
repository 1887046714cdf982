"""Meteor paraphrase tables, compiled once into a memory-mapped index.

Source format (Meteor's ``paraphrase-en.gz``, 5,274,084 pairs): gzip text,
three lines per pair — probability, phrase, paraphrase — lower-cased,
space-separated words, at most 7 words per phrase, 43,139 distinct words.
The table is *not* symmetric (only ~5 % of pairs are listed both ways).

How the jar uses it (black-box, ``Matcher -m paraphrase`` on thousands of
pairs drawn from the table):

* it matches in **both directions**: a hypothesis phrase ``a`` and a
  reference phrase ``b`` match if ``a -> b`` *or* ``b -> a`` is listed
  (``000 dead`` / ``000 deaths`` match both ways although only
  ``000 deaths -> 000 dead`` is in the table);
* a pair listed in both directions yields **two** candidate matches on the
  same spans. For one-word phrases that duplication is what makes the jar's
  aligner drop them when the segment has no other match: every single-word
  pair of the table matches alone on a line iff its reverse is *not* listed
  (1,231 + 269 of 1,500 sampled, no exception). :meth:`ParaphraseTable.match`
  therefore reports one candidate per listed direction;
* matches print with score ``1.0`` in ``-writeAlignments``/``Matcher`` output,
  and the probabilities do not steer the alignment either: with two
  otherwise tied paraphrase candidates the jar picks the same one whatever
  their probabilities (it takes the earlier reference position). The order
  of the table does matter in one case: two tied paraphrases found from the
  same reference phrase are offered in the order the table lists them, so
  each match carries its ``listing`` rank. The probabilities are returned
  here for completeness;
* no pair is filtered on loading (every length 1-7 matched in the samples).

The table is compiled once into an index in
``paths.cache_dir()/paraphrase/<name>-<size>-<mtime>-v<N>/`` (~135 MB for the
English table; layout and compilation in :mod:`tmtprime.meteor.paraphrase_index`).
Opening maps its arrays (nothing is read until used) and builds a 43 k-entry
word dict. A batch of segments is matched with a handful of vectorized numpy
operations: n-gram hashes of all segments, one bucket lookup, CSR expansion
of the paraphrases, and a sorted join against the other side's n-grams.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Sequence
from functools import lru_cache
from importlib.util import find_spec
from itertools import chain, repeat
from pathlib import Path
from typing import NamedTuple

import numpy as np

from tmtprime.errors import ResourceError
from tmtprime.meteor.languages import language_name
from tmtprime.meteor.paraphrase_index import FORMAT_VERSION, compile_index, drop_other_formats, hash_phrase_ids
from tmtprime.meteor.paraphrase_lookup import known_phrases, listed_pairs
from tmtprime.paths import cache_dir
from tmtprime.progress import Reporter

FETCH_HINT = (
    "run `tmtprime resources fetch-paraphrase` to download Meteor's English table "
    "(from the pycocoevalcap wheel on PyPI), or give a table file with -a FILE (path=...)"
)


class ParaphraseMatch(NamedTuple):
    """One candidate paraphrase match between a hypothesis span and a reference span.

    ``direction`` is 0 when the table lists ``hyp phrase -> ref phrase`` and 1
    when it lists ``ref phrase -> hyp phrase``; a pair listed both ways gives
    two candidates, as in the jar. ``listing`` is the pair's rank among the
    paraphrases the table lists for its first phrase (0 for the first listed):
    the jar offers the paraphrases it finds from a reference phrase in that
    order.
    """

    hyp_start: int
    hyp_len: int
    ref_start: int
    ref_len: int
    prob: float
    direction: int
    listing: int


# --- finding a table ----------------------------------------------------------------------------


def default_sources(lang: str) -> list[Path]:
    """Where a table for ``lang`` is looked for when no path is given, in order."""
    name = language_name(lang)
    short = {"english": "en", "czech": "cz", "german": "de", "spanish": "es", "french": "fr"}.get(name, name)
    filename = f"paraphrase-{short}.gz"
    places = [cache_dir() / filename]
    spec = find_spec("pycocoevalcap")
    if spec is not None and spec.submodule_search_locations:
        places += [Path(p) / "meteor" / "data" / filename for p in spec.submodule_search_locations]
    jar = os.environ.get("METEOR_JAR", "/tmp/meteor_ref/meteor-1.5.jar")
    places.append(Path(jar).parent / "data" / filename)
    return places


def _index_dir(source: Path) -> Path:
    st = source.stat()
    stem = source.name.removesuffix(".gz")
    return cache_dir() / "paraphrase" / f"{stem}-{st.st_size}-{st.st_mtime_ns}-v{FORMAT_VERSION}"


# --- the table ----------------------------------------------------------------------------------


class ParaphraseTable:
    """A compiled, memory-mapped paraphrase table. Use :meth:`open`."""

    def __init__(self, index_dir: Path, lang: str = "en") -> None:
        try:
            meta = json.loads((index_dir / "meta.json").read_text(encoding="utf-8"))
            if meta.get("format") != FORMAT_VERSION:
                raise ValueError(f"index format {meta.get('format')}, expected {FORMAT_VERSION}")
            words = (index_dir / "vocab.txt").read_bytes().decode("utf-8").split("\n")
            arrays = {
                name: np.load(index_dir / f"{name}.npy", mmap_mode="r")
                for name in ("phrase_hash", "bucket_off", "phrase_words", "src_off", "pair_tgt", "pair_prob")
            }
        except (OSError, ValueError, KeyError) as error:
            raise ResourceError(f"paraphrase index {index_dir} is unreadable ({error}); delete it to rebuild") from None
        self.lang = language_name(lang)
        self.index_dir = index_dir
        self.source = Path(meta["source"])
        self.max_phrase_len: int = int(meta["max_phrase_len"])
        self.n_pairs: int = int(meta["pairs"])
        self._words = words
        self._ids = {w: i for i, w in enumerate(words)}
        # plain ndarray views of the maps: np.memmap's Python-level indexing costs microseconds per access
        self._hash = arrays["phrase_hash"].view(np.ndarray)
        self._buckets = arrays["bucket_off"].view(np.ndarray)
        self._bucket_shift = np.uint64(64 - ((len(self._buckets) - 1).bit_length() - 1))
        self._rows = arrays["phrase_words"].view(np.ndarray)
        self._src_off = arrays["src_off"].view(np.ndarray)
        self._tgt = arrays["pair_tgt"].view(np.ndarray)
        self._prob = arrays["pair_prob"].view(np.ndarray)
        self._paraphrases = lru_cache(maxsize=1 << 16)(self._lookup)
        self._pad = np.iinfo(self._rows.dtype).max

    @classmethod
    def open(
        cls,
        lang: str = "en",
        path: str | os.PathLike[str] | None = None,
        *,
        reporter: Reporter | None = None,
    ) -> ParaphraseTable:
        """The table for ``lang`` (or the file ``path``), compiling it into the cache on first use."""
        if path is not None:
            source = Path(path)
            if not source.is_file():
                raise ResourceError(f"paraphrase table not found: {source}")
        else:
            source = next((p for p in default_sources(lang) if p.is_file()), None)
            if source is None:
                name = language_name(lang)
                hint = FETCH_HINT if name == "english" else (
                    "give one in Meteor's format with -a FILE (path=...); only the English table is downloadable"
                )  # fmt: skip
                raise ResourceError(f"No paraphrase table for {name}: {hint}")
        index = _index_dir(source)
        if (index / "meta.json").exists():
            try:
                return cls(index, lang)
            except ResourceError:  # a damaged cache entry: ours to rebuild
                shutil.rmtree(index, ignore_errors=True)
        compile_index(source, index, reporter=reporter)
        drop_other_formats(index.parent)
        return cls(index, lang)

    def __len__(self) -> int:
        return self.n_pairs

    def _phrase_words(self, index: int) -> tuple[str, ...]:
        row = self._rows[index]
        return tuple(self._words[w] for w in row.tolist() if w != self._pad)

    def paraphrases(self, phrase: Sequence[str]) -> list[tuple[tuple[str, ...], float]]:
        """``(paraphrase words, probability)`` listed for ``phrase`` (a normalized word sequence).

        A few microseconds per call (cached); to match whole segments use :meth:`match_batch`.
        """
        return self._paraphrases(tuple(phrase))

    def _lookup(self, phrase: tuple[str, ...]) -> list[tuple[tuple[str, ...], float]]:
        if not 0 < len(phrase) <= self.max_phrase_len:
            return []
        ids = [self._ids.get(w, -1) for w in phrase]
        if -1 in ids:
            return []
        h = hash_phrase_ids(ids)
        p = int(self._hash.searchsorted(np.uint64(h)))
        if p == len(self._hash) or int(self._hash[p]) != h or self._phrase_words(p) != phrase:
            return []
        lo, hi = int(self._src_off[p]), int(self._src_off[p + 1])
        words, pad = self._words, self._pad
        rows = self._rows[self._tgt[lo:hi]].tolist()
        return [
            (tuple(words[w] for w in row if w != pad), prob)
            for row, prob in zip(rows, self._prob[lo:hi].tolist())
        ]

    def word_id(self, word: str) -> int:
        """The table's id of ``word``, -1 if no phrase of the table has it."""
        return self._ids.get(word, -1)

    def match_word_ids(
        self, hyp_words: np.ndarray, hyp_offsets: np.ndarray, ref_words: np.ndarray, ref_offsets: np.ndarray
    ) -> tuple[np.ndarray, ...]:
        """Every candidate paraphrase match of each (hypothesis, reference) pair, from the table's word ids of
        their tokens (:meth:`word_id`; pair k's hypothesis is ``hyp_words[hyp_offsets[k]:hyp_offsets[k + 1]]``).

        Columns: pair, hyp_start, hyp_len, ref_start, ref_len, direction,
        listing (:class:`ParaphraseMatch`) and the table row of the listed
        pair (its probability is ``pair_prob[row]``), sorted by pair,
        hyp_start, ref_start and direction.
        """
        lookup = (self.max_phrase_len, self._hash, self._buckets, self._bucket_shift)
        hyps = known_phrases(hyp_words, hyp_offsets, *lookup)
        refs = known_phrases(ref_words, ref_offsets, *lookup)
        listed = (self._src_off, self._tgt, len(self._hash))
        forward = listed_pairs(hyps, refs, *listed)  # hyp phrase -> ref phrase: direction 0
        backward = listed_pairs(refs, hyps, *listed)[:, [0, 3, 4, 1, 2, 5, 6]]  # ref phrase -> hyp phrase
        rows = np.concatenate([forward, backward])
        direction = np.repeat(np.arange(2, dtype=np.int64), [len(forward), len(backward)])
        order = np.lexsort((direction, rows[:, 3], rows[:, 1], rows[:, 0]))
        return (*rows[order, :5].T, direction[order], rows[order, 6], rows[order, 5])

    def match_batch(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[list[ParaphraseMatch]]:
        """Every candidate paraphrase match of each (hypothesis, reference) word-sequence pair."""
        sides = []
        for side in ([h for h, _ in pairs], [r for _, r in pairs]):
            words = list(chain.from_iterable(side))
            offsets = np.zeros(len(side) + 1, dtype=np.int64)
            np.cumsum(np.fromiter(map(len, side), dtype=np.int64, count=len(side)), out=offsets[1:])
            sides += [np.fromiter(map(self._ids.get, words, repeat(-1)), dtype=np.int64, count=len(words)), offsets]
        pair, hs, hl, rs, rl, direction, listing, row = self.match_word_ids(*sides)
        bounds = np.searchsorted(pair, np.arange(len(pairs) + 1)).tolist()
        columns = (hs, hl, rs, rl, self._prob[row], direction, listing)
        matches = list(map(ParaphraseMatch._make, zip(*(c.tolist() for c in columns))))
        return [matches[bounds[i] : bounds[i + 1]] for i in range(len(pairs))]

    def match(self, hyp: Sequence[str], ref: Sequence[str]) -> list[ParaphraseMatch]:
        """Candidate paraphrase matches between one hypothesis and one reference."""
        return self.match_batch([(hyp, ref)])[0]
