"""A small recommended project for the cost and report tests: part of it has references (actual cost)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.recommend.synthetic import build
from tests.test_product_workflow import _mapping
from tmtprime.cli import main


def make_project(directory: Path, *, recommend: bool = True) -> Path:
    """TM + a document with references (``dev.tsv.gz``) + one without (``new.tsv.gz``), recommended with the shipped model."""
    paths, _ = build(directory, n_dev=60, n_new=40)
    db = directory / "P.db"
    assert main(["project", "create", str(db), "--source-lang", "en", "--target-lang", "es"]) == 0
    assert main(["import", str(db), str(paths["tm"]), "--as", "tm", "--source-col", "source", "--target-col", "target", "-q"]) == 0
    assert main(["import", str(db), str(paths["dev"]), "--as", "document", "--reference-col", "reference", *_mapping(), "-q"]) == 0
    assert main(["import", str(db), str(paths["new"]), "--as", "document", *_mapping(), "-q"]) == 0
    if recommend:
        assert main(["recommend", str(db), "-q"]) == 0
    return db


@pytest.fixture(scope="session")
def recommended_project(tmp_path_factory) -> Path:
    return make_project(tmp_path_factory.mktemp("cost-project"))


@pytest.fixture(scope="session")
def unrecommended_project(tmp_path_factory) -> Path:
    return make_project(tmp_path_factory.mktemp("cost-project-bare"), recommend=False)
