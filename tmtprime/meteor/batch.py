"""Scoring many segments: progress and cancel through a Reporter and, on request, worker processes.

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
from tmtprime.progress import Reporter, silent

BATCH = 500


def score_in_batches(
    meteor: Meteor,
    hyps: Sequence[str],
    refs_per_segment: Sequence[Sequence[str]],
    *,
    n_jobs: int | None = None,
    reporter: Reporter | None = None,
    desc: str = "scoring",
) -> list[MeteorScore]:
    """Score every segment, ``BATCH`` at a time; ``n_jobs`` None or 1 scores in this process, -1 uses every core.

    ``reporter`` sees one phase (``desc``, in segments) and may cancel between batches.
    """
    reporter = silent(reporter)
    n_jobs = 1 if n_jobs is None else workers(n_jobs)
    items = list(zip(hyps, refs_per_segment))
    if n_jobs > 1 and len(items) > BATCH:
        reporter.status(desc)
        results = run_batches(_WorkerBatch(meteor.spec()), items, n_jobs=n_jobs, batch_size=BATCH)
        reporter.check()
        reporter.progress(len(items), len(items))
        reporter.finish_phase()
        return [s for batch in results for s in batch]
    out: list[MeteorScore] = []
    batches = [items[start : start + BATCH] for start in range(0, len(items), BATCH)]
    reporter.status(desc)
    reporter.progress(0, len(items))
    with paused_gc():  # about a seventh of the scoring time otherwise (module docstring)
        for chunk in batches:
            reporter.check()
            out.extend(meteor.score_each([h for h, _ in chunk], [r for _, r in chunk]))
            reporter.progress(len(out), len(items))
    reporter.finish_phase()
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
        return meteor.score_each([h for h, _ in batch], [r for _, r in batch])
