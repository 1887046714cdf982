"""Integer ids for tokens, and per-word values computed once per distinct word.

WHY: the matchers compare every hypothesis token with every reference token
of a segment pair (Java hash codes, stems, WordNet synsets). Done word by
word in Python that was about 40 % of the scorer's time; with each distinct
word mapped to an id once, and its hash, stem hash and synsets stored per id
in arrays, a whole batch of segment pairs is compared in one compiled pass
(:mod:`tmtprime.meteor.matchers`).

The ids are kept from batch to batch (most words of a text recur), up to
``limit`` distinct words; past that they start afresh (``generation``
changes) so a long-running scorer does not grow without bound.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain

import numpy as np

DEFAULT_LIMIT = 1_000_000


class WordIds:
    """Token -> id (0, 1, ... in order of first sight)."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self.limit = limit
        self.words: list[str] = []
        self.generation = 0
        self._ids: dict[str, int] = {}

    def encode(self, segments: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
        """The ids of all tokens of ``segments`` in one array, and offsets: segment k is ``ids[off[k]:off[k + 1]]``."""
        tokens = list(chain.from_iterable(segments))
        if len(self.words) + len(tokens) > self.limit:
            self._ids.clear()
            self.words.clear()
            self.generation += 1
        ids = self._ids
        new = [word for word in dict.fromkeys(tokens) if word not in ids]  # in order of first sight
        ids.update(zip(new, range(len(self.words), len(self.words) + len(new))))
        self.words += new
        found = list(map(ids.__getitem__, tokens))
        offsets = np.zeros(len(segments) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, segments), dtype=np.int64, count=len(segments)), out=offsets[1:])
        return np.array(found, dtype=np.int64), offsets


class _PerWord:
    """Base of the per-word caches: knows which words (of which :class:`WordIds`) it has computed."""

    def __init__(self) -> None:
        self._owner: WordIds | None = None
        self._generation = -1
        self._done = 0

    def _new_words(self, words: WordIds) -> list[str]:
        """The words added since the last call (all of them when ``words`` is another table or restarted)."""
        if words is not self._owner or words.generation != self._generation:
            self._owner, self._generation, self._done = words, words.generation, 0
            self._reset()
        new = words.words[self._done :]
        self._done = len(words.words)
        return new

    def _reset(self) -> None:
        raise NotImplementedError


class WordValues(_PerWord):
    """One integer per word id, ``func(word)``, computed on first sight of the word."""

    def __init__(self, func: Callable[[str], int]) -> None:
        super().__init__()
        self._func = func
        self._values = np.zeros(0, dtype=np.int64)

    def _reset(self) -> None:
        self._values = np.zeros(0, dtype=np.int64)

    def of(self, words: WordIds) -> np.ndarray:
        """The values indexed by id, covering every word ``words`` holds."""
        new = self._new_words(words)
        if new:
            fresh = np.fromiter(map(self._func, new), dtype=np.int64, count=len(new))
            self._values = np.concatenate([self._values, fresh])
        return self._values


class WordSets(_PerWord):
    """A sorted set of integers per word id, ``func(word)``, stored as CSR arrays (``data[start[i]:start[i + 1]]``)."""

    def __init__(self, func: Callable[[str], Iterable[int]]) -> None:
        super().__init__()
        self._func = func
        self._reset()

    def _reset(self) -> None:
        self._start = np.zeros(1, dtype=np.int64)
        self._data = np.zeros(0, dtype=np.int64)

    def of(self, words: WordIds) -> tuple[np.ndarray, np.ndarray]:
        """``(start, data)`` covering every word ``words`` holds."""
        new = self._new_words(words)
        if new:
            sets = [sorted(self._func(word)) for word in new]
            sizes = np.fromiter(map(len, sets), dtype=np.int64, count=len(sets))
            self._start = np.concatenate([self._start, self._start[-1] + np.cumsum(sizes)])
            fresh = np.fromiter(chain.from_iterable(sets), dtype=np.int64, count=int(sizes.sum()))
            self._data = np.concatenate([self._data, fresh])
        return self._start, self._data
