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
correlated with the pick's TER at r = -0.62 (update) and -0.44 (crossproject),
against -0.57 / -0.39 for probability x quality and -0.29 / -0.18 for the
probability alone. A second-stage regressor of the pick's TER (on the
out-of-fold predicted TERs, P(best), source length, fuzzy score) and averaging
with a gradient-boosted regressor did not do better under grouped
cross-validation (crossproject -0.35 to -0.42): with four documents, what it
learns from one catalog does not carry to another. The correlation is capped
by label noise more than by the model: TER of short strings reaches 500, and
against TER clipped at 100 the same confidence gives -0.48 on crossproject.
Measured with an SVR-only proxy of the model (the TER regressor alone, C 30,
gamma 0.25, grouped 5-fold; r = -0.617 / -0.437 for update / crossproject), no
monotone remapping of the predicted TER can lift crossproject near -0.50: the
best one, fitted in-sample by isotonic regression on the picks, reaches -0.455
(update -0.628); shifting each document's predictions to its true mean TER (an
oracle) only -0.441, so the shortfall is not a per-document offset. Other
models and features did no better in that proxy: a squared-loss kernel
regressor (Nystroem + ridge) -0.612 / -0.441, source-shape features (title case, final punctuation,
distinct candidates) -0.619 / -0.445, TER x source length as the target
-0.495 / -0.299, rows of the best candidates weighted x3 for the confidence
regressor -0.616 / -0.419, a linear length correction learnt on the other
documents -0.612 / -0.388; on the full model's out-of-fold predictions (-0.620 /
-0.437), moving the pick's predicted TER a quarter of the way towards the
runner-up's -0.604 / -0.439.
"""

from __future__ import annotations

import numpy as np


def confidence(predicted_ter: np.ndarray) -> np.ndarray:
    """Reported confidence in [0, 1] of picks with this predicted TER (0-100)."""
    return 1.0 - np.clip(np.asarray(predicted_ter, dtype=np.float64), 0.0, 100.0) / 100.0
