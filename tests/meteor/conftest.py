"""Meteor tests run against an already compiled aligner, as every run after the first one after an install does."""

from __future__ import annotations

import pytest

from tmtprime.meteor.aligner import compile_now
from tmtprime.meteor.compiled import use_compiled


@pytest.fixture(scope="session", autouse=True)
def compiled_aligner() -> None:
    """Compile (or load from numba's cache) before any test: the first-run notice is tested on its own.

    Then back to plain Python, where a process starts: a batch of
    ``COMPILE_FROM`` pairs or more switches to the machine code (tested on
    both sides in test_compiled_cache.py).
    """
    compile_now()
    use_compiled(False)
