"""The fast paths of the whole job give what the plain ones give: features computed once per
distinct segment, and every deliverable of a document written from one read of it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tmtprime.mt.imported import ImportedEngine
from tmtprime.paths import resource_path
from tmtprime.report.exporter import EACH_FORMATS, export_each
from tmtprime.store import Store
from tmtprime import workflows as wf
from tmtprime.workflows.run import JobOptions, run_job
from tmtprime.workflows.project_data import ProjectSegments, cached_features, fit_extractor, load_segments

DEMO = resource_path("demo")


@pytest.fixture(scope="module")
def demo_job(tmp_path_factory) -> Path:
    """The demo's TM, documents and both MT outputs, looked up and translated."""
    path = tmp_path_factory.mktemp("speed") / "P.db"
    with Store.create(path, source_lang="en", target_lang="es") as store:
        wf.import_files(store, [DEMO / "tm.tmx"], role="tm")
        wf.import_files(store, sorted((DEMO / "jobs").iterdir()))
        wf.lookup_tm(store)
        for mt in sorted((DEMO / "mt").glob("*.tsv")):
            wf.translate(store, ImportedEngine(mt, name=mt.stem, missing="skip"))
    return path


def test_repeated_segments_get_the_rows_computed_for_each_on_its_own(demo_job):
    with Store.open(demo_job) as store:
        data = load_segments(store, role="document")
        extractor = fit_extractor(store)
        # every segment twice, the copies after the originals: half the work is a repeat
        doubled = ProjectSegments(data.segments + data.segments, np.concatenate([data.candidate_ids, data.candidate_ids]))
        got = cached_features(store, extractor, doubled)
    alone = extractor.transform(data.segments)
    np.testing.assert_array_equal(got.X, np.vstack([alone, alone]))
    np.testing.assert_array_equal(got.new_rows, got.X)
    np.testing.assert_array_equal(got.new_ids, doubled.candidate_ids)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_every_deliverable_from_one_read_is_the_file_a_plain_export_writes(demo_job, tmp_path):
    with Store.open(demo_job) as store:
        model = wf.recommend(store).model
        for doc in store.documents.list(role="document"):
            formats = list(EACH_FORMATS) if doc.id % 2 else list(reversed(EACH_FORMATS))
            one, plain = tmp_path / f"one-{doc.id}", tmp_path / f"plain-{doc.id}"
            one.mkdir()
            plain.mkdir()
            results = export_each(store, doc, [(f, one / f"out.{f}") for f in formats], model=model)
            for fmt, result in zip(formats, results, strict=True):
                alone = wf.export(store, fmt, plain / f"out.{fmt}", document=doc.name, model=model)
                assert (result.segments, result.recommended, result.filled) == (alone.segments, alone.recommended, alone.filled)
            assert _files(one) == _files(plain)
            assert len(_files(one)) == len(formats)


def test_a_job_with_two_workers_writes_what_one_process_writes(tmp_path):
    written = {}
    for jobs in (1, 2):
        options = JobOptions(
            documents=sorted((DEMO / "jobs").iterdir()), out_dir=tmp_path / f"out{jobs}", tms=[DEMO / "tm.tmx"],
            mt={p.stem: p for p in sorted((DEMO / "mt").glob("*.tsv"))}, n_jobs=jobs,
        )
        result = run_job(options)
        assert not result.failed
        written[jobs] = _files(tmp_path / f"out{jobs}")
        assert {Path(f).name for d in result.documents for f in d.files} <= set(written[jobs])
    assert written[1] == written[2]
    assert len(written[1]) == 3 * 3 + 3  # three deliverables per document, three reports


def test_repeated_segments_get_the_picks_the_model_gives_them_all_at_once(demo_job):
    from tmtprime.recommend.applicability import card_features
    from tmtprime.workflows.model_choice import model_for
    from tmtprime.workflows.project_data import distinct_segments, project_rows
    from tmtprime.workflows.recommendation import _every_segment

    with Store.open(demo_job) as store:
        data = load_segments(store, role="document")
        doubled = ProjectSegments(data.segments + data.segments, np.concatenate([data.candidate_ids, data.candidate_ids]))
        rows, _ = project_rows(store, doubled, fit_extractor(store), with_ter=False)
        chosen = model_for(store, None)
    used = card_features(chosen.card, rows.feature_names)
    every = chosen.model.recommend(used.model_input(rows))
    first, of = distinct_segments(doubled.segments)
    assert len(first) <= len(data.segments) < len(of)
    sizes = np.array([len(s.candidates) for s in doubled.segments])
    once = _every_segment(chosen.model.recommend(used.model_input(rows.subset(first))), sizes, first, of)
    for name in ("rows", "probability", "predicted_ter", "pick_probability", "pick_ter"):
        np.testing.assert_array_equal(getattr(once, name), getattr(every, name), err_msg=name)


def test_the_applicability_warning_of_distinct_segments_with_their_repeats_is_that_of_every_segment():
    from tmtprime.recommend.applicability import warnings

    card = {"applicability": {"features": {"a": [0.0, 0.5, 1.0], "b": [0.0, 0.5, 1.0]}}}
    X = np.array([[0.5, 0.5], [3.0, 3.0], [0.2, 0.1], [-4.0, 0.3], [0.4, 0.4]])  # rows 1 and 3 far outside
    segments = np.array([0, 0, 1, 2, 2])  # distinct segments 0 and 2 have a far row
    repeats = np.array([1, 7, 2])
    every = np.repeat(np.arange(3), repeats)  # the job: each distinct segment's rows once per repeat
    rows_of = [np.flatnonzero(segments == k) for k in range(3)]
    X_all = np.vstack([X[rows_of[k]] for k in every])
    seg_all = np.concatenate([np.full(len(rows_of[k]), i) for i, k in enumerate(every)])
    kw = dict(source_lang="en", target_lang="es", has_tm=True)
    expected = warnings(card, X_all, ["a", "b"], seg_all, **kw)
    assert expected == ["30 % of the segments (3 of 10) have a candidate far outside the training features"]
    assert warnings(card, X, ["a", "b"], segments, counts=repeats, **kw) == expected


def test_a_job_cancelled_while_workers_write_its_documents_stops_them_all(tmp_path):
    import multiprocessing

    from tmtprime.errors import Cancelled
    from tmtprime.progress import Reporter

    class CancelAtWriting(Reporter):
        def __init__(self) -> None:
            super().__init__()
            self.statuses: list[str] = []
            self.writing: list[tuple[int, int | None]] = []

        def on_status(self, text: str) -> None:
            self.statuses.append(text)

        def on_progress(self, done: int, total: int | None) -> None:
            if self.statuses and self.statuses[-1] == "writing the documents":
                self.writing.append((done, total))
                self.request_cancel()

    reporter = CancelAtWriting()
    options = JobOptions(documents=sorted((DEMO / "jobs").iterdir()), out_dir=tmp_path / "out", tms=[DEMO / "tm.tmx"],
                         mt={p.stem: p for p in sorted((DEMO / "mt").glob("*.tsv"))}, n_jobs=2)
    with pytest.raises(Cancelled):
        run_job(options, reporter)
    assert reporter.writing == [(0, 3)]  # the phase showed its progress, then the cancel stopped it
    assert "writing the report" in reporter.statuses  # written meanwhile, by the job itself
    assert not multiprocessing.active_children()  # no writer (nor TM-model worker) left running
