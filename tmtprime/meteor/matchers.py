"""The four Meteor matchers: they list every candidate match of a segment pair.

A candidate is a :data:`Match` ``(hyp_start, hyp_len, ref_start, ref_len,
stage)``; ``stage`` is the module's position in the module list (the jar's
statistics are per stage, so ``-m "stem exact"`` counts stem in stage 1).
What each matcher accepts, as observed on the jar:

* exact: identical tokens;
* stem: *different* tokens with identical Snowball stems (``-m stem`` alone
  never matches ``car``/``car``);
* synonym: different tokens whose WordNet synsets intersect
  (:meth:`SynonymDictionary.are_synonyms`);
* paraphrase: a hypothesis phrase and a reference phrase listed as
  paraphrases in the language's table.

Every matcher lists all candidates, including words another module already
matched; choosing among them is the aligner's job.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from tmtprime.errors import ResourceError, UsageError

Match = tuple[int, int, int, int, int]
"""(hyp_start, hyp_len, ref_start, ref_len, stage)."""


class PhraseTable(Protocol):
    """What the paraphrase matcher needs from a paraphrase table."""

    max_phrase_len: int

    def paraphrases(self, phrase: tuple[str, ...]) -> Sequence[tuple[tuple[str, ...], float]]: ...


Matcher = Callable[[Sequence[str], Sequence[str], int], list[Match]]


def exact_matches(hyp: Sequence[str], ref: Sequence[str], stage: int) -> list[Match]:
    """Identical tokens."""
    positions: dict[str, list[int]] = {}
    for j, word in enumerate(ref):
        positions.setdefault(word, []).append(j)
    out: list[Match] = []
    for i, word in enumerate(hyp):
        for j in positions.get(word, ()):
            out.append((i, 1, j, 1, stage))
    return out


def stem_matcher(stem: Callable[[str], str]) -> Matcher:
    """Different tokens with the same stem."""

    def match(hyp: Sequence[str], ref: Sequence[str], stage: int) -> list[Match]:
        positions: dict[str, list[int]] = {}
        for j, word in enumerate(ref):
            positions.setdefault(stem(word), []).append(j)
        out: list[Match] = []
        for i, word in enumerate(hyp):
            for j in positions.get(stem(word), ()):
                if ref[j] != word:
                    out.append((i, 1, j, 1, stage))
        return out

    return match


def synonym_matcher(synsets: Callable[[str], frozenset[int]]) -> Matcher:
    """Different tokens that share a WordNet synset."""

    def match(hyp: Sequence[str], ref: Sequence[str], stage: int) -> list[Match]:
        ref_sets = [synsets(w) for w in ref]
        out: list[Match] = []
        for i, word in enumerate(hyp):
            mine = synsets(word)
            if not mine:
                continue
            for j, theirs in enumerate(ref_sets):
                if theirs and ref[j] != word and not mine.isdisjoint(theirs):
                    out.append((i, 1, j, 1, stage))
        return out

    return match


def paraphrase_matcher(table: PhraseTable) -> Matcher:
    """Hypothesis phrases whose listed paraphrases occur in the reference."""

    def match(hyp: Sequence[str], ref: Sequence[str], stage: int) -> list[Match]:
        longest = table.max_phrase_len
        ref_phrases: dict[tuple[str, ...], list[int]] = {}
        for j in range(len(ref)):
            for n in range(1, min(longest, len(ref) - j) + 1):
                ref_phrases.setdefault(tuple(ref[j : j + n]), []).append(j)
        out: list[Match] = []
        for i in range(len(hyp)):
            for n in range(1, min(longest, len(hyp) - i) + 1):
                phrase = tuple(hyp[i : i + n])
                for other, _prob in table.paraphrases(phrase):
                    for j in ref_phrases.get(other, ()):
                        out.append((i, n, j, len(other), stage))
        return out

    return match


def build_matchers(
    modules: Sequence[str],
    lang: str,
    paraphrase_table: PhraseTable | Callable[[], PhraseTable] | None = None,
) -> list[Matcher]:
    """One matcher per module, with the language's resources (loaded lazily, errors as the jar's)."""
    from tmtprime.meteor import resources
    from tmtprime.meteor.languages import language_name

    out: list[Matcher] = []
    for module in modules:
        if module == "exact":
            out.append(exact_matches)
        elif module == "stem":
            out.append(stem_matcher(resources.stemmer(lang)))
        elif module == "synonym":
            if language_name(lang) != "english":
                raise ResourceError("Synonym dictionary could not be loaded: synonyms exist for English only")
            out.append(synonym_matcher(resources.synonyms().synsets))
        elif module == "paraphrase":
            table = paraphrase_table() if callable(paraphrase_table) else paraphrase_table
            if table is None:
                raise ResourceError(f"no paraphrase table for language {lang}")
            out.append(paraphrase_matcher(table))
        else:
            raise UsageError(f"Unknown module ({module})")
    return out
