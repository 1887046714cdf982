"""How the TM source differs from the new source (tmtprime.features.tmdiff)."""

import pytest
from rapidfuzz.distance import Levenshtein

from tmtprime.features.tmdiff import DIFF_NAMES, no_tm_features, tm_diff
from tmtprime.tokens import lower_tokens


def values(source: str, tm_source: str, tm_target: str) -> dict[str, float]:
    d = tm_diff(source, tm_source, lower_tokens(source), lower_tokens(tm_target))
    return dict(zip(DIFF_NAMES, d.values))


def test_edit_script_counts_words_and_edits_per_word():
    v = values("Cannot save the file", "Cannot open the file", "No se puede abrir el archivo")
    assert (v["tm_inserted_words"], v["tm_deleted_words"], v["tm_substituted_words"]) == (1, 1, 1)
    # one word edit, per word of the TM target (6) and of the new source (4)
    assert v["tm_edits_per_tm_target_word"] == pytest.approx(1 / 6)
    assert v["tm_edits_per_source_word"] == pytest.approx(1 / 4)


@pytest.mark.parametrize(
    ("source", "tm_source"),
    [
        ("a b c d e", "a x c"),
        ("save the file now", "open file"),
        ("x y", "p q r s t u"),
        ("same words here", "same words here"),
        ("one %s two", "%s one two three"),
    ],
)
def test_edits_are_the_word_levenshtein_distance(source, tm_source):
    new, old = lower_tokens(source), lower_tokens(tm_source)
    v = values(source, tm_source, "t1 t2 t3")
    assert v["tm_edits_per_tm_target_word"] * 3 == pytest.approx(Levenshtein.distance(old, new))
    assert v["tm_edits_per_source_word"] * len(new) == pytest.approx(Levenshtein.distance(old, new))


def test_without_a_tm_match_every_word_would_change():
    v = dict(zip(DIFF_NAMES, no_tm_features()))
    assert len(no_tm_features()) == len(DIFF_NAMES)
    assert v["tm_edits_per_tm_target_word"] == 1.0 and v["tm_edits_per_source_word"] == 1.0
    assert v["tm_changed_share"] == 1.0
