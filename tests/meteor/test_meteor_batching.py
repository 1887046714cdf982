"""Batch matching over word ids: the same candidates, statistics and scores as one pair at a time."""

from __future__ import annotations

import gc
from pathlib import Path

import numpy as np
import pytest

from tests.meteor.test_paraphrase import write_table
from tmtprime.meteor.gc_pause import paused_gc
from tmtprime.meteor.paraphrase import ParaphraseTable
from tmtprime.meteor.scorer import Meteor
from tmtprime.meteor.word_ids import WordIds, WordSets, WordValues

PAIRS = [
    ("a lot of big cars", "many large car"),
    ("", "many"),
    ("in order to go so", "to go therefore"),
    ("the european union", "the eu and the european union"),
    ("big big cars", "huge large cars car"),
    ("automobiles", "cars"),
]


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ParaphraseTable:
    monkeypatch.setenv("TMTPRIME_CACHE_DIR", str(tmp_path / "cache"))
    return ParaphraseTable.open("en", write_table(tmp_path / "para.gz"))


class ListsOnly:
    """A table offering only ``match_batch`` (tuples per pair), as a user-supplied table may."""

    def __init__(self, table: ParaphraseTable) -> None:
        self.table = table

    def match_batch(self, pairs):
        return self.table.match_batch(pairs)


def _all_modules(table) -> Meteor:
    return Meteor(lang="en", modules=("exact", "stem", "synonym", "paraphrase"), paraphrase_table=table)


def test_word_ids_are_given_in_order_of_first_sight_and_kept() -> None:
    words = WordIds()
    ids, offsets = words.encode([["b", "a", "b"], [], ["c"]])
    assert ids.tolist() == [0, 1, 0, 2] and offsets.tolist() == [0, 3, 3, 4]
    ids, offsets = words.encode([["c", "d"]])
    assert ids.tolist() == [2, 3] and offsets.tolist() == [0, 2]


def test_per_word_values_follow_a_restart_of_the_ids() -> None:
    words = WordIds(limit=4)
    lengths, letters = WordValues(len), WordSets(lambda w: {ord(c) for c in w})
    words.encode([["aa", "b"]])
    assert lengths.of(words).tolist() == [2, 1]
    words.encode([["ccc", "aa", "dddd"]])  # 2 + 3 words > 4: the ids start afresh
    assert words.generation == 1 and words.words == ["ccc", "aa", "dddd"]
    assert lengths.of(words).tolist() == [3, 2, 4]
    start, data = letters.of(words)
    assert [data[start[i] : start[i + 1]].tolist() for i in range(3)] == [[ord("c")], [ord("a")], [ord("d")]]


def test_a_batch_has_the_candidates_of_its_pairs_one_by_one(table: ParaphraseTable) -> None:
    meteor = _all_modules(table)
    pairs = [(meteor.tokenize(h), meteor.tokenize(r)) for h, r in PAIRS]
    together = meteor.candidates(pairs)
    for pair, found in zip(pairs, together):
        alone = _all_modules(table).candidates([pair])[0]
        assert found.tolist() == alone.tolist()
    stages = {int(s) for found in together for s in found[:, 4]}
    assert stages == {0, 1, 2, 3}  # every module found something


def test_tables_offering_only_tuples_give_the_same_candidates(table: ParaphraseTable) -> None:
    pairs = [(h.split(), r.split()) for h, r in PAIRS]
    by_ids = _all_modules(table).candidates(pairs)
    by_lists = _all_modules(ListsOnly(table)).candidates(pairs)
    assert [c.tolist() for c in by_ids] == [c.tolist() for c in by_lists]


def test_batch_scores_equal_sentence_scores(table: ParaphraseTable) -> None:
    meteor = _all_modules(table)
    batch = meteor.score_each([h for h, _ in PAIRS], [[r, h] for h, r in PAIRS])
    for (hyp, ref), got in zip(PAIRS, batch):
        alone = _all_modules(table).sentence_score(hyp, [ref, hyp])
        assert (got.score, got.stats_line(), got.alignment, got.ref_index) == (
            alone.score, alone.stats_line(), alone.alignment, alone.ref_index)  # fmt: skip


def test_statistics_count_function_words_stages_and_chunks() -> None:
    meteor = Meteor(lang="en", modules=("exact", "stem"), normalize=False)
    hyp, ref = "the cats sat on the mat".split(), "the cat sat on a mat".split()
    stats, alignment = meteor.token_stats(hyp, ref)
    assert alignment == [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1), (2, 1, 2, 1, 0), (3, 1, 3, 1, 0), (5, 1, 5, 1, 0)]
    # lengths 6 and 6; function words: the on the / the on a; exact: the sat on mat (content sat mat);
    # stem: cats/cat; one chunk 0-3, a second one at mat
    assert stats.to_list() == [6, 6, 3, 3, 2, 2, 2, 2, 1, 1, 0, 0] + [0] * 8 + [2, 5, 5]


def test_paused_gc_restores_the_collector_as_it_was() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_candidate_arrays_align_like_tuples() -> None:
    from tmtprime.meteor.aligner import align

    tuples = [(0, 1, 0, 1, 0), (0, 1, 1, 1, 0), (1, 1, 2, 1, 0), (2, 1, 0, 1, 0), (2, 1, 1, 1, 0)]
    hyp, ref = ("a", "b", "a"), ("a", "a", "b")
    assert align(hyp, ref, np.array(tuples), {0}) == align(hyp, ref, tuples, {0})


def test_a_repeated_pair_is_aligned_once_and_scored_alike() -> None:
    meteor = Meteor("en", modules=("exact", "stem"))
    first = meteor.sentence_score("the cats sat on the mat", "a cat sat on a mat")
    first.alignment.append((9, 9, 9, 9, 0))  # the caller's copy: not the scorer's
    first.raw_stats.chunks = 99.0
    again, other = meteor.score_each(["the cats sat on the mat", "the cat sat"], [["a cat sat on a mat"], ["a cat sat on a mat"]])
    assert meteor.score_each(["the cats sat on the mat"], [["a cat sat on a mat"]])[0].score == again.score
    assert again.alignment == [(1, 1, 1, 1, 1), (2, 1, 2, 1, 0), (3, 1, 3, 1, 0), (5, 1, 5, 1, 0)]
    assert again.raw_stats.chunks == 2.0 and again.score == Meteor("en", modules=("exact", "stem")).sentence_score(
        "the cats sat on the mat", "a cat sat on a mat").score
    assert len(meteor._pair_cache) == 2 and other.alignment == [(1, 1, 1, 1, 0), (2, 1, 2, 1, 0)]

