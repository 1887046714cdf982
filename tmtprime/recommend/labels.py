"""Labels for development data: TER against the reference, or real post-editing effort.

``ter`` is every candidate's TER against the segment's reference; ``hter`` its
TER against its own post-edit(s); ``time`` post-editing milliseconds per source
word; ``effort`` the imported effort score. Several editors' records of one
candidate are averaged. Internally every label runs "higher = more effort"
(an effort scale stated higher-is-less at import is negated), so the lowest
prediction is the pick whatever the label; :data:`LABEL_UNITS` says what a
prediction is in the label's own unit.

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
LABELS = ("ter", "hter", "time", "effort")
LABEL_UNITS = {
    "ter": "TER (0-100+, sacrebleu) of the candidate against the reference; lower = less effort",
    "hter": "HTER: TER (0-100+, sacrebleu) of the candidate against its own post-edit; lower = less effort",
    "time": "post-editing milliseconds per source word; lower = less effort",
    "effort": "effort score on the imported scale",
}


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


def _words(text: str) -> int:
    return max(len(text.split()), 1)


def _mean(values: list[float]) -> float:
    return float(np.mean(values)) if values else float("nan")


def effort_sign(segments: Sequence[Segment]) -> float:
    """+1 when the project's effort scores run higher = more effort, -1 when higher = less; mixed: refused."""
    directions = {p.effort_more for s in segments for c in s.candidates for p in c.post_edits if p.effort is not None}
    if len(directions) > 1:
        raise ModelError("the effort scores were imported with both directions (--effort-scale): "
                         "re-import one set so that all run the same way")
    return 1.0 if directions == {True} else -1.0


def candidate_labels(segments: Sequence[Segment], label: str, *, n_jobs: int = 1) -> np.ndarray:
    """Each candidate's ``label`` (higher = more effort), NaN where the candidate has no data for it."""
    if label == "ter":
        return candidate_ter(segments, n_jobs=n_jobs)
    if label == "hter":
        pairs, owner = [], []
        for row, c in enumerate(c for s in segments for c in s.candidates):
            for p in c.post_edits:
                if p.text:
                    pairs.append((c.text, p.text))
                    owner.append(row)
        scores = [x for part in run_batches(partial(_ter_batch), pairs, n_jobs=n_jobs, batch_size=2000) for x in part]
        n = sum(len(s.candidates) for s in segments)
        total, count = np.zeros(n), np.zeros(n)
        np.add.at(total, np.asarray(owner, dtype=np.int64), scores)
        np.add.at(count, np.asarray(owner, dtype=np.int64), 1)
        with np.errstate(invalid="ignore"):
            return np.where(count > 0, total / np.maximum(count, 1), np.nan)
    if label == "time":
        return np.array([_mean([p.time_ms / _words(s.source) for p in c.post_edits if p.time_ms is not None])
                         for s in segments for c in s.candidates])
    if label == "effort":
        sign = effort_sign(segments)
        return np.array([sign * _mean([p.effort for p in c.post_edits if p.effort is not None])
                         for s in segments for c in s.candidates])
    raise ModelError(f"unknown label {label!r} (expected one of: {', '.join(LABELS)})")


def default_label(segments: Sequence[Segment]) -> str:
    """``hter`` where post-edited texts exist, else ``ter`` against the reference."""
    return "hter" if any(p.text for s in segments for c in s.candidates for p in c.post_edits) else "ter"
