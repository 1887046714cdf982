"""IBM Model 1 trained by EM in numpy."""

import numpy as np
import pytest

from tmtprime.errors import ModelError
from tmtprime.align.ibm1 import IBMModel1

SRC = ["open the file", "save the file", "open the image", "save the image", "close the window", "open the window"]
TGT = ["abrir el archivo", "guardar el archivo", "abrir la imagen", "guardar la imagen", "cerrar la ventana", "abrir la ventana"]


def model() -> IBMModel1:
    return IBMModel1(iterations=10).fit([s.split() for s in SRC], [t.split() for t in TGT])


def test_learns_word_translations():
    m = model()
    best = np.array([m.translation_mass([[w]], [["archivo", "abrir", "ventana"]])[0] for w in ("file", "open", "window")])
    assert np.all(best > 0.4)  # "file" shares its mass with "el", its constant neighbour
    assert m.translation_mass([["file"]], [["ventana"]])[0] < 0.2


def test_correct_translation_scores_higher_and_covers_the_source():
    m = model()
    good, bad = m.score([["save", "the", "window"]] * 2, [["guardar", "la", "ventana"], ["abrir", "el", "archivo"]])
    assert good[0] > bad[0]
    assert good[1] > bad[1]  # source coverage
    assert good[2] >= bad[2]  # target coverage


def test_empty_sentences_and_untrained_model():
    m = model()
    out = m.score([[], ["open"]], [["abrir"], []])
    assert out.shape == (2, 3) and np.all(np.isfinite(out))
    with pytest.raises(ModelError):
        IBMModel1().score([["a"]], [["b"]])
    with pytest.raises(ModelError):
        IBMModel1().fit([[]], [[]])


def test_repeated_sentences_score_as_if_each_pair_came_alone():
    """score() multiplies each distinct sentence once; every pair must still get its own values."""
    m = model()
    sources = [["save", "the", "window"]] * 3 + [["open", "the", "file"], [], ["save", "the", "window"], ["unknown", "words"]]
    targets = [["guardar", "la", "ventana"], ["abrir", "el", "archivo"], ["guardar", "la", "ventana"], ["abrir", "el", "archivo"], ["abrir"], [], ["x"]]
    together = m.score(sources, targets)
    alone = np.vstack([m.score([s], [t]) for s, t in zip(sources, targets)])
    np.testing.assert_allclose(together, alone, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(together[0], together[2])
