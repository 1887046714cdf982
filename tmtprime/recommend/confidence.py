"""The confidence reported with each recommendation: the pick's predicted quality.

Two numbers come out of the model for every candidate: the Platt-scaled
probability that it is (one of) the best candidates of its segment, and its
predicted TER. The probability answers "is this the right candidate to start
from?" (it drives the MT-over-TM threshold); but a segment where every
candidate is poor can still have a clear winner, so it says little about how
much editing the pick needs. The confidence shown is therefore 1 - predicted
TER/100 clipped to [0, 1], which tracked the pick's TER better than the
probability or any remapping tried (docs/experiments/recommender.md,
"The confidence shown with a pick").
"""

from __future__ import annotations

import numpy as np


def confidence(predicted_ter: np.ndarray) -> np.ndarray:
    """Reported confidence in [0, 1] of picks with this predicted TER (0-100)."""
    return 1.0 - np.clip(np.asarray(predicted_ter, dtype=np.float64), 0.0, 100.0) / 100.0
