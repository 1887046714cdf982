"""The one entry point for batch work (DESIGN: joblib, backend switchable).

Everything that fans work out over processes calls :func:`run_batches`, so a
user who outgrows one machine switches the backend in one place: inside
:func:`dask_cluster` (what ``--scheduler ADDRESS`` of the batch commands
opens) every batch, and scikit-learn's own joblib work such as the grid
search, goes to the workers of a Dask cluster instead of local processes.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import queue
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from itertools import islice
from typing import TYPE_CHECKING, TypeVar

from tmtprime.errors import ExternalToolError, TmtprimeError, UsageError

if TYPE_CHECKING:
    from tmtprime.progress import Reporter

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


def can_fork() -> bool:
    """Whether :class:`ForkedTasks` can run here: local work (no :func:`dask_cluster` open) on a system that forks."""
    return _active_backend is None and "fork" in multiprocessing.get_all_start_methods()


class ForkedTasks:
    """Tasks ``0 .. count - 1`` done by ``n`` forked processes while the caller goes on with other work.

    Forked, the workers start at once with the caller's memory as it is: nothing is pickled or imported
    again, and the pages they only read stay shared (the caller's heap is frozen for the garbage collector
    first, so a worker's collections do not write to, and copy, them). Each worker enters ``worker()``
    once (e.g. opening the project) and calls the function it yields for each task it takes, in order,
    from a shared counter. :meth:`wait` shows the progress, checks for cancellation, and makes a failed
    task, or a worker that died, one error line (a worker's ``TmtprimeError`` keeps its message and exit
    status). Leaving the context ends every worker still running (after an error or a cancel).
    """

    def __init__(self, worker: Callable[[], AbstractContextManager[Callable[[int], object]]], count: int, n: int) -> None:
        context = multiprocessing.get_context("fork")
        self.count, self.done = count, 0
        self._next = context.Value("q", 0)
        self._results = context.Queue()
        gc.collect()
        gc.freeze()
        try:
            self._processes = [context.Process(target=self._work, args=(worker,), daemon=True) for _ in range(max(1, min(n, count)))]
            for process in self._processes:
                process.start()
        finally:
            gc.unfreeze()

    def _work(self, worker: Callable[[], AbstractContextManager[Callable[[int], object]]]) -> None:
        """A worker's life (in the forked process): take tasks until none is left or one fails."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the caller's to handle: it ends the workers
        task = -1
        try:
            with worker() as do:
                while True:
                    with self._next.get_lock():
                        task, self._next.value = self._next.value, self._next.value + 1
                    if task >= self.count:
                        return
                    do(task)
                    self._results.put((task, None, 0))
        except Exception as error:  # the caller raises it as one line; a traceback here would reach the user
            message = str(error) if isinstance(error, TmtprimeError) else f"{type(error).__name__}: {error}"
            self._results.put((task, message, getattr(error, "exit_code", 1)))

    def wait(self, reporter: Reporter, describe: Callable[[int], str] = str) -> None:
        """Until every task is done: ``reporter``'s progress after each, its cancel check every 0.2 s.

        A failed task raises :class:`TmtprimeError` "``describe(task)``: what went wrong".
        """
        reporter.progress(self.done, self.count)
        while self.done < self.count:
            reporter.check()
            try:
                task, message, code = self._results.get(timeout=0.2)
            except queue.Empty:
                dead = [p.exitcode for p in self._processes if p.exitcode not in (None, 0)]
                if dead and self._results.empty():
                    raise TmtprimeError(f"a worker process ended unexpectedly (exit status {dead[0]}); "
                                        f"{self.count - self.done} of {self.count} tasks were not done")
                continue
            if message is not None:
                error = TmtprimeError(f"{describe(task)}: {message}" if task >= 0 else message)
                error.exit_code = code
                raise error
            self.done += 1
            reporter.progress(self.done, self.count)

    def __enter__(self) -> ForkedTasks:
        return self

    def __exit__(self, *exc: object) -> None:
        for process in self._processes:
            if process.is_alive():
                process.terminate()
        for process in self._processes:
            process.join()
        self._results.close()
        self._results.join_thread()


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
