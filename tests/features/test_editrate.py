"""Word edit rates between a segment's strings (the reference-free TER stand-in)."""

import pytest

from tmtprime.features.editrate import NO_MATCH_RATE, candidate_edit_rates


def test_rate_is_word_edits_per_word_of_the_other_string():
    (empty, two) = candidate_edit_rates([[], "a b".split()], [True, True], tm=None)
    assert empty[1] == 1.0  # two insertions per two words of "a b"
    assert two[1] == 2.0  # two deletions against an empty string count per (at least) one word
    same = candidate_edit_rates(["a b c".split(), "a b c".split(), "a x c d".split()], [True] * 3, tm=None)
    assert same[0][1] == 0.0 and same[2][1] == pytest.approx(2 / 3)


def test_candidate_rates_against_tm_others_and_mt():
    toks = ["no se puede abrir".split(), "no se puede guardar".split(), "no puede guardar".split()]
    rates = candidate_edit_rates(toks, [False, True, True], tm=0)
    tm, mt1, mt2 = rates
    assert tm[0] == 0.0  # the TM match to itself
    assert mt1[0] == pytest.approx(1 / 4) and mt2[0] == pytest.approx(2 / 4)
    assert mt1[1] == pytest.approx(min(1 / 4, 1 / 3))  # nearest other candidate
    assert mt1[2] == pytest.approx((1 / 4 + 1 / 3) / 2)
    assert mt1[3] == pytest.approx(1 / 3) and tm[3] == pytest.approx(min(1 / 4, 2 / 3))
    no_tm = candidate_edit_rates(toks[1:], [True, True], tm=None)
    assert no_tm[0][0] == NO_MATCH_RATE
    alone = candidate_edit_rates(toks[:1], [False], tm=0)
    assert alone[0][1:] == [NO_MATCH_RATE] * 3
