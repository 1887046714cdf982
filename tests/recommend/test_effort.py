"""Learning from real post-editing effort: labels, the effort regressor, the WMT12 measures, MT-only projects."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from sklearn.model_selection import GroupKFold, cross_validate

from tests.recommend.synthetic import OBJECTS, TEMPLATES, _fill, _mt
from tmtprime.cli import main
from tmtprime.errors import ModelError
from tmtprime.features.extractor import TM_MODEL_FEATURES
from tmtprime.formats.model import Candidate, PostEdit, Segment
from tmtprime.recommend.applicability import profile, warnings
from tmtprime.recommend.effort_metrics import EffortFit, delta_avg
from tmtprime.recommend.labels import candidate_labels, default_label
from tmtprime.recommend import persist
from tmtprime.recommend.regressor import EffortRegressor
from tmtprime.store import Store
from tmtprime.workflows.effort_evaluation import evaluate_effort
from tmtprime.workflows.recommendation import recommend
from tmtprime.workflows.training import train

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "recommend"


def _small() -> EffortRegressor:
    return EffortRegressor(C_grid=(1.0,), gamma_grid=(1.0,), epsilon_grid=(0.1,), cv=2)


def _segment(source: str, *candidates: tuple[str, list[PostEdit]]) -> Segment:
    return Segment(key=source, source=source, candidates=[Candidate("mt", "mt", t, post_edits=p) for t, p in candidates])


def test_labels_average_editors_and_run_higher_is_more_effort():
    seg = _segment(
        "one two three four",
        ("uno dos tres cuatro", [PostEdit(text="uno dos tres cuatro", time_ms=4000, effort=5),
                                 PostEdit(text="uno dos tres cinco", time_ms=8000, effort=3)]),
        ("nada", []),
    )
    hter = candidate_labels([seg], "hter")
    assert hter[0] == pytest.approx((0.0 + 25.0) / 2) and np.isnan(hter[1])
    assert candidate_labels([seg], "time")[0] == pytest.approx(1500.0)  # (4000 + 8000) / 2 ms over 4 words
    assert candidate_labels([seg], "effort")[0] == pytest.approx(-4.0)  # higher-is-less scale, negated
    assert default_label([seg]) == "hter"
    more = _segment("a b", ("x y", [PostEdit(effort=2.0, effort_more=True)]))
    assert candidate_labels([more], "effort")[0] == 2.0
    with pytest.raises(ModelError, match="both directions"):
        candidate_labels([seg, more], "effort")


def test_delta_avg_follows_the_wmt12_definition():
    # N = 4: only n = 2; the better half averages 3.5 against 2.5 overall
    assert delta_avg(np.array([4.0, 3.0, 2.0, 1.0]), np.array([4.0, 3.0, 2.0, 1.0])) == pytest.approx(1.0)
    assert delta_avg(np.array([1.0, 2.0, 3.0, 4.0]), np.array([4.0, 3.0, 2.0, 1.0])) == pytest.approx(-1.0)
    rng = np.random.default_rng(0)
    truth = rng.uniform(1, 5, 400)
    assert abs(delta_avg(rng.uniform(size=400), truth)) < 0.15 < delta_avg(truth + rng.normal(0, 0.5, 400), truth)
    fit = EffortFit.of(np.array([4.0, 3.0, 2.0, 1.0]), np.array([4.5, 3.0, 2.0, 0.5]), higher_is_better=True)
    assert (fit.mae, fit.rmse) == pytest.approx((0.25, np.sqrt(0.125)))  # errors 0.5, 0, 0, 0.5


def _regression_data(n: int = 80, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    F = rng.normal(size=(n, 4))
    y = 2.0 * F[:, 0] - F[:, 1] + rng.normal(0, 0.1, n)
    return np.column_stack([np.arange(n), np.zeros(n), F]), y


def test_effort_regressor_learns_ranks_and_works_with_scikit_learn_tools():
    X, y = _regression_data()
    model = _small().fit(X, y)
    pred = model.predict(X)
    assert np.corrcoef(pred, y)[0, 1] > 0.9
    conf = model.confidence(pred)
    assert ((conf >= 0) & (conf <= 1)).all()
    assert (np.diff(conf[np.argsort(pred)]) <= 1e-12).all()  # monotone: more predicted effort, less confidence
    scores = cross_validate(_small(), X, y, groups=np.arange(len(y)) % 4, cv=GroupKFold(n_splits=4), scoring="r2")
    assert scores["test_score"].mean() > 0.5
    two = X.copy()
    two[:, 0] = np.arange(len(y)) // 2  # pairs of candidates: the pick is the lower predicted effort
    picks = model.recommend(two)
    assert (picks.rows == np.array([2 * i + int(pred[2 * i + 1] < pred[2 * i]) for i in range(len(y) // 2)])).all()


def test_the_ridge_regression_joins_the_svr_and_survives_skops():
    rng = np.random.default_rng(3)
    F = rng.normal(size=(120, 30))
    y = F[:, :10].sum(axis=1) + rng.normal(0, 0.5, 120)  # many weak linear effects: the ridge's case
    X = np.column_stack([np.arange(120), np.zeros(120), F])
    both, svr = _small().set_params(linear_weight=0.5).fit(X[:80], y[:80]), _small().fit(X[:80], y[:80])
    assert svr.linear_ is None and both.linear_ is not None
    half = 0.5 * svr.predict(X[80:]) + 0.5 * both.linear_.predict(F[80:])
    np.testing.assert_allclose(both.predict(X[80:]), half)
    assert np.corrcoef(both.predict(X[80:]), y[80:])[0, 1] > np.corrcoef(svr.predict(X[80:]), y[80:])[0, 1]
    again = persist.loads(persist.dumps(both))
    np.testing.assert_allclose(again.predict(X[80:]), both.predict(X[80:]))


def test_an_effort_model_saved_before_the_ridge_still_loads_and_predicts_the_same():
    model = persist.loads((FIXTURES / "effort-svr-only.skops").read_bytes())
    saved = np.load(FIXTURES / "effort-svr-only.npz")
    assert model.get_params()["linear_weight"] == 0.0
    np.testing.assert_allclose(model.predict(saved["X"]), saved["predicted"], atol=1e-4)


def test_applicability_warns_about_language_tm_and_far_features():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 3))
    names = ["a", "b", "c"]
    card = {"applicability": profile(X, names, source_lang="en", target_lang="es", has_tm=True, label="hter")}
    like = warnings(card, X[:50], names, np.arange(50), source_lang="en-US", target_lang="es", has_tm=True)
    assert like == []
    far = warnings(card, X[:50] + 100.0, names, np.arange(50), source_lang="de", target_lang="es", has_tm=False)
    assert len(far) == 3
    assert "en->es" in far[0] and "no TM" in far[1] and "100 % of the segments (50 of 50)" in far[2]


def _effort_table(path, n: int, seed: int, with_effort: bool = True) -> None:
    """An MT-only table: one MT output per segment, its post-edit, time and an effort score (1-5, higher = less)."""
    rng = random.Random(seed)
    lines = ["id\tsource\tmt\tpost_edit\ttime\teffort\n"]
    for i in range(n):
        src_t, tgt_t = rng.choice(TEMPLATES)
        o = rng.choice(list(OBJECTS))
        good = rng.random() < 0.5
        source, ref = _fill(src_t, o), _fill(tgt_t, OBJECTS[o])
        mt = _mt(ref, rng, good)
        effort = (4.5 if good else 2.0) + rng.uniform(-0.5, 0.5)
        time = len(source.split()) * (800 if good else 2500)
        lines.append(f"{i}\t{source}\t{mt}\t{ref}\t{time}\t{effort if with_effort else ''}\n")
    path.write_text("".join(lines), encoding="utf-8")


PE = ["--mt-col", "smt=mt", "--post-edit-col", "smt=post_edit", "--pe-time-col", "smt=time", "--effort-col", "smt=effort",
      "--key-col", "id"]


@pytest.fixture(scope="module")
def mt_only(tmp_path_factory):
    """A project without a TM: dev data with post-editing data, and a job of MT outputs only."""
    tmp = tmp_path_factory.mktemp("mtonly")
    _effort_table(tmp / "dev.tsv", 90, 1)
    _effort_table(tmp / "job.tsv", 30, 2)
    db = str(tmp / "P.db")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    assert main(["import", db, str(tmp / "dev.tsv"), "--as", "dev", *PE, "-q"]) == 0
    assert main(["import", db, str(tmp / "job.tsv"), "--as", "document", "--mt-col", "smt=mt", "--key-col", "id", "-q"]) == 0
    return db


@pytest.mark.parametrize("label", ["effort", "hter", "time"])
def test_an_mt_only_project_trains_recommends_and_exports_each_label(mt_only, tmp_path, label):
    with Store.open(mt_only) as store:
        outcome = train(store, name=f"m-{label}", label=label, make_model=_small)
        card = outcome.card
        assert card["label"]["name"] == label and card["model"] == "EffortRegressor"
        assert not set(TM_MODEL_FEATURES) & set(card["features"]["used"])  # absent, not faked
        assert card["applicability"]["tm"] is False
        assert card["cross_validated"]["spearman"] > 0.1  # surface features alone tell good and bad MT apart a little
        done = recommend(store, model=f"m-{label}")
        assert done.segments == 30 and done.warnings == []
    out = tmp_path / "out.json"
    assert main(["export", mt_only, "--format", "json", "--model", f"m-{label}", "-o", str(out), "-q"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["label"]["name"] == label and data["warnings"] == []
    cands = [c for s in data["segments"] for c in s["candidates"]]
    predicted = np.array([c["predicted_effort"] for c in cands])
    conf = np.array([c["confidence"] for c in cands])
    assert np.isfinite(predicted).all()
    # the confidence runs "higher = less effort" whatever the label's direction
    expected = 1 if label == "effort" else -1
    assert np.sign(np.corrcoef(predicted, conf)[0, 1]) == expected
    if label == "effort":
        assert 1.0 < predicted.mean() < 5.5  # the imported 1-5 scale, not the internal negation


def test_evaluate_reports_the_confidence_against_each_effort_measure(mt_only, capsys):
    with Store.open(mt_only) as store:
        rep = evaluate_effort(store, label="effort", n_splits=3)
    assert set(rep.correlations) == {"time per word", "HTER", "effort score"}
    assert rep.correlations["time per word"][1] < -0.3 and rep.correlations["effort score"][1] > 0.3
    assert rep.effort_fit is not None and rep.effort_fit.delta_avg > 0 and rep.effort_fit.mae < 1.5
    assert main(["evaluate", mt_only, "--label", "effort", "--folds", "3", "-q"]) == 0
    out = capsys.readouterr().out
    assert "time per word: Pearson -" in out and "DeltaAvg" in out


def test_a_job_without_the_tm_the_model_used_gets_a_warning_line(tmp_path, capsys):
    from tests.recommend.synthetic import build, import_project
    from tmtprime.recommend.svm import TMTprimeRecommender

    db = import_project(tmp_path, build(tmp_path, n_dev=60, n_new=20)[0])
    small = lambda: TMTprimeRecommender(C_grid=(1.0,), gamma_grid=(0.5,), ter_C_grid=(10.0,), cv=2)  # noqa: E731
    with Store.open(db) as store:
        card = train(store, name="m", make_model=small).card
        assert card["label"]["name"] == "ter" and card["applicability"]["tm"] is True
        assert recommend(store, model="m").warnings == []
        tm_doc = next(d.name for d in store.documents.list() if d.role == "tm")
    capsys.readouterr()
    assert main(["document", "remove", db, tm_doc]) == 0
    assert main(["recommend", db, "--model", "m", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("warning: the project has no TM but the model was trained with one") for line in lines)
    assert main(["report", db, "-q", "-o", str(tmp_path / "report.txt")]) == 0
    assert "warning: the project has no TM but the model was trained with one" in (tmp_path / "report.txt").read_text(encoding="utf-8")
    assert main(["export", db, "--format", "json", "--model", "m", "-o", str(tmp_path / "out.json"), "-q"]) == 0
    assert "no TM" in json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["warnings"][0]


def test_a_model_from_the_tm_alone(tmp_path):
    import shutil

    from tests.recommend.synthetic import build, import_project
    from tests.test_product_workflow import _mapping
    from tmtprime.workflows.tm_training import held_out_segments

    if shutil.which("apertium") is None:
        pytest.skip("Apertium is not installed")
    paths, _ = build(tmp_path, n_dev=10, n_new=20)
    db = import_project(tmp_path, paths, ("tm",))
    with Store.open(db) as store:
        segments, rest = held_out_segments(store, 40, ["apertium"])
        held = {s.source for s in segments}
        assert len(segments) == 40 and len(rest) == store.tm.count() - 40 and not held & {s for s, _ in rest}
        assert all(c.tm_source not in held for s in segments for c in s.candidates if c.kind == "tm")  # never itself
        assert all(s.reference for s in segments) and all(any(c.kind == "mt" for c in s.candidates) for s in segments)
    assert main(["train", db, "--from-tm", "40", "--name", "fromtm", "-q"]) == 0
    assert main(["import", db, str(paths["new"]), "--as", "document", *_mapping(), "-q"]) == 0
    with Store.open(db) as store:
        card = dict(store.models.get("fromtm").card)
        assert card["data"]["from_tm"]["held_out"] == 40 and card["label"]["name"] == "ter"
        assert recommend(store, model="fromtm").segments == 20
    assert main(["train", db, "--from-tm", "5", "-q"]) == 2  # too few to learn from: a usage error, one clear line
