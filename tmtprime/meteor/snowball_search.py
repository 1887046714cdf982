"""Snowball's ``among`` lookups by dictionary, for the private stemmer classes (:mod:`tmtprime.meteor.stemmers`).

WHY: the generated stemmers find the longest table string that the text
around the cursor ends (``find_among_b``) or starts (``find_among``) with by
a character-by-character binary search in Python; on the 2,000 Spanish pairs
that search was most of the time spent stemming (issue 30). Here each table
gets a dictionary from string to entry, and the text's suffixes (prefixes)
are looked up longest first: the first hit is the entry the binary search
ends on, and from it the same fallback runs as in Snowball (the entry's
condition; if it fails, its ``substring_i``, the longest shorter string of
the table that it ends or starts with), setting the cursor the same way.
tests/meteor/test_snowball_search.py compares both on every stemmed language.
"""

from __future__ import annotations

from typing import Any


class _Table(list):
    """An among table with its string -> entry dictionary and its longest string."""

    def __init__(self, entries: list) -> None:
        super().__init__(entries)
        self.index = {a.s: i for i, a in enumerate(entries)}
        self.longest = max(len(a.s) for a in entries)
        assert len(self.index) == len(entries), "a string twice in one among table"


def use_dictionaries(cls: type) -> None:
    """Give the generated stemmer class ``cls`` (its tables final) these lookups and indexed tables."""
    for attr, table in list(vars(cls).items()):
        if isinstance(table, list) and table and hasattr(table[0], "substring_i"):
            setattr(cls, attr, _Table(table))
    cls.find_among, cls.find_among_b = find_among, find_among_b  # type: ignore[attr-defined]


def _fallback(stemmer: Any, table: list, i: int, matched: int, c: int, step: int) -> int:
    """Snowball's second loop from entry ``i`` (``matched`` characters of the text agree with it): try each
    entry's condition, fall back along ``substring_i``; ``step`` +1 forwards, -1 backwards."""
    while True:
        w = table[i]
        if matched >= len(w.s):
            stemmer.cursor = c + step * len(w.s)
            if w.method is None:
                return w.result
            if w.method(stemmer):
                stemmer.cursor = c + step * len(w.s)
                return w.result
        i = w.substring_i
        if i < 0:
            return 0


def find_among_b(self: Any, v: _Table) -> int:
    """``BaseStemmer.find_among_b``: the longest string of ``v`` that the text before the cursor ends with."""
    index, c, current, lb = v.index, self.cursor, self.current, self.limit_backward
    for start in range(c - v.longest if c - v.longest > lb else lb, c + 1):
        i = index.get(current[start:c])
        if i is not None:
            w = v[i]
            if w.method is None:  # most entries: no condition, the longest string is the one
                self.cursor = start
                return w.result
            return _fallback(self, v, i, c - start, c, -1)
    return 0


def find_among(self: Any, v: _Table) -> int:
    """``BaseStemmer.find_among``: the longest string of ``v`` that the text after the cursor starts with."""
    index, c, current, limit = v.index, self.cursor, self.current, self.limit
    for end in range(c + v.longest if c + v.longest < limit else limit, c - 1, -1):
        i = index.get(current[c:end])
        if i is not None:
            w = v[i]
            if w.method is None:
                self.cursor = end
                return w.result
            return _fallback(self, v, i, end - c, c, 1)
    return 0
