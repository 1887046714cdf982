"""The confidence reported with each recommendation.

Two numbers come out of the model for the picked candidate: the Platt-scaled
probability that it is (one of) the best candidates, and its predicted TER.
The probability answers "is this the right candidate to start from?" and is
calibrated; but a segment where every candidate is poor can still have a
clear winner, so the probability alone says little about how much editing
the pick needs. The reported confidence is therefore the probability that
the pick is the best *times* its predicted share of words that survive
post-editing (1 - predicted TER, clipped to [0, 1]): high only when the model
is both sure of the choice and expects the choice to be good.
"""

from __future__ import annotations

import numpy as np


def confidence(probability: np.ndarray, predicted_ter: np.ndarray) -> np.ndarray:
    """Reported confidence in [0, 1] from P(best) and predicted TER (0-100)."""
    quality = 1.0 - np.clip(np.asarray(predicted_ter, dtype=np.float64), 0.0, 100.0) / 100.0
    return np.asarray(probability, dtype=np.float64) * quality
