"""The interpolated Kneser-Ney trigram model."""

import numpy as np
import pytest

from tmtprime.errors import ModelError
from tmtprime.features.lm import KneserNeyLM

CORPUS = [s.split() for s in ["no se puede abrir el archivo", "no se puede guardar el archivo", "abrir el documento", "guardar la imagen", "el archivo ya existe"]]


def test_next_word_distribution_sums_to_one():
    lm = KneserNeyLM().fit(CORPUS)
    vocab = [w for w in lm.vocab_ if w != "<s>"]
    for context in (["no", "se"], ["el"], [], ["nunca", "visto"]):
        sentences = [context + [w] for w in vocab]
        logp, owner, _ = lm.token_logprobs(sentences)
        # the token right after the context, for every candidate next word
        per_sentence = logp.reshape(len(sentences), len(context) + 2)[:, len(context)]
        assert np.isclose((10.0**per_sentence).sum(), 1.0, atol=1e-6)


def test_fluent_order_scores_higher_and_unknown_words_are_counted():
    lm = KneserNeyLM().fit(CORPUS)
    fluent, scrambled, unknown = lm.score([["no", "se", "puede", "abrir", "el", "archivo"], ["archivo", "el", "abrir", "puede", "se", "no"], ["xyz", "el", "archivo"]])
    assert fluent[0] > scrambled[0]
    assert fluent[2] == 0.0
    assert unknown[2] == pytest.approx(1 / 3)


def test_untrained_or_empty_model_is_an_error():
    with pytest.raises(ModelError):
        KneserNeyLM().score([["a"]])
    with pytest.raises(ModelError):
        KneserNeyLM().fit([[], []])
