"""The Meteor use cases the command and the window share: file checks, grouping, the batch loop, cancel."""

from __future__ import annotations

import pytest

from tests.conftest import ProgressSpy
from tmtprime.errors import Cancelled, UsageError
from tmtprime.meteor import Meteor
from tmtprime.meteor.batch import BATCH
from tmtprime.workflows.meteor_scoring import (
    LineCountMismatch,
    NothingToScore,
    UnreadableFile,
    module_choice,
    read_segment_files,
    score_files,
    score_pair,
)

EXACT_STEM = dict(lang="en", modules=("exact", "stem"))


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_references_are_grouped_per_hypothesis(tmp_path):
    hyp = _write(tmp_path / "h.txt", ["a cat", "a dog"])
    ref = _write(tmp_path / "r.txt", ["the cat", "one cat", "the dog", "one dog"])
    files = read_segment_files(hyp, ref, refs_per_segment=2)
    assert files.hyps == ["a cat", "a dog"]
    assert files.refs == [["the cat", "one cat"], ["the dog", "one dog"]]


def test_bad_files_are_typed_errors_naming_the_file(tmp_path):
    hyp = _write(tmp_path / "h.txt", ["a", "b", "c"])
    ref = _write(tmp_path / "r.txt", ["a", "b"])
    with pytest.raises(LineCountMismatch, match="test: 3 lines, reference: 2 lines") as mismatch:
        read_segment_files(hyp, ref)
    assert mismatch.value.file == str(ref)
    with pytest.raises(UnreadableFile) as missing:
        read_segment_files(tmp_path / "nope.txt", ref)
    assert missing.value.file == str(tmp_path / "nope.txt")
    with pytest.raises(NothingToScore):
        read_segment_files(_write(tmp_path / "e1", []), _write(tmp_path / "e2", []))


def test_files_score_as_the_scorer_does_segment_by_segment(tmp_path):
    hyps = [f"the cat number {i} sat on mats" for i in range(BATCH + 30)]
    refs = [f"a cat {i} sits on the mat" for i in range(BATCH + 30)]
    result = score_files(Meteor(**EXACT_STEM), _write(tmp_path / "h", hyps), _write(tmp_path / "r", refs))
    direct = Meteor(**EXACT_STEM)
    expected = [direct.sentence_score(h, [r]).score for h, r in zip(hyps[:3], refs[:3])]
    assert [s.score for s in result.segments[:3]] == expected
    assert len(result.segments) == len(hyps)
    assert result.total.score == direct.aggregate(result.segments).score
    assert result.render().startswith(f"Meteor {result.total.score:.4f}")


def test_the_batch_loop_reports_progress_and_stops_on_cancel(tmp_path):
    hyps = [f"word{i} and more words" for i in range(3 * BATCH)]
    h, r = _write(tmp_path / "h", hyps), _write(tmp_path / "r", hyps)
    seen: list[int] = []
    score_files(Meteor(**EXACT_STEM), h, r, reporter=ProgressSpy(lambda done, total: seen.append(done)))
    assert seen[-1] == 3 * BATCH and BATCH in seen

    def cancel_after_first(done, total):
        if done >= BATCH:
            spy.request_cancel()

    spy = ProgressSpy(cancel_after_first)
    with pytest.raises(Cancelled):
        score_files(Meteor(**EXACT_STEM), h, r, reporter=spy)


def test_a_pair_needs_a_reference():
    assert score_pair(Meteor(**EXACT_STEM), "the cat", ["", "the cat"]).score > 0.9
    with pytest.raises(UsageError):
        score_pair(Meteor(**EXACT_STEM), "the cat", ["  "])


def test_paraphrase_is_offered_only_with_a_table(tmp_path, monkeypatch):
    from tmtprime.meteor import paraphrase  # where module_choice looks the installed tables up

    monkeypatch.setattr(paraphrase, "default_sources", lambda lang: [tmp_path / "absent.gz"])
    spanish = module_choice("es")
    assert spanish.modules == ("exact", "stem", "paraphrase")
    assert spanish.available == ("exact", "stem") and "paraphrase" in spanish.missing
    table = _write(tmp_path / "para-es.gz", [])
    assert module_choice("es", paraphrase_table=str(table)).available == ("exact", "stem", "paraphrase")
    monkeypatch.setattr(paraphrase, "default_sources", lambda lang: [table])
    assert module_choice("es").missing == {}
