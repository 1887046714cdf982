"""The cost job read from the store (two array queries) against a straightforward per-record computation."""

from __future__ import annotations

import gzip
import shutil

import numpy as np
import pytest

from tests.test_product_workflow import _mapping
from tmtprime.cli import main
from tmtprime.cost import job_from_store
from tmtprime.recommend.labels import candidate_ter
from tmtprime.formats.model import Candidate, Segment
from tmtprime.store import NewCandidate, Store
from tmtprime.tm.tokenize import tokenize


def reference_job(store: Store, document_id: int | None = None) -> dict[str, object]:
    """The job as the records say it, one segment and one candidate at a time (no shortcuts)."""
    role = None if document_id is not None else "document"
    records = [r for r in store.segments.iter(document_id=document_id, role=role) if r.candidates]
    store.recommendations.fill(records)
    kept = [r for r in records if r.pick is not None]
    out: dict[str, list] = {k: [] for k in ("segments", "systems", "kinds", "fuzzy", "match_types", "predicted_ter", "probability", "actual_ter", "picks")}
    for i, record in enumerate(kept):
        pick = record.pick
        seen: set[str] = set()
        rows: list[tuple[int, float]] = []
        chosen = -1
        for index, cand in enumerate(record.candidates):
            p = pick.prediction_of(index)
            if cand.system in seen or p is None or p.predicted_ter is None:
                continue
            seen.add(cand.system)
            row = len(out["segments"])
            if cand is pick.candidate:
                chosen = row
            rows.append((row, p.predicted_ter))
            out["segments"].append(i)
            out["systems"].append(cand.system)
            out["kinds"].append(cand.kind)
            out["fuzzy"].append(np.nan if cand.fuzzy is None else cand.fuzzy)
            out["match_types"].append(cand.attributes.get("match_type"))
            out["predicted_ter"].append(p.predicted_ter)
            out["probability"].append(np.nan if p.probability is None else p.probability)
            if record.reference:
                seg = Segment(key=record.key, source=record.source, reference=record.reference,
                              candidates=[Candidate(system=cand.system, kind=cand.kind, text=cand.text)])  # type: ignore[arg-type]
                out["actual_ter"].append(candidate_ter([seg])[0])
            else:
                out["actual_ter"].append(np.nan)
        if chosen < 0 and rows:
            chosen = min(rows, key=lambda r: r[1])[0]
        out["picks"].append(chosen)
    words = [sum(1 for t in tokenize(r.source) if t.kind in ("word", "number")) for r in kept]
    keys = [tuple(t.text for t in tokenize(r.source)) for r in kept]
    firsts = [keys.index(k) if keys.index(k) < i else -1 for i, k in enumerate(keys)]
    return {**out, "sources": [r.source for r in kept], "documents": [r.document for r in kept], "words": words,
            "first_occurrence": firsts, "skipped": len(records) - len(kept)}


def assert_same(job, skipped, expected) -> None:
    assert skipped == expected["skipped"]
    for name, want in expected.items():
        if name == "skipped":
            continue
        got = getattr(job, name)
        got = got.tolist() if isinstance(got, np.ndarray) else list(got)
        if name in ("fuzzy", "predicted_ter", "probability", "actual_ter"):
            np.testing.assert_allclose(np.array(got, dtype=float), np.array(want, dtype=float), rtol=0, atol=1e-12, err_msg=name)
        else:
            assert got == want, name


@pytest.fixture
def edited_project(recommended_project, tmp_path):
    """The recommended project with user overrides, candidates added after recommending, and a segment left unrecommended."""
    db = tmp_path / "P.db"
    shutil.copy(recommended_project, db)
    with Store.open(db) as store:
        segs = store.segments.list(role="document")
        store.recommendations.fill(segs)
        overridden = [s for s in segs if s.pick is not None and len(s.candidates) > 1][:5]
        for s in overridden:
            other = next(c for c in s.candidates if c is not s.pick.candidate)
            store.recommendations.set_override(s.id, other.id)
        # a second-ranked candidate of an existing system and a new system, both without predictions
        later = [NewCandidate(s.id, s.candidates[0].system, s.candidates[0].kind, "otra salida", rank=5) for s in segs[:7]]
        later += [NewCandidate(s.id, "late-mt", "mt", "salida tardía") for s in segs[3:9]]
        store.segments.add_candidates(later)
    # a document imported after the last run: candidates but no recommendation
    late = tmp_path / "late.tsv.gz"
    text = gzip.decompress((recommended_project.parent / "new.tsv.gz").read_bytes()).decode("utf-8")
    late.write_bytes(gzip.compress(text.replace("\t", " later\t", 1).encode("utf-8")))
    assert main(["import", str(db), str(late), "--as", "document", *_mapping(), "-q"]) == 0
    return db


def test_job_from_store_matches_the_record_by_record_reading(edited_project):
    with Store.open(edited_project) as store:
        job, _model, skipped = job_from_store(store)
        expected = reference_job(store)
        assert len(expected["sources"]) > 50 and expected["skipped"] == 40
        assert any(not np.isnan(t) for t in expected["actual_ter"]) and any(np.isnan(t) for t in expected["actual_ter"])
        assert_same(job, skipped, expected)
        doc = store.documents.list(role="document")[0]
        one, _model, skipped_one = job_from_store(store, document=doc.name)
        assert_same(one, skipped_one, reference_job(store, doc.id))


def test_overrides_are_the_picks(edited_project):
    with Store.open(edited_project) as store:
        job, _model, _skipped = job_from_store(store)
        segs = [s for s in store.segments.list(role="document") if s.candidates]
        store.recommendations.fill(segs)
        overridden = {s.source for s in segs if s.pick is not None and s.pick.overridden}
        assert len(overridden) == 5
        for i, source in enumerate(job.sources):
            if source in overridden:
                pick = job.picks[i]
                cand = next(s.pick.candidate for s in segs if s.source == source)
                assert job.systems[pick] == cand.system
