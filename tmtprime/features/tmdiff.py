"""How the TM match's source differs from the new source.

A fuzzy score says how much differs; a post-editor's effort depends on what:
a changed number or placeholder is a trivial fix, a new content word needs a
translation, and a word deleted from the TM source leaves its translation in
the TM target to be found and removed. These features describe the word-level
edit script between the two sources and use the lexical model to ask whether
the TM target contains translations of the deleted words (text to remove) or
already contains translations of the inserted ones.
"""

from __future__ import annotations

from rapidfuzz.distance import Levenshtein
from rapidfuzz.fuzz import ratio

from tmtprime.features.ibm1 import IBMModel1
from tmtprime.features.overlap import overlap_stats
from tmtprime.features.tokens import is_word, lower_tokens

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
)


def tm_diff_features(source: str, tm_source: str, tm_target: str, lexicon: IBMModel1 | None) -> list[float]:
    """The :data:`DIFF_NAMES` values for one (new source, TM source, TM target) triple."""
    new, old, tgt = lower_tokens(source), lower_tokens(tm_source), lower_tokens(tm_target)
    inserted: list[str] = []
    deleted: list[str] = []
    substituted = 0
    for op in Levenshtein.opcodes(old, new):
        if op.tag == "equal":
            continue
        gone, came = old[op.src_start : op.src_end], new[op.dest_start : op.dest_end]
        deleted.extend(gone)
        inserted.extend(came)
        if op.tag == "replace":
            substituted += min(len(gone), len(came))
    changed = inserted + deleted
    ins_words = [w for w in inserted if is_word(w)]
    del_words = [w for w in deleted if is_word(w)]
    n_changed = len(changed)
    del_mass = ins_mass = 0.0
    if lexicon is not None:
        del_mass = float(lexicon.best_translation_prob(del_words, tgt).sum())
        ins_mass = float(lexicon.best_translation_prob(ins_words, tgt).sum())
    return [
        ratio(source, tm_source) / 100.0,
        float(len(ins_words)),
        float(len(del_words)),
        float(substituted),
        n_changed / max(len(new) + len(old), 1),
        (n_changed - len(ins_words) - len(del_words)) / n_changed if n_changed else 0.0,
        float(source.lower() == tm_source.lower()),
        del_mass,
        ins_mass,
        *overlap_stats(old, new),
    ]


def no_tm_features() -> list[float]:
    """The :data:`DIFF_NAMES` values of a segment without a TM match: nothing matches."""
    return [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
