"""The two alignments a TM-match repair rests on.

* **Word edits** between the TM source and the new source: the spans where
  they differ (a case-insensitive diff over the same tokens the lexical models
  use, so an inline code or a number is one token).
* **Word links** between the TM source and the TM target, from the TM's own
  IBM Model 1 in both directions (:mod:`tmtprime.align.ibm1`): the links
  both directions agree on, plus the links of either direction between words
  neither agreed link covers (the "final-and" step of the usual symmetrisation),
  plus identical tokens (codes, numbers, names) found once on each side.

A differing source span is then mapped to the target tokens linked to it; the
mapping is refused (and the reason kept) when nothing is linked, when the
target span also holds words linked outside the source span (crossing links),
or when it is far wider than the source span.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np

from tmtprime.align.ibm1 import IBMModel1
from tmtprime.tokens import CODE_PATTERNS, TOKEN_RE

_ACCELERATOR = CODE_PATTERNS["accelerator"]
_LETTER = re.compile(r"[^\W\d_]")
_WORDISH = re.compile(r"\w")
_MID_MARK = re.compile(r"(?<=[^\W\d_])[_&~](?=[^\W\d_])")
_MIN_LINK = 0.01
"""A link of one direction alone needs at least this t-probability."""


@dataclass(frozen=True, slots=True)
class Tokens:
    """A text's tokens: their lower-cased keys (the lexical models' unit) and character spans."""

    text: str
    keys: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, text: str) -> Tokens:
        found = list(TOKEN_RE.finditer(text))
        keys = tuple((_ACCELERATOR.sub("", m.group()) or m.group()).lower() for m in found)
        return cls(text, keys, tuple(m.span() for m in found))

    def chars(self, start: int, end: int) -> tuple[int, int]:
        """Character range of tokens ``start:end`` (``end`` exclusive, non-empty range)."""
        return self.spans[start][0], self.spans[end - 1][1]


@dataclass(frozen=True, slots=True)
class Edit:
    """One differing span: TM source tokens ``tm[0]:tm[1]`` became new source tokens ``new[0]:new[1]``."""

    tm: tuple[int, int]
    new: tuple[int, int]
    punct: bool = False
    """Neither side has a letter: punctuation, codes or numbers only."""


def _has_letter(keys: Sequence[str]) -> bool:
    return any(_LETTER.search(k) for k in keys)


def _trim(keys: Sequence[str], lo: int, hi: int) -> tuple[int, int]:
    """``lo:hi`` without the punctuation marks at its edges (they stay as the TM target has them)."""
    while lo < hi and not _WORDISH.search(keys[lo]):
        lo += 1
    while hi > lo and not _WORDISH.search(keys[hi - 1]):
        hi -= 1
    return lo, hi


def _content(key: str, function_words: frozenset[str]) -> bool:
    return _LETTER.search(key) is not None and key not in function_words


def _unmarked(keys: Sequence[str]) -> list[str]:
    """Keys without a mid-word accelerator marker ("abo_ve" is "above"), for the diff only: the shared
    tokenizer keeps a mid-word underscore, which in code-like strings is part of the name."""
    return [_MID_MARK.sub("", k) if _MID_MARK.search(k) and _LETTER.search(k) else k for k in keys]


def word_edits(tm_source: Tokens, source: Tokens, function_words: frozenset[str] = frozenset()) -> list[Edit]:
    """The differing spans, each non-empty on the TM side unless it is punctuation only.

    Punctuation at the edges of a span of words is left out of it; a span of
    one or two function words only ("in a" -> "in an") is no edit (the TM target's
    grammar stands). An insertion of words has no TM-side token to replace,
    so it takes a neighbour along: the content word after it, which English
    modifiers precede ("of quarter" -> "of current quarter" becomes "quarter" ->
    "current quarter", so the MT orders noun and adjective), else the word before.
    Edits that come to touch or overlap are merged.
    """
    matcher = SequenceMatcher(None, _unmarked(tm_source.keys), _unmarked(source.keys), autojunk=False)
    edits: list[Edit] = []
    n_tm, n_new = len(tm_source.keys), len(source.keys)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if not _has_letter(tm_source.keys[i1:i2]) and not _has_letter(source.keys[j1:j2]):
            edits.append(Edit((i1, i2), (j1, j2), punct=True))
            continue
        at, after = j1, j2  # the equal blocks around an insertion end at j1 and start at j2
        (i1, i2), (j1, j2) = _trim(tm_source.keys, i1, i2), _trim(source.keys, j1, j2)
        changed = [k for k in (*tm_source.keys[i1:i2], *source.keys[j1:j2]) if _LETTER.search(k)]
        if len(changed) <= 2 and all(k in function_words for k in changed):
            continue
        if i1 == i2:
            right = i2 < n_tm and after < n_new
            if right and (i1 == 0 or _content(tm_source.keys[i2], function_words)):
                i2, j2 = i2 + 1, after + 1
            elif i1 > 0:
                i1, j1 = i1 - 1, at - 1
            else:
                continue
        edits.append(Edit((i1, i2), (j1, j2)))
    merged: list[Edit] = []
    for edit in edits:
        if merged and edit.tm[0] <= merged[-1].tm[1] and not (edit.punct or merged[-1].punct):
            last = merged.pop()
            edit = Edit((last.tm[0], max(last.tm[1], edit.tm[1])), (last.new[0], max(last.new[1], edit.new[1])))
        merged.append(edit)
    return merged


def _argmax_links(matrix: np.ndarray) -> set[tuple[int, int]]:
    """(row, column - 1) of each row's best column, when that is not NULL (column 0) and not tiny."""
    best = matrix.argmax(axis=1)
    rows = np.arange(matrix.shape[0])
    keep = (best > 0) & (matrix[rows, best] >= _MIN_LINK)
    return {(int(r), int(c) - 1) for r, c in zip(rows[keep], best[keep])}


def word_links(forward: np.ndarray, reverse: np.ndarray, tm_source: Tokens, tm_target: Tokens) -> set[tuple[int, int]]:
    """(source position, target position) links of one TM unit.

    ``forward`` is IBM Model 1's t(target | source) matrix of the unit
    (rows target words, column 0 NULL), ``reverse`` t(source | target).
    """
    fwd = {(s, t) for t, s in _argmax_links(forward)}
    rev = _argmax_links(reverse)
    links = fwd & rev
    linked_s = {s for s, _ in links}
    linked_t = {t for _, t in links}
    for s, t in sorted(fwd ^ rev):
        if s not in linked_s and t not in linked_t:
            links.add((s, t))
            linked_s.add(s)
            linked_t.add(t)
    src_count, tgt_count = Counter(tm_source.keys), Counter(tm_target.keys)
    for s, key in enumerate(tm_source.keys):
        if src_count[key] == 1 and tgt_count[key] == 1 and re.search(r"\w", key):
            t = tm_target.keys.index(key)
            links = {(a, b) for a, b in links if a != s and b != t}
            links.add((s, t))
    return links


def links_of_units(
    forward: IBMModel1, reverse: IBMModel1, pairs: Sequence[tuple[Tokens, Tokens]]
) -> list[set[tuple[int, int]]]:
    """:func:`word_links` of many (TM source, TM target) pairs, with one model call per direction."""
    sources = [list(s.keys) for s, _ in pairs]
    targets = [list(t.keys) for _, t in pairs]
    fwd = forward.link_probabilities(sources, targets)
    rev = reverse.link_probabilities(targets, sources)
    return [word_links(f, r, s, t) for f, r, (s, t) in zip(fwd, rev, pairs)]


def target_span(edit: Edit, links: set[tuple[int, int]], tm_source: Tokens) -> tuple[int, int] | str:
    """The target tokens ``start:end`` that translate the edit's TM-side tokens, or why there is no trustworthy one.

    Trustworthy: every TM-side word linked, no target word inside the span
    linked outside the edit, and not far wider than the edit.
    """
    inside = range(*edit.tm)
    linked = [t for s, t in links if s in inside]
    if not linked:
        return "unaligned"
    if any(_LETTER.search(tm_source.keys[s]) and not any(a == s for a, _ in links) for s in inside):
        return "partly unaligned"
    start, end = min(linked), max(linked) + 1
    if any(start <= t < end and s not in inside for s, t in links):
        return "crossing"
    if end - start > 2 * len(inside) + 2:
        return "too wide"
    return start, end
