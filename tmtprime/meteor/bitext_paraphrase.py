"""Contextual paraphrases derived from the evaluation bitext itself (seed 002, third paper).

The source text and the reference of a test set form a small parallel corpus.
Word-align it, extract phrase pairs, and the target phrases aligned to one
source phrase form an *equivalence set* (``question -> issue, matter``).
Each reference then yields extra references, each with a single element
replaced by another element of a set that contains it: no simultaneous
substitutions and no transitivity (only the sets holding the replaced
phrase are used). Closed-class words (the language's function-word list by
default) are excluded: a phrase made only of them neither forms nor joins a
set. Within a set, a phrase that is a contiguous part of another is dropped
as word accumulation (seed 003), which would otherwise duplicate words.

The extra references are in the scorer's token space (normalized,
lower-cased words joined by spaces): score hypotheses tokenized the same way
(:func:`score_with_references` does, for Meteor and for BLEU/TER via sacrebleu).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tmtprime.errors import InputError, ResourceError
from tmtprime.meteor.funcwords import scorer_tokens
from tmtprime.meteor.phrase_extract import align, extract_phrases
from tmtprime.meteor.pivot import has_punctuation, is_accumulation
from tmtprime.progress import Reporter

if TYPE_CHECKING:
    from tmtprime.meteor.scorer import Meteor


@dataclass(frozen=True)
class EquivalenceSet:
    """Target phrases aligned to one source phrase, most frequent first."""

    source: str
    phrases: tuple[str, ...]


def _open_class(phrase: str, closed: frozenset[str]) -> bool:
    return not has_punctuation(phrase) and not all(w in closed for w in phrase.split())


def equivalence_sets(
    sources: Sequence[str], references: Sequence[str], *, source_lang: str, lang: str,
    max_phrase_len: int = 3, min_count: int = 1,
    closed_source: frozenset[str] | None = None, closed_target: frozenset[str] | None = None,
    training_pairs: Sequence[tuple[str, str]] = (), reporter: Reporter | None = None,
) -> list[EquivalenceSet]:
    """The equivalence sets of an evaluation bitext (source line k translated by reference line k).

    ``training_pairs`` (e.g. the project's TM) only help the aligner: a few
    thousand sentences are little to estimate word translations from.
    ``closed_*`` default to the jar's function words of each language.
    ``min_count``: how often a phrase pair must be extracted to count.
    """
    from tmtprime.meteor.resources import function_words

    if len(sources) != len(references):
        raise InputError(f"{len(sources)} source lines but {len(references)} reference lines")
    reporter = reporter or Reporter()
    closed_source = function_words(source_lang) if closed_source is None else closed_source
    closed_target = function_words(lang) if closed_target is None else closed_target
    reporter.status("tokenizing")
    src = [scorer_tokens(s, source_lang) for s in sources]
    ref = [scorer_tokens(r, lang) for r in references]
    extra_src = [scorer_tokens(s, source_lang) for s, _ in training_pairs]
    extra_ref = [scorer_tokens(t, lang) for _, t in training_pairs]
    links = align(src + extra_src, ref + extra_ref, reporter=reporter)[: len(src)]
    counts: Counter = Counter()
    for s, r, a in zip(src, ref, links):
        counts.update(extract_phrases(s, r, a, max_phrase_len, extend_unaligned=False))
    by_source: dict[str, Counter] = defaultdict(Counter)
    for (f, e), c in counts.items():
        f_text, e_text = " ".join(f), " ".join(e)
        if c >= min_count and _open_class(f_text, closed_source) and _open_class(e_text, closed_target):
            by_source[f_text][e_text] += c
    sets = []
    for f_text, targets in sorted(by_source.items()):
        kept: list[str] = []
        for e_text, _ in sorted(targets.items(), key=lambda ec: (-ec[1], ec[0])):
            if not any(is_accumulation(e_text, k) for k in kept):
                kept.append(e_text)
        if len(kept) > 1:
            sets.append(EquivalenceSet(f_text, tuple(kept)))
    return sets


def _index(sets: Sequence[EquivalenceSet]) -> dict[tuple[str, ...], list[tuple[str, ...]]]:
    """phrase words -> the other phrases of every set containing it (no transitivity), first-seen order."""
    alternatives: dict[tuple[str, ...], dict[tuple[str, ...], None]] = defaultdict(dict)
    for s in sets:
        words = [tuple(p.split()) for p in s.phrases]
        for p in words:
            for q in words:
                if q != p:
                    alternatives[p][q] = None
    return {p: list(q) for p, q in alternatives.items()}


def expand_reference(reference: str, sets: Sequence[EquivalenceSet] | dict, lang: str, *, max_refs: int = 20) -> list[str]:
    """The reference (first) and its single-substitution variants, in the scorer's token space.

    ``sets`` may be the sets themselves or their prepared index (:func:`substitution_index`).
    """
    index = substitution_index(sets) if not isinstance(sets, dict) else sets
    words = scorer_tokens(reference, lang)
    longest = max((len(p) for p in index), default=0)
    out = {" ".join(words): None}
    for start in range(len(words)):
        for length in range(1, min(longest, len(words) - start) + 1):
            for alt in index.get(tuple(words[start : start + length]), ()):
                if len(out) >= max_refs:
                    return list(out)
                out.setdefault(" ".join([*words[:start], *alt, *words[start + length :]]), None)
    return list(out)


def substitution_index(sets: Sequence[EquivalenceSet]) -> dict[tuple[str, ...], list[tuple[str, ...]]]:
    """Prepared lookup for :func:`expand_reference` over many references."""
    return _index(sets)


def padded_streams(refs_per_segment: Sequence[Sequence[str]]) -> list[list[str]]:
    """Reference streams of equal length (sacrebleu's and ``-r N``'s layout), short lists padded with their first
    reference: a duplicate reference changes no Meteor, BLEU or TER score."""
    width = max(len(r) for r in refs_per_segment)
    return [[refs[k] if k < len(refs) else refs[0] for refs in refs_per_segment] for k in range(width)]


def score_with_references(
    hyps: Sequence[str], refs_per_segment: Sequence[Sequence[str]], lang: str, meteor: Meteor | None = None
) -> dict[str, float]:
    """Corpus Meteor, BLEU and TER (sacrebleu, no further tokenization) of hypotheses against the references
    (any number per segment), the hypotheses tokenized as the scorer does.

    ``meteor`` defaults to the language's modules with ``-norm``, without the
    paraphrase module unless the language's table is installed.
    """
    from sacrebleu.metrics import BLEU, TER

    if len(hyps) != len(refs_per_segment):
        raise InputError(f"{len(hyps)} hypotheses but references for {len(refs_per_segment)} segments")
    from tmtprime.meteor.scorer import Meteor

    tokenized = [" ".join(scorer_tokens(h, lang)) for h in hyps]
    streams = padded_streams(refs_per_segment)
    if meteor is None:
        meteor = Meteor(lang=lang, normalize=True)
        try:
            meteor.load()
        except ResourceError:  # no paraphrase table for the language
            meteor = Meteor(lang=lang, normalize=True, modules=[m for m in meteor.config.modules if m != "paraphrase"])
    return {
        "meteor": meteor.aggregate(meteor.score_each(tokenized, refs_per_segment)).score,
        "bleu": BLEU(tokenize="none").corpus_score(tokenized, streams).score,
        "ter": TER().corpus_score(tokenized, streams).score,
    }
