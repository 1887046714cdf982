"""Fixtures of the store tests: a fresh SQLite project."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tmtprime.store import Store


@pytest.fixture
def project_path(tmp_path: Path) -> Path:
    return tmp_path / "project.db"


@pytest.fixture
def store(project_path: Path) -> Iterator[Store]:
    with Store.create(project_path, source_lang="en", target_lang="es") as opened:
        yield opened
