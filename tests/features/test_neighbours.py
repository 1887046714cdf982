"""TM neighbours: TF-IDF retrieval of the closest TM entries, and candidates' support by their targets."""

import math

import numpy as np
import pytest

from tmtprime.errors import ModelError
from tmtprime.features import neighbours as nbmod
from tmtprime.features.neighbours import TMNeighbours

TM = [
    ("open the file", "abrir el archivo"),
    ("save the file", "guardar el archivo"),
    ("open the image", "abrir la imagen"),
    ("print", "imprimir"),
    ("close the window", "cerrar la ventana"),
]
SOURCES = [s.split() for s, _ in TM]
TARGETS = [t.split() for _, t in TM]


def naive_cosines(query: list[str]) -> np.ndarray:
    """Cosine of sublinear-tf x smoothed-idf vectors, written out plainly."""
    n = len(SOURCES)
    vocab = sorted({w for s in SOURCES for w in s})
    idf = {w: math.log((1 + n) / (1 + sum(w in s for s in SOURCES))) + 1 for w in vocab}

    def vec(words):
        v = np.array([(1 + math.log(words.count(w))) * idf[w] if w in words else 0.0 for w in vocab])
        return v / (np.linalg.norm(v) or 1.0)

    q = vec(query)
    return np.array([vec(s) @ q for s in SOURCES])


@pytest.mark.parametrize("common", [(0.01, 100), (0.5, 1)])
def test_query_returns_the_most_similar_entries_with_their_cosine(common):
    # (0.5, 1): "the" (in 4 of 5 sources) is a common word, left out of the sparse
    # product; the returned similarity must still be the exact cosine.
    nb = TMNeighbours(k=3, common_df=common[0], min_common=common[1]).fit(SOURCES, TARGETS)
    assert (len(nb.common_cols_) > 0) == (common[1] == 1)
    index, sim = nb.query([["open", "the", "file"]])
    expected = naive_cosines(["open", "the", "file"])
    assert index[0, 0] == 0 and sim[0, 0] == pytest.approx(1.0, abs=1e-6)
    assert set(index[0, 1:]) == {1, 2}  # share "open"/"file" and "the"; entry 4 only "the"
    np.testing.assert_allclose(sim[0], expected[index[0]], atol=1e-6)
    assert sim[0, 1] >= sim[0, 2]


def test_query_pads_when_nothing_is_shared():
    nb = TMNeighbours(k=2).fit(SOURCES, TARGETS)
    index, sim = nb.query([["unknown", "words"], []])
    assert (index == -1).all() and (sim == 0).all()


def test_support_means_best_neighbour_similarity_per_word_and_leaves_the_candidate_itself_out():
    nb = TMNeighbours(k=4).fit(SOURCES, TARGETS)
    source = ["open", "the", "file"]
    index, sim = nb.query([source])
    s = dict(zip(index[0], sim[0]))
    candidates = [["abrir", "el", "archivo"], ["abrir", "el", "fichero", "."], ["imprimir"], [], ["xyz"]]
    out = nb.support([source], candidates, np.zeros(len(candidates), dtype=int))
    # row 0 is entry 0's target: entry 0 does not count for it, so "abrir" is supported
    # by entry 2, "el" and "archivo" by entry 1
    assert out[0, 0] == pytest.approx((s[2] + s[1] + s[1]) / 3)
    # bigrams: (abrir, el) only in entry 0 (left out) -> 0; (el, archivo) in entry 1
    assert out[0, 1] == pytest.approx((0 + s[1]) / 2)
    # row 1: entry 0 counts; the word "fichero" no neighbour has; "." is not a word
    assert out[1, 0] == pytest.approx((s[0] + s[0] + 0) / 3)
    # bigrams (abrir, el) s0, (el, fichero) 0, (fichero, .) 0
    assert out[1, 1] == pytest.approx(s[0] / 3)
    # "imprimir" is in the TM, but entry 3 ("print") shares nothing with the source
    assert 3 not in s
    np.testing.assert_array_equal(out[2:], 0.0)


def test_support_in_chunks_equals_one_chunk(monkeypatch):
    nb = TMNeighbours(k=2).fit(SOURCES, TARGETS)
    sources = [["open", "the", "file"], ["close", "window"], ["save", "image"]]
    candidates = [["abrir", "el", "archivo"], ["abrir", "la", "imagen"], ["cerrar", "la", "imagen"], ["guardar", "la", "imagen"], ["guardar"]]
    seg = np.array([0, 0, 1, 2, 2])
    whole = nb.support(sources, candidates, seg)
    monkeypatch.setattr(nbmod, "_SUPPORT_CHUNK", 1)
    monkeypatch.setattr(nbmod, "_QUERY_BATCH", 1)
    np.testing.assert_allclose(nb.support(sources, candidates, seg), whole)
    assert whole[2, 0] > 0 and whole[3, 0] > 0


def test_errors():
    with pytest.raises(ModelError, match="fit"):
        TMNeighbours().query([["a"]])
    with pytest.raises(ModelError, match="at least 1"):
        TMNeighbours(k=0).fit(SOURCES, TARGETS)
    nb = TMNeighbours().fit(SOURCES, TARGETS)
    with pytest.raises(ModelError, match="segment numbers"):
        nb.support([["open"]], [["abrir"]], np.array([0, 0]))
