"""Estimates kept in the project: dropped by the database on any change to what they were computed from."""

from __future__ import annotations

import sqlite3

from sqlalchemy import text

from tests.store.test_store_api import _add_document
from tmtprime.store.estimate_cache import WATCHED
from tmtprime.store import CandidatePrediction, NewCandidate, NewRecommendation, Store


def _keep(store: Store, key: str = "k") -> None:
    assert store.estimate_cache.reserve("job")
    assert store.estimate_cache.put(key, {"cost": 1.5}, valid_while="job")
    assert store.estimate_cache.get(key) == {"cost": 1.5}


def _recommend(store: Store, segs, pick: int = 0) -> None:  # noqa: ANN001
    store.recommendations.save("m", [
        NewRecommendation(s.id, s.candidates[pick].id, 0.9, {c.id: CandidatePrediction(0.5, 40.0) for c in s.candidates})
        for s in segs
    ])  # fmt: skip


def test_every_change_to_the_jobs_data_drops_the_kept_estimates(store):
    segs = store.segments.list(document_id=_add_document(store, n=2))
    _keep(store)
    store.segments.add_candidates([NewCandidate(s.id, n, "mt", f"{n} {s.id}") for s in segs for n in ("a", "b")])
    assert store.estimate_cache.get("k") is None  # new candidates
    segs = store.segments.list(role="dev")
    store.models.save("m", b"", {})
    _keep(store)
    _recommend(store, segs)
    assert store.estimate_cache.get("k") is None  # recommendations
    _keep(store)
    store.recommendations.set_override(segs[0].id, segs[0].candidates[1].id)
    assert store.estimate_cache.get("k") is None  # a user's pick
    _keep(store)
    store.segments.add_candidates([NewCandidate(segs[0].id, "a", "mt", "re-translated")])
    assert store.estimate_cache.get("k") is None  # a candidate's text replaced in place
    _keep(store)
    store.cost_schemes.save("mine", {"rate": 1})
    assert store.estimate_cache.get("k") == {"cost": 1.5}  # a scheme is part of the key, not of the data


def test_an_estimate_of_data_that_changed_while_it_was_computed_is_not_kept(store):
    segs = store.segments.list(document_id=_add_document(store, n=1))
    assert store.estimate_cache.reserve("job")
    store.segments.add_candidates([NewCandidate(segs[0].id, "a", "mt", "x")])  # another process writes meanwhile
    assert not store.estimate_cache.put("k", {"cost": 1.0}, valid_while="job")
    assert store.estimate_cache.get("k") is None


def test_a_v4_project_gets_the_cache_and_its_triggers(tmp_path):
    from tests.store.test_migrations import _layout
    from tmtprime.store import schema as db

    v4 = tmp_path / "v4.db"
    with Store.create(v4, source_lang="en", target_lang="es") as store:
        _add_document(store, n=1)
    with sqlite3.connect(v4) as conn:  # what a v7 TMTprime wrote (the last version without the cache)
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("DROP TABLE estimate_cache")
        conn.execute("UPDATE project SET schema_version = 7")
    conn.close()
    with Store.open(v4) as store:
        assert store.project().schema_version == db.SCHEMA_VERSION == 8
        assert len(store.segments.list(role="dev")) == 1
        _keep(store)
        with store.connection() as conn:
            assert conn.execute(text("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'")).scalar() == 3 * len(WATCHED)
        store.segments.add_candidates([NewCandidate(store.segments.list(role="dev")[0].id, "a", "mt", "x")])
        assert store.estimate_cache.get("k") is None
    fresh = tmp_path / "fresh.db"
    Store.create(fresh, source_lang="en", target_lang="es").close()
    assert _layout(f"sqlite:///{v4}") == _layout(f"sqlite:///{fresh}")


def test_only_the_newest_estimates_are_kept(store, monkeypatch):
    from tmtprime.store import estimate_cache

    monkeypatch.setattr(estimate_cache, "KEEP", 3)
    assert store.estimate_cache.reserve("job")
    for i in range(5):
        assert store.estimate_cache.put(f"k{i}", {"i": i}, valid_while="job")
    assert [store.estimate_cache.get(f"k{i}") for i in range(5)] == [None, None, {"i": 2}, {"i": 3}, {"i": 4}]
    assert store.estimate_cache.put("k5", {"i": 5}, valid_while="job")  # the reservation is not an estimate: still there
