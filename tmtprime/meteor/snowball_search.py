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

_INDEX: dict[int, tuple[list, dict[str, int], int]] = {}  # id(table) -> (table, string -> entry, longest string)


def _index(table: list) -> tuple[dict[str, int], int]:
    """The table's string -> entry dictionary and its longest string (built once per table; tables are
    final by the first stemmed word, :func:`tmtprime.meteor.stemmers._snowball`)."""
    found = _INDEX.get(id(table))
    if found is None or found[0] is not table:
        found = _INDEX[id(table)] = (table, {a.s: i for i, a in enumerate(table)}, max(len(a.s) for a in table))
    return found[1], found[2]


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


def find_among_b(self: Any, v: list) -> int:
    """``BaseStemmer.find_among_b``: the longest string of ``v`` that the text before the cursor ends with."""
    index, longest = _index(v)
    c, current = self.cursor, self.current
    for start in range(max(self.limit_backward, c - longest), c + 1):
        i = index.get(current[start:c])
        if i is not None:
            return _fallback(self, v, i, c - start, c, -1)
    return 0


def find_among(self: Any, v: list) -> int:
    """``BaseStemmer.find_among``: the longest string of ``v`` that the text after the cursor starts with."""
    index, longest = _index(v)
    c, current = self.cursor, self.current
    for end in range(min(self.limit, c + longest), c - 1, -1):
        i = index.get(current[c:end])
        if i is not None:
            return _fallback(self, v, i, end - c, c, 1)
    return 0
