"""The Meteor scorer object (sacrebleu style): sentence and corpus scores, references, score object."""

from __future__ import annotations

import pytest

from tmtprime.errors import UsageError
from tmtprime.meteor.scorer import Meteor, MeteorScore
from tmtprime.meteor.stats import MeteorStats, compute_score, sum_stats


@pytest.fixture(scope="module")
def meteor() -> Meteor:
    return Meteor(lang="en", modules=("exact", "stem", "synonym"))


def test_sentence_score_has_all_parts(meteor: Meteor) -> None:
    s = meteor.sentence_score("The cats sat on the mat.", ["The cat is sitting on the mat."])
    assert isinstance(s, MeteorScore)
    assert 0.0 < s.score < 1.0
    assert s.hyp_tokens == ["the", "cats", "sat", "on", "the", "mat", "."]
    assert s.ref_tokens[:2] == ["the", "cat"]
    matches = s.matches()
    assert matches["stem"]["test_content"] == 1  # cats ~ cat
    assert matches["synonym"]["test_content"] == 1  # sat ~ sitting (WordNet base form "sit")
    assert matches["exact"]["test_function"] == 4  # the, on, the, . (English function words)
    assert s.fmean > s.score and s.penalty > 0
    line = s.stats_line().split()
    assert len(line) == 23 and line[0] == "7.0"
    pairs = s.word_alignment()
    assert (1, 1, "stem") in pairs and all(m in ("exact", "stem", "synonym") for *_, m in pairs)


def test_identical_and_empty_segments(meteor: Meteor) -> None:
    assert meteor.sentence_score("a b c", ["a b c"]).score == 1.0
    assert meteor.sentence_score("", ["a b c"]).score == 0.0
    assert meteor.sentence_score("a b c", [""]).score == 0.0


def test_best_reference_wins(meteor: Meteor) -> None:
    s = meteor.sentence_score("the cat sat", ["a dog ran", "the cat sat"])
    assert s.score == 1.0 and s.ref_index == 1
    first = meteor.sentence_score("the cat sat", ["the cat sat", "the cat sat"])
    assert first.ref_index == 0


def test_corpus_score_sums_statistics_over_reference_streams(meteor: Meteor) -> None:
    hyps = ["the cat sat on the mat", "he read a book", "completely different words here"]
    refs = [["the cat sat on a mat", "he was reading a book", "nothing in common"]]
    corpus = meteor.corpus_score(hyps, refs)
    segments = meteor.sentence_scores(hyps, refs)
    total = sum_stats(s.stats for s in segments)
    c = meteor.config
    assert corpus.score == compute_score(total, c.weights, *c.params).score
    assert corpus.score != pytest.approx(sum(s.score for s in segments) / 3)
    two = meteor.corpus_score(hyps, refs + [list(hyps)])  # a second stream equal to the hypotheses
    assert two.score == 1.0


@pytest.mark.parametrize(
    "refs, message",
    [
        (["the cat"], "reference streams"),
        ([["only one"]], "stream 1 has 1 segments"),
        ([], "at least one reference stream"),
    ],
)
def test_bad_reference_streams_are_usage_errors(meteor: Meteor, refs, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        meteor.corpus_score(["a", "b"], refs)


def test_signature_names_everything_that_decides_the_score() -> None:
    from tmtprime import __version__

    sig = Meteor(lang="es", modules=("exact", "stem")).signature()
    # the printed form (``tmtprime meteor --json``) is the one it always was
    assert str(sig) == f"meteor:1.5|lang:es|task:custom|modules:exact+stem|weights:1,0.8|params:0.65,1.3,0.5,0.8|norm:norm|beam:40|tmtprime:{__version__}"
    assert sig.format(short=True) == f"m:1.5|l:es|t:custom|mod:exact+stem|w:1,0.8|p:0.65,1.3,0.5,0.8|n:norm|b:40|v:{__version__}"
    assert sig["modules"] == "exact+stem" and sig["norm"] == "norm"
    assert Meteor(lang="es", modules=("exact", "stem"), normalize=False).signature() != sig
    assert Meteor(lang="es", modules=("exact", "stem")).signature() == sig
    assert Meteor(lang="es", modules=("exact", "stem")).sentence_score("el gato", ["el gato"]).signature == sig


def test_spanish_exact_stem_for_the_recommender() -> None:
    m = Meteor(lang="es", modules=("exact", "stem"))
    hyps = ["El gato está durmiendo en el sofá.", "Los precios suben."] * 50
    refs = [["El gato duerme en el sofá.", "El precio sube."] * 50]
    scores = m.sentence_scores(hyps, refs)
    assert len(scores) == 100 and scores[1].matches()["stem"]["test_content"] >= 1  # precios ~ precio
    assert m.corpus_score(hyps, refs).score > 0


def test_statistics_arithmetic_is_additive() -> None:
    a = MeteorStats.from_list([1.0] * 23)
    b = MeteorStats.from_list([2.0] * 23)
    assert sum_stats([a, b]).to_list() == [3.0] * 23


def test_worker_processes_give_the_same_scores() -> None:
    from tmtprime.meteor.batch import score_in_batches

    m = Meteor(lang="en", modules=("exact", "stem"))
    hyps = [f"the cat number {i} sat on mats" for i in range(600)]
    refs = [[f"a cat {i} sits on the mat"] for i in range(600)]
    one = score_in_batches(m, hyps, refs, n_jobs=1)
    two = score_in_batches(m, hyps, refs, n_jobs=2)
    assert [s.score for s in one] == [s.score for s in two]
    assert m.aggregate(one).score == m.aggregate(two).score


def test_old_method_names_still_score_and_warn(meteor: Meteor) -> None:
    hyps = ["the cat sat on the mat", "he read a book"]
    streams = [["the cat sat on a mat", "he was reading a book"]]
    with pytest.deprecated_call(match="sentence_scores"):
        old_streams = meteor.segment_scores(hyps, streams)
    with pytest.deprecated_call(match="score_each"):
        old_each = meteor.score_segments(hyps, [[r] for r in streams[0]])
    new = [s.score for s in meteor.sentence_scores(hyps, streams)]
    assert [s.score for s in old_streams] == new == [s.score for s in meteor.score_each(hyps, [[r] for r in streams[0]])]
    assert [s.score for s in old_each] == new
