"""The product's effort models read the black-box QE features, cross-fitted on the training rows."""

from __future__ import annotations

import numpy as np
import pytest

from tmtprime.cli import main
from tmtprime.errors import ModelError
from tmtprime.features.qe import QE_FEATURE_SET_VERSION
from tmtprime.recommend.regressor import EffortRegressor
from tmtprime.store import Store
from tmtprime.workflows.model_choice import model_for
from tmtprime.workflows.project_data import QE_FOLDS, crossfit_qe, fit_extractor, load_segments, project_rows
from tmtprime.workflows.recommendation import recommend
from tmtprime.workflows.training import train

WORDS = "the house is red green small big old new window door table chair".split()


def _table(path, n: int, seed: int, tag: str) -> None:
    """MT-only rows whose source, MT and post-edit each carry a word no other row has (``<tag><i>``)."""
    rng = np.random.default_rng(seed)
    lines = ["id\tsource\tmt\tpost_edit\teffort\n"]
    for i in range(n):
        words = " ".join(rng.choice(WORDS, 5))
        good = i % 2 == 0
        mt = f"la {words} {tag}{i}" + ("" if good else " xx yy")
        lines.append(f"{i}\tthe {words} {tag}{i}\t{mt}\tla {words} {tag}{i}\t{4.5 if good else 2.0}\n")
    path.write_text("".join(lines), encoding="utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("qewire")
    _table(tmp / "dev.tsv", 40, 1, "zorkdev")
    _table(tmp / "job.tsv", 10, 2, "zorkjob")
    db = str(tmp / "P.db")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    pe = ["--mt-col", "smt=mt", "--post-edit-col", "smt=post_edit", "--effort-col", "smt=effort", "--key-col", "id", "-q"]
    assert main(["import", db, str(tmp / "dev.tsv"), "--as", "dev", *pe]) == 0
    assert main(["import", db, str(tmp / "job.tsv"), "--as", "document", "--mt-col", "smt=mt", "--key-col", "id", "-q"]) == 0
    return db


def test_an_mt_only_effort_model_reads_qe_columns_and_saves_and_loads(project):
    with Store.open(project) as store:
        card = train(store, name="e", label="effort", make_model=lambda: EffortRegressor(C_grid=(1.0,), gamma_grid=(0.5,), cv=2)).card
        qe_used = [n for n in card["features"]["used"] if n.startswith("qe_")]
        assert {"qe_surface_tgt_tokens", "qe_lm_tgt_logprob", "qe_lexicon_fwd_logprob"} <= set(qe_used)
        assert card["features"]["qe_version"] == QE_FEATURE_SET_VERSION
        chosen = model_for(store, "e")  # skops round trip from the store
        assert isinstance(chosen.model, EffortRegressor)
        done = recommend(store, model="e")
        assert done.segments == 10


def test_training_rows_qe_features_come_from_corpora_without_their_own_post_edit(project):
    with Store.open(project) as store:
        data = load_segments(store, role="dev", with_post_edits=True)
        rows, _ = project_rows(store, data, fit_extractor(store), with_ter=False)
        crossfit = crossfit_qe(store, data, rows)
        full, _ = project_rows(store, data, fit_extractor(store, qe=True), with_ter=False)
    assert len(data.segments) >= QE_FOLDS
    src_oov = list(crossfit.feature_names).index("qe_lm_src_oov")
    tgt_oov = list(crossfit.feature_names).index("qe_lm_tgt_oov")
    # each row's unique word is unknown to the LMs its features came from ...
    assert (crossfit.X[:, src_oov] > 0).all() and (crossfit.X[:, tgt_oov] > 0).all()
    # ... while the corpus of all the dev data (what new jobs are scored with) knows it
    full_names = list(full.feature_names)
    assert (full.X[:, full_names.index("qe_lm_src_oov")] == 0).all()
    assert (full.X[:, full_names.index("qe_lm_tgt_oov")] < crossfit.X[:, tgt_oov]).all()  # bad MT's extra words stay unknown


def test_a_qe_model_still_recommends_when_the_dev_data_its_corpus_came_from_is_gone(tmp_path):
    db = str(tmp_path / "P.db")
    _table(tmp_path / "dev.tsv", 30, 3, "zorkdev")
    _table(tmp_path / "job.tsv", 6, 4, "zorkjob")
    pe = ["--mt-col", "smt=mt", "--post-edit-col", "smt=post_edit", "--effort-col", "smt=effort", "--key-col", "id", "-q"]
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    assert main(["import", db, str(tmp_path / "dev.tsv"), "--as", "dev", *pe]) == 0
    assert main(["import", db, str(tmp_path / "job.tsv"), "--as", "document", "--mt-col", "smt=mt", "--key-col", "id", "-q"]) == 0
    with Store.open(db) as store:
        used = train(store, name="e", label="effort", make_model=lambda: EffortRegressor(C_grid=(1.0,), gamma_grid=(0.5,), cv=2)).card["features"]["used"]
    assert "qe_lm_tgt_logprob" in used
    assert main(["document", "remove", db, "dev.tsv"]) == 0
    with Store.open(db) as store:
        assert recommend(store, model="e").segments == 6  # the LM columns, now without a corpus, read the training medians


def test_a_model_of_another_qe_feature_set_is_refused_with_what_to_do(project):
    with Store.open(project) as store:
        train(store, name="current", label="effort", make_model=lambda: EffortRegressor(C_grid=(1.0,), gamma_grid=(0.5,), cv=2))
        record = store.models.get("current")
        card = {**record.card, "features": {**record.card["features"], "qe_version": "0"}}
        store.models.save("old-qe", record.blob, card)
        with pytest.raises(ModelError, match="QE feature set 0.*train it again"):
            model_for(store, "old-qe")
