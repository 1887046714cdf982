"""Shared test fixtures.

Optional components (the Meteor jar, ../shared/data, PostgreSQL, Apertium) are
skipped cleanly on a developer machine that lacks them, but under CI
(``CI=true``) a missing component is a failure: CI installs all of them, so a
skip there would hide a broken install step.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tmtprime.progress import Reporter

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]


class ProgressSpy(Reporter):
    """A reporter that hands every progress step to ``on_step(done, total)`` (which may raise, to stop the work)."""

    def __init__(self, on_step) -> None:  # noqa: ANN001
        super().__init__()
        self.on_step = on_step

    def on_progress(self, done: int, total: int | None) -> None:
        self.on_step(done, total)
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def require(condition: bool, what: str) -> None:
    """Skip (developer machine) or fail (CI) when an optional component is missing."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{what} is missing under CI: .ci/install should have provided it")
    pytest.skip(f"{what} not available")


def _shared_dir() -> Path | None:
    candidates = [os.environ.get("TMTPRIME_SHARED_DIR"), ROOT.parent / "shared", "/work/shared"]
    for c in candidates:
        if c and (Path(c) / "data").is_dir():
            return Path(c)
    return None


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The team's shared directory (real data, reference tools)."""
    found = _shared_dir()
    require(found is not None, "../shared (real data)")
    assert found is not None
    return found


@pytest.fixture(scope="session")
def shared_data(shared_dir: Path) -> Path:
    """``../shared/data``: real TM/MT data and CAT-tool files (never copied into the repo)."""
    return shared_dir / "data"


@pytest.fixture(scope="session")
def meteor_jar() -> Path:
    """The reference Meteor 1.5 jar (fetched by ../shared/tools/meteor_ref/setup.sh)."""
    jar = Path(os.environ.get("METEOR_JAR", "/tmp/meteor_ref/meteor-1.5.jar"))
    require(jar.is_file() and shutil.which("java") is not None, "Java + Meteor 1.5 jar")
    return jar
