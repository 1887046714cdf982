"""The one entry point for batch work (DESIGN: joblib, backend switchable).

Everything that fans work out over processes calls :func:`run_batches`, so a
user who outgrows one machine can switch the backend (e.g. ``"dask"`` with a
distributed client registered) in one place.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_BACKEND = os.environ.get("TMTPRIME_JOBLIB_BACKEND", "loky")


def chunked(items: Sequence[T], size: int) -> list[Sequence[T]]:
    """Split ``items`` into consecutive slices of at most ``size`` elements."""
    if size < 1:
        raise ValueError("chunk size must be at least 1")
    return [items[i : i + size] for i in range(0, len(items), size)]


def run_batches(
    func: Callable[[Sequence[T]], R],
    items: Sequence[T],
    *,
    n_jobs: int = 1,
    batch_size: int = 1000,
    backend: str | None = None,
) -> list[R]:
    """Apply ``func`` to consecutive batches of ``items``; results in input order.

    ``n_jobs=1`` runs in-process (no pickling, easy debugging); otherwise joblib
    with ``backend`` (default ``TMTPRIME_JOBLIB_BACKEND`` or ``loky``).
    """
    batches: Iterable[Sequence[T]] = chunked(items, batch_size)
    if n_jobs == 1:
        return [func(batch) for batch in batches]
    from joblib import Parallel, delayed, parallel_config

    with parallel_config(backend=backend or DEFAULT_BACKEND, n_jobs=n_jobs):
        return list(Parallel()(delayed(func)(batch) for batch in batches))
