"""Band calibration: the distribution of a candidate's actual match score given its prediction.

A regressor's point prediction regresses to the mean: pricing each segment at
the rate of the band its predicted TER falls into puts too many segments in
the middle bands, and the total is biased whenever the rates are not linear
in the score (they never are: bands are steps). Instead, a candidate's
*expected* payable rate is the rate of every band weighted by how often
candidates with a similar prediction actually landed there.

:func:`fit_band_calibration` learns that from out-of-fold predictions on the
development data (predicted TER the model made for rows it was not trained
on, and their TER against the reference): per candidate kind (TM matches and
MT outputs err differently), the predictions are cut into quantile bins and
each bin keeps a histogram of the actual equivalent match (100 - TER, whole
percent 0..100). The histograms do not depend on a cost scheme, so the model
card keeps them once and any scheme's bands are priced from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tmtprime.cost.scheme import whole_match

CARD_KEY = "cost_calibration"
"""Where a model card keeps its band calibration."""
SCORES = 101
"""Whole equivalent-match percents 0..100."""


@dataclass(frozen=True)
class BandCalibration:
    """Per kind: predicted-TER bin edges and, per bin, counts of actual equivalent matches 0..100."""

    edges: Mapping[str, np.ndarray]
    """Inner edges of the predicted-TER bins (``len(counts) - 1`` values, increasing)."""
    counts: Mapping[str, np.ndarray]
    """``(n_bins, 101)`` counts of each actual whole equivalent match."""

    def distribution(self, kind: str, predicted_ter: np.ndarray) -> np.ndarray:
        """``(n, 101)``: probability of each actual equivalent match for candidates of ``kind``."""
        key = kind if kind in self.counts else next(iter(self.counts))
        counts = self.counts[key].astype(np.float64)
        probabilities = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1.0)
        return probabilities[np.searchsorted(self.edges[key], np.asarray(predicted_ter, dtype=np.float64), side="right")]

    def expected_payable(self, kind: str, predicted_ter: np.ndarray, payable_by_match: np.ndarray) -> np.ndarray:
        """Expected payable % of each candidate, given the payable % of every equivalent match 0..100."""
        return self.distribution(kind, predicted_ter) @ payable_by_match

    def to_dict(self) -> dict[str, Any]:
        """JSON form kept in the model card."""
        return {
            "method": "histogram of actual equivalent match (100 - TER) per quantile bin of out-of-fold predicted TER",
            "kinds": {
                k: {"edges": [round(float(e), 4) for e in self.edges[k]], "counts": self.counts[k].astype(int).tolist()}
                for k in self.counts
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BandCalibration:
        kinds = data["kinds"]
        edges = {k: np.asarray(v["edges"], dtype=np.float64) for k, v in kinds.items()}
        counts = {k: np.asarray(v["counts"], dtype=np.int64).reshape(-1, SCORES) for k, v in kinds.items()}
        for k in kinds:
            if len(edges[k]) != len(counts[k]) - 1:
                raise ValueError(f"calibration of kind {k!r}: {len(edges[k])} edges for {len(counts[k])} bins")
        return cls(edges, counts)

    @classmethod
    def from_card(cls, card: Mapping[str, Any]) -> BandCalibration | None:
        """The calibration a model card carries, or None (older cards, damaged entries)."""
        data = card.get(CARD_KEY)
        if not data:
            return None
        try:
            return cls.from_dict(data)
        except (KeyError, TypeError, ValueError):
            return None


def fit_band_calibration(
    predicted_ter: np.ndarray,
    actual_ter: np.ndarray,
    kinds: Sequence[str] | np.ndarray | None = None,
    *,
    min_per_bin: int = 150,
    max_bins: int = 20,
) -> BandCalibration:
    """Learn the calibration from out-of-fold predicted TER and the actual TER of the same candidates.

    Bins are quantiles of the predicted TER with at least ``min_per_bin``
    candidates each (at most ``max_bins``), so that every histogram rests on
    enough data; ``kinds`` (``tm``/``mt`` per row) gives one calibration per kind.
    """
    predicted_ter = np.asarray(predicted_ter, dtype=np.float64)
    actual = whole_match(100.0 - np.asarray(actual_ter, dtype=np.float64))
    if predicted_ter.shape != actual.shape:
        raise ValueError("predicted and actual TER must have one value per candidate each")
    kind_of = np.asarray(kinds, dtype=object) if kinds is not None else np.full(len(actual), "all", dtype=object)
    edges: dict[str, np.ndarray] = {}
    counts: dict[str, np.ndarray] = {}
    for kind in sorted(set(kind_of)):
        mask = kind_of == kind
        pred, act = predicted_ter[mask], actual[mask]
        n_bins = int(max(1, min(max_bins, len(pred) // max(min_per_bin, 1))))
        inner = np.unique(np.quantile(pred, np.linspace(0, 1, n_bins + 1)[1:-1])) if n_bins > 1 else np.empty(0)
        bins = np.searchsorted(inner, pred, side="right")
        table = np.zeros((len(inner) + 1, SCORES), dtype=np.int64)
        np.add.at(table, (bins, act), 1)
        edges[str(kind)], counts[str(kind)] = inner, table
    return BandCalibration(edges, counts)
