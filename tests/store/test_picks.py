"""The pick a stored recommendation becomes: the user's override, else the model's, with the model's confidence and
never an invented one (``Recommendations.fill`` maps the rows to the domain's ``Pick``)."""

from __future__ import annotations

from tmtprime.formats.model import Segment
from tmtprime.store import CandidatePrediction, NewCandidate, NewRecommendation, Store
from tmtprime.store import schema as db


def _segment(store: Store) -> Segment:
    with store.session(write=True) as s:
        doc = db.DocumentRow(name="job.po", role="document", format="po", content_hash="h", path="job.po", unit_count=1)
        s.add(doc)
        s.flush()
        s.add(db.SegmentRow(document_id=doc.id, position=0, key="1", source="Open the file"))
    (seg,) = store.segments.list(role="document")
    store.segments.add_candidates([
        NewCandidate(seg.id, "tm", "tm", "Abra el archivo", fuzzy=92.0),
        NewCandidate(seg.id, "tm", "tm", "Abra el fichero", rank=1, fuzzy=75.0),
        NewCandidate(seg.id, "deepl", "mt", "Abrir el archivo"),
    ])  # fmt: skip
    (seg,) = store.segments.list(role="document")
    tm, _tm2, mt = seg.candidates
    store.models.save("m", b"", {})
    predictions = {tm.id: CandidatePrediction(probability=0.4, confidence=0.45, predicted_effort=12.0),
                   mt.id: CandidatePrediction(probability=0.7, predicted_ter=20.0)}  # fmt: skip
    store.recommendations.save("m", [NewRecommendation(seg.id, tm.id, 0.81, predictions)])
    return seg


def test_the_models_pick_carries_the_recommendations_confidence(store):
    seg = _segment(store)
    store.recommendations.fill([seg])
    pick = seg.pick
    assert pick.candidate is seg.candidates[0] and pick.reason == "model" and not pick.overridden
    assert (pick.confidence, pick.band, pick.predicted_effort, pick.model, pick.stale) == (0.81, "high", 12.0, "m", False)
    assert pick.recommended is seg.candidates[0]
    assert [seg.confidence_of(i) for i in range(3)] == [0.81, None, 0.7]  # the pick's own; none; the probability
    assert pick.prediction_of(2).predicted_ter == 20.0 and seg.best_fuzzy == 92.0


def test_an_override_carries_the_models_word_on_that_candidate_or_none(store):
    seg = _segment(store)
    tm, tm2, mt = seg.candidates
    store.recommendations.set_override(seg.id, mt.id)
    store.recommendations.fill([seg])
    assert seg.pick.candidate is mt and seg.pick.overridden and seg.pick.recommended is tm
    assert seg.pick.confidence == 0.7  # its probability: no confidence stored for it
    store.recommendations.set_override(seg.id, tm2.id)
    store.recommendations.fill([seg])
    assert seg.pick.candidate is tm2 and seg.pick.reason == "override"
    assert seg.pick.confidence is None and seg.pick.band == "unknown"
    store.recommendations.set_override(seg.id, None)
    store.recommendations.fill([seg])
    assert seg.pick.candidate is tm and seg.pick.reason == "model"


def test_no_recommendation_or_no_candidates_is_no_pick(store):
    seg = _segment(store)
    bare = store.segments.list(role="document", with_candidates=False)
    store.recommendations.fill(bare)
    assert bare[0].pick is None
    seg.pick = None
    store.recommendations.fill([seg], model="m")
    assert seg.pick is not None
    store.models.save("other", b"", {})
    store.recommendations.fill([seg], model="other")  # a model without recommendations
    assert seg.pick is None and Segment(key="s3", source="y").best_fuzzy is None
