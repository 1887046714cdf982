"""Candidate rows: the feature matrix with what training and evaluation need about each row.

Built from interchange :class:`~tmtprime.formats.model.Segment` objects (the
store hands those out, the benchmarks read them from the shared TSVs), so the
recommender does not care where segments come from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tmtprime.features.extractor import CandidateFeatureExtractor
from tmtprime.formats.model import Segment
from tmtprime.recommend.grouping import grouped_input
from tmtprime.recommend.labels import best_labels, candidate_ter, segment_index


@dataclass
class CandidateRows:
    """One row per candidate of every segment (segment order, then candidate order)."""

    X: np.ndarray
    feature_names: tuple[str, ...]
    segments: np.ndarray
    """Segment number (0..n_segments-1) of each row."""
    groups: np.ndarray
    """Document of each row: cross-validation keeps a document's rows together."""
    systems: np.ndarray
    kinds: np.ndarray
    fuzzy: np.ndarray
    """The TM match's fuzzy score of each row's segment (best TM candidate; 0 without one)."""
    ter: np.ndarray | None = None
    """Each row's label, higher = more effort: TER against the reference, or the label trained on
    (:func:`~tmtprime.recommend.labels.candidate_labels`; development data only)."""

    @property
    def n_segments(self) -> int:
        return int(self.segments.max()) + 1 if len(self.segments) else 0

    @property
    def model_input(self) -> np.ndarray:
        """X for the recommender: segment number, TM flag, features (see :mod:`~tmtprime.recommend.grouping`)."""
        return grouped_input(self.X, self.segments, self.kinds)

    @property
    def labels(self) -> np.ndarray:
        if self.ter is None:
            raise ValueError("these rows have no references, hence no labels")
        return best_labels(self.ter, self.segments)

    def rows(self, keep: np.ndarray) -> CandidateRows:
        """The rows where ``keep`` (a boolean mask) holds, segment numbers unchanged."""
        return CandidateRows(
            X=self.X[keep], feature_names=self.feature_names, segments=self.segments[keep], groups=self.groups[keep],
            systems=self.systems[keep], kinds=self.kinds[keep], fuzzy=self.fuzzy[keep],
            ter=None if self.ter is None else self.ter[keep],
        )

    def subset(self, segment_numbers: np.ndarray) -> CandidateRows:
        """The rows of the given segments, renumbered 0..k-1 in the given order's sorted form."""
        keep = np.isin(self.segments, segment_numbers)
        old = self.segments[keep]
        _, renumbered = np.unique(old, return_inverse=True)
        return CandidateRows(
            X=self.X[keep],
            feature_names=self.feature_names,
            segments=renumbered.astype(np.int64),
            groups=self.groups[keep],
            systems=self.systems[keep],
            kinds=self.kinds[keep],
            fuzzy=self.fuzzy[keep],
            ter=None if self.ter is None else self.ter[keep],
        )


def document_of(segment: Segment, default: str = "") -> str:
    """The document a segment belongs to, for grouping: its ``doc_id`` attribute, else the
    stored document's name, else the given default."""
    return segment.attributes.get("doc_id") or segment.document or default


def build_rows(
    segments: Sequence[Segment],
    extractor: CandidateFeatureExtractor,
    *,
    with_ter: bool,
    X: np.ndarray | None = None,
    n_jobs: int = 1,
) -> CandidateRows:
    """Feature rows (computed now unless ``X`` is given, e.g. from the store's cache) and row metadata."""
    features = extractor.transform(segments) if X is None else X
    seg = segment_index(segments)
    fuzzy_of_segment = np.array(
        [max([c.fuzzy or 0.0 for c in s.candidates if c.kind == "tm"], default=0.0) for s in segments]
    )
    return CandidateRows(
        X=features,
        feature_names=tuple(extractor.get_feature_names_out()),
        segments=seg,
        groups=np.array([document_of(s) for s in segments for _ in s.candidates], dtype=object),
        systems=np.array([c.system for s in segments for c in s.candidates], dtype=object),
        kinds=np.array([c.kind for s in segments for c in s.candidates], dtype=object),
        fuzzy=fuzzy_of_segment[seg] if len(seg) else np.empty(0),
        ter=candidate_ter(segments, n_jobs=n_jobs) if with_ter else None,
    )
