"""Meteor tests run against an already compiled aligner, as every run after the first one after an install does."""

from __future__ import annotations

import pytest

from tmtprime.meteor.aligner import compile_now


@pytest.fixture(scope="session", autouse=True)
def compiled_aligner() -> None:
    """Compile (or load from numba's cache) before any test: the first-run notice is tested on its own."""
    compile_now()
