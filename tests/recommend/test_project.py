"""Store integration: feature caching, the precision knob through the store, clear errors."""

from __future__ import annotations

import pytest

from tests.recommend.synthetic import build
from tests.test_product_workflow import _mapping
from tmtprime.cli import main
from tmtprime.errors import ModelError
from tmtprime.features.extractor import CandidateFeatureExtractor
from tmtprime.workflows.recommendation import recommend, resolve_mt_threshold
from tmtprime.workflows.training import train
from tmtprime.store import Store


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("project")
    paths, _ = build(tmp, n_dev=80, n_new=30)
    db = str(tmp / "P.db")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    assert main(["import", db, str(paths["tm"]), "--as", "tm", "--source-col", "source", "--target-col", "target", "-q"]) == 0
    assert main(["import", db, str(paths["dev"]), "--as", "dev", "--reference-col", "reference", *_mapping(), "-q"]) == 0
    assert main(["import", db, str(paths["new"]), "--as", "document", *_mapping(), "-q"]) == 0
    return db


def test_features_are_cached_and_a_rerun_does_not_recompute(project, monkeypatch):
    with Store.open(project) as store:
        train(store, name="m1")
        first = recommend(store, model="m1")
        assert first.segments == 30

        def refuse(self, segments):
            raise AssertionError(f"recomputed features of {len(segments)} segments")

        monkeypatch.setattr(CandidateFeatureExtractor, "transform", refuse)
        again = recommend(store, model="m1")
        assert again.by_system == first.by_system


def test_mt_threshold_only_moves_picks_towards_the_tm(project):
    with Store.open(project) as store:
        if not store.models.list():
            train(store, name="m1")
        free = recommend(store, model="m1")
        strict = recommend(store, model="m1", mt_threshold=0.99)
        assert strict.by_system.get("tm", 0) >= free.by_system.get("tm", 0)
        assert sum(strict.by_system.values()) == sum(free.by_system.values())


def test_every_alternative_is_exported_with_a_confidence_on_the_picks_scale(project, tmp_path):
    """The pick's confidence is its predicted quality (1 - predicted TER / 100); each alternative
    gets the same kind of number, so the recommended one is the most confident in the XLIFF."""
    from lxml import etree

    with Store.open(project) as store:
        if not store.models.list():
            train(store, name="m1")
        recommend(store, model="m1")
        segments = list(store.segments.iter(role="document"))
        store.recommendations.fill(segments, model="m1")
        for seg in segments:
            pick = seg.pick
            predictions = [p for p in pick.predictions if p is not None]
            for prediction in predictions:
                assert prediction.confidence == pytest.approx(1 - min(max(prediction.predicted_ter, 0), 100) / 100)
            assert pick.confidence == pytest.approx(pick.prediction_of(seg.candidates.index(pick.candidate)).confidence)
            assert pick.confidence == pytest.approx(max(p.confidence for p in predictions))
    out = tmp_path / "x.xlf"
    assert main(["export", project, "--format", "xliff", "--model", "m1", "-o", str(out), "-q"]) == 0
    ns = {"x": "urn:oasis:names:tc:xliff:document:1.2"}
    tmt = "{urn:tmtprime:xliff:1}"
    units = etree.parse(str(out)).getroot().findall(".//x:trans-unit", ns)
    assert len(units) == 30
    for unit in units:
        alts = unit.findall("x:alt-trans", ns)
        best = max(float(a.get(tmt + "confidence")) for a in alts)
        (recommended,) = [a for a in alts if a.get(tmt + "recommended") == "yes"]
        assert float(recommended.get(tmt + "confidence")) == best


def test_threshold_from_the_model_card():
    card = {"cross_validated": {"mt_threshold_for_precision": {"0.90": 0.8, "0.95": None}}}
    assert resolve_mt_threshold(card, None, 0.9) == 0.8
    assert resolve_mt_threshold(card, 0.7, None) == 0.7
    with pytest.raises(ModelError, match="no threshold reached precision 0.95"):
        resolve_mt_threshold(card, None, 0.95)
    with pytest.raises(ModelError, match="not 0.80"):
        resolve_mt_threshold(card, None, 0.8)


def test_training_without_dev_data_or_tm_is_a_clear_error(tmp_path):
    db = str(tmp_path / "E.db")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    with Store.open(db) as store, pytest.raises(ModelError, match="no development data"):
        train(store)
    assert main(["train", db, "-q"]) == 1  # one line on stderr, no traceback


def test_dev_segments_without_candidates_name_the_missing_columns(tmp_path):
    """Dev data imported without --tm-col/--mt-col is there but has nothing to learn from: say which options."""
    db = str(tmp_path / "E.db")
    dev = tmp_path / "dev.tsv"
    dev.write_text("source\treference\nOpen file\tAbrir archivo\n", encoding="utf-8")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    assert main(["import", db, str(dev), "--as", "dev", "--source-col", "source", "--reference-col", "reference", "-q"]) == 0
    with Store.open(db) as store, pytest.raises(ModelError, match="no candidates to learn from.*--tm-col, --mt-col"):
        train(store)


def test_models_of_an_older_feature_set_after_an_upgrade(tmp_path):
    """The project's copy of the shipped default is refreshed; its own old model is refused with what to do."""
    from tmtprime.features.extractor import FEATURE_SET_VERSION
    from tmtprime.workflows.model_choice import SHIPPED_MODEL_NAME, model_for

    db = str(tmp_path / "P.db")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    old_card = {"features": {"version": "3", "names": ["a"] * 73}}
    with Store.open(db) as store:
        store.models.save(SHIPPED_MODEL_NAME, b"a model of feature set 3", old_card)
        chosen = model_for(store, None)
        assert chosen.name == SHIPPED_MODEL_NAME
        assert chosen.card["features"]["version"] == FEATURE_SET_VERSION
        assert chosen.model.classifier_ is not None
        chosen.save(store)  # a use case stores it with its results
        assert store.models.get(SHIPPED_MODEL_NAME).card["features"]["version"] == FEATURE_SET_VERSION

        store.models.save("svm-old", b"a model of feature set 3", old_card)
        with pytest.raises(ModelError, match=r"'svm-old' was trained on feature set 3.*tmtprime train"):
            model_for(store, None)
