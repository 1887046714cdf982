"""The CAT-style fuzzy score on hand-made cases, and its documented formula."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from tmtprime.tm.fuzzy import fuzzy_score, score_pair
from tmtprime.tm.tokenize import tokenize, word_count


def kinds(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(text)]


def test_tokenizer_keeps_placeholders_numbers_and_words_whole():
    assert kinds("%1$s of {0}: 1,000.5 files <b>don't</b> %(n)d") == [
        ("placeholder", "%1$s"), ("word", "of"), ("placeholder", "{0}"), ("punct", ":"),
        ("number", "1,000.5"), ("word", "files"), ("placeholder", "<b>"), ("word", "don't"),
        ("placeholder", "</b>"), ("placeholder", "%(n)d"),
    ]


def test_inline_code_placeholders_of_the_readers_are_placeholders():
    assert kinds("Click {1}here{/1} {2/}") == [
        ("word", "Click"), ("placeholder", "{1}"), ("word", "here"), ("placeholder", "{/1}"), ("placeholder", "{2/}"),
    ]
    assert fuzzy_score("Click {1}here{/1}", "Click here") == 50.0  # two missing codes: two full edits


def test_tokenizer_accelerators_runs_and_urls():
    assert kinds("&Open _Save... see https://x.org/a. or me@x.org") == [
        ("punct", "&"), ("word", "Open"), ("punct", "_"), ("word", "Save"), ("punct", "..."),
        ("word", "see"), ("word", "https://x.org/a"), ("punct", "."), ("word", "or"), ("word", "me@x.org"),
    ]


def test_percent_sign_after_a_number_is_not_a_placeholder():
    assert kinds("50% done") == [("number", "50"), ("punct", "%"), ("word", "done")]


def test_word_count_counts_words_and_numbers_only():
    assert word_count("Delete %s files (3 selected)?") == 4


def test_identical_is_exact_100():
    s = score_pair("Open the file", "Open the file")
    assert (s.score, s.match_type, s.light_edits) == (100.0, "exact", 0)


def test_whitespace_and_unicode_only_is_100_but_not_exact():
    for other in ("Open  the file", " Open the file ", "Open\u00a0the file"):
        s = score_pair("Open the file", other)
        assert (s.score, s.match_type) == (100.0, "100"), other
    assert score_pair("Wait…", "Wait...").match_type == "100"
    assert score_pair("Don’t", "Don't").match_type == "100"


def test_context_match_needs_the_same_non_empty_context():
    assert score_pair("Open", "Open", context_a="menu", context_b="menu").match_type == "context"
    assert score_pair("Open", "Open", context_a="menu", context_b="dialog").match_type == "exact"
    assert score_pair("Open", "Open").match_type == "exact"
    assert score_pair("Open", "open", context_a="menu", context_b="menu").match_type == "fuzzy"


def test_case_only_difference_costs_one_point_per_token():
    assert fuzzy_score("Open the file", "open the file") == 99.0
    assert fuzzy_score("Open the file", "OPEN THE FILE") == 97.0


def test_punctuation_difference_is_light():
    assert fuzzy_score("Open the file", "Open the file.") == 99.0
    assert fuzzy_score("Open the file", "Open the file:") == 99.0
    assert fuzzy_score("Save as", "Save as...") == 99.0
    # a changed word plus a changed punctuation mark: one full edit, one light one
    assert fuzzy_score("Open the file", "Open a file.") == pytest.approx(100 * (1 - 1 / 3) - 1, abs=0.01)


def test_placeholder_and_number_changes_are_light_but_removal_is_a_full_edit():
    assert fuzzy_score("Delete %s files", "Delete %d files") == 99.0
    assert fuzzy_score("Page {0} of {1}", "Page %1 of %2") == 98.0
    assert fuzzy_score("Page 1 of 5", "Page 2 of 5") == 99.0
    assert fuzzy_score("Delete %s files", "Delete files") == pytest.approx(100 * (1 - 1 / 3), abs=0.01)


def test_insertion_and_deletion_follow_the_textbook_formula():
    # 100 * (1 - lev / max(len)) over words
    assert fuzzy_score("Open the file", "Open the new file") == 75.0
    assert fuzzy_score("Open the new file", "Open the file") == 75.0
    assert fuzzy_score("a b c d e f g h i j", "a b c d e") == 50.0
    assert fuzzy_score("cannot open file", "file cannot be opened") == 25.0


def test_empty_and_punctuation_only_strings():
    assert score_pair("", "").match_type == "exact"
    assert fuzzy_score("", "") == 100.0
    assert fuzzy_score("", "Open") == 0.0
    assert fuzzy_score("Open", "") == 0.0
    assert fuzzy_score("...", "...") == 100.0
    assert fuzzy_score("...", ":") == 0.0
    assert fuzzy_score(": -", ": +") == 50.0  # no content: textbook formula over punctuation


_PLAIN = re.compile(r"\w+|[^\w\s]")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["open", "file", "the", "save", "as", "new", "copy", "delete"]), max_size=8),
    st.lists(st.sampled_from(["open", "file", "the", "save", "as", "new", "copy", "delete"]), max_size=8),
)
def test_score_equals_textbook_formula_on_plain_lowercase_words(a, b):
    """Without case/punctuation/placeholder differences the score is 100 * (1 - lev/max)."""
    x, y = " ".join(a), " ".join(b)
    expected = 100.0 if not a and not b else 100 * (1 - Levenshtein.distance(a, b) / max(len(a), len(b)))
    assert fuzzy_score(x, y) == pytest.approx(expected, abs=0.005)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab AB.,:%sd{}01", max_size=20), st.text(alphabet="ab AB.,:%sd{}01", max_size=20))
def test_score_is_symmetric_bounded_and_100_only_for_equal_tokens(a, b):
    s = score_pair(a, b)
    assert s.score == score_pair(b, a).score
    assert 0.0 <= s.score <= s.content_score <= 100.0
    assert s.light_edits >= 0
    same_tokens = [t.text for t in tokenize(a)] == [t.text for t in tokenize(b)]
    assert (s.score == 100.0) == same_tokens
