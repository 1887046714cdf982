"""TM lookup for a batch of segments: deduplicated, optionally spread over processes.

Plain strings in, :class:`~tmtprime.tm.index.TMMatch` lists out; the store
integration (:mod:`tmtprime.workflows.lookup`) and the benchmark both call this.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from tmtprime.errors import UsageError
from tmtprime.parallel import run_batches, workers
from tmtprime.progress import Reporter, silent
from tmtprime.tm.index import TMIndex, TMMatch

Query = tuple[str, str | None]


def _lookup_batch(index: TMIndex, threshold: float, k: int, batch: Sequence[Query]) -> list[list[TMMatch]]:
    return [index.lookup(q, context=c, threshold=threshold, k=k) for q, c in batch]


def lookup_segments(
    index: TMIndex,
    segments: Sequence[str],
    contexts: Sequence[str | None] | None = None,
    *,
    threshold: float = 50.0,
    k: int = 3,
    n_jobs: int = 1,
    reporter: Reporter | None = None,
) -> list[list[TMMatch]]:
    """Best ``k`` TM matches (at least ``threshold``) of every segment, in input order.

    Repeated (segment, context) pairs are looked up once. ``n_jobs > 1`` ships
    the index to worker processes once per batch (worth it only for large jobs).
    """
    if n_jobs == 0 or n_jobs < -1:
        raise UsageError(f"number of jobs must be at least 1 (or -1 for all cores), got {n_jobs}")
    ctx = list(contexts) if contexts is not None else [None] * len(segments)
    if len(ctx) != len(segments):
        raise UsageError("segments and contexts must have the same length")
    unique: list[Query] = list(dict.fromkeys(zip(segments, ctx)))
    if n_jobs == 1:
        found = [
            index.lookup(q, context=c, threshold=threshold, k=k)
            for q, c in silent(reporter).track(unique, desc="TM lookup", unit="seg")
        ]
    else:
        batch_size = max(1, -(-len(unique) // workers(n_jobs)))
        batches = run_batches(partial(_lookup_batch, index, threshold, k), unique, n_jobs=n_jobs, batch_size=batch_size)
        found = [matches for batch in batches for matches in batch]
    by_query = dict(zip(unique, found))
    return [by_query[pair] for pair in zip(segments, ctx)]
