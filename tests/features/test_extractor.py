"""Per-candidate features: names, shape, system independence, what the features see."""

import numpy as np
import pytest

from tmtprime.errors import ModelError
from tmtprime.features.extractor import FEATURE_NAMES, CandidateFeatureExtractor
from tmtprime.features.repair import REPAIR_NAMES
from tmtprime.formats.model import Candidate, Segment

TM = [
    ("Cannot open the file %s", "No se puede abrir el archivo %s"),
    ("Save the file", "Guardar el archivo"),
    ("Open the image", "Abrir la imagen"),
    ("Close the window", "Cerrar la ventana"),
    ("_Open File", "_Abrir archivo"),
]


def segment(*mts: str) -> Segment:
    return Segment(
        key="1",
        source="Cannot save the file %s",
        candidates=[
            Candidate("tm", "tm", "No se puede abrir el archivo %s", fuzzy=80.0, tm_source="Cannot open the file %s"),
            *[Candidate(f"mt{i}", "mt", t) for i, t in enumerate(mts)],
        ],
    )


@pytest.fixture(scope="module")
def extractor() -> CandidateFeatureExtractor:
    return CandidateFeatureExtractor().fit(tm=TM)


def col(name: str) -> int:
    return FEATURE_NAMES.index(name)


def test_one_named_row_per_candidate(extractor):
    X = extractor.transform([segment("No se puede guardar el archivo %s", "Guardar archivo")])
    assert X.shape == (3, len(FEATURE_NAMES))
    assert list(extractor.get_feature_names_out()) == list(FEATURE_NAMES)
    assert len(set(FEATURE_NAMES)) == len(FEATURE_NAMES)
    repair = [FEATURE_NAMES.index(n) for n in REPAIR_NAMES[1:]]  # absent for candidates that are no repair
    assert np.all(np.isnan(X[:, repair]))
    assert np.all(np.isfinite(np.delete(X, repair, axis=1)))


def test_candidate_order_and_system_names_do_not_matter(extractor):
    a = extractor.transform([segment("No se puede guardar el archivo %s", "Guardar archivo", "no puede salvar el fichero")])
    seg = segment("no puede salvar el fichero", "No se puede guardar el archivo %s", "Guardar archivo")
    for c, name in zip(seg.candidates[1:], ("x", "y", "z")):
        c.system = name
    b = extractor.transform([seg])
    np.testing.assert_allclose(a[[0, 3, 1, 2]], b)


def test_any_number_of_candidates(extractor):
    for n in (0, 1, 5):
        X = extractor.transform([segment(*["Guardar el archivo %s"] * n)])
        assert X.shape[0] == n + 1


def test_placeholder_loss_and_tm_diff_are_seen(extractor):
    X = extractor.transform([segment("No se puede guardar el archivo %s", "No se puede guardar el archivo")])
    assert X[1, col("cand_code_mismatch_printf")] == 0
    assert X[2, col("cand_code_mismatch_printf")] == 1
    assert X[0, col("cand_is_tm")] == 1 and X[1, col("cand_is_tm")] == 0
    assert X[0, col("cand_fuzzy")] == pytest.approx(0.8)
    # TM source "open" -> new source "save": one substituted word, whose translation "abrir" is in the TM target
    assert X[0, col("seg_tm_substituted_words")] == 1
    assert X[0, col("seg_tm_deleted_translation_mass")] > 0.3
    # relative features: the best candidate of the segment is at 0
    assert X[:, col("rel_lm_logprob")].max() == 0.0


def test_edit_rates_and_seen_ngrams(extractor):
    X = extractor.transform([segment("No se puede abrir el archivo %s", "Guardar archivo")])
    # an MT output identical to the TM match needs no edits to reach it; the other does
    assert X[0, col("cand_edit_rate_to_tm")] == 0.0 and X[1, col("cand_edit_rate_to_tm")] == 0.0
    assert X[2, col("cand_edit_rate_to_tm")] > 0.5
    assert X[1, col("cand_edit_rate_to_others_min")] == 0.0
    assert X[2, col("cand_edit_rate_to_mt_min")] == X[2, col("cand_edit_rate_to_others_min")]
    # one source word changed ("open" -> "save") per word of the new source
    assert X[0, col("seg_tm_edits_per_source_word")] == pytest.approx(1 / 5)
    # the TM target is phrasing the TM has; "guardar archivo" is not, and it is too short for 3-grams
    assert X[0, col("cand_tm_2grams_seen")] == 1.0 and X[0, col("cand_tm_4grams_seen")] == 1.0
    assert X[2, col("cand_tm_2grams_seen")] == 0.0 and X[2, col("cand_tm_3grams_seen")] == 1.0


def test_source_language_words_left_in_a_candidate(extractor):
    X = extractor.transform([segment("No se puede guardar el archivo %s", "Guardar the file %s")])
    assert X[1, col("cand_source_side_words")] == 0
    # "the" and "file" are frequent in the TM sources, absent from its targets
    assert X[2, col("cand_source_side_words")] == 2
    assert X[2, col("cand_source_side_share")] == pytest.approx(2 / 3)


def test_errors_are_clear():
    with pytest.raises(ModelError, match="not fitted"):
        CandidateFeatureExtractor().transform([segment("x")])
    with pytest.raises(ModelError, match="translation memory"):
        CandidateFeatureExtractor().fit(tm=[])
    with pytest.raises(ModelError, match="no candidates"):
        CandidateFeatureExtractor().fit(tm=TM).transform([Segment(key="k", source="x")])


def test_tm_neighbour_support_columns(extractor):
    # source "Cannot save the file %s": its TM neighbours include "Save the file" ->
    # "Guardar el archivo", whose words the first MT output uses and the third does not
    X = extractor.transform([segment("No se puede guardar el archivo %s", "Guardar archivo", "no puede salvar el fichero")])
    word = X[:, col("cand_nb_word_support")]
    assert word[1] > word[3] > 0
    rel = X[:, col("rel_nb_word_support")]
    np.testing.assert_allclose(rel, word - word.max())
    np.testing.assert_allclose(X[:, col("rel_nb_bigram_support")], X[:, col("cand_nb_bigram_support")] - X[:, col("cand_nb_bigram_support")].max())


def test_workers_and_batches_give_the_same_matrix(extractor):
    segs = [segment(f"Guardar {i}", "Guardar archivo %s") for i in range(20)]
    one = CandidateFeatureExtractor(batch_size=3).fit(tm=extractor.tm_models_)
    two = CandidateFeatureExtractor(n_jobs=2, batch_size=3).fit(tm=extractor.tm_models_)
    assert two._batch_size(20) == 3 and two._batch_size(100) == 13  # at most 4 batches per worker
    np.testing.assert_array_equal(two.transform(segs), one.transform(segs))
    np.testing.assert_array_equal(one.transform(segs), extractor.transform(segs))


def test_is_a_scikit_learn_transformer(extractor):
    from sklearn.base import clone

    fresh = CandidateFeatureExtractor(n_jobs=2, batch_size=7)
    assert fresh.get_params() == {"n_jobs": 2, "batch_size": 7, "backend": None}
    assert not hasattr(fresh, "tm_models_")  # nothing fitted is set before fit
    copy = clone(extractor)
    assert copy.get_params() == extractor.get_params() and not hasattr(copy, "tm_models_")
    segs = [segment("Guardar archivo", "Guardar el archivo %s")]
    np.testing.assert_array_equal(copy.fit_transform(segs, tm=extractor.tm_models_), extractor.transform(segs))
