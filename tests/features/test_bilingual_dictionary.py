"""Lexical adequacy from Apertium's bilingual dictionary (needs the installed eng-spa pair)."""

from __future__ import annotations

import pytest

from tmtprime.features.bilingual_dictionary import DICTIONARY_NAMES, installed_dictionary, pair_dictionary
from tmtprime.features.qe import QEFeatures


@pytest.fixture(scope="module")
def dictionary():
    found = pair_dictionary("en", "es")
    if found is None:
        pytest.skip("Apertium's eng-spa and spa-eng pairs are not installed")
    return found


def test_content_words_translated_by_the_dictionary_are_found(dictionary):
    rows = dictionary.transform(
        ["The house is big and the dogs run quickly.", "The house is big.", "Blorf zingy."],
        ["La casa es grande y los perros corren rápido.", "El coche es rojo.", "Blorf zingy."],
    )
    good, wrong, unknown = (dict(zip(DICTIONARY_NAMES, r)) for r in rows)
    # house/casa, big/grande, dog/perro, run/correr found; quickly/deprisa is not in the translation
    assert good["src_covered"] == pytest.approx(4 / 5)
    assert good["src_unknown"] == 0.0 and good["tgt_unknown"] == 0.0
    assert wrong["src_covered"] == 0.0 and wrong["tgt_covered"] == 0.0  # coche, rojo translate nothing here
    assert good["src_translations"] >= 1.0
    assert unknown["src_unknown"] >= 0.5 and unknown["tgt_unknown"] >= 0.5 and unknown["src_covered"] == 0.0


def test_rows_stay_aligned_with_their_pairs(dictionary):
    sources = ["The house is big.", "", "Dogs run [fast].", "The house is big."]
    targets = ["La casa es grande.", "", "Los perros corren.", "El coche es rojo."]
    rows = dictionary.transform(sources, targets)
    assert rows.shape == (4, len(DICTIONARY_NAMES))
    assert rows[0].tolist() != rows[3].tolist() and rows[1].tolist() == [0.0] * len(DICTIONARY_NAMES)
    assert rows[0].tolist() == dictionary.transform(sources[:1], targets[:1])[0].tolist()
    assert rows[2].tolist() == dictionary.transform(sources[2:3], targets[2:3])[0].tolist()


def test_the_group_is_absent_without_the_pair_and_named_in_the_fingerprint(dictionary):
    assert installed_dictionary("eng-xxx", "xxx-eng") is None
    assert pair_dictionary("en", "xx") is None
    with_dict, without = QEFeatures("en", "es", dictionary=dictionary), QEFeatures("en", "es")
    assert "dictionary" in with_dict.groups and "dictionary" not in without.groups
    assert [n for n in with_dict.names if n.startswith("qe_dictionary_")] == [f"qe_dictionary_{n}" for n in DICTIONARY_NAMES]
    assert with_dict.fingerprint != without.fingerprint


def test_the_other_columns_keep_their_values(dictionary):
    """A model trained before the group existed reads its columns by name: their values must not move."""
    sources, targets = ["The house is big.", "Dogs run."], ["La casa es grande.", "Los perros corren."]
    with_dict, without = QEFeatures("en", "es", dictionary=dictionary), QEFeatures("en", "es")
    X, Y = with_dict.transform(sources, targets), without.transform(sources, targets)
    at = [with_dict.names.index(n) for n in without.names]
    assert X[:, at].tolist() == Y.tolist()
