"""How the TM match's source differs from the new source.

A fuzzy score says how much differs; a post-editor's effort depends on what:
a changed number or placeholder is a trivial fix, a new content word needs a
translation, and a word deleted from the TM source leaves its translation in
the TM target to be found and removed. These features describe the word-level
edit script between the two sources and use the lexical model to ask whether
the TM target contains translations of the deleted words (text to remove) or
already contains translations of the inserted ones. The number of word edits
(Levenshtein over words, from the same edit script) per word of the TM target
and per word of the new source estimates the edits the TM target will need:
TER counts edits per reference word, while a fuzzy score is normalised by the
longer source only. In grouped cross-validation on the shared update data
these two columns moved the share of the oracle gap closed from 0.684 to 0.695.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein
from rapidfuzz.fuzz import ratio

from tmtprime.align.ibm1 import IBMModel1
from tmtprime.features.overlap import overlap_stats
from tmtprime.tokens import is_word, lower_tokens

DIFF_NAMES = (
    "tm_char_similarity",
    "tm_inserted_words",
    "tm_deleted_words",
    "tm_substituted_words",
    "tm_changed_share",
    "tm_changed_nonword_share",
    "tm_identical_ignoring_case",
    "tm_deleted_translation_mass",
    "tm_inserted_translation_mass",
    "tm_src_meteor_p",
    "tm_src_meteor_r",
    "tm_src_meteor_frag",
    "tm_src_meteor_score",
    "tm_edits_per_tm_target_word",
    "tm_edits_per_source_word",
)


@dataclass
class TMDiff:
    """The word-level edit script from a TM source to the new source."""

    values: list[float]
    """:data:`DIFF_NAMES` values except the two translation masses (filled in by :func:`add_masses`)."""
    deleted_words: list[str]
    inserted_words: list[str]
    tm_target: list[str]


def tm_diff(source: str, tm_source: str, new: list[str], tm_target: list[str]) -> TMDiff:
    """Compare one (new source, TM source) pair; lexical masses come later, in batch.

    ``new`` and ``tm_target`` are the :func:`lower_tokens` of the new source and
    of the TM target, which the extractor has already computed.
    """
    old = lower_tokens(tm_source)
    inserted: list[str] = []
    deleted: list[str] = []
    substituted = 0
    edits = 0
    for op in Levenshtein.opcodes(old, new):
        if op.tag == "equal":
            continue
        gone, came = old[op.src_start : op.src_end], new[op.dest_start : op.dest_end]
        deleted.extend(gone)
        inserted.extend(came)
        edits += max(len(gone), len(came))
        if op.tag == "replace":
            substituted += min(len(gone), len(came))
    ins_words = [w for w in inserted if is_word(w)]
    del_words = [w for w in deleted if is_word(w)]
    n_changed = len(inserted) + len(deleted)
    values = [
        ratio(source, tm_source) / 100.0,
        float(len(ins_words)),
        float(len(del_words)),
        float(substituted),
        n_changed / max(len(new) + len(old), 1),
        (n_changed - len(ins_words) - len(del_words)) / n_changed if n_changed else 0.0,
        float(source.lower() == tm_source.lower()),
        0.0,
        0.0,
        *overlap_stats(old, new),
        edits / max(len(tm_target), 1),
        edits / max(len(new), 1),
    ]
    return TMDiff(values, del_words, ins_words, tm_target)


def add_masses(diffs: list[TMDiff], lexicon: IBMModel1) -> None:
    """Fill in how much of the deleted / inserted words the TM targets translate (one batch lookup each)."""
    if not diffs:
        return
    targets = [d.tm_target for d in diffs]
    deleted = lexicon.translation_mass([d.deleted_words for d in diffs], targets)
    inserted = lexicon.translation_mass([d.inserted_words for d in diffs], targets)
    i_del, i_ins = DIFF_NAMES.index("tm_deleted_translation_mass"), DIFF_NAMES.index("tm_inserted_translation_mass")
    for d, a, b in zip(diffs, deleted, inserted):
        d.values[i_del], d.values[i_ins] = float(a), float(b)


_ALL_CHANGED = frozenset({"tm_changed_share", "tm_src_meteor_frag", "tm_edits_per_tm_target_word", "tm_edits_per_source_word"})
"""The :data:`DIFF_NAMES` that read 1 when nothing matches (everything changed); the others read 0."""


def no_tm_features() -> list[float]:
    """The :data:`DIFF_NAMES` values of a segment without a TM match: nothing matches."""
    return [1.0 if name in _ALL_CHANGED else 0.0 for name in DIFF_NAMES]
