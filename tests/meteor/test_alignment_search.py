"""The alignment search against the jar at several beam sizes (``aligner.py``'s mechanism).

The beam size is the sharpest probe of how the jar prunes and breaks ties:
the same pair gets different alignments at ``-x 1``, ``2`` and ``40``. The
fixture holds random pairs over a few letters (short, and crowded 10-25-word
ones) with the jar's ``Matcher -m exact -x BEAM`` alignments, generated here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tmtprime.meteor.aligner import align

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "random_exact_alignments.json").read_text())


def exact_alignment(hyp: str, ref: str, beam: int) -> list[list[int]]:
    h, r = hyp.split(), ref.split()
    candidates = [(i, 1, j, 1, 0) for j in range(len(r)) for i in range(len(h)) if h[i] == r[j]]
    return [list(m) for m in align(h, r, candidates, {0}, beam)]


@pytest.mark.parametrize("beam", FIXTURE["beams"])
def test_random_pairs_align_as_the_jar_at_every_beam(beam: str) -> None:
    wrong = [
        (hyp, ref, want, got)
        for (hyp, ref), want in zip(FIXTURE["pairs"], FIXTURE["jar"][beam])
        if (got := exact_alignment(hyp, ref, int(beam))) != want
    ]
    assert not wrong, wrong[:3]


@pytest.mark.parametrize(
    "hyp, ref, by_beam",
    [
        # passing up the diagonal copy costs nothing, and the later copy's chunk is still open at the last step
        ("a", "a a", {1: [[0, 1, 0, 1, 0]], 2: [[0, 1, 1, 1, 0]], 40: [[0, 1, 1, 1, 0]]}),
        ("h a", "r a a", {1: [[1, 1, 1, 1, 0]], 2: [[1, 1, 2, 1, 0]], 40: [[1, 1, 2, 1, 0]]}),
        # passing up a copy one word off the diagonal costs 1: the first placement stays
        ("h a", "a r r a", {1: [[1, 1, 0, 1, 0]], 40: [[1, 1, 0, 1, 0]]}),
        ("x x a", "a a a a a", {1: [[2, 1, 0, 1, 0]], 40: [[2, 1, 0, 1, 0]]}),
        # a one-chunk run is found off the diagonal only where the beam is wide enough
        ("a b", "a b a b", {2: [[0, 1, 0, 1, 0], [1, 1, 1, 1, 0]], 40: [[0, 1, 2, 1, 0], [1, 1, 3, 1, 0]]}),
        ("a b", "a b a a b", {40: [[0, 1, 0, 1, 0], [1, 1, 1, 1, 0]]}),
    ],
)
def test_ties_follow_the_passing_cost(hyp: str, ref: str, by_beam: dict[int, list[list[int]]]) -> None:
    """Jar-checked (``Matcher -m exact -x BEAM``)."""
    for beam, expected in by_beam.items():
        assert exact_alignment(hyp, ref, beam) == expected, beam


def test_a_long_repetitive_pair_is_one_chunk_as_in_the_jar() -> None:
    # 300 x 299 candidates (the beam bounds the work); the jar aligns the first 299 words on the diagonal
    hyp, ref = " ".join(["w"] * 300), " ".join(["w"] * 299 + ["x"])
    assert exact_alignment(hyp, ref, 40) == [[i, 1, i, 1, 0] for i in range(299)]
