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

Words (and stems) are compared the way the jar compares them: by Java's
``String.hashCode``, so the rare strings with equal hash codes match
(``le`` / ``n'`` is an exact match for the jar, and so for us; measured on
French gettext text, where it changes scores).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Protocol

from tmtprime.errors import ResourceError, UsageError

Match = tuple[int, int, int, int, int]
"""(hyp_start, hyp_len, ref_start, ref_len, stage)."""


class PhraseTable(Protocol):
    """What the paraphrase matcher needs: :class:`tmtprime.meteor.paraphrase.ParaphraseTable`.

    ``match_batch`` lists, per (hypothesis, reference) pair, every candidate
    ``(hyp_start, hyp_len, ref_start, ref_len, prob, direction, listing)``:
    one per direction in which the table lists the two phrases (the jar
    matches both ways and a pair listed both ways gives two candidates on the
    same spans); ``listing`` is the pair's rank among the paraphrases listed
    for its first phrase, in table order.
    """

    def match_batch(
        self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]]
    ) -> list[Sequence[tuple[int, int, int, int, float, int, int]]]: ...


Matcher = Callable[[Sequence[str], Sequence[str], int], list[Match]]


@lru_cache(maxsize=1 << 18)
def java_hash(text: str) -> int:
    """Java's ``String.hashCode`` (over UTF-16 code units, 32-bit wrap-around)."""
    h = 0
    if text.isascii() or all(ord(c) < 0x10000 for c in text):
        for c in text:
            h = (31 * h + ord(c)) & 0xFFFFFFFF
        return h
    units = text.encode("utf-16-le")
    for k in range(0, len(units), 2):
        h = (31 * h + (units[k] | units[k + 1] << 8)) & 0xFFFFFFFF
    return h


def exact_matches(hyp: Sequence[str], ref: Sequence[str], stage: int) -> list[Match]:
    """Tokens the jar considers identical (equal ``hashCode``)."""
    positions: dict[int, list[int]] = {}
    for j, word in enumerate(ref):
        positions.setdefault(java_hash(word), []).append(j)
    out: list[Match] = []
    for i, word in enumerate(hyp):
        for j in positions.get(java_hash(word), ()):
            out.append((i, 1, j, 1, stage))
    return out


def stem_matcher(stem: Callable[[str], str]) -> Matcher:
    """Different tokens with the same stem."""

    def match(hyp: Sequence[str], ref: Sequence[str], stage: int) -> list[Match]:
        positions: dict[int, list[int]] = {}
        for j, word in enumerate(ref):
            positions.setdefault(java_hash(stem(word)), []).append(j)
        out: list[Match] = []
        for i, word in enumerate(hyp):
            own = java_hash(word)
            for j in positions.get(java_hash(stem(word)), ()):
                if java_hash(ref[j]) != own:
                    out.append((i, 1, j, 1, stage))
        return out

    return match


def synonym_matcher(synsets: Callable[[str], frozenset[int]]) -> Matcher:
    """Different tokens that share a WordNet synset."""

    def match(hyp: Sequence[str], ref: Sequence[str], stage: int) -> list[Match]:
        # only the reference words with synsets (about half: not function words, numbers, punctuation) are
        # visited, and a hypothesis word sharing none of their synsets is skipped in one step
        ref_sets = [(j, word, theirs) for j, word in enumerate(ref) if (theirs := synsets(word))]
        anywhere = frozenset().union(*(theirs for _j, _word, theirs in ref_sets))
        out: list[Match] = []
        for i, word in enumerate(hyp):
            mine = synsets(word)
            if not mine or mine.isdisjoint(anywhere):
                continue
            for j, other, theirs in ref_sets:
                if other != word and not mine.isdisjoint(theirs):
                    out.append((i, 1, j, 1, stage))
        return out

    return match


def paraphrase_candidates(
    table: PhraseTable, pairs: Sequence[tuple[Sequence[str], Sequence[str]]], stage: int
) -> list[list[Match]]:
    """Paraphrase candidates of many segment pairs at once (the table lookup is vectorized).

    They come in the order the jar offers them to its search, which decides
    between phrases that tie: first those found from the reference phrase (the
    table lists ``ref phrase -> hyp phrase``), in the order the table lists
    that phrase's paraphrases, then by hypothesis position; then those found
    from the hypothesis phrase, by hypothesis position. So ``in any case`` /
    ``anyway`` keeps ``any case`` = ``anyway``: Meteor's English table lists
    ``anyway -> any case`` before ``anyway -> in any case`` (with the two
    listings swapped the jar keeps ``in any case``), while ``of a million`` /
    ``one million`` keeps ``a million`` = ``one million``, the only one found
    from the reference phrase.
    """
    return [
        [(m[0], m[1], m[2], m[3], stage) for m in sorted(found, key=_offer_order)]
        for found in table.match_batch(pairs)
    ]


def _offer_order(m: tuple[int, int, int, int, float, int, int]) -> tuple[int, int, int, int]:
    """Sort key of a paraphrase candidate: found from the reference phrase first, then as offered."""
    hs, _hl, _rs, rl, _prob, direction, listing = m
    if direction:
        return (0, rl, listing, hs)
    return (1, 0, 0, hs)


def build_matchers(
    modules: Sequence[str],
    lang: str,
    paraphrase_table: PhraseTable | Callable[[], PhraseTable] | None = None,
) -> list[Matcher | PhraseTable]:
    """One matcher per module, with the language's resources (errors worded as the jar's).

    The paraphrase module is represented by its table (matched in batches with
    :func:`paraphrase_candidates`); the others are per-pair functions.
    """
    from tmtprime.meteor import resources
    from tmtprime.meteor.languages import language_name

    out: list[Matcher | PhraseTable] = []
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
            out.append(table)
        else:
            raise UsageError(f"Unknown module ({module})")
    return out
