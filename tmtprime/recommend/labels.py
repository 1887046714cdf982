"""Labels for development data: TER of every candidate against the reference.

The best candidate of a segment is the one with the lowest TER (sacrebleu's
tercom-compatible TER, as in the TMTprime paper). Ties are frequent in real
data (about 40 % of strings, mostly identical MT outputs), so the rule is:

    **every candidate whose TER equals the segment's lowest TER is labelled
    best (1); the others 0.**

Tied candidates need exactly the same post-editing, so calling one of them
wrong would teach the classifier noise. When the recommender later has to
choose between candidates it scores equally, it prefers the cheaper one: the
TM match before MT, then the order of the candidates (see
:class:`tmtprime.recommend.picks.Picks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np

from tmtprime.errors import ModelError
from tmtprime.formats.model import Segment
from tmtprime.parallel import run_batches
from tmtprime.recommend.grouping import segment_min

TIE_RULE = "all candidates tied for the lowest TER are labelled best"


def _ter_batch(pairs: Sequence[tuple[str, str]]) -> list[float]:
    from sacrebleu.metrics import TER

    ter = TER()
    return [ter.sentence_score(hyp, [ref]).score for hyp, ref in pairs]


def candidate_ter(segments: Sequence[Segment], *, n_jobs: int = 1, backend: str | None = None) -> np.ndarray:
    """TER (0-100+, lower is better) of every candidate (rows in segment, candidate order)."""
    pairs = []
    for seg in segments:
        if not seg.reference:
            raise ModelError(f"segment {seg.key!r} has no reference translation; labels need one")
        pairs.extend((c.text, seg.reference) for c in seg.candidates)
    parts = run_batches(partial(_ter_batch), pairs, n_jobs=n_jobs, batch_size=2000, backend=backend)
    return np.asarray([x for part in parts for x in part], dtype=np.float64)


def best_labels(ter: np.ndarray, segment_index: np.ndarray) -> np.ndarray:
    """1 for every candidate tied for its segment's lowest TER, else 0 (see :data:`TIE_RULE`)."""
    return (ter <= segment_min(ter, segment_index) + 1e-9).astype(np.int64)


def segment_index(segments: Sequence[Segment]) -> np.ndarray:
    """The segment number of every candidate row."""
    return np.repeat(np.arange(len(segments)), [len(s.candidates) for s in segments])
