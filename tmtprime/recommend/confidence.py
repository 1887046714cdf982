"""The confidence reported with each recommendation.

Two numbers come out of the model for every candidate: the Platt-scaled
probability that it is (one of) the best candidates of its segment, and its
predicted TER. The probability answers "is this the right candidate to start
from?" and is calibrated (it drives the MT-over-TM threshold and is exported
next to every alternative); but a segment where every candidate is poor can
still have a clear winner, so it says little about how much editing the pick
needs. The confidence shown with a pick is therefore its predicted quality:
the share of its words expected to survive post-editing, 1 - predicted TER/100
clipped to [0, 1]. In grouped cross-validation on the shared data it
correlated with the pick's TER at r = -0.60 (update) and -0.43 (crossproject),
against -0.57 / -0.39 for probability x quality and -0.29 / -0.18 for the
probability alone.
"""

from __future__ import annotations

import numpy as np


def confidence(predicted_ter: np.ndarray) -> np.ndarray:
    """Reported confidence in [0, 1] of picks with this predicted TER (0-100)."""
    return 1.0 - np.clip(np.asarray(predicted_ter, dtype=np.float64), 0.0, 100.0) / 100.0
