"""The store API used by TM lookup, MT and the recommender: what goes in comes back out."""

from __future__ import annotations

import numpy as np
import pytest
from sqlalchemy import func, select

from tmtprime.errors import StoreError, UsageError
from tmtprime.formats.model import Candidate, Segment, TMUnit
from tmtprime.store import CandidatePrediction, NewCandidate, NewRecommendation, Store
from tmtprime.store import schema as db


def _add_document(store: Store, name: str = "doc.tsv", n: int = 3, role: str = "dev") -> int:
    with store.session(write=True) as s:
        doc = db.DocumentRow(name=name, role=role, format="tsv", content_hash=name, path=name, unit_count=n)
        s.add(doc)
        s.flush()
        s.add_all(
            db.SegmentRow(document_id=doc.id, position=i, key=str(i + 1), source=f"source {i}", reference=f"ref {i}")
            for i in range(n)
        )
        return doc.id


def test_create_then_open_keeps_project_identity(project_path):
    Store.create(project_path, source_lang="en", target_lang="es-ES").close()
    with Store.open(project_path) as store:
        project = store.project()
    assert (project.source_lang, project.target_lang) == ("en", "es-ES")
    assert project.schema_version == db.SCHEMA_VERSION
    assert project.name == "project"


def test_sqlite_is_configured_for_sharing(sqlite_store):
    with sqlite_store.connection() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 10_000


def test_create_refuses_existing_file_and_open_refuses_missing_or_foreign(tmp_path, project_path):
    Store.create(project_path, source_lang="en", target_lang="es").close()
    with pytest.raises(StoreError, match="already exists"):
        Store.create(project_path, source_lang="en", target_lang="es")
    with pytest.raises(StoreError, match="no project at"):
        Store.open(tmp_path / "missing.db")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="junk.db"):
        Store.open(junk)
    with pytest.raises(UsageError, match="not a language tag"):
        Store.create(tmp_path / "x.db", source_lang="english!", target_lang="es")
    assert not (tmp_path / "x.db").exists()


def test_segments_come_back_in_file_order_with_candidates(store):
    doc_id = _add_document(store, n=5)
    segments = store.segments.list(document_id=doc_id, with_candidates=False)
    assert [s.position for s in segments] == [0, 1, 2, 3, 4]
    added = store.segments.add_candidates(
        [NewCandidate(s.id, "tm", "tm", f"tm {s.position}", fuzzy=75.0, tm_source="x") for s in segments]
        + [NewCandidate(s.id, "eng-spa", "mt", f"mt {s.position}", engine="apertium") for s in segments]
    )
    assert added == 10
    again = store.segments.list(role="dev")
    assert [[(c.system, c.kind, c.text) for c in s.candidates] for s in again][2] == [
        ("tm", "tm", "tm 2"),
        ("eng-spa", "mt", "mt 2"),
    ]
    assert again[2].candidates[0].fuzzy == 75.0
    assert [(s.name, s.kind, s.engine) for s in store.systems.list()] == [("tm", "tm", None), ("eng-spa", "mt", "apertium")]
    assert store.segments.count(role="dev") == 5 and store.segments.count(role="document") == 0


def test_the_store_returns_the_domain_model_with_its_ids(store):
    doc_id = _add_document(store, "job.tsv", n=2)
    with store.session(write=True) as s:
        s.add(db.TMUnitRow(document_id=doc_id, position=0, source="Open", target="Abrir", source_hash=1, source_words=1))
    first = store.segments.list(document_id=doc_id, with_candidates=False)[0]
    store.segments.add_candidates([NewCandidate(first.id, "tm", "tm", "uno", rank=1, attributes={"tm_unit_id": 7})])
    seg = store.segments.list(document_id=doc_id)[0]
    assert type(seg) is Segment and (seg.document_id, seg.document, seg.role, seg.position) == (doc_id, "job.tsv", "dev", 0)
    (cand,) = seg.candidates
    assert type(cand) is Candidate and (cand.segment_id, cand.rank, cand.attributes) == (seg.id, 1, {"tm_unit_id": 7})
    assert cand.id == store.segments.candidates([seg.id])[seg.id][0].id
    (unit,) = store.tm.iter_units()
    assert type(unit) is TMUnit and (unit.document_id, unit.position, unit.source, unit.target) == (doc_id, 0, "Open", "Abrir")
    seg.candidates.clear()  # what a caller does to its copy does not reach the store or the next read
    assert len(store.segments.list(document_id=doc_id)[0].candidates) == 1


def test_paged_iteration_crosses_documents_in_order(store):
    first = _add_document(store, "a.tsv", n=7)
    second = _add_document(store, "b.tsv", n=4)
    seen = [(s.document_id, s.position) for s in store.segments.iter(batch_size=3, with_candidates=False)]
    assert seen == [(first, i) for i in range(7)] + [(second, i) for i in range(4)]


def test_adding_a_candidate_again_replaces_it(store):
    seg = store.segments.list(document_id=_add_document(store, n=1))[0]
    store.segments.add_candidates([NewCandidate(seg.id, "eng-spa", "mt", "old")])
    store.segments.add_candidates([NewCandidate(seg.id, "eng-spa", "mt", "new")])
    assert [c.text for c in store.segments.candidates([seg.id])[seg.id]] == ["new"]


def test_a_system_keeps_its_kind(store):
    seg = store.segments.list(document_id=_add_document(store, n=1))[0]
    store.segments.add_candidates([NewCandidate(seg.id, "eng-spa", "mt", "x")])
    with pytest.raises(StoreError, match="already exists as a MT system"):
        store.segments.add_candidates([NewCandidate(seg.id, "eng-spa", "tm", "y", rank=1)])
    assert [c.rank for c in store.segments.candidates([seg.id])[seg.id]] == [0]


def test_feature_vectors_round_trip_as_a_matrix(store):
    seg = store.segments.list(document_id=_add_document(store, n=1))[0]
    store.segments.add_candidates([NewCandidate(seg.id, s, "mt", s) for s in ("a", "b", "c")])
    cands = store.segments.candidates([seg.id])[seg.id]
    store.features.define("bb-1", ["len", "ratio"])
    store.features.save("bb-1", [(c.id, [float(c.id), 0.5]) for c in cands])
    store.features.save("bb-1", [(cands[0].id, [9.0, 9.0])])  # replaces one vector
    ids, matrix = store.features.load("bb-1")
    assert ids.tolist() == [c.id for c in cands]
    assert matrix.tolist()[0] == [9.0, 9.0] and matrix.tolist()[1] == [float(cands[1].id), 0.5]
    only_last, _ = store.features.load("bb-1", [cands[2].id, 10_000])
    assert only_last.tolist() == [cands[2].id]
    from_numpy, _ = store.features.load("bb-1", np.array([cands[1].id], dtype=np.int64))
    assert from_numpy.tolist() == [cands[1].id]
    with pytest.raises(StoreError, match="other features"):
        store.features.define("bb-1", ["len"])
    with pytest.raises(StoreError, match="2 features"):
        store.features.save("bb-1", [(cands[0].id, np.zeros(3))])


def test_models_are_kept_by_name_and_newest_is_default(store):
    store.models.save("first", b"\x00blob1", {"features": "bb-1"})
    store.models.save("second", b"blob2", {"features": "bb-2"})
    assert store.models.get().name == "second" and store.models.get("first").blob == b"\x00blob1"
    assert [m.name for m in store.models.list()] == ["first", "second"]
    assert all(m.blob == b"" for m in store.models.list())
    with pytest.raises(StoreError, match="already exists"):
        store.models.save("first", b"x", {})
    store.models.save("first", b"x", {}, replace=True)
    assert store.models.get("first").blob == b"x"


def test_recommendations_keep_overrides_across_reruns(store):
    segs = store.segments.list(document_id=_add_document(store, n=2))
    store.segments.add_candidates([NewCandidate(s.id, n, "mt", n) for s in segs for n in ("a", "b")])
    segs = store.segments.list(role="dev")
    store.models.save("m", b"", {})
    assert not store.recommendations.exist() and store.recommendations.latest_model() is None

    def picks(confidence: float) -> list[NewRecommendation]:
        return [
            NewRecommendation(
                s.id, s.candidates[0].id, confidence, {c.id: CandidatePrediction(0.5, 40.0) for c in s.candidates}
            )
            for s in segs
        ]

    store.recommendations.save("m", picks(0.9))
    store.recommendations.set_override(segs[0].id, segs[0].candidates[1].id)
    store.recommendations.save("m", picks(0.8))
    store.recommendations.fill(segs)
    assert segs[0].pick.candidate is segs[0].candidates[1] and segs[0].pick.overridden
    assert segs[1].pick.candidate is segs[1].candidates[0]
    assert segs[1].pick.confidence == 0.8 and store.recommendations.count("m") == 2
    assert segs[1].pick.prediction_of(1) == CandidatePrediction(0.5, 40.0)
    with pytest.raises(StoreError, match="not a candidate of segment"):
        store.recommendations.set_override(segs[0].id, segs[1].candidates[0].id)
    with pytest.raises(StoreError, match="not a candidate of segment"):
        store.recommendations.save("m", [NewRecommendation(segs[0].id, segs[1].candidates[0].id, 0.5)])


def test_deleting_a_document_removes_everything_derived(store):
    doc_id = _add_document(store, n=2)
    segs = store.segments.list(document_id=doc_id)
    store.segments.add_candidates([NewCandidate(s.id, "a", "mt", "x") for s in segs])
    cands = [c for cs in store.segments.candidates([s.id for s in segs]).values() for c in cs]
    store.features.define("f", ["x"])
    store.features.save("f", [(c.id, [1.0]) for c in cands])
    store.models.save("m", b"", {})
    store.recommendations.save("m", [NewRecommendation(c.segment_id, c.id, 0.5, {c.id: CandidatePrediction(1.0)}) for c in cands])
    store.documents.delete("doc.tsv")
    with store.session() as s:
        for table in (db.SegmentRow, db.CandidateRow, db.FeatureRow, db.RecommendationRow, db.CandidateScoreRow):
            assert s.scalar(select(func.count()).select_from(table)) == 0, table.__tablename__
        assert s.scalar(select(func.count()).select_from(db.ModelRow)) == 1


def test_cost_schemes_are_saved_and_overwritten(store):
    store.cost_schemes.save("default", {"currency": "EUR"})
    store.cost_schemes.save("default", {"currency": "USD"})
    assert store.cost_schemes.get("default") == {"currency": "USD"} and store.cost_schemes.names() == ["default"]
    with pytest.raises(StoreError, match="no cost scheme"):
        store.cost_schemes.get("other")


def test_unit_of_work_rolls_back_on_error(store):
    with pytest.raises(RuntimeError):
        with store.session(write=True) as s:
            s.add(db.CostSchemeRow(name="half", scheme={}))
            s.flush()
            raise RuntimeError("boom")
    assert store.cost_schemes.names() == []


def test_job_rows_give_the_records_columns_on_every_backend(store):
    """The cost job's array read (three queries, rows from the driver's cursor) against the records, SQLite and PostgreSQL."""
    from tmtprime.cost import job_from_store

    doc_id = _add_document(store, n=4, role="document")
    segs = store.segments.list(document_id=doc_id)
    new = [NewCandidate(s.id, "tm", "tm", f"tm {s.key}", fuzzy=80.0 + i, attributes={"match_type": "fuzzy"})
           for i, s in enumerate(segs)]
    new += [NewCandidate(s.id, "mt", "mt", f"mt {s.key}") for s in segs[1:]]
    store.segments.add_candidates(new)
    segs = store.segments.list(document_id=doc_id)
    store.models.save("m", b"", {})
    store.recommendations.save("m", [
        NewRecommendation(s.id, s.candidates[-1].id, 0.7,
                          {c.id: CandidatePrediction(0.1 * (j + 1), 30.0 - 5 * j - i) for j, c in enumerate(s.candidates)})
        for i, s in enumerate(segs[:3])
    ])  # fmt: skip
    store.recommendations.set_override(segs[1].id, segs[1].candidates[0].id)
    rows = store.recommendations.job_rows("m", role="document")
    assert rows.segment_ids.tolist() == [s.id for s in segs]
    assert rows.chosen.tolist() == [segs[0].candidates[-1].id, segs[1].candidates[0].id, segs[2].candidates[-1].id, -1]
    assert rows.candidate_ids.tolist() == [c.id for s in segs for c in s.candidates]
    assert rows.systems.tolist() == [c.system for s in segs for c in s.candidates]
    assert rows.match_types.tolist() == [c.attributes.get("match_type") for s in segs for c in s.candidates]
    assert rows.predicted.tolist() == [i < 3 for i, s in enumerate(segs) for _ in s.candidates]
    np.testing.assert_array_equal(rows.fuzzy, [np.nan if c.fuzzy is None else c.fuzzy for s in segs for c in s.candidates])
    job, _model, skipped = job_from_store(store)
    assert skipped == 1 and job.n_segments == 3
    assert job.picks.tolist() == [0, 1, 4] and job.systems.tolist() == ["tm", "tm", "mt", "tm", "mt"]
    assert job.predicted_ter.tolist() == [30.0, 29.0, 24.0, 28.0, 23.0]
