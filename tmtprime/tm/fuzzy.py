"""The CAT-style word-level fuzzy match score (0-100) and match types.

Formula. With ``K(x)`` the content keys of ``x`` (words case-folded, every
placeholder one class, every number one class, punctuation left out) and
``S(x)`` its surface tokens (every token as written, punctuation included),
see :mod:`tmtprime.tm.tokenize`::

    content = 100 * (1 - lev(K(a), K(b)) / max(|K(a)|, |K(b)|))
    light   = lev(S(a), S(b)) - lev(K(a), K(b))          # >= 0, always
    score   = max(0, content - LIGHT_PENALTY * light)

``lev`` is the token-level Levenshtein distance (insertion, deletion and
substitution cost 1). ``content`` is exactly the textbook word-level score
``100 * (1 - lev(tokens) / max(len))`` over the words of the two strings; the
``light`` term counts the edits that only concern case, punctuation or which
placeholder/number stands in a slot. Each costs ``LIGHT_PENALTY`` (1) point,
as CAT tools deduct a point or two for such differences instead of treating
them as a changed word: ``Open file`` vs ``open file.`` scores 98, not 33.
Whitespace and Unicode-compatibility differences (no-break spaces, ``…`` vs
``...``, curly vs straight quotes) cost nothing: the two strings are a 100 %
match but not an *exact* one.

Strings without any content token (``...``, ``:``) are scored over their
surface tokens with the same textbook formula; two empty strings match 100.

Match types, best first: ``context`` (identical string and the same non-empty
context, e.g. PO ``msgctxt`` — a CAT tool's 101 % / in-context match),
``exact`` (identical string), ``100`` (identical after normalisation),
``fuzzy`` (anything below 100).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from rapidfuzz.distance import Levenshtein

from tmtprime.tm.tokenize import token_keys

MatchType = Literal["context", "exact", "100", "fuzzy"]

LIGHT_PENALTY = 1.0
"""Points deducted per edit that only changes case, punctuation or a placeholder/number."""

MATCH_TYPE_RANK: dict[str, int] = {"context": 3, "exact": 2, "100": 1, "fuzzy": 0}
"""Ranking among equal scores: a context match beats an exact one, and so on."""


@dataclass(frozen=True, slots=True)
class FuzzyScore:
    """A fuzzy score with the parts it was computed from (for display and audits)."""

    score: float
    """The CAT fuzzy score 0-100, rounded to 2 decimals."""
    content_score: float
    """The word-level score before light penalties."""
    light_edits: int
    """Edits that only concern case, punctuation or placeholder/number identity."""
    match_type: MatchType


def combine(
    key_dist: np.ndarray, n_keys_a: np.ndarray, n_keys_b: np.ndarray,
    surface_dist: np.ndarray, n_surface_a: np.ndarray, n_surface_b: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(score, content_score, light_edits)`` arrays from token-level distances and lengths.

    Vectorised over candidates; shared by :func:`score_pair` and the TM index
    so that both give exactly the same number.
    """
    longest = np.maximum(n_keys_a, n_keys_b).astype(np.float64)
    longest_surface = np.maximum(n_surface_a, n_surface_b).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        content = np.where(longest > 0, 100.0 * (1.0 - key_dist / longest), np.nan)
        surface_only = np.where(longest_surface > 0, 100.0 * (1.0 - surface_dist / longest_surface), 100.0)
    light = np.where(longest > 0, surface_dist - key_dist, 0)
    content = np.where(longest > 0, content, surface_only)
    score = np.maximum(0.0, content - LIGHT_PENALTY * light)
    return np.round(score, 2), np.round(content, 2), light


def match_type(
    a: str, b: str, score: float, light_edits: int, context_a: str | None = None, context_b: str | None = None
) -> MatchType:
    """Classify a match (see the module docstring)."""
    if a == b:
        return "context" if context_a and context_a == context_b else "exact"
    if score >= 100.0 and light_edits == 0:
        return "100"
    return "fuzzy"


def score_pair(a: str, b: str, *, context_a: str | None = None, context_b: str | None = None) -> FuzzyScore:
    """Fuzzy score of segment ``a`` against TM source ``b`` (symmetric in a and b)."""
    keys_a, surface_a = token_keys(a)
    keys_b, surface_b = token_keys(b)
    key_dist = Levenshtein.distance(keys_a, keys_b)
    surface_dist = Levenshtein.distance(surface_a, surface_b)
    scores, contents, lights = combine(
        np.array([key_dist]), np.array([len(keys_a)]), np.array([len(keys_b)]),
        np.array([surface_dist]), np.array([len(surface_a)]), np.array([len(surface_b)]),
    )
    score, light = float(scores[0]), int(lights[0])
    return FuzzyScore(score, float(contents[0]), light, match_type(a, b, score, light, context_a, context_b))


def fuzzy_score(a: str, b: str) -> float:
    """The CAT fuzzy score 0-100 of ``a`` against ``b``."""
    return score_pair(a, b).score
