"""The use cases the CLI and the GUI share: results, typed errors, and a cancel that leaves the store as it was."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.recommend.synthetic import build
from tests.test_product_workflow import _mapping
from tmtprime.cli import main
from tmtprime.errors import Cancelled, ModelError, UsageError
from tmtprime.mt.imported import ImportedEngine
from tmtprime.paths import resource_path
from tmtprime.progress import Reporter
from tmtprime.store import Store
from tmtprime import workflows as wf

DEMO = resource_path("demo")


class Recorder(Reporter):
    """Counts progress calls and asks for a cancel at the ``cancel_at``-th one."""

    def __init__(self, cancel_at: int | None = None) -> None:
        super().__init__()
        self.cancel_at = cancel_at
        self.calls = 0
        self.statuses: list[str] = []

    def on_status(self, text: str) -> None:
        self.statuses.append(text)

    def on_progress(self, done: int, total: int | None) -> None:
        self.calls += 1
        if self.cancel_at is not None and self.calls >= self.cancel_at:
            self.request_cancel()


def _snapshot(path: Path) -> list[str]:
    """Every row of every table, to compare a project before and after."""
    with sqlite3.connect(path) as conn:
        return list(conn.iterdump())


@pytest.fixture(scope="module")
def demo_project(tmp_path_factory) -> Path:
    """The demo's TM and documents imported; the two MT outputs are left for the tests to add."""
    path = tmp_path_factory.mktemp("demo") / "P.db"
    with Store.create(path, source_lang="en", target_lang="es") as store:
        wf.import_files(store, [DEMO / "tm.tmx"], role="tm")
        results = wf.import_files(store, sorted((DEMO / "jobs").iterdir()))
        assert [r.document.name for r in results] == ["messages.po", "release-notes.xlf", "ui-strings.xlf"]
        assert [r.units for r in results] == [73, 30, 85]
    return path


@pytest.fixture(scope="module")
def dev_project(tmp_path_factory) -> Path:
    """A synthetic project with development data (for training)."""
    tmp = tmp_path_factory.mktemp("dev")
    paths, _ = build(tmp, n_dev=60, n_new=20)
    db = tmp / "D.db"
    assert main(["project", "create", str(db), "--source-lang", "en", "--target-lang", "es"]) == 0
    assert main(["import", str(db), str(paths["tm"]), "--as", "tm", "--source-col", "source", "--target-col", "target", "-q"]) == 0
    assert main(["import", str(db), str(paths["dev"]), "--as", "dev", "--reference-col", "reference", *_mapping(), "-q"]) == 0
    assert main(["import", str(db), str(paths["new"]), "--as", "document", *_mapping(), "-q"]) == 0
    return db


def _mt(store: Store) -> None:
    for path in sorted((DEMO / "mt").glob("*.tsv")):
        wf.translate(store, ImportedEngine(path, name=path.stem, missing="skip"))


def _copy(src: Path, dst_dir: Path) -> Path:
    dst = dst_dir / src.name
    shutil.copy(src, dst)
    return dst


UseCase = Callable[[Store, Reporter], object]

CASES: dict[str, tuple[str, Callable[[Store], None], UseCase]] = {
    "import": ("demo", lambda s: None, lambda s, r: wf.import_files(s, [DEMO / "mt" / "apertium_eng-spa.tsv"], role="document", reporter=r)),
    "lookup": ("demo", lambda s: None, lambda s, r: wf.lookup_tm(s, reporter=r)),
    "translate": ("demo", lambda s: None, lambda s, r: wf.translate(s, ImportedEngine(DEMO / "mt" / "apertium_eng-spa.tsv", missing="skip"), reporter=r)),
    "recommend": ("demo", lambda s: (wf.lookup_tm(s), _mt(s)) and None, lambda s, r: wf.recommend(s, reporter=r)),
    "train": ("dev", lambda s: None, lambda s, r: wf.train(s, name="m", reporter=r)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_cancel_at_any_progress_step_leaves_the_store_as_it_was(case, demo_project, dev_project, tmp_path):
    kind, prepare, use_case = CASES[case]
    base = _copy(demo_project if kind == "demo" else dev_project, tmp_path)
    with Store.open(base) as store:
        prepare(store)
    # a dry run on a copy counts the progress steps
    counted = Recorder()
    (tmp_path / "dry").mkdir()
    dry = _copy(base, tmp_path / "dry")
    with Store.open(dry) as store:
        use_case(store, counted)
    assert counted.calls >= 2 and counted.statuses, (case, counted.calls, counted.statuses)
    assert _snapshot(dry) != _snapshot(base), "the use case must change the store when it runs to the end"
    before = _snapshot(base)
    for step in sorted({1, counted.calls // 2, counted.calls}):
        with Store.open(base) as store, pytest.raises(Cancelled):
            use_case(store, Recorder(cancel_at=step))
        assert _snapshot(base) == before, f"{case}: a cancel at progress step {step} of {counted.calls} changed the store"


def test_lookup_translate_recommend_and_a_subset_of_systems(demo_project, tmp_path):
    db = _copy(demo_project, tmp_path)
    with Store.open(db) as store:
        found = wf.lookup_tm(store, threshold=50, k=2)
        assert found.segments == 188 and 0 < found.matched < 188 and found.best_types["exact"] > 0
        again = wf.lookup_tm(store, threshold=50, k=2)  # a re-run replaces the matches
        assert again.candidates == found.candidates
        _mt(store)
        assert wf.translate(store, ImportedEngine(DEMO / "mt" / "apertium_eng-spa.tsv", missing="skip")).translated == 0
        full = wf.recommend(store)
        assert full.segments == 188 and set(full.by_system) <= {"tm-lookup", "apertium_eng-spa", "apertium_eng-cat-spa"}
        assert len(full.by_system) > 1
        only_mt = wf.recommend(store, systems=["apertium_eng-spa", "apertium_eng-cat-spa"], documents=["messages.po"])
        assert only_mt.segments == 73 and set(only_mt.by_system) <= {"apertium_eng-spa", "apertium_eng-cat-spa"}
        with pytest.raises(UsageError, match="no system named 'deepl'.*apertium_eng-spa"):
            wf.recommend(store, systems=["deepl"])


def test_recommend_without_candidates_says_what_is_missing(tmp_path):
    with Store.create(tmp_path / "E.db", source_lang="en", target_lang="es") as store:
        wf.import_files(store, [DEMO / "tm.tmx"], role="tm")
        wf.import_files(store, [DEMO / "jobs" / "ui-strings.xlf"])
        with pytest.raises(ModelError, match="none of the 85 segments has a candidate.*tm lookup.*translate"):
            wf.recommend(store)


def test_a_model_file_is_used_and_stored_under_its_name(dev_project, tmp_path):
    from tmtprime.recommend import persist

    db = _copy(dev_project, tmp_path)
    with Store.open(db) as store:
        trained = wf.train(store, name="m1")
        path = tmp_path / "mine.skops"
        persist.save_file(path, trained.model, trained.card)
        outcome = wf.recommend(store, model=wf.model_from_file(path))
        assert outcome.model == "mine" and outcome.segments == 20
        assert store.models.get("mine").card["features"] == trained.card["features"]
        assert store.recommendations.count("mine") == 20


def test_old_names_of_the_result_types_still_resolve() -> None:
    import tmtprime.workflows as wf

    assert wf.LookupReport is wf.LookupResult and wf.TranslateReport is wf.TranslateResult
    assert wf.TrainOutcome is wf.TrainResult and wf.RecommendOutcome is wf.RecommendResult
    assert wf.DocumentOutcome is wf.DocumentResult
    assert "TrainOutcome" not in wf.__all__
