"""The repaired-candidate columns: facts of the repair for kind ``repair``, absent (NaN) for the other kinds."""

import math

import numpy as np
import pytest

from tmtprime.features.extractor import FEATURE_NAMES, CandidateFeatureExtractor, feature_key
from tmtprime.features.repair import REPAIR_NAMES, repair_values
from tmtprime.formats.model import Candidate, Segment

TM = [("Could not archive the image.", "No se ha podido archivar la imagen."), ("Save the comment", "Guardar el comentario"),
      ("Open the image", "Abrir la imagen"), ("Delete the comment", "Eliminar el comentario")]
SPAN = {"source": "the comment", "tm_source": "the image", "tm_target": "la imagen", "target": "el comentario", "start": 23, "end": 36}


def repaired(**attributes) -> Candidate:
    return Candidate("tm-repair", "repair", "No se ha podido archivar el comentario.", fuzzy=80.0,
                     tm_source="Could not archive the image.", attributes=attributes)


def test_a_repair_gives_its_facts_and_other_kinds_only_the_flag():
    rep = repaired(spans=[SPAN], changed_share=0.25, context_spans=1, coverage=0.75)
    assert repair_values(rep) == [1.0, 0.25, pytest.approx(math.log(2)), 1.0, 0.75]
    tm = Candidate("tm", "tm", "No se ha podido archivar la imagen.", fuzzy=80.0, tm_source="Could not archive the image.")
    assert repair_values(tm)[0] == 0.0 and all(math.isnan(v) for v in repair_values(tm)[1:])


def test_a_repair_stored_before_a_fact_was_recorded_has_it_absent():
    values = repair_values(repaired(spans=[SPAN], changed_share=0.25, context_spans=0))
    assert values[:4] == [1.0, 0.25, pytest.approx(math.log(2)), 0.0] and math.isnan(values[4])


def test_the_extractor_places_the_columns_per_candidate():
    seg = Segment(key="1", source="Could not archive the comment.", candidates=[
        Candidate("tm", "tm", "No se ha podido archivar la imagen.", fuzzy=80.0, tm_source="Could not archive the image."),
        repaired(spans=[SPAN], changed_share=0.25, context_spans=1, coverage=0.75),
        Candidate("mt", "mt", "No podría archivar el comentario."),
    ])
    X = CandidateFeatureExtractor().fit(tm=TM).transform([seg])
    cols = [FEATURE_NAMES.index(n) for n in REPAIR_NAMES]
    assert list(X[:, cols[0]]) == [0.0, 1.0, 0.0]
    assert list(X[1, cols[1:]]) == [0.25, pytest.approx(math.log(2)), 1.0, 0.75]
    assert np.isnan(X[[0, 2]][:, cols[1:]]).all()


def test_the_shipped_model_reads_only_the_columns_it_was_trained_on():
    """Its card predates the repair columns and names no 'used' list: it still gets exactly its 77 columns."""
    from tmtprime.recommend.applicability import card_features
    from tmtprime.workflows.model_choice import shipped_model

    model, card = shipped_model()
    assert not set(REPAIR_NAMES) & set(card["features"]["names"])
    used = card_features(card, FEATURE_NAMES)
    assert used.names == card["features"]["names"]
    X = np.zeros((2, len(FEATURE_NAMES)))
    assert used.matrix(X).shape == (2, len(card["features"]["names"]))


def test_a_model_on_another_repair_feature_set_is_refused_with_what_to_do(tmp_path):
    from tmtprime.errors import ModelError
    from tmtprime.features.extractor import FEATURE_SET_VERSION
    from tmtprime.workflows.model_choice import _check_features

    card = {"features": {"version": FEATURE_SET_VERSION, "names": list(FEATURE_NAMES), "used": list(FEATURE_NAMES),
                         "repair_version": "0"}}
    with pytest.raises(ModelError, match="repair feature set 0.*tmtprime train"):
        _check_features("old", card, file=True)
    card["features"]["repair_version"] = "1"
    _check_features("current", card, file=True)
    _check_features("no repair columns", {"features": {"version": FEATURE_SET_VERSION, "names": list(FEATURE_NAMES[:77])}}, file=True)


def test_segments_whose_repairs_differ_only_in_their_facts_are_not_one_feature_key():
    """The whole job computes each distinct ``feature_key`` once: a key blind to the repair's
    facts would copy one repair's columns to another."""
    def seg(coverage: float) -> Segment:
        return Segment(key="1", source="Could not archive the comment.", candidates=[
            repaired(spans=[SPAN], changed_share=0.25, context_spans=1, coverage=coverage)])
    assert feature_key(seg(0.75)) == feature_key(seg(0.75))
    assert feature_key(seg(0.75)) != feature_key(seg(0.5))
