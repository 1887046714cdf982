"""Segments and feature rows of a project as the recommender sees them (shared by train, recommend, evaluate).

Features are computed from the project's own TM and cached in the store's
feature table, keyed by feature-set version and TM fingerprint, so a re-run
does not recompute them. New vectors are handed back as
:class:`ProjectFeatures` and saved by the use case with its other writes,
after its last cancel check: a cancelled run leaves the store as it was.
Effort models also read black-box QE columns from the project's corpora and
dev post-edits (:func:`crossfit_qe` for the training rows, never cached since
they are cross-fitted; :func:`fit_extractor` with ``qe=True`` for new jobs).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np
from sklearn.model_selection import KFold

from tmtprime.errors import UnknownSystem, UsageError
from tmtprime.features.corpus import QECorpus
from tmtprime.features.bilingual_dictionary import pair_dictionary
from tmtprime.features.general_corpus import general_corpus
from tmtprime.features.pseudo_reference import installed_pseudo_engine
from tmtprime.features.extractor import CandidateFeatureExtractor, feature_key
from tmtprime.features.qe import QEFeatures
from tmtprime.features.tm_models import TMModels
from tmtprime.formats.model import Segment
from tmtprime.progress import Reporter
from tmtprime.recommend.dataset import CandidateRows, build_rows
from tmtprime.store import Store

BATCH = 2000
"""Segments per feature batch (one progress step)."""


@dataclass
class ProjectSegments:
    """Segments of a project as the store returns them, and their candidates' store ids in row order."""

    segments: list[Segment]
    candidate_ids: np.ndarray


@dataclass
class ProjectFeatures:
    """Feature rows of some segments, and the newly computed ones still to store."""

    X: np.ndarray
    set_name: str
    names: list[str]
    new_ids: np.ndarray
    new_rows: np.ndarray

    def save(self, store: Store) -> None:
        """Cache the newly computed vectors in the store (one transaction)."""
        if len(self.new_ids):
            store.features.define(self.set_name, self.names)
            store.features.save(self.set_name, zip((int(c) for c in self.new_ids), self.new_rows))


def load_segments(
    store: Store,
    *,
    role: str | None = None,
    document_ids: Sequence[int] | None = None,
    systems: Collection[str] | None = None,
    with_post_edits: bool = False,
) -> ProjectSegments:
    """Segments of one role or of some documents, each with at least one candidate (of ``systems`` only, if given);
    ``with_post_edits``: each candidate's post-editing records attached."""
    if systems is not None:
        known = {s.name for s in store.systems.list()}
        unknown = sorted(set(systems) - known)
        if unknown:
            raise UnknownSystem(unknown, known)
    segments = []
    scopes = [{"role": role}] if document_ids is None else [{"document_id": i} for i in document_ids]
    for seg in (s for scope in scopes for s in store.segments.iter(**scope)):
        if systems is not None:
            seg.candidates = [c for c in seg.candidates if c.system in systems]
        if seg.candidates:
            segments.append(seg)
    ids = np.array([c.id for s in segments for c in s.candidates], dtype=np.int64)
    if with_post_edits:
        records = store.post_edits.of([int(i) for i in ids])
        for c in (c for s in segments for c in s.candidates):
            c.post_edits = records.get(c.id, [])
    return ProjectSegments(segments, ids)


def fit_extractor(store: Store, *, qe: bool = False, n_jobs: int = 1, reporter: Reporter | None = None,
                  tm_models: TMModels | None = None) -> CandidateFeatureExtractor:
    """The feature extractor trained on the project's TM (LMs, IBM Model 1); without a TM, one whose
    TM-model features are absent (NaN, see :data:`~tmtprime.features.extractor.TM_MODEL_FEATURES`).

    ``qe``: with the black-box QE columns (:mod:`tmtprime.features.qe`) from everything the project
    has (:func:`qe_features`): for rows that are not the development data (see :func:`crossfit_qe`).
    ``tm_models``: already trained on the project's TM (``run`` trains them in another process meanwhile).
    """
    reporter = reporter or Reporter()
    n_units = store.tm.count()
    qe_part = qe_features(store, reporter=reporter) if qe else None
    if n_units == 0:
        return CandidateFeatureExtractor(n_jobs=n_jobs).fit(tm=None, qe=qe_part)
    if tm_models is not None:
        return CandidateFeatureExtractor(n_jobs=n_jobs).fit(tm=tm_models, qe=qe_part)
    pairs = list(reporter.track(store.tm.iter_pairs(), total=n_units, desc="reading TM", unit="unit"))
    return CandidateFeatureExtractor(n_jobs=n_jobs).fit(tm=TMModels().fit(pairs, reporter=reporter), qe=qe_part)


QE_FOLDS = 5
"""Parts of the development data for cross-fitting its QE corpus (:func:`crossfit_qe`)."""


def uses_qe(card: dict) -> bool:
    """Whether a stored model reads QE columns (its card names them)."""
    features = card.get("features", {})
    return any(n.startswith("qe_") for n in features.get("used") or features.get("names") or ())


def wants_qe(label: str, has_tm: bool) -> bool:
    """Training reads QE columns for effort labels (hter, time, effort) and where there is no TM; the
    software-localisation case (a TM, competing candidates, TER) keeps its TM features alone."""
    return label != "ter" or not has_tm


def dev_pairs(segments: Sequence[Segment]) -> list[tuple[str, str]]:
    """(source, post-edit) and (source, reference) pairs of development segments: in-domain bitext."""
    out = [(s.source, p.text) for s in segments for c in s.candidates for p in c.post_edits or () if p.text]
    return out + [(s.source, s.reference) for s in segments if s.reference]


def _qe(store: Store, pairs: list[tuple[str, str]], targets: list[str], reporter: Reporter | None = None) -> QEFeatures:
    project = store.project()
    corpus = QECorpus().fit(target=targets, pairs=pairs, reporter=reporter) if pairs or targets else None
    general = general_corpus(project.source_lang, project.target_lang)
    pseudo = installed_pseudo_engine(project.source_lang, project.target_lang)
    back = installed_pseudo_engine(project.target_lang, project.source_lang)
    dictionary = pair_dictionary(project.source_lang, project.target_lang)
    return QEFeatures(project.source_lang, project.target_lang, corpus, general=general, pseudo=pseudo, back=back,
                      dictionary=dictionary)


def _resources(store: Store) -> tuple[list[tuple[str, str]], list[str]]:
    """The TM's and corpora's pairs, and the corpora's target-language texts."""
    return list(resource_pairs(store, "tm")) + list(resource_pairs(store, "corpus")), list(resource_targets(store, "corpus"))


def qe_features(store: Store, *, reporter: Reporter | None = None) -> QEFeatures:
    """QE features from the TM, the corpora and the development data's post-edits and references."""
    pairs, targets = _resources(store)
    dev = load_segments(store, role="dev", with_post_edits=True)
    return _qe(store, pairs + dev_pairs(dev.segments), targets, reporter=reporter)


def crossfit_qe(store: Store, data: ProjectSegments, rows: CandidateRows, *, folds: int = QE_FOLDS,
                reporter: Reporter | None = None) -> CandidateRows:
    """``rows`` of the development data with QE columns appended, cross-fitted: each segment's columns
    come from a corpus without its own post-edits and reference (the TM, the corpora and the other
    ``folds`` - 1 parts of ``data``), so a model never trains on a row whose LM saw the answer.
    A group some part's corpus lacks is NaN in that part's rows."""
    reporter = reporter or Reporter()
    pairs, targets = _resources(store)
    n = len(data.segments)
    parts = list(KFold(folds, shuffle=True, random_state=0).split(np.arange(n))) if n >= folds else [(np.arange(0), np.arange(n))]
    offsets = np.cumsum([0] + [len(s.candidates) for s in data.segments])
    computed = []
    for fit_idx, out_idx in reporter.track(parts, desc="QE features (cross-fitted)", unit="part"):
        part = _qe(store, pairs + dev_pairs([data.segments[i] for i in fit_idx]), targets)
        out = [data.segments[i] for i in out_idx]
        values = part.transform([s.source for s in out for _ in s.candidates], [c.text for s in out for c in s.candidates])
        computed.append((np.concatenate([np.arange(offsets[i], offsets[i + 1]) for i in out_idx]), part.names, values))
    names = tuple(dict.fromkeys(name for _, part_names, _ in sorted(computed, key=lambda c: -len(c[1])) for name in part_names))
    Q = np.full((len(rows.X), len(names)), np.nan)
    for at, part_names, values in computed:
        Q[np.ix_(at, [names.index(name) for name in part_names])] = values
    return replace(rows, X=np.hstack([rows.X, Q]), feature_names=tuple(rows.feature_names) + names)


def resource_pairs(store: Store, resource: str = "tm") -> Iterator[tuple[str, str]]:
    """(source, target) pairs of a project resource: ``tm`` (the default) or ``corpus`` (the parallel corpora)."""
    if resource == "tm":
        return store.tm.iter_pairs()
    if resource == "corpus":
        return store.corpora.pairs()
    raise UsageError(f"unknown resource {resource!r} (expected 'tm' or 'corpus')")


def resource_targets(store: Store, resource: str = "tm") -> Iterator[str]:
    """Target-language sentences of a project resource: ``tm`` or ``corpus`` (monolingual and parallel corpora)."""
    if resource == "corpus":
        return store.corpora.targets()
    return (target for _source, target in resource_pairs(store, resource))


def feature_set_name(extractor: CandidateFeatureExtractor) -> str:
    return f"blackbox-v{extractor.version.replace(':', '-tm')}"


def cached_features(
    store: Store, extractor: CandidateFeatureExtractor, data: ProjectSegments, *, reporter: Reporter | None = None
) -> ProjectFeatures:
    """Feature rows of ``data``: stored vectors where present, the rest computed now (to be saved by the caller)."""
    reporter = reporter or Reporter()
    names = list(extractor.get_feature_names_out())
    set_name = feature_set_name(extractor)
    X = np.zeros((len(data.candidate_ids), len(names)))
    have = np.zeros(len(data.candidate_ids), dtype=bool)
    if store.features.exists(set_name):
        if list(store.features.get(set_name).feature_names) != names:
            store.features.define(set_name, names)  # raises the store's clear error
        ids, stored = store.features.load(set_name, [int(c) for c in data.candidate_ids])
        position = {int(c): i for i, c in enumerate(data.candidate_ids)}
        for cid, row in zip(ids, stored):
            X[position[int(cid)]] = row
            have[position[int(cid)]] = True
    # a segment's features depend on all its candidates: recompute whole segments
    offsets = np.cumsum([0] + [len(s.candidates) for s in data.segments])
    missing = [i for i in range(len(data.segments)) if not have[offsets[i] : offsets[i + 1]].all()]
    new_ids = np.zeros(0, dtype=np.int64)
    computed = np.zeros((0, len(names)))
    if missing:
        # segments with the same source and candidates have the same rows: each is computed once
        missing_at = np.array(missing)
        first, of = distinct_segments([data.segments[i] for i in missing])
        todo = [data.segments[i] for i in missing_at[first]]
        batches = [todo[i : i + BATCH] for i in range(0, len(todo), BATCH)]
        once = np.vstack([extractor.transform(batch) for batch in reporter.track(batches, desc="features", unit="batch")])
        sizes = np.diff(offsets)[missing_at]
        rows = spans(offsets[missing_at], sizes)
        computed = once[spans(np.concatenate(([0], np.cumsum(sizes[first])[:-1]))[of], sizes)]
        if len(rows) == len(X):  # nothing was stored: every row is new (no second copy of the matrix)
            X = computed
        else:
            X[rows] = computed
        new_ids = data.candidate_ids[rows]
    return ProjectFeatures(X, set_name, names, new_ids, computed)


def distinct_segments(segments: Sequence[Segment]) -> tuple[np.ndarray, np.ndarray]:
    """The first of each group of segments whose feature rows are equal (same source and candidates,
    :func:`~tmtprime.features.extractor.feature_key`), in order, and per segment the position of its group there."""
    groups: dict[tuple, int] = {}
    of = np.fromiter((groups.setdefault(feature_key(s), len(groups)) for s in segments), dtype=np.int64, count=len(segments))
    first = np.full(len(groups), len(segments), dtype=np.int64)
    np.minimum.at(first, of, np.arange(len(segments)))
    return first, of


def spans(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The ranges ``starts[k] .. starts[k] + lengths[k]`` one after another, as one index array."""
    return np.repeat(starts - (np.cumsum(lengths) - lengths), lengths) + np.arange(int(lengths.sum()))


def project_rows(
    store: Store,
    data: ProjectSegments,
    extractor: CandidateFeatureExtractor,
    *,
    with_ter: bool,
    n_jobs: int = 1,
    reporter: Reporter | None = None,
) -> tuple[CandidateRows, ProjectFeatures]:
    """The recommender's rows of ``data`` and the feature vectors behind them."""
    features = cached_features(store, extractor, data, reporter=reporter)
    if with_ter and reporter is not None:
        reporter.status("labels (TER against the references)")
    return build_rows(data.segments, extractor, with_ter=with_ter, X=features.X, n_jobs=n_jobs), features
