"""Per-candidate feature vectors: black-box, system-independent, any number of candidates.

One row per candidate of every segment (in segment order, then candidate
order). Three groups of columns:

* ``seg_*`` describe the segment (the same for all its candidates): source
  length and how typical the source is of the TM (LM score, OOV rate), the
  best TM match's fuzzy score and how its source differs from the new source
  (including the word edits per TM target word), and how much the MT outputs
  agree with each other.
* ``cand_*`` describe one candidate: kind (TM or MT), fuzzy score, length
  ratios, target-LM score and share of its 2/3/4-grams the TM targets have
  (:mod:`~tmtprime.features.ngrams`), how much the targets of the TM entries
  nearest to the source use its words and word pairs
  (:mod:`~tmtprime.features.neighbours`), IBM Model 1 scores in both directions,
  copied (untranslated) source words and source-language words,
  mismatches of inline codes, punctuation and case with the source, agreement
  with the other candidates (mean/max over them, so the number and order of
  systems does not matter) and word edit rates to the TM match and the other
  candidates (:mod:`~tmtprime.features.editrate`, a TER stand-in).
* ``rel_*`` compare a candidate with the best value among its segment's
  candidates, which is what a per-candidate classifier needs to rank them.
* ``cand_repair_*`` (and ``cand_is_repair``) describe a repaired TM match
  (:mod:`~tmtprime.features.repair`; NaN for the other candidates).

Nothing depends on a system's name: any number of MT systems or TMs plugs in.

A project without a TM (MT-only quality estimation) fits with ``tm=None``: the
columns computed from the TM models (:data:`TM_MODEL_FEATURES`) are NaN there,
absent rather than made up; the models drop or fill them (see
:mod:`tmtprime.recommend.applicability`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from tmtprime.errors import ModelError
from tmtprime.features.editrate import EDIT_CANDIDATE_NAMES, candidate_edit_rates
from tmtprime.features.neighbours import NEIGHBOUR_NAMES
from tmtprime.features.ngrams import ORDERS as NGRAM_ORDERS
from tmtprime.features.overlap import STAT_NAMES, match_counts, stats_from_counts
from tmtprime.features.qe import QE_FEATURE_SET_VERSION, QEFeatures
from tmtprime.features.repair import REPAIR_FEATURE_SET_VERSION, REPAIR_NAMES, repair_key, repair_values
from tmtprime.features.tm_models import TMModels
from tmtprime.features.tmdiff import DIFF_NAMES, TMDiff, add_masses, no_tm_features, tm_diff
from tmtprime.tokens import CODE_PATTERNS, code_mismatches, inline_codes, is_word, lower_tokens, punctuation_counts
from tmtprime.formats.model import Segment
from tmtprime.parallel import run_batches, workers

FEATURE_SET_VERSION = "4"
"""Bumped whenever a feature's definition changes, so cached values are recomputed."""

SEGMENT_FEATURES = (
    "seg_src_tokens",
    "seg_src_word_share",
    "seg_src_codes",
    "seg_src_lm_logprob",
    "seg_src_lm_min",
    "seg_src_lm_oov",
    "seg_has_tm",
    "seg_best_fuzzy",
    *(f"seg_{n}" for n in DIFF_NAMES),
    "seg_mt_agreement",
)
_CANDIDATE_HEAD = (
    "cand_is_tm",
    "cand_fuzzy",
    "cand_fuzzy_below_best",
    "cand_tokens",
    "cand_len_ratio",
    "cand_char_ratio",
)
_CANDIDATE_MODELS = (
    "cand_lm_logprob",
    "cand_lm_min",
    "cand_lm_oov",
    "cand_ibm_fwd_logprob",
    "cand_ibm_fwd_src_coverage",
    "cand_ibm_fwd_tgt_coverage",
    "cand_ibm_rev_logprob",
    "cand_ibm_rev_cand_coverage",
    "cand_ibm_rev_src_coverage",
)
_CANDIDATE_TAIL = (
    "cand_copied_share",
    "cand_source_side_share",
    "cand_source_side_words",
    *(f"cand_code_mismatch_{c}" for c in CODE_PATTERNS),
    "cand_punct_mismatch",
    "cand_end_punct_mismatch",
    "cand_case_mismatch",
    *(f"cand_agree_mean_{s}" for s in STAT_NAMES),
    "cand_agree_max_score",
    "cand_identical_share",
    "cand_agree_tm_score",
)
_CANDIDATE_NGRAMS = tuple(f"cand_tm_{n}grams_seen" for n in NGRAM_ORDERS)
CANDIDATE_FEATURES = _CANDIDATE_HEAD + _CANDIDATE_MODELS + _CANDIDATE_TAIL + EDIT_CANDIDATE_NAMES + _CANDIDATE_NGRAMS + NEIGHBOUR_NAMES
RELATIVE_FEATURES = (
    "rel_lm_logprob",
    "rel_ibm_fwd_logprob",
    "rel_ibm_rev_logprob",
    "rel_ibm_fwd_src_coverage",
    "rel_agree_mean_score",
    "rel_len_ratio",
    "rel_code_mismatch",
    "rel_nb_word_support",
    "rel_nb_bigram_support",
)
FEATURE_NAMES = SEGMENT_FEATURES + CANDIDATE_FEATURES + RELATIVE_FEATURES + REPAIR_NAMES
TM_MODEL_FEATURES = (
    "seg_src_lm_logprob", "seg_src_lm_min", "seg_src_lm_oov", "seg_tm_deleted_translation_mass",
    "seg_tm_inserted_translation_mass", *_CANDIDATE_MODELS, "cand_copied_share", "cand_source_side_share",
    "cand_source_side_words", *_CANDIDATE_NGRAMS, *NEIGHBOUR_NAMES, "rel_lm_logprob", "rel_ibm_fwd_logprob",
    "rel_ibm_rev_logprob", "rel_ibm_fwd_src_coverage", "rel_nb_word_support", "rel_nb_bigram_support",
)
"""Columns that need models trained on a TM: NaN in a project without one."""
NO_TM = "none"
"""The TM fingerprint in :attr:`CandidateFeatureExtractor.version` of a project without a TM."""

# candidate columns (higher is better) whose value minus the segment's best is a rel_ column
_RELATIVE_OF = (
    "cand_lm_logprob",
    "cand_ibm_fwd_logprob",
    "cand_ibm_rev_logprob",
    "cand_ibm_fwd_src_coverage",
    "cand_agree_mean_score",
    "cand_nb_word_support",
    "cand_nb_bigram_support",
)
_END_PUNCT = ":.?!…;"
_BATCHES_PER_WORKER = 4
"""Few enough that shipping the TM models to the workers costs little, enough that a
worker slowed by other load leaves its last batches to the others."""


def _end_class(text: str) -> str:
    stripped = text.rstrip()
    if stripped.endswith("...") or stripped.endswith("…"):
        return "…"
    return stripped[-1] if stripped and stripped[-1] in _END_PUNCT else ""


def _first_letter_upper(text: str) -> int:
    for ch in text:
        if ch.isalpha():
            return int(ch.isupper())
    return -1


def _best_tm(segment: Segment) -> int | None:
    tms = [i for i, c in enumerate(segment.candidates) if c.kind == "tm" and c.text]
    if not tms:
        return None
    return max(tms, key=lambda i: segment.candidates[i].fuzzy or 0.0)


class CandidateFeatureExtractor(TransformerMixin, BaseEstimator):
    """Turns segments with candidates into a feature matrix (one row per candidate).

    ``fit(tm=pairs)`` trains the TM-derived models (LMs, IBM Model 1, n-grams,
    neighbours) on the project's TM, (source, target) pairs or a fitted
    :class:`TMModels`; ``transform(segments)`` returns the matrix, whose column
    names are :meth:`get_feature_names_out`. The segments are not learnt from,
    so ``fit_transform(segments, tm=pairs)`` is ``fit(tm=pairs).transform(segments)``.
    """

    def __init__(self, *, n_jobs: int = 1, batch_size: int = 2000, backend: str | None = None) -> None:
        self.n_jobs = n_jobs
        self.batch_size = batch_size
        self.backend = backend

    def fit(self, X=None, y=None, *, tm, qe: QEFeatures | None = None) -> CandidateFeatureExtractor:  # noqa: ARG002 - sklearn signature
        """Train the TM models on an iterable of (source, target) pairs, or reuse a fitted :class:`TMModels`;
        ``tm=None``: no TM (the :data:`TM_MODEL_FEATURES` are NaN).

        With ``qe``, its black-box QE columns (:mod:`tmtprime.features.qe`, from whatever corpus it was
        given) follow the columns above.
        """
        self.tm_models_ = tm if isinstance(tm, TMModels) or tm is None else TMModels().fit(tm)
        if self.tm_models_ is not None:
            self.tm_models_.check_fitted()
        self.qe_ = qe
        return self

    def _fitted_models(self) -> TMModels | None:
        if not hasattr(self, "tm_models_"):
            raise ModelError("the feature extractor is not fitted: call fit(tm=...) with the project's TM first")
        return self.tm_models_

    @property
    def version(self) -> str:
        """Identifies feature values: feature-set version plus the fingerprint of the TM used."""
        models = self._fitted_models()
        qe = getattr(self, "qe_", None)  # extractors saved before the QE hook have none
        with_qe = f"+qe{QE_FEATURE_SET_VERSION}-{qe.fingerprint}" if qe is not None else ""
        return (f"{FEATURE_SET_VERSION}r{REPAIR_FEATURE_SET_VERSION}:{models.fingerprint_ if models is not None else NO_TM}"
                f"{with_qe}")

    def get_feature_names_out(self, input_features=None) -> np.ndarray:  # noqa: ARG002 - sklearn signature
        qe = getattr(self, "qe_", None)
        return np.asarray(FEATURE_NAMES + (qe.names if qe is not None else ()), dtype=object)

    def _batch_size(self, n_segments: int) -> int:
        """``batch_size`` in this process; with workers, at most :data:`_BATCHES_PER_WORKER`
        batches each, because every batch ships the fitted TM models (tens of MB) to its
        worker (docs/experiments/recommender.md, "Feature batches")."""
        if self.n_jobs == 1:
            return self.batch_size
        return max(self.batch_size, -(-n_segments // (_BATCHES_PER_WORKER * workers(self.n_jobs))))

    def transform(self, segments: Sequence[Segment]) -> np.ndarray:
        models = self._fitted_models()
        for seg in segments:
            if not seg.candidates:
                raise ModelError(f"segment {seg.key!r} has no candidates to choose from")
        segments = list(segments)
        parts = run_batches(
            partial(_transform_batch, models),
            segments,
            n_jobs=self.n_jobs,
            batch_size=self._batch_size(len(segments)),
            backend=self.backend,
        )
        if not parts:
            return np.empty((0, len(self.get_feature_names_out())))
        X = np.vstack(parts)
        qe = getattr(self, "qe_", None)
        if qe is not None:  # QE hook: one row per candidate, as above
            X = np.hstack([X, qe.transform([s.source for s in segments for _ in s.candidates], [c.text for s in segments for c in s.candidates])])
        return X


def feature_key(segment: Segment) -> tuple:
    """What a segment's feature rows depend on: its source and its candidates in order.

    Segments with equal keys get equal rows, so a job computes each distinct one once
    (:func:`~tmtprime.workflows.project_data.cached_features`). A feature that reads any
    other field of a segment or candidate must add it here.
    """
    return (segment.source,
            *((c.kind, c.system, c.text, c.fuzzy, c.tm_source, c.origin, repair_key(c)) for c in segment.candidates))


def _pairwise_agreement(toks: list[list[str]]) -> list[list[tuple[float, float, float, float]]]:
    """stats[i][j]: overlap statistics of candidate i against candidate j (i != j)."""
    n = len(toks)
    stats: list[list[tuple[float, float, float, float]]] = [[(0.0, 0.0, 0.0, 0.0)] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            counts = match_counts(toks[i], toks[j])
            stats[i][j] = stats_from_counts(*counts, len(toks[i]), len(toks[j]))
            stats[j][i] = stats_from_counts(*counts, len(toks[j]), len(toks[i]))
    return stats


def _segment_values(seg: Segment, src: list[str], src_codes: dict, src_lm: np.ndarray, best: int | None, diff: list[float], stats) -> list[float]:
    mt = [i for i, c in enumerate(seg.candidates) if c.kind == "mt"]
    mt_pairs = [stats[i][j][3] for i in mt for j in mt if i != j]
    return [
        math.log1p(len(src)),
        sum(1 for t in src if is_word(t)) / max(len(src), 1),
        float(sum(src_codes.values())),
        *src_lm,
        float(best is not None),
        (seg.candidates[best].fuzzy or 0.0) / 100.0 if best is not None else 0.0,
        *diff,
        sum(mt_pairs) / len(mt_pairs) if mt_pairs else 0.0,
    ]


class _SourceFacts(NamedTuple):
    """What every candidate of a segment is compared with: computed once per segment."""

    words: set[str]
    codes: dict
    punct: dict
    end_class: str
    first_upper: int


def _source_facts(seg: Segment, src: list[str]) -> _SourceFacts:
    return _SourceFacts(set(src), inline_codes(seg.source), punctuation_counts(seg.source), _end_class(seg.source), _first_letter_upper(seg.source))


def _candidate_values(seg: Segment, k: int, ct: list[str], src: _SourceFacts, best: int | None, stats, models: TMModels | None) -> list[float]:
    """The surface and agreement columns of one candidate, in :data:`_CANDIDATE_OWN` order."""
    cand = seg.candidates[k]
    n = len(seg.candidates)
    is_tm = cand.kind == "tm"
    fuzzy = (cand.fuzzy or 0.0) / 100.0 if is_tm else 0.0
    best_fuzzy = (seg.candidates[best].fuzzy or 0.0) / 100.0 if best is not None else 0.0
    cand_punct = punctuation_counts(cand.text)
    words = [t for t in ct if is_word(t)]
    shared = [t for t in words if t in src.words]
    if models is None:
        copied = source_side = math.nan
    else:
        copied = sum(1 for t in shared if t not in models.target_lm_.vocab_)
        source_side = sum(1 for t in shared if models.source_side_word(t))
    others = [j for j in range(n) if j != k]
    if others:
        mean = [sum(column) / len(others) for column in zip(*(stats[k][j] for j in others))]
        max_score = max(stats[k][j][3] for j in others)
        identical = sum(1 for j in others if seg.candidates[j].text == cand.text) / len(others)
    else:
        mean, max_score, identical = [0.0] * len(STAT_NAMES), 0.0, 0.0
    agree_tm = (1.0 if k == best else stats[k][best][3]) if best is not None else 0.0
    return [
        float(is_tm),
        fuzzy,
        best_fuzzy - fuzzy if is_tm else 0.0,
        math.log1p(len(ct)),
        0.0,  # cand_len_ratio: filled in for the whole batch (needs the source length)
        math.log((len(cand.text) + 1) / (len(seg.source) + 1)),
        copied / max(len(words), 1),
        source_side / max(len(words), 1),
        float(source_side),
        *code_mismatches(src.codes, inline_codes(cand.text)),
        float(sum((src.punct[p] > 0) != (cand_punct[p] > 0) for p in src.punct)),
        float(src.end_class != _end_class(cand.text)),
        float(src.first_upper != _first_letter_upper(cand.text)),
        *mean,
        max_score,
        identical,
        agree_tm,
    ]


_CANDIDATE_OWN = _CANDIDATE_HEAD + _CANDIDATE_TAIL
"""The candidate columns computed per candidate in Python (the rest come from the LM/IBM1 batch calls)."""


def _transform_batch(models: TMModels | None, segments: Sequence[Segment]) -> np.ndarray:
    """Feature rows of a batch of segments (a module-level function so workers can run it)."""
    col = {name: i for i, name in enumerate(FEATURE_NAMES)}
    sizes = np.array([len(s.candidates) for s in segments])
    offsets = np.concatenate(([0], np.cumsum(sizes)))
    X = np.zeros((int(offsets[-1]), len(FEATURE_NAMES)))
    src_tokens = [lower_tokens(s.source) for s in segments]
    seg_of_row = np.repeat(np.arange(len(segments)), sizes)
    cand_tokens = [lower_tokens(c.text) for s in segments for c in s.candidates]
    row_src = [src_tokens[i] for i in seg_of_row]

    # batch model calls: LMs, IBM1 both ways, TM-diff lexical masses
    if models is not None:
        src_lm = models.source_lm_.score(src_tokens)
        X[:, col["cand_lm_logprob"] : col["cand_lm_oov"] + 1] = models.target_lm_.score(cand_tokens)
        X[:, col["cand_ibm_fwd_logprob"] : col["cand_ibm_fwd_tgt_coverage"] + 1] = models.forward_.score(row_src, cand_tokens)
        X[:, col["cand_ibm_rev_logprob"] : col["cand_ibm_rev_src_coverage"] + 1] = models.reverse_.score(cand_tokens, row_src)
    else:
        src_lm = np.full((len(segments), 3), np.nan)
    best_tm = [_best_tm(s) for s in segments]
    diffs: dict[int, TMDiff] = {
        i: tm_diff(s.source, s.candidates[b].tm_source or "", src_tokens[i], cand_tokens[int(offsets[i]) + b])
        for i, (s, b) in enumerate(zip(segments, best_tm))
        if b is not None and s.candidates[b].tm_source
    }
    if models is not None:
        add_masses(list(diffs.values()), models.forward_)
        X[:, col["cand_tm_2grams_seen"] : col["cand_tm_4grams_seen"] + 1] = models.target_ngrams_.coverage(cand_tokens)
        X[:, [col[name] for name in NEIGHBOUR_NAMES]] = models.neighbours_.support(src_tokens, cand_tokens, seg_of_row)

    own = [col[name] for name in _CANDIDATE_OWN]
    edit_cols = [col[name] for name in EDIT_CANDIDATE_NAMES]
    seg_cols = slice(0, len(SEGMENT_FEATURES))
    # the per-segment Python work collects rows; the matrix is written once per column group
    seg_rows: list[list[float]] = []
    edit_rows: list[list[float]] = []
    own_rows: list[list[float]] = []
    for s_idx, seg in enumerate(segments):
        start = int(offsets[s_idx])
        src = src_tokens[s_idx]
        toks = cand_tokens[start : start + len(seg.candidates)]
        facts = _source_facts(seg, src)
        best = best_tm[s_idx]
        stats = _pairwise_agreement(toks)
        diff = diffs[s_idx].values if s_idx in diffs else no_tm_features()
        seg_rows.append(_segment_values(seg, src, facts.codes, src_lm[s_idx], best, diff, stats))
        edit_rows.extend(candidate_edit_rates(toks, [c.kind == "mt" for c in seg.candidates], best))
        own_rows.extend(_candidate_values(seg, k, ct, facts, best, stats, models) for k, ct in enumerate(toks))
    X[:, seg_cols] = np.asarray(seg_rows)[seg_of_row]
    X[:, edit_cols] = edit_rows
    X[:, own] = own_rows

    # length ratio in tokens (needs the source length of the row's segment)
    src_len = np.array([len(t) for t in src_tokens])[seg_of_row]
    cand_len = np.array([len(t) for t in cand_tokens])
    X[:, col["cand_len_ratio"]] = np.log((cand_len + 1) / (src_len + 1))
    # relative columns: the candidate's value minus the best of its segment
    for cand_name in _RELATIVE_OF:
        v = X[:, col[cand_name]]
        X[:, col["rel_" + cand_name.removeprefix("cand_")]] = v - np.maximum.reduceat(v, offsets[:-1])[seg_of_row]
    ratio = np.abs(X[:, col["cand_len_ratio"]])
    X[:, col["rel_len_ratio"]] = ratio - np.minimum.reduceat(ratio, offsets[:-1])[seg_of_row]
    codes = X[:, col["cand_code_mismatch_printf"] : col["cand_code_mismatch_number"] + 1].sum(axis=1)
    X[:, col["rel_code_mismatch"]] = codes - np.minimum.reduceat(codes, offsets[:-1])[seg_of_row]
    if models is None:
        X[:, [col[name] for name in TM_MODEL_FEATURES]] = np.nan
    X[:, [col[name] for name in REPAIR_NAMES]] = [repair_values(c) for s in segments for c in s.candidates]
    return X
