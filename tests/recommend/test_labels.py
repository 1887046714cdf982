"""TER labels and the tie rule."""

import numpy as np
import pytest

from tmtprime.errors import ModelError
from tmtprime.formats.model import Candidate, Segment
from tmtprime.recommend.labels import best_labels, candidate_ter, segment_index


def test_all_candidates_tied_for_the_lowest_ter_are_best():
    ter = np.array([10.0, 10.0, 30.0, 50.0, 20.0])
    seg = np.array([0, 0, 0, 1, 1])
    assert list(best_labels(ter, seg)) == [1, 1, 0, 0, 1]


def test_candidate_ter_against_the_reference():
    segs = [
        Segment("a", "Open file", reference="Abrir archivo", candidates=[Candidate("tm", "tm", "Abrir archivo"), Candidate("mt", "mt", "Abrir fichero")]),
        Segment("b", "Quit", reference="Salir", candidates=[Candidate("mt", "mt", "Dejar")]),
    ]
    ter = candidate_ter(segs)
    assert list(ter) == pytest.approx([0.0, 50.0, 100.0])
    assert list(segment_index(segs)) == [0, 0, 1]
    with pytest.raises(ModelError, match="no reference"):
        candidate_ter([Segment("c", "x", candidates=[Candidate("mt", "mt", "y")])])
