"""Scoring many segments: progress reporting and, on request, worker processes.

One process is the default: it already scores faster than the jar, and
worker start-up (a second or two each) only pays for tens of thousands of
segments. With ``n_jobs`` > 1 (``tmtprime meteor -j N``) batches go through
:func:`tmtprime.parallel.run_batches`; each worker builds its own scorer and
opens the memory-mapped paraphrase index itself, so nothing large is pickled.
The cyclic garbage collector is paused while scoring
(:func:`tmtprime.meteor.gc_pause.paused_gc`): the scores kept so far made its
collections ever longer. Figures: docs/experiments/meteor-speed.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from tmtprime.meteor.gc_pause import paused_gc
from tmtprime.meteor.scorer import Meteor, MeteorScore
from tmtprime.parallel import run_batches, workers

BATCH = 500


def score_segments(
    meteor: Meteor,
    hyps: Sequence[str],
    refs_per_segment: Sequence[Sequence[str]],
    *,
    n_jobs: int | None = None,
    show_progress: bool = False,
) -> list[MeteorScore]:
    """Score every segment; ``n_jobs`` None or 1 scores in this process, -1 uses every core."""
    n_jobs = 1 if n_jobs is None else workers(n_jobs)
    items = list(zip(hyps, refs_per_segment))
    if n_jobs > 1 and len(items) > BATCH:
        spec = meteor.spec()
        results = run_batches(_WorkerBatch(spec), items, n_jobs=n_jobs, batch_size=BATCH)
        return [s for batch in results for s in batch]
    out: list[MeteorScore] = []
    progress = None
    if show_progress and len(items) > BATCH:
        import sys

        if sys.stderr.isatty():
            from tqdm import tqdm

            progress = tqdm(total=len(items), desc="meteor", unit="seg", leave=False, file=sys.stderr)
    with paused_gc():  # about a seventh of the scoring time otherwise (module docstring)
        for start in range(0, len(items), BATCH):
            chunk = items[start : start + BATCH]
            out.extend(meteor.score_segments([h for h, _ in chunk], [r for _, r in chunk]))
            if progress is not None:
                progress.update(len(chunk))
    if progress is not None:
        progress.close()
    return out


class _WorkerBatch:
    """Picklable batch function: rebuilds the scorer once per worker process."""

    _cache: dict[tuple, Meteor] = {}

    def __init__(self, spec: tuple) -> None:
        self.spec = spec

    def __call__(self, batch: Sequence[tuple[str, Sequence[str]]]) -> list[MeteorScore]:
        meteor = self._cache.get(self.spec)
        if meteor is None:
            meteor = Meteor.from_spec(self.spec)
            self._cache[self.spec] = meteor
        return meteor.score_segments([h for h, _ in batch], [r for _, r in batch])
