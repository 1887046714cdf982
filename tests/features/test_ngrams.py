"""Shares of a text's 2/3/4-grams found in the TM targets."""

import numpy as np
import pytest

from tmtprime.errors import ModelError
from tmtprime.features.ngrams import NgramSet

CORPUS = [s.split() for s in ["no se puede abrir el archivo", "guardar la imagen"]]


def test_coverage_per_order():
    ngrams = NgramSet().fit(CORPUS)
    cov = ngrams.coverage([["no", "se", "puede", "abrir"], ["no", "se", "puede", "guardar", "la", "imagen"], ["abrir", "xyz"], ["archivo"]])
    np.testing.assert_allclose(cov[0], [1.0, 1.0, 1.0])
    # 2-grams: no se, se puede, (puede guardar), guardar la, la imagen -> 4/5
    # 3-grams: no se puede, (se puede guardar), (puede guardar la), guardar la imagen -> 2/4
    # 4-grams: none of the 3 -> 0
    np.testing.assert_allclose(cov[1], [4 / 5, 2 / 4, 0.0])
    assert cov[2, 0] == 0.0  # an unknown word makes its n-grams unseen
    np.testing.assert_allclose(cov[3], [1.0, 1.0, 1.0])  # too short for any n-gram: nothing new


def test_ngrams_do_not_cross_sentences():
    ngrams = NgramSet().fit(CORPUS)
    # "archivo guardar" spans two corpus sentences: not an n-gram of the corpus
    assert ngrams.coverage([["archivo", "guardar"]])[0, 0] == 0.0


def test_unfitted_is_an_error():
    with pytest.raises(ModelError, match="fit"):
        NgramSet().coverage([["a", "b"]])
