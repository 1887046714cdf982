"""Re-running a lookup or a translation keeps what users made: picks, overrides, the report total.

On SQLite and on a real PostgreSQL (the ``store`` fixture): the bundled demo
job run through lookup, MT and recommend, then looked up again; and the merge
itself on a hand-made segment, where a changed candidate makes its pick stale
and a vanished one is counted, never silently dropped.
"""

from __future__ import annotations

import pytest

from tmtprime import workflows as wf
from tmtprime.formats.model import Pick
from tmtprime.errors import UsageError
from tmtprime.mt.imported import ImportedEngine
from tmtprime.paths import resource_path
from tmtprime.store import NewCandidate, NewRecommendation, Store
from tmtprime.store import schema as db

DEMO = resource_path("demo")


def _demo(store: Store, jobs: list[str] | None = None) -> None:
    """The demo job: TM, documents, a lookup, both MT outputs, recommendations."""
    wf.import_files(store, [DEMO / "tm.tmx"], role="tm")
    wf.import_files(store, [DEMO / "jobs" / name for name in (jobs or ["messages.po", "release-notes.xlf", "ui-strings.xlf"])])
    wf.lookup_tm(store)
    for path in sorted((DEMO / "mt").glob("*.tsv")):
        wf.translate(store, ImportedEngine(path, name=path.stem, missing="skip"))
    wf.recommend(store)


def _pick(store: Store, segment_id: int) -> Pick | None:
    (seg,) = [s for s in store.segments.list(role="document") if s.id == segment_id]
    store.recommendations.fill([seg])
    return seg.pick


def _picks(store: Store) -> dict[int, tuple[int, int | None, bool]]:
    """Per segment: the model's candidate, the override (if any) and stale, as ids."""
    segments = store.segments.list(role="document")
    store.recommendations.fill(segments)
    return {s.id: (s.pick.recommended.id, s.pick.candidate.id if s.pick.overridden else None, s.pick.stale)
            for s in segments if s.pick is not None}


def _tmtprime_cost(store: Store) -> float:
    return wf.estimate(store).plan("tmtprime").cost


def test_looking_up_again_keeps_every_pick_override_and_the_total(store):
    _demo(store)
    segments = store.segments.list(role="document")
    # a translator prefers a TM match the model did not pick
    seg, cand = next(
        (s, c) for s in segments for c in s.candidates
        if c.system == "tm-lookup" and c.id != _pick(store, s.id).recommended.id
    )
    store.recommendations.set_override(seg.id, cand.id)
    before, total = _picks(store), _tmtprime_cost(store)
    assert len(before) == 188
    again = wf.lookup_tm(store)
    assert again.unchanged == again.candidates > 0 and again.warnings == []
    assert _picks(store) == before  # same candidates (ids), same overrides, nothing stale
    assert _pick(store, seg.id).candidate.id == cand.id and _pick(store, seg.id).overridden
    assert _tmtprime_cost(store) == pytest.approx(total)
    status = wf.project_status(store)
    assert status.notices() == [] and {d.stage for d in status.documents} == {"recommended"}
    assert all(d.looked_up is not None and d.translated == ("apertium_eng-cat-spa", "apertium_eng-spa") for d in status.documents)
    # translating again adds nothing and leaves the picks alone
    path = DEMO / "mt" / "apertium_eng-spa.tsv"
    assert wf.translate(store, ImportedEngine(path, name=path.stem, missing="skip")).translated == 0
    assert _picks(store) == before


def test_a_stricter_lookup_makes_picks_stale_or_lost_and_says_what_to_run(store):
    _demo(store)
    before = _picks(store)
    stricter = wf.lookup_tm(store, threshold=90, k=1)
    after = _picks(store)
    lost = len(before) - len(after)
    stale = sum(s for _, _, s in after.values())
    assert lost > 0 and stale > 0
    text = "\n".join(stricter.warnings)
    assert f"{stale} picks are stale" in text and f"{lost} picks were removed" in text
    assert f"tmtprime recommend {store.location}" in text
    status = wf.project_status(store)
    assert status.stale == stale and status.not_recommended == lost
    with pytest.raises(UsageError, match=rf"{lost} segments.*tmtprime recommend.*--partial"):
        wf.report(store)
    assert "stale" in str(wf.report(store, partial=True))
    wf.recommend(store)
    assert wf.project_status(store).notices() == [] and len(_picks(store)) == len(before)


def _one_segment(store: Store) -> int:
    with store.session(write=True) as s:
        doc = db.DocumentRow(name="job.po", role="document", format="po", content_hash="h", path="/x", unit_count=1)
        s.add(doc)
        s.flush()
        seg = db.SegmentRow(document_id=doc.id, position=0, key="k", source="Open the file")
        s.add(seg)
        s.flush()
        return seg.id


def test_the_merge_keeps_ids_by_identity_and_counts_what_users_lose(store):
    seg = _one_segment(store)
    doc = store.documents.get("job.po").id
    tm = lambda text, rank, fuzzy: NewCandidate(seg, "tm-lookup", "tm", text, rank=rank, fuzzy=fuzzy, origin="tm.tmx")  # noqa: E731
    store.segments.replace_candidates("tm-lookup", "tm", None, [doc], [tm("Abra el archivo", 0, 90.0), tm("Abrir archivo", 1, 80.0)])
    first = {c.text: c.id for c in store.segments.candidates([seg])[seg]}
    store.models.save("m", b"x", {})
    store.recommendations.save("m", [NewRecommendation(seg, first["Abrir archivo"], 0.7)])
    store.recommendations.set_override(seg, first["Abra el archivo"])
    # the override's text comes back at another rank; the picked one changes its text
    merged = store.segments.replace_candidates(
        "tm-lookup", "tm", None, [doc], [tm("Abrir el archivo", 0, 95.0), tm("Abra el archivo", 1, 90.0)]
    )
    assert (merged.unchanged, merged.changed, merged.inserted, merged.removed) == (1, 1, 0, 0)
    assert (merged.stale_picks, merged.lost_overrides, merged.lost_picks) == (1, 0, 0)
    now = {c.text: (c.id, c.rank) for c in store.segments.candidates([seg])[seg]}
    assert now == {"Abra el archivo": (first["Abra el archivo"], 1), "Abrir el archivo": (first["Abrir archivo"], 0)}
    pick = _pick(store, seg)
    assert (pick.recommended.id, pick.candidate.id, pick.reason, pick.stale) == (
        first["Abrir archivo"], first["Abra el archivo"], "override", True)
    # the TM no longer matches: the pick goes with its candidate, and the user is told
    gone = store.segments.replace_candidates("tm-lookup", "tm", None, [doc], [])
    assert (gone.removed, gone.lost_picks, gone.lost_overrides) == (2, 1, 1)
    assert any("1 picks were removed" in w for w in gone.warnings("P.db"))
    assert any("1 overrides were cleared" in w for w in gone.warnings("P.db"))
    assert store.recommendations.count() == 0


def test_replacing_an_mt_output_in_place_marks_its_pick_stale(store):
    seg = _one_segment(store)
    store.segments.add_candidates([NewCandidate(seg, "mt", "mt", "Abrir")])
    (cand,) = store.segments.candidates([seg])[seg]
    store.models.save("m", b"x", {})
    store.recommendations.save("m", [NewRecommendation(seg, cand.id, 0.7)])
    assert store.segments.add_candidates([NewCandidate(seg, "mt", "mt", "Abrir")]) == 1
    assert not _pick(store, seg).stale  # same text: nothing changed
    store.segments.add_candidates([NewCandidate(seg, "mt", "mt", "Abra")])
    pick = _pick(store, seg)
    assert (pick.candidate.id, pick.stale) == (cand.id, True)
    store.recommendations.save("m", [NewRecommendation(seg, cand.id, 0.8)])
    assert not _pick(store, seg).stale


def test_a_newer_version_of_a_document_keeps_the_picks_of_its_unchanged_segments(store, tmp_path):
    po = tmp_path / "messages.po"
    po.write_text((DEMO / "jobs" / "messages.po").read_text(encoding="utf-8"), encoding="utf-8")
    wf.import_files(store, [DEMO / "tm.tmx"], role="tm")
    wf.import_files(store, [po])
    wf.lookup_tm(store)
    wf.recommend(store)
    doc = store.documents.get("messages.po")
    before = _picks(store)
    assert len(before) == 73
    changed = "Could not share the profile."
    po.write_text(
        po.read_text(encoding="utf-8").replace(f'msgid "{changed}"', 'msgid "Could not share the profiles."')
        + '\nmsgid "Archive every comment"\nmsgstr ""\n',
        encoding="utf-8",
    )
    (result,) = wf.import_files(store, [po])
    assert result.version is not None and (result.version.kept, result.version.added, result.version.removed) == (72, 2, 1)
    assert "updated 'messages.po' to the new version of the file: 72 segments kept" in result.render()
    assert any("1 picks were removed" in w for w in result.warnings)
    assert any("2 new segments have no TM match or MT yet" in w for w in result.warnings)
    (again,) = store.documents.list(role="document")
    assert (again.id, again.name, again.unit_count) == (doc.id, "messages.po", 74)
    after = _picks(store)
    assert len(after) == 72 and all(after[sid] == before[sid] for sid in after)
    status = wf.project_status(store)
    assert status.notices()[0].startswith("1 document not looked up yet: messages.po")
    wf.lookup_tm(store)
    wf.recommend(store)
    assert wf.project_status(store).notices() == []
    sources = [s.source for s in store.segments.list(document_id=doc.id, with_candidates=False)]
    assert sources[-1] == "Archive every comment" and changed not in sources and len(sources) == 74


def test_a_first_translation_over_many_chunks_is_stored_once_and_rewritten_in_place(store, monkeypatch):
    """A system with no candidate before the call gets plain inserts in every chunk (no slot lookup);
    written again, each chunk pairs its rows with the stored ones: same ids, texts changed, pick stale."""
    import tmtprime.store.segments as segments_module

    monkeypatch.setattr(segments_module, "_BATCH", 7)
    wf.import_files(store, [DEMO / "jobs" / "ui-strings.xlf"])
    ids = [s.id for s in store.segments.list(role="document")]
    assert len(ids) > 3 * 7
    mt = lambda text: [NewCandidate(i, "mt", "mt", f"{text} {i}") for i in ids]  # noqa: E731
    first = store.segments.write_candidates(mt("uno"), replace=True)
    assert (first.inserted, first.changed, first.stale_picks) == (len(ids), 0, 0)
    stored = store.segments.candidates(ids)
    assert all([c.text for c in stored[i]] == [f"uno {i}"] for i in ids)
    store.models.save("m", b"x", {})
    store.recommendations.save("m", [NewRecommendation(ids[-1], stored[ids[-1]][0].id, 0.7)])
    again = store.segments.write_candidates(mt("dos"), replace=True)
    assert (again.inserted, again.changed, again.stale_picks) == (0, len(ids), 1)
    now = store.segments.candidates(ids)
    assert all([(c.id, c.text) for c in now[i]] == [(stored[i][0].id, f"dos {i}")] for i in ids)
    assert _pick(store, ids[-1]).stale
