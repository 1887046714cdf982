"""Repetitions inside a document, as a CAT analysis counts them.

A translator pays the first occurrence of a segment in full and its later
occurrences (repetitions) at a low rate, because the translation is reused.
Two segments repeat each other when their token sequences are identical after
whitespace and Unicode-compatibility normalisation (the fuzzy score's
``exact``/``100`` classes, :mod:`tmtprime.tm.fuzzy`); a difference in case
or punctuation makes them different segments, as in CAT tools.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tmtprime.tm.tokenize import surfaces_and_words, surfaces_and_words_cached


def repetition_key(text: str) -> tuple[str, ...]:
    """What two segments must share to repeat each other: their surface tokens."""
    return surfaces_and_words(text)[0]


def first_occurrences(sources: Sequence[str]) -> list[int | None]:
    """For each segment, the index of the earlier segment it repeats, or None for a first occurrence."""
    return repetitions_and_words(sources)[0]


def repetitions_and_words(sources: Sequence[str]) -> tuple[list[int | None], list[int]]:
    """:func:`first_occurrences` and each segment's word count, tokenising each distinct text (or word) once."""
    facts: dict[str, tuple[tuple[str, ...], int]] = {}
    chunks: dict[str, tuple[tuple[str, ...], int]] = {}
    seen: dict[tuple[str, ...], int] = {}
    firsts: list[int | None] = []
    words: list[int] = []
    for i, text in enumerate(sources):
        fact = facts.get(text)
        if fact is None:
            fact = facts[text] = surfaces_and_words_cached(text, chunks)
        first = seen.setdefault(fact[0], i)
        firsts.append(None if first == i else first)
        words.append(fact[1])
    return firsts, words


@dataclass(frozen=True, slots=True)
class RepetitionStats:
    """Segment and word counts split into first occurrences and repetitions."""

    segments: int
    words: int
    unique_segments: int
    unique_words: int
    repeated_segments: int
    repeated_words: int


def repetition_stats(sources: Sequence[str]) -> RepetitionStats:
    """Counts for one document (or any sequence considered as one job)."""
    firsts, words = repetitions_and_words(sources)
    unique = [w for w, f in zip(words, firsts) if f is None]
    return RepetitionStats(
        segments=len(sources),
        words=sum(words),
        unique_segments=len(unique),
        unique_words=sum(unique),
        repeated_segments=len(sources) - len(unique),
        repeated_words=sum(words) - sum(unique),
    )
