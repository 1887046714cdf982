"""Helpers for the formats tests."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "formats"


@pytest.fixture(scope="session")
def fixtures() -> Path:
    """Directory of the hand-written per-tool sample files."""
    return FIXTURES
