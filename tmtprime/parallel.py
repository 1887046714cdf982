"""The one entry point for batch work (DESIGN: joblib, backend switchable).

Everything that fans work out over processes calls :func:`run_batches`, so a
user who outgrows one machine switches the backend in one place: inside
:func:`dask_cluster` (what ``--scheduler ADDRESS`` of the batch commands
opens) every batch, and scikit-learn's own joblib work such as the grid
search, goes to the workers of a Dask cluster instead of local processes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from typing import TypeVar

from tmtprime.errors import ExternalToolError, UsageError

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_BACKEND = os.environ.get("TMTPRIME_JOBLIB_BACKEND", "loky")
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a Dask scheduler before telling the user it is not there."""

_active_backend: str | None = None
"""Set while a :func:`dask_cluster` is open: the backend every batch then uses."""


def workers(n_jobs: int) -> int:
    """How many workers ``n_jobs`` means here: joblib's convention, -1 for every core."""
    return n_jobs if n_jobs > 0 else os.cpu_count() or 1


def batched(items: Iterable[T], size: int) -> Iterator[Sequence[T]]:
    """Consecutive batches of at most ``size`` items, lazily: slices of a sequence or an array
    (views, no copies), lists from any other iterable (a stream is never held whole)."""
    if size < 1:
        raise ValueError("batch size must be at least 1")
    if isinstance(items, Sequence) or hasattr(items, "__array__"):
        for start in range(0, len(items), size):  # type: ignore[arg-type]
            yield items[start : start + size]  # type: ignore[index]
        return
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


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
    with ``backend``, else the open cluster's, else ``TMTPRIME_JOBLIB_BACKEND``
    or ``loky``. A caller naming a backend (``"threading"`` for work that
    releases the GIL on shared arrays) keeps it even inside a cluster.
    """
    batches = batched(items, batch_size)
    if n_jobs == 1:
        return [func(batch) for batch in batches]
    from joblib import Parallel, delayed, parallel_config

    with parallel_config(backend=backend or _active_backend or DEFAULT_BACKEND, n_jobs=n_jobs):
        return list(Parallel()(delayed(func)(batch) for batch in batches))


def end_workers() -> None:
    """End the local worker processes that joblib keeps for reuse (loky), giving back what they hold.

    A long job calls it after a phase whose workers held big inputs (the TM index of a lookup):
    kept, they would sit on that memory through the later phases; the next batch work starts new ones.
    """
    if _active_backend is None and DEFAULT_BACKEND == "loky":
        from joblib.externals.loky import get_reusable_executor

        get_reusable_executor().shutdown(wait=True)


@contextmanager
def dask_cluster(address: str) -> Iterator[int]:
    """Run all batch work of the block on the Dask cluster whose scheduler is at ``address``.

    Yields the number of worker threads the cluster has. Connecting is the only
    place a cluster can be misconfigured, so both failures a user can fix (the
    ``dask`` extra is not installed; nothing answers at the address) become
    one-line errors instead of tracebacks from deep inside joblib.
    """
    global _active_backend
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'tmtprime[dask]'") from None
    from joblib import parallel_config

    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=True)
    except (OSError, TimeoutError, ValueError) as error:
        raise ExternalToolError(f"no Dask scheduler answered at {address!r} within {CONNECT_TIMEOUT:g} s ({error})") from None
    try:
        workers = sum(client.nthreads().values())
        if workers == 0:
            raise ExternalToolError(f"the Dask cluster at {address!r} has no workers")
        previous, _active_backend = _active_backend, "dask"
        try:
            with parallel_config(backend="dask"):
                yield workers
        finally:
            _active_backend = previous
    finally:
        client.close()
