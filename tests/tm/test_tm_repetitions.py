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


def test_chunk_cached_tokens_are_the_whole_text_tokens():
    """The per-word cache gives exactly the tokens of the whole text, on texts built to trip it."""
    import random

    from tmtprime.tm.tokenize import surfaces_and_words, surfaces_and_words_cached

    pieces = ["Open", "the", "file", "don't", "1,000.5", "3abc", "a_b", "_File", "&amp;", "&Save", "...", "--", "x.",
              "www.example.com/a", "http://x.org/p?q=1.", "a@b.org", "${HOME}", "$(VAR)", "%s", "% d", "%(name) s", "%1", "{0}",
              "{0, number}", "<b>", '<a href="x y">', "</a>", "«é»", "naïve", "\u00a0", "\t", "\x1f", "''", "(a)", "e.g.",
              "3.", ".5", "12:30", "a'", "'a", "¨", "ﬁle"]  # fmt: skip
    rng = random.Random(7)
    cache: dict = {}
    for _ in range(3000):
        text = rng.choice(["", " ", "  "]).join(rng.choice(pieces) for _ in range(rng.randint(1, 8)))
        text = text if rng.random() < 0.5 else " ".join(text.split(" "))
        assert surfaces_and_words_cached(text, cache) == surfaces_and_words(text), text
    assert len(cache) > 20


def test_repetitions_and_words_agree_with_the_token_by_token_counts():
    from tmtprime.tm.repetitions import first_occurrences, repetitions_and_words
    from tmtprime.tm.tokenize import tokenize

    texts = ["Open the file.", "Open  the file.", "open the file.", "Open the file.", "Save %s now", "Save %d now",
             "Save % d now", "Save %d now", "x <b>bold</b>", "x <b>bold</b> ", "naïve café", "naïve café"]  # fmt: skip
    firsts, words = repetitions_and_words(texts)
    assert words == [sum(1 for t in tokenize(s) if t.kind in ("word", "number")) for s in texts]
    keys = [tuple(t.text for t in tokenize(s)) for s in texts]
    assert firsts == [None if keys.index(k) == i else keys.index(k) for i, k in enumerate(keys)]
    assert firsts == first_occurrences(texts)
    assert firsts[1] == 0 and firsts[2] is None and firsts[7] == 5 and firsts[6] is None
