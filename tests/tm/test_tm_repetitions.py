"""Repetitions inside a document: first occurrences vs repeats, with word counts."""

from __future__ import annotations

from tmtprime.tm.repetitions import first_occurrences, repetition_stats


def test_first_occurrences_point_back_to_the_first_copy():
    doc = ["Open file", "Save", "Open  file", "open file", "Save", "Open file"]
    # whitespace-only differences repeat; a case difference does not (CAT tools agree)
    assert first_occurrences(doc) == [None, None, 0, None, 1, 0]


def test_repetition_stats_split_words_between_first_occurrences_and_repeats():
    doc = ["Delete %s files?", "Cancel", "Delete %s files?", "Delete %s files?", "OK"]
    stats = repetition_stats(doc)
    assert (stats.segments, stats.unique_segments, stats.repeated_segments) == (5, 3, 2)
    assert (stats.words, stats.unique_words, stats.repeated_words) == (8, 4, 4)


def test_no_segments():
    stats = repetition_stats([])
    assert stats.segments == stats.words == stats.repeated_segments == 0
