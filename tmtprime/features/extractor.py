"""Per-candidate feature vectors: black-box, system-independent, any number of candidates.

One row per candidate of every segment (in segment order, then candidate
order). Three groups of columns:

* ``seg_*`` describe the segment (the same for all its candidates): source
  length and how typical the source is of the TM (LM score, OOV rate), the best
  TM match's fuzzy score and how its source differs from the new source, and
  how much the MT outputs agree with each other.
* ``cand_*`` describe one candidate: kind (TM or MT), fuzzy score, length
  ratios, target-LM score, IBM Model 1 scores in both directions, copied
  (untranslated) source words, mismatches of inline codes, punctuation and case
  with the source, and agreement with the other candidates (mean/max over
  them, so the number and order of systems does not matter).
* ``rel_*`` compare a candidate with the best value among its segment's
  candidates, which is what a per-candidate classifier needs to rank them.

Nothing depends on a system's name: any number of MT systems or TMs plugs in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial

import numpy as np

from tmtprime.errors import ModelError
from tmtprime.features.overlap import STAT_NAMES, match_counts, stats_from_counts
from tmtprime.features.tm_models import TMModels
from tmtprime.features.tmdiff import DIFF_NAMES, no_tm_features, tm_diff_features
from tmtprime.features.tokens import CODE_PATTERNS, code_mismatches, inline_codes, is_word, lower_tokens, punctuation_counts
from tmtprime.formats.model import Segment
from tmtprime.parallel import run_batches

FEATURE_SET_VERSION = "1"
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
CANDIDATE_FEATURES = (
    "cand_is_tm",
    "cand_fuzzy",
    "cand_fuzzy_below_best",
    "cand_tokens",
    "cand_len_ratio",
    "cand_char_ratio",
    "cand_lm_logprob",
    "cand_lm_min",
    "cand_lm_oov",
    "cand_ibm_fwd_logprob",
    "cand_ibm_fwd_src_coverage",
    "cand_ibm_fwd_tgt_coverage",
    "cand_ibm_rev_logprob",
    "cand_ibm_rev_cand_coverage",
    "cand_ibm_rev_src_coverage",
    "cand_copied_share",
    *(f"cand_code_mismatch_{c}" for c in CODE_PATTERNS),
    "cand_punct_mismatch",
    "cand_end_punct_mismatch",
    "cand_case_mismatch",
    *(f"cand_agree_mean_{s}" for s in STAT_NAMES),
    "cand_agree_max_score",
    "cand_identical_share",
    "cand_agree_tm_score",
)
RELATIVE_FEATURES = (
    "rel_lm_logprob",
    "rel_ibm_fwd_logprob",
    "rel_ibm_rev_logprob",
    "rel_ibm_fwd_src_coverage",
    "rel_agree_mean_score",
    "rel_len_ratio",
    "rel_code_mismatch",
)
FEATURE_NAMES = SEGMENT_FEATURES + CANDIDATE_FEATURES + RELATIVE_FEATURES

# candidate-feature column -> (relative column, "higher is better" sign); the
# relative value is the candidate's value minus the best in its segment.
_RELATIVE_OF = {
    "cand_lm_logprob": 1,
    "cand_ibm_fwd_logprob": 1,
    "cand_ibm_rev_logprob": 1,
    "cand_ibm_fwd_src_coverage": 1,
    "cand_agree_mean_score": 1,
}
_END_PUNCT = ":.?!…;"


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


class CandidateFeatureExtractor:
    """Turns segments with candidates into a feature matrix (one row per candidate).

    ``fit(tm_pairs)`` trains the TM-derived models (LMs, IBM Model 1) on the
    project's TM; ``transform(segments)`` returns the matrix; the column names
    are :meth:`get_feature_names_out`.
    """

    def __init__(self, *, n_jobs: int = 1, batch_size: int = 2000, backend: str | None = None) -> None:
        self.n_jobs = n_jobs
        self.batch_size = batch_size
        self.backend = backend
        self.tm_models_: TMModels | None = None

    def fit(self, tm_pairs, y=None) -> CandidateFeatureExtractor:  # noqa: ARG002 - sklearn signature
        """Train the TM models on an iterable of (source, target) pairs, or reuse a fitted :class:`TMModels`."""
        self.tm_models_ = tm_pairs if isinstance(tm_pairs, TMModels) else TMModels().fit(tm_pairs)
        self.tm_models_.check_fitted()
        return self

    @property
    def version(self) -> str:
        """Identifies feature values: feature-set version plus the fingerprint of the TM used."""
        if self.tm_models_ is None:
            raise ModelError("the feature extractor is not fitted on a TM")
        return f"{FEATURE_SET_VERSION}:{self.tm_models_.fingerprint_}"

    def get_feature_names_out(self, input_features=None) -> np.ndarray:  # noqa: ARG002 - sklearn signature
        return np.asarray(FEATURE_NAMES, dtype=object)

    def transform(self, segments: Sequence[Segment]) -> np.ndarray:
        if self.tm_models_ is None:
            raise ModelError("the feature extractor is not fitted: call fit() with the project's TM first")
        for seg in segments:
            if not seg.candidates:
                raise ModelError(f"segment {seg.key!r} has no candidates to choose from")
        parts = run_batches(
            partial(_transform_batch, self.tm_models_),
            list(segments),
            n_jobs=self.n_jobs,
            batch_size=self.batch_size,
            backend=self.backend,
        )
        if not parts:
            return np.empty((0, len(FEATURE_NAMES)))
        return np.vstack(parts)


def _transform_batch(models: TMModels, segments: Sequence[Segment]) -> np.ndarray:
    """Feature rows of a batch of segments (a module-level function so workers can run it)."""
    col = {name: i for i, name in enumerate(FEATURE_NAMES)}
    n_rows = sum(len(s.candidates) for s in segments)
    X = np.zeros((n_rows, len(FEATURE_NAMES)))
    src_tokens = [lower_tokens(s.source) for s in segments]
    seg_of_row = np.repeat(np.arange(len(segments)), [len(s.candidates) for s in segments])
    cand_texts = [c.text for s in segments for c in s.candidates]
    cand_tokens = [lower_tokens(t) for t in cand_texts]
    row_src = [src_tokens[i] for i in seg_of_row]

    src_lm = models.source_lm_.score(src_tokens)
    cand_lm = models.target_lm_.score(cand_tokens)
    fwd = models.forward_.score(row_src, cand_tokens)
    rev = models.reverse_.score(cand_tokens, row_src)
    tgt_vocab = models.target_lm_.vocab_

    X[:, col["cand_lm_logprob"]] = cand_lm[:, 0]
    X[:, col["cand_lm_min"]] = cand_lm[:, 1]
    X[:, col["cand_lm_oov"]] = cand_lm[:, 2]
    X[:, col["cand_ibm_fwd_logprob"] : col["cand_ibm_fwd_tgt_coverage"] + 1] = fwd
    X[:, col["cand_ibm_rev_logprob"] : col["cand_ibm_rev_src_coverage"] + 1] = rev

    row = 0
    for s_idx, seg in enumerate(segments):
        n = len(seg.candidates)
        rows = slice(row, row + n)
        src = src_tokens[s_idx]
        toks = cand_tokens[row : row + n]
        src_codes = inline_codes(seg.source)
        src_punct = punctuation_counts(seg.source)
        best = _best_tm(seg)
        best_fuzzy = (seg.candidates[best].fuzzy or 0.0) / 100.0 if best is not None else 0.0
        if best is not None and seg.candidates[best].tm_source:
            diff = tm_diff_features(seg.source, seg.candidates[best].tm_source, seg.candidates[best].text, models.forward_)
        else:
            diff = no_tm_features()
        seg_values = [
            math.log1p(len(src)),
            sum(1 for t in src if is_word(t)) / max(len(src), 1),
            float(sum(src_codes.values())),
            *src_lm[s_idx],
            float(best is not None),
            best_fuzzy,
            *diff,
        ]
        # pairwise agreement between the candidates of the segment
        stats = np.zeros((n, n, len(STAT_NAMES)))
        for i in range(n):
            for j in range(i + 1, n):
                counts = match_counts(toks[i], toks[j])
                stats[i, j] = stats_from_counts(*counts, len(toks[i]), len(toks[j]))
                stats[j, i] = stats_from_counts(*counts, len(toks[j]), len(toks[i]))
        mt = [i for i, c in enumerate(seg.candidates) if c.kind == "mt"]
        mt_pairs = [stats[i, j, 3] for i in mt for j in mt if i != j]
        seg_values.append(float(np.mean(mt_pairs)) if mt_pairs else 0.0)
        X[rows, : len(SEGMENT_FEATURES)] = seg_values

        src_words = set(src)
        for k, cand in enumerate(seg.candidates):
            r = row + k
            ct = toks[k]
            others = [j for j in range(n) if j != k]
            is_tm = cand.kind == "tm"
            cand_codes = inline_codes(cand.text)
            cand_punct = punctuation_counts(cand.text)
            words = [t for t in ct if is_word(t)]
            copied = sum(1 for t in words if t in src_words and t not in tgt_vocab)
            values = {
                "cand_is_tm": float(is_tm),
                "cand_fuzzy": (cand.fuzzy or 0.0) / 100.0 if is_tm else 0.0,
                "cand_fuzzy_below_best": best_fuzzy - (cand.fuzzy or 0.0) / 100.0 if is_tm else 0.0,
                "cand_tokens": math.log1p(len(ct)),
                "cand_len_ratio": math.log((len(ct) + 1) / (len(src) + 1)),
                "cand_char_ratio": math.log((len(cand.text) + 1) / (len(seg.source) + 1)),
                "cand_copied_share": copied / max(len(words), 1),
                "cand_punct_mismatch": float(sum((src_punct[p] > 0) != (cand_punct[p] > 0) for p in src_punct)),
                "cand_end_punct_mismatch": float(_end_class(seg.source) != _end_class(cand.text)),
                "cand_case_mismatch": float(_first_letter_upper(seg.source) != _first_letter_upper(cand.text)),
                "cand_identical_share": (sum(1 for j in others if seg.candidates[j].text == cand.text) / len(others)) if others else 0.0,
                "cand_agree_tm_score": (1.0 if k == best else float(stats[k, best, 3])) if best is not None else 0.0,
            }
            for name, value in zip((f"cand_code_mismatch_{c}" for c in CODE_PATTERNS), code_mismatches(src_codes, cand_codes)):
                values[name] = value
            if others:
                mean = stats[k, others].mean(axis=0)
                for s_i, s_name in enumerate(STAT_NAMES):
                    values[f"cand_agree_mean_{s_name}"] = float(mean[s_i])
                values["cand_agree_max_score"] = float(stats[k, others, 3].max())
            for name, value in values.items():
                X[r, col[name]] = value
        # relative columns: candidate value minus the segment's best
        for cand_name, sign in _RELATIVE_OF.items():
            v = X[rows, col[cand_name]] * sign
            X[rows, col["rel_" + cand_name.removeprefix("cand_")]] = v - v.max()
        ratio = np.abs(X[rows, col["cand_len_ratio"]])
        X[rows, col["rel_len_ratio"]] = ratio - ratio.min()
        codes = X[rows, col["cand_code_mismatch_printf"] : col["cand_code_mismatch_number"] + 1].sum(axis=1)
        X[rows, col["rel_code_mismatch"]] = codes - codes.min()
        row += n
    return X
