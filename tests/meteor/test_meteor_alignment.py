"""Matchers and the aligner on hand-made cases whose jar alignments are known.

Each case below was run through the Meteor 1.5 jar (``-writeAlignments``,
default beam 40); the expected alignments are its output, written as
(hyp index, ref index, module) word pairs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from tmtprime.meteor.aligner import align
from tmtprime.meteor.matchers import exact_matches, paraphrase_candidates, stem_matcher, synonym_matcher
from tmtprime.meteor.scorer import Meteor
from tmtprime.meteor.stats import segment_stats


class TinyTable:
    """A paraphrase table with the same interface as ParaphraseTable (both directions, one candidate per listing)."""

    def __init__(self, pairs: Sequence[tuple[str, str]]) -> None:
        self.pairs = [(tuple(a.split()), tuple(b.split())) for a, b in pairs]

    def match_batch(self, pairs):
        out = []
        for hyp, ref in pairs:
            found = []
            for listing, (a, b) in enumerate(self.pairs):
                # direction 0: "hyp phrase -> ref phrase" is listed; direction 1: "ref phrase -> hyp phrase"
                for direction, (hyp_side, ref_side) in enumerate(((a, b), (b, a))):
                    for i in range(len(hyp) - len(hyp_side) + 1):
                        if tuple(hyp[i : i + len(hyp_side)]) != hyp_side:
                            continue
                        for j in range(len(ref) - len(ref_side) + 1):
                            if tuple(ref[j : j + len(ref_side)]) == ref_side:
                                found.append((i, len(hyp_side), j, len(ref_side), 0.5, direction, listing))
            out.append(sorted(found, key=lambda m: (m[0], m[2], m[5], m[1], m[6])))  # as ParaphraseTable orders them
        return out


def _paraphrase_alignment(table, hyp: str, ref: str) -> list:
    """The alignment under ``-m "exact paraphrase"`` with ``table`` as the paraphrase table (``-a``)."""
    m = Meteor(lang="en", modules=("exact", "paraphrase"), normalize=False, paraphrase_table=TinyTable(table))
    return m.sentence_score(hyp, [ref]).alignment


def pairs_of(meteor: Meteor, hyp: str, ref: str) -> list[tuple[int, int, str]]:
    return sorted(meteor.sentence_score(hyp, [ref]).word_alignment())


EXACT_STEM = Meteor(lang="en", modules=("exact", "stem"), normalize=False)


def test_exact_lists_every_identical_pair() -> None:
    assert exact_matches("a b a".split(), "a a".split(), 0) == [(0, 1, 0, 1, 0), (0, 1, 1, 1, 0), (2, 1, 0, 1, 0), (2, 1, 1, 1, 0)]


def test_stem_matches_only_different_words_with_equal_stems() -> None:
    stem = stem_matcher(lambda w: w.rstrip("s"))
    assert stem("cars car".split(), "car cars".split(), 1) == [(0, 1, 0, 1, 1), (1, 1, 1, 1, 1)]


def test_synonyms_need_different_strings_and_a_shared_synset() -> None:
    sets = {"car": frozenset({1}), "automobile": frozenset({1, 2}), "dog": frozenset({3})}
    syn = synonym_matcher(lambda w: sets.get(w, frozenset()))
    assert syn("car dog".split(), "automobile car dog".split(), 2) == [(0, 1, 0, 1, 2)]


def test_paraphrases_are_found_both_ways_one_candidate_per_listing() -> None:
    table = TinyTable([("buy", "purchase"), ("purchase", "buy"), ("a b", "c")])  # buy/purchase listed both ways
    found = paraphrase_candidates(table, [("buy a b".split(), "purchase c".split())], 3)[0]
    assert found.count((0, 1, 0, 1, 3)) == 2  # listed both ways -> two candidates on the same spans
    assert (1, 2, 1, 1, 3) in found


@pytest.mark.parametrize(
    "hyp, ref, expected",
    [
        ("the cat sat", "the cat sat", [(0, 0, "exact"), (1, 1, "exact"), (2, 2, "exact")]),
        ("x cars", "x car", [(0, 0, "exact"), (1, 1, "stem")]),  # unambiguous stem: fixed
        ("cars", "car car", []),  # ambiguous stem opening a chunk of its own: dropped
        ("dogs dogs", "dog dog", []),
        ("x cars", "x car car", [(0, 0, "exact"), (1, 1, "stem")]),  # extends the chunk: kept
        ("cars y", "car car y", [(0, 1, "stem"), (1, 2, "exact")]),
        ("x car", "x cars car", [(0, 0, "exact"), (1, 2, "exact")]),  # exact beats a stem with fewer chunks
        ("x dog", "dog x dog", [(0, 1, "exact"), (1, 2, "exact")]),  # fewest chunks among exact choices
        ("a b c d", "d c b a a b c d", [(0, 4, "exact"), (1, 5, "exact"), (2, 6, "exact"), (3, 7, "exact")]),
        ("x y cars car", "x y car", [(0, 0, "exact"), (1, 1, "exact"), (3, 2, "exact")]),
        # diagonal detours: a word goes to its first off-diagonal place
        ("a", "a a", [(0, 1, "exact")]),
        ("a", "a b a", [(0, 2, "exact")]),
        ("x a", "y a a", [(1, 2, "exact")]),
        ("h h a", "r a r a", [(2, 1, "exact")]),  # first off-diagonal, not the last
        ("a", "b a a", [(0, 1, "exact")]),  # no diagonal: first place
        ("a a", "a", [(0, 0, "exact")]),  # the reference word has two candidates: no detour
        ("a b", "a b x a b", [(0, 3, "exact"), (1, 4, "exact")]),
        ("x a b", "y a b z a b", [(1, 4, "exact"), (2, 5, "exact")]),
        ("o d f q", "o d r d f", [(0, 0, "exact"), (1, 1, "exact"), (2, 4, "exact")]),  # a detour extending a chunk
        # ... but a diagonal run of two or more words stays where its next copy comes after another
        # placement of one of its words
        ("a b", "a b b a b", [(0, 0, "exact"), (1, 1, "exact")]),
        ("a b", "a b a x a b", [(0, 0, "exact"), (1, 1, "exact")]),
        ("x a b", "y a b b a b", [(1, 1, "exact"), (2, 2, "exact")]),
        ("a b c", "a b c x b a b c", [(0, 0, "exact"), (1, 1, "exact"), (2, 2, "exact")]),
        ("a b", "a b x a b b", [(0, 3, "exact"), (1, 4, "exact")]),  # the placement after the copy: moves
        ("a b z", "a b x z a b", [(0, 4, "exact"), (1, 5, "exact"), (2, 3, "exact")]),  # z is not in the run
        ("a x", "a c x a", [(0, 3, "exact"), (1, 2, "exact")]),  # one-word run: moves
        # earlier exact siblings: a later hypothesis word for the same reference word loses ties
        ("a b a", "b a b", [(0, 1, "exact"), (1, 2, "exact")]),  # not 1-0 2-1
        ("a b b", "a b a b", [(0, 0, "exact"), (1, 1, "exact"), (2, 3, "exact")]),
        # beam survivors keep their offer order and the first best path wins
        ("b b a a a b", "a b a", [(1, 1, "exact"), (2, 2, "exact"), (3, 0, "exact")]),
        ("c b a b a c", "a a b a b", [(1, 2, "exact"), (2, 3, "exact"), (3, 4, "exact"), (4, 0, "exact")]),
    ],
)
def test_alignments_match_the_jar(hyp: str, ref: str, expected) -> None:
    assert pairs_of(EXACT_STEM, hyp, ref) == expected


@pytest.mark.parametrize(
    "hyp, ref, expected",
    [
        # an exact word with an earlier placement farther from the diagonal keeps it rather
        # than move to a later one where a weak (stem) match would extend its chunk
        ("car x of car", "of y z of cars", [(2, 0, "exact")]),
        ("car x of car", "of y of cars", [(2, 0, "exact")]),
        ("car x x of car", "w of y z of cars", [(3, 1, "exact")]),
        ("of x y of car", "w w of cars cars", [(0, 2, "exact")]),  # same reference word, two hypothesis words
        ("x of y of car car", "w w w w of cars", [(1, 4, "exact")]),
        # the earlier placement is not farther: the extension wins as before
        ("car x of car", "w of y z of cars", [(2, 4, "exact"), (3, 5, "stem")]),
        ("car of car", "of y z of cars", [(1, 3, "exact"), (2, 4, "stem")]),
        # the farther placement is taken by another copy of the word, or one before the diagonal
        ("of x of car", "of of of cars cars", [(0, 0, "exact"), (2, 2, "exact"), (3, 3, "stem")]),
        ("x x of car", "y of of cars cars", [(2, 2, "exact"), (3, 3, "stem")]),
        ("x x x of car", "w w of of cars cars", [(3, 3, "exact"), (4, 4, "stem")]),
        # ... but not two before it
        ("x x x of car", "w of of of cars cars", [(3, 1, "exact")]),
        # the same reference word matched by the hypothesis word just before the opener does not count either
        ("of of car", "w of cars cars", [(1, 1, "exact"), (2, 2, "stem")]),
        ("of of car", "w w of cars cars", [(1, 2, "exact"), (2, 3, "stem")]),
        ("x of of car", "y w of cars cars", [(2, 2, "exact"), (3, 3, "stem")]),
        # ... while one two words before still does
        ("of y of car", "w w of cars cars", [(0, 2, "exact")]),
    ],
)
def test_weak_extensions_of_a_word_moved_nearer_the_diagonal_earn_nothing(hyp: str, ref: str, expected) -> None:
    assert pairs_of(EXACT_STEM, hyp, ref) == expected


@pytest.mark.parametrize(
    "hyp, ref, expected",
    [
        # an exact word moved to a later sibling loses to the earlier one where it would extend a
        # weak match that is not its word's first placement: no stem, the first comma
        (", walks ,", "walk walking ,", [(0, 2, "exact")]),
        (", walks ,", "walk x walking ,", [(0, 3, "exact")]),
        ("of walks of", "walk walking of", [(0, 2, "exact")]),
        # no earlier sibling, or the weak match is its word's first placement: the stem stays
        ("x walks ,", "walk walking ,", [(1, 1, "stem"), (2, 2, "exact")]),
        ("of car of car", "cars of", [(1, 0, "stem"), (2, 1, "exact")]),
    ],
)
def test_later_siblings_lose_to_earlier_ones_over_later_weak_placements(hyp: str, ref: str, expected) -> None:
    assert pairs_of(EXACT_STEM, hyp, ref) == expected


GERMAN_EXACT_STEM = Meteor(lang="de", modules=("exact", "stem"), normalize=False)


@pytest.mark.parametrize("last", ["unseren", "x"])
def test_later_siblings_are_pruned_below_weak_coverage(last: str) -> None:
    # WMT21 TED, shrunk: the jar finds the alignment with one chunk fewer at -x 40 even with the
    # ambiguous stem candidate unseren = uns
    hyp = f"denke , es sagt uns , dass es , , {last}"
    ref = "denke , dass es uns sagt , dass es"
    expected = [(0, 0), (1, 1), (2, 3), (3, 5), (4, 4), (5, 6), (6, 7), (7, 8)]
    assert [(h, r) for h, r, _kind in pairs_of(GERMAN_EXACT_STEM, hyp, ref)] == expected


@pytest.mark.parametrize(
    "beam, expected",
    [
        (3, [(0, 1, 1, 1, 0), (1, 1, 0, 1, 0)]),  # the one-chunk path is pruned
        (4, [(0, 1, 2, 1, 0), (1, 1, 3, 1, 0)]),  # survives only as a binary heap polls
    ],
)
def test_beam_survivors_are_those_a_binary_heap_polls(beam: int, expected) -> None:
    hyp, ref = "a b".split(), "b a a b".split()
    assert align(hyp, ref, exact_matches(hyp, ref, 0), {0}, beam) == expected


@pytest.mark.parametrize(
    "hyp, ref, beam, expected",
    [
        # while pruning, a chunk the walk can still extend is not charged yet: at beam 2
        # the one-chunk path 0-1 1-2 outranks the closed chunk b 1-0 and survives
        ("a b", "b a b a", 2, [(0, 1, 1, 1, 0), (1, 1, 2, 1, 0)]),
        # an ambiguous stem opening a chunk of its own is kept while the beam is small, dropped later
        ("cars", "car car", 1, [(0, 1, 0, 1, 1)]),
        ("cars", "car car", 2, []),
        ("cars cars", "car", 2, [(0, 1, 0, 1, 1)]),
        ("cars cars", "car", 3, []),
    ],
)
def test_open_chunks_are_not_charged_while_pruning(hyp: str, ref: str, beam: int, expected) -> None:
    h, r = hyp.split(), ref.split()
    candidates = EXACT_STEM.candidates([(h, r)])[0]
    assert align(h, r, candidates, EXACT_STEM._exact_stages, beam) == expected


@pytest.mark.parametrize(
    "lang, hyp, ref, expected",
    [
        # Spanish and German bench segments (Apertium / WMT21 TED), shrunk; at the default beam
        (
            "es",
            "filas serie filas son serie dato",
            "datos serie filas filas las series filas son datos",
            [(0, 2, "exact"), (1, 5, "stem"), (2, 6, "exact"), (3, 7, "exact"), (4, 1, "exact")],
        ),
        (
            "de",
            ", , einen anderen",
            ", schenken , hochzeiten , welche , nachdenkt , sind , einem einem anderen",
            [(0, 0, "exact"), (1, 2, "exact"), (2, 12, "stem"), (3, 13, "exact")],
        ),
    ],
)
def test_open_chunks_on_real_segments(lang: str, hyp: str, ref: str, expected) -> None:
    assert pairs_of(Meteor(lang=lang, modules=("exact", "stem"), normalize=False), hyp, ref) == expected


def test_diagonal_detours_apply_to_phrases_too() -> None:
    m = Meteor(lang="en", modules=("paraphrase",), normalize=False, paraphrase_table=TinyTable([("e", "f g")]))
    assert m.sentence_score("e", ["f g f g"]).alignment == [(0, 1, 2, 2, 0)]  # jar: e=f g@0,2
    assert m.sentence_score("x e", ["f g f g"]).alignment == [(1, 1, 0, 2, 0)]  # off the diagonal: first


def test_strong_phrase_matches_beat_weak_single_words() -> None:
    table = TinyTable([("purchased a", "bought an"), ("purchased", "bought"), ("bought", "purchased"),
                       ("a b e", "a b f")])  # fmt: skip
    m = Meteor(lang="en", modules=("exact", "paraphrase"), normalize=False, paraphrase_table=table)
    # a two-word paraphrase is kept even when ambiguous and alone (jar: first occurrence)
    assert m.sentence_score("purchased a", ["bought an z bought an"]).alignment == [(0, 2, 0, 2, 1)]
    # a single-word paraphrase listed both ways is two candidates: ambiguous, alone -> dropped
    assert m.sentence_score("purchased", ["bought"]).alignment == []
    # two exact matches win over one paraphrase covering more words
    assert [a[4] for a in m.sentence_score("a b e", ["a b f"]).alignment] == [0, 0]


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        # a one-word-to-phrase paraphrase loses to an exact match...
        ([("c", "a b")], "c", "c a b", [(0, 1, 0, 1, 0)]),
        ([("b", "d e")], "b", "d e b", [(0, 1, 2, 1, 0)]),
        # ... a phrase-to-phrase one beats it, and two one-to-phrase ones beat one exact match
        ([("c a", "b a")], "c a", "b a", [(0, 2, 0, 2, 1)]),
        ([("a", "c d"), ("d", "e e")], "a d x", "e c d e e", [(0, 1, 1, 2, 1), (1, 1, 3, 2, 1)]),
        # off the diagonal an exact match shadows a phrase starting where it starts...
        ([("a b c", "a d e")], "a b c", "x a d e", [(0, 1, 1, 1, 0)]),
        ([("a b c", "a d e")], "a b c z", "x a d e z", [(0, 3, 1, 3, 1), (3, 1, 4, 1, 0)]),  # unless it saves a chunk
        ([("a b c", "a d e")], "a b c", "a d e", [(0, 3, 0, 3, 1)]),  # on the diagonal the phrase wins
        ([("p", "q r"), ("p", "q r s")], "p", "x q r s", [(0, 1, 1, 2, 1)]),  # ... and a shorter phrase a longer one
        ([("p", "q r"), ("p", "q r s")], "p", "q r s", [(0, 1, 0, 3, 1)]),
        # ... and on the diagonal a solid phrase shadows single-word paraphrases starting where it starts
        ([("a b", "c b"), ("a", "c")], "a b", "c b", [(0, 2, 0, 2, 1)]),
        ([("a b", "c b"), ("a", "c")], "a b", "x c b", [(0, 1, 1, 1, 1), (1, 1, 2, 1, 0)]),
        ([("a b", "a c"), ("b", "c")], "a b", "a c", [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1)]),  # not exact ones
        # a phrase's strength is hl // 2 + rl // 2 halves, an exact match's 2:
        # 6 + 4 words count 5 halves and beat two exact matches, on the diagonal or off it...
        ([("a b c d e f", "p q e f")], "a b c d e f", "p q e f", [(0, 6, 0, 4, 1)]),
        ([("a b c d e f", "p q e f")], "x a b c d e f", "p q e f", [(1, 6, 0, 4, 1)]),
        ([("from the bottom of my heart", "with all my heart")], "from the bottom of my heart", "with all my heart",
         [(0, 6, 0, 4, 1)]),
        # off the diagonal a one-word-to-phrase paraphrase of four words outweighs those of two or three
        # (strength 2 halves against 1), while three and two words, or five and four, tie (the offer order decides)
        ([("p", "q r s"), ("p", "q r s t")], "p", "x q r s t", [(0, 1, 1, 4, 1)]),
        ([("p", "q r"), ("p", "q r s t")], "p", "x q r s t", [(0, 1, 1, 4, 1)]),
        ([("p", "q r s t"), ("p", "q r s t u")], "p", "x q r s t u", [(0, 1, 1, 4, 1)]),
        # a phrase tying with a shorter phrase plus an exact match wins (fewer matches)
        ([("as well as", "like"), ("as well as the", "like the")], "as well as the", "like the", [(0, 4, 0, 2, 1)]),
        ([("consists", "is made up"), ("consists of", "is made up of")], "consists of", "is made up of",
         [(0, 2, 0, 4, 1)]),
        ([("p q r", "s"), ("p q r t", "s t")], "p q r t", "s t", [(0, 4, 0, 2, 1)]),
        # ... while 5 + 5 words count 4 halves and lose to four exact matches
        ([("a b c d e", "a b x d e")], "a b c d e", "a b x d e",
         [(0, 1, 0, 1, 0), (1, 1, 1, 1, 0), (3, 1, 3, 1, 0), (4, 1, 4, 1, 0)]),
        ([("as well as for", "as well as to")], "as well as for", "as well as to",
         [(0, 1, 0, 1, 0), (1, 1, 1, 1, 0), (2, 1, 2, 1, 0)]),
        # a one-word paraphrase plus the exact match after it ties with the phrase merging them (exact matches
        # are not counted module by module): off the diagonal the one offered first wins, so the
        # listing direction decides (a phrase listed "ref -> hyp" is found from the reference phrase, first)
        ([("p", "a"), ("a t", "p t")], "x p t", "a t", [(1, 2, 0, 2, 1)]),
        ([("a t", "p t"), ("p", "a")], "p t", "y a t", [(0, 2, 1, 2, 1)]),
        ([("a", "p"), ("p t", "a t")], "x p t", "a t", [(1, 1, 0, 1, 1), (2, 1, 1, 1, 0)]),
        ([("a", "p"), ("a t", "p t")], "p t", "y a t", [(0, 1, 1, 1, 1), (1, 1, 2, 1, 0)]),
        ([("p", "a"), ("p t", "a t")], "p t", "y a t", [(0, 1, 1, 1, 1), (1, 1, 2, 1, 0)]),
        # ... while with the exact match first it is offered first and always wins the tie
        ([("p", "a"), ("t a", "t p")], "x t p", "t a", [(1, 1, 0, 1, 0), (2, 1, 1, 1, 1)]),
        ([("t a", "t p"), ("p", "a")], "t p", "y t a", [(0, 1, 1, 1, 0), (1, 1, 2, 1, 1)]),
        # a shorter sibling shadows a phrase only if it covers fewer reference words: ``a lot`` does not
        # shadow ``a lot of``, which ties with ``lot of`` and is offered first
        ([("a lot", "much"), ("a lot of", "much"), ("lot", "much"), ("lot of", "much"), ("much", "a lot")],
         "x y a lot of w", "z much w", [(2, 3, 1, 1, 1), (5, 1, 2, 1, 0)]),
        ([("a lot", "much"), ("a lot of", "much"), ("lot of", "much")], "x a lot of w", "much w",
         [(1, 3, 0, 1, 1), (4, 1, 1, 1, 0)]),
        ([("a lot", "much"), ("a lot of", "much"), ("lot of", "much")], "a lot of w", "z much w",
         [(0, 3, 1, 1, 1), (3, 1, 2, 1, 0)]),
        # tied phrases: those found from the reference phrase first, then by hypothesis position
        ([("b c", "d e"), ("d e", "b c"), ("a b c", "d e")], "a b c", "d e", [(1, 2, 0, 2, 1)]),
        ([("d e", "b c"), ("a b c", "d e")], "a b c", "d e", [(1, 2, 0, 2, 1)]),
        ([("b c", "d e"), ("a b c", "d e")], "a b c", "d e", [(0, 3, 0, 2, 1)]),
        # ... and those found from one reference phrase in the order the table lists its paraphrases
        ([("y", "b b2"), ("y", "a a2")], "a a2 z b b2", "y", [(3, 2, 0, 1, 1)]),
        ([("y", "a a2"), ("y", "b b2")], "a a2 z b b2", "y", [(0, 2, 0, 1, 1)]),
        ([("y", "a a2"), ("y", "b b2")], "b b2 z a a2", "y", [(3, 2, 0, 1, 1)]),
        ([("anyway", "any case"), ("anyway", "in any case"), ("in any case", "anyway")],
         "in any case", "anyway", [(1, 2, 0, 1, 1)]),
        ([("anyway", "in any case"), ("anyway", "any case"), ("in any case", "anyway")],
         "in any case", "anyway", [(0, 3, 0, 1, 1)]),
        # while those found from the hypothesis phrase go by hypothesis position whatever the listing
        ([("b b2", "y"), ("a a2", "y")], "a a2 z b b2", "y", [(0, 2, 0, 1, 1)]),
        # off the diagonal only a shorter sibling offered earlier shadows; a longer one offered first wins
        ([("p", "q r"), ("p", "q r s")], "p", "x q r s", [(0, 1, 1, 2, 1)]),
        ([("p", "q r s"), ("p", "q r")], "p", "x q r s", [(0, 1, 1, 3, 1)]),
        ([("q r s", "p"), ("p", "q r")], "p", "x q r s", [(0, 1, 1, 3, 1)]),
        ([("q r s", "p"), ("q r", "p")], "p", "x q r s", [(0, 1, 1, 2, 1)]),
        ([("i m u", "p"), ("p o", "i")], "p o", "n i m u", [(0, 1, 1, 3, 1)]),
        ([("p", "i m u"), ("p o", "i")], "p o", "n i m u", [(0, 1, 1, 3, 1)]),
        ([("p o", "i"), ("p", "i m u")], "p o", "n i m u", [(0, 1, 1, 3, 1)]),
        ([("i", "p o"), ("p", "i m u")], "p o", "n i m u", [(0, 2, 1, 1, 1)]),
        ([("i m u", "p"), ("i", "p o")], "p o", "n i m u", [(0, 2, 1, 1, 1)]),
        ([("consists", "is"), ("consists", "is made up"), ("consists of", "is"), ("is made up", "consists")],
         "consists of", "nation is made up", [(0, 1, 1, 3, 1)]),
        # an exact match off the diagonal shadows a phrase starting at its reference word around its hypothesis word
        ([("x y", "y z")], "x y", "y z", [(1, 1, 0, 1, 0)]),
        ([("y z", "x y")], "x y", "y z", [(1, 1, 0, 1, 0)]),
        ([("x y", "y z")], "w x y", "y z", [(2, 1, 0, 1, 0)]),
        ([("x y", "y z w")], "x y", "y z w", [(1, 1, 0, 1, 0)]),
        ([("x y q", "y z")], "x y q", "y z", [(1, 1, 0, 1, 0)]),
        ([("in china", "china has")], "in china", "china has", [(1, 1, 0, 1, 0)]),
        ([("x y", "y z"), ("x", "q")], "x y", "y z", [(1, 1, 0, 1, 0)]),
        ([("x y", "y z")], "x y", "y z x", [(0, 1, 2, 1, 0), (1, 1, 0, 1, 0)]),
        # ... not from the diagonal, nor where the phrase's first word has a weak candidate of its own
        ([("x y", "y z")], "x y", "w y z", [(0, 2, 1, 2, 1)]),
        ([("x y", "y z"), ("x", "z")], "x y", "y z", [(0, 2, 0, 2, 1)]),
        ([("x y", "y z"), ("x", "z"), ("z", "x")], "x y", "y z", [(0, 2, 0, 2, 1)]),
        ([("x y", "y z"), ("x", "w")], "x y", "y z w", [(0, 2, 0, 2, 1)]),
        ([("y z", "x y")], "y z", "x y", [(0, 2, 0, 2, 1)]),
    ],
)
def test_paraphrase_choices_match_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Minimal cases measured with the jar's Matcher (``-m "exact paraphrase"`` and the table as ``-a``)."""
    assert _paraphrase_alignment(table, hyp, ref) == expected


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        # a one-word paraphrase on the diagonal extending a chunk loses the tie with a phrase of its
        # hypothesis word placed further on in the reference (``have`` = ``am`` vs ``have to`` = ``forced to``)...
        ([("a", "b"), ("a t", "f t")], "x a t", "x b f t", [(0, 1, 0, 1, 0), (1, 2, 2, 2, 1)]),
        ([("a", "b"), ("a t", "f t")], "x a t q", "x b f t q", [(0, 1, 0, 1, 0), (1, 2, 2, 2, 1), (3, 1, 4, 1, 0)]),
        ([("b", "a"), ("f t", "a t")], "x a t", "x b f t", [(0, 1, 0, 1, 0), (1, 2, 2, 2, 1)]),
        # ... not off the diagonal
        ([("a", "b"), ("a t", "f t")], "y x a t", "x b f t", [(1, 1, 0, 1, 0), (2, 1, 1, 1, 1), (3, 1, 3, 1, 0)]),
        ([("a", "b"), ("a t", "f t")], "x a t", "z x b f t", [(0, 1, 1, 1, 0), (1, 1, 2, 1, 1), (2, 1, 4, 1, 0)]),
        # a one-word paraphrase offered after another candidate still free loses ties
        # (``era`` = ``period`` after ``time`` = ``period`` ties with ``soviet era`` = ``soviet period``)...
        ([("d", "c"), ("a b", "a d"), ("b", "d")], "a b c", "a d", [(0, 2, 0, 2, 1)]),
        ([("d", "c"), ("a b", "a d"), ("b", "d")], "a b e c", "a d", [(0, 2, 0, 2, 1)]),
        ([("a b", "a d"), ("b", "d"), ("c", "d"), ("d", "c")], "a b c", "a d", [(0, 2, 0, 2, 1)]),
        ([("a b", "a d"), ("d", "c0"), ("d", "c1"), ("d", "b")], "a b c0 c1", "a d", [(0, 2, 0, 2, 1)]),
        ([("w b", "w e"), ("b", "e"), ("p", "e")], "p w b", "i w e", [(1, 2, 1, 2, 1)]),
        ([("w b", "w e"), ("b", "e"), ("e", "p")], "w b p", "w e", [(0, 2, 0, 2, 1)]),
        ([("w b", "w e"), ("b", "e"), ("e", "p")], "q w b p", "i w e", [(1, 2, 1, 2, 1)]),
        # ... not when offered first (nor off the diagonal)
        ([("w b", "w e"), ("b", "e"), ("p", "e")], "w b p", "w e", [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1)]),
        ([("w b", "w e"), ("b", "e"), ("p", "e")], "q w b p", "i w e", [(1, 1, 1, 1, 0), (2, 1, 2, 1, 1)]),
        ([("a b", "a d"), ("d", "b"), ("d", "c")], "a b c", "a d", [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1)]),
        ([("a b", "a d"), ("d", "b"), ("d", "c")], "a b e c", "a d", [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1)]),
        ([("a b", "a d"), ("d", "b"), ("d", "c0"), ("d", "c1")], "a b c0 c1", "a d",
         [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1)]),
        ([("d", "c"), ("a b", "a d"), ("b", "d")], "c a b", "a d", [(1, 1, 0, 1, 0), (2, 1, 1, 1, 1)]),
        ([("a b", "a d"), ("d", "b"), ("d", "c")], "c a b", "a d", [(1, 1, 0, 1, 0), (2, 1, 1, 1, 1)]),
    ],
)
def test_weak_ties_with_phrases_match_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Cases as the jar's Matcher aligned them (``-m "exact paraphrase"``, the table as ``-a``)."""
    assert _paraphrase_alignment(table, hyp, ref) == expected


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        # a solid phrase on the diagonal shadows the stem match starting where it starts...
        ([("effort", "x"), ("efforts to", "effort to")], "efforts to", "effort to", [(0, 2, 0, 2, 2)]),
        ([("efforts to", "effort to"), ("x", "effort")], "efforts to x", "effort to", [(0, 2, 0, 2, 2)]),
        ([("efforts to", "effort to"), ("x", "effort")], "y efforts to x", "y effort to",
         [(0, 1, 0, 1, 0), (1, 2, 1, 2, 2)]),
        # ... unless a weak candidate of a later hypothesis word is offered before it at that reference word
        # (``effort`` -> ``x`` is found from the reference word, so offered first); then the stem plus the
        # exact match win the tie on stem matches
        ([("effort", "x"), ("efforts to", "effort to")], "efforts to x", "effort to",
         [(0, 1, 0, 1, 1), (1, 1, 1, 1, 0)]),
        ([("effort", "x"), ("efforts to", "effort to")], "y efforts to x", "y effort to",
         [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1), (2, 1, 2, 1, 0)]),
        # off the diagonal the stem and the exact match win anyway
        ([("effort", "x"), ("efforts to", "effort to")], "x efforts to", "effort to",
         [(1, 1, 0, 1, 1), (2, 1, 1, 1, 0)]),
        ([("efforts to", "effort to"), ("x", "effort")], "x efforts to", "effort to",
         [(1, 1, 0, 1, 1), (2, 1, 1, 1, 0)]),
    ],
)
def test_diagonal_phrase_shadow_matches_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Cases as the jar's Matcher aligned them (``-m "exact stem paraphrase"``, the table as ``-a``)."""
    m = Meteor(lang="en", modules=("exact", "stem", "paraphrase"), normalize=False, paraphrase_table=TinyTable(table))
    assert m.sentence_score(hyp, [ref]).alignment == expected


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        # ``b`` = ``r`` is ambiguous (``b`` = ``c`` too, where ``c`` = ``c`` is exact); extending the
        # chunk of the detour ``t`` 0-0 it earns nothing, so ``t`` goes to its other placement
        ([("b", "r"), ("b", "c")], "t b c", "t r i c t", [(0, 1, 4, 1, 0), (2, 1, 3, 1, 0)]),
        ([("b", "r"), ("b", "c")], "t b c", "t r i i c t", [(0, 1, 5, 1, 0), (2, 1, 4, 1, 0)]),
        ([("b", "r"), ("b", "c")], "t b x c", "t r i c t", [(0, 1, 4, 1, 0), (3, 1, 3, 1, 0)]),
        ([("b", "r"), ("b", "c")], "y t b c", "z t r i c t", [(1, 1, 5, 1, 0), (3, 1, 4, 1, 0)]),
        ([("c", "b"), ("b", "r")], "t b c", "t r i c t", [(0, 1, 4, 1, 0), (2, 1, 3, 1, 0)]),
        # ... not where the chunk goes on (strength), without the exact ``c``, without another placement of
        # ``t``, or without the second candidate of ``b``
        ([("b", "r"), ("b", "c")], "t b c", "t r c t", [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1), (2, 1, 2, 1, 0)]),
        ([("b", "r"), ("b", "c")], "t b", "t r c t", [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1)]),
        ([("b", "r"), ("b", "c")], "t b c", "t r i c", [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1), (2, 1, 3, 1, 0)]),
        ([("b", "r")], "t b c", "t r i c t", [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1), (2, 1, 3, 1, 0)]),
    ],
)
def test_ambiguous_weak_extensions_of_detours_match_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Cases as the jar's Matcher aligned them (``-m "exact paraphrase"``, the table as ``-a``)."""
    assert _paraphrase_alignment(table, hyp, ref) == expected


_AE = [("a b", "a e")]
_AE_C = [("a b", "a c")]
_ABD = [("a b d", "a c"), ("d", "c")]


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        # ``e`` 3-2 contests the phrase's ``e`` while ``e`` 3-5 extends ``n`` 2-4: the exact ``a``'s
        # shadow counts only below coverage, and the phrase wins on coverage
        (_AE, "a b n e", "v a e s n e", [(0, 2, 1, 2, 1), (2, 1, 4, 1, 0), (3, 1, 5, 1, 0)]),
        (_AE, "x a b n e", "a e s n e", [(1, 2, 0, 2, 1), (3, 1, 3, 1, 0), (4, 1, 4, 1, 0)]),
        (_AE, "a b n e", "v a e s n e a", [(0, 2, 1, 2, 1), (2, 1, 4, 1, 0), (3, 1, 5, 1, 0)]),
        (_AE + [("z", "a")], "a b n e z", "v a e s n e", [(0, 2, 1, 2, 1), (2, 1, 4, 1, 0), (3, 1, 5, 1, 0)]),
        # ... not without a chunk to extend, with the contester on the diagonal, with a strong candidate of
        # another hypothesis word at the phrase's reference word, or with another placement of ``a`` on the
        # diagonal or before the phrase
        (_AE, "a b", "v a e s e", [(0, 1, 1, 1, 0)]),
        (_AE, "a b n e", "n a e e s v", [(0, 1, 1, 1, 0), (2, 1, 0, 1, 0), (3, 1, 2, 1, 0)]),
        (_AE, "a b n e", "v w a e s n e", [(0, 1, 2, 1, 0), (2, 1, 5, 1, 0), (3, 1, 6, 1, 0)]),
        (_AE, "a b n e y a", "v a e s n e", [(0, 1, 1, 1, 0), (2, 1, 4, 1, 0), (3, 1, 5, 1, 0)]),
        (_AE, "a b n e", "a v a e s n e", [(0, 1, 2, 1, 0), (2, 1, 5, 1, 0), (3, 1, 6, 1, 0)]),
        (_AE, "n a b e", "s n a a e e v", [(0, 1, 1, 1, 0), (1, 1, 2, 1, 0), (3, 1, 4, 1, 0)]),
    ],
)
def test_contested_phrases_match_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Cases as the jar's Matcher aligned them (``-m "exact paraphrase"``, the table as ``-a``)."""
    assert _paraphrase_alignment(table, hyp, ref) == expected


def test_contested_phrases_on_real_text_match_the_jar() -> None:
    """WMT22 segment 413 shrunk, all English modules (jar-checked with ``Matcher -l en``): ``be`` 3-2 contests
    the phrase's ``be``, ``be`` 3-5 extends ``not`` 2-4."""
    m = Meteor(lang="en", normalize=False)
    assert m.sentence_score("may have not be", ["vaccine may be should not be"]).alignment == [
        (0, 2, 1, 2, 3), (2, 1, 4, 1, 0), (3, 1, 5, 1, 0)
    ]  # fmt: skip
    # a weak match extending the phrase's chunk: ``often`` = ``frequently`` (synonym and paraphrase)
    assert m.sentence_score("working days often", ["the working week frequently"]).alignment == [
        (0, 2, 1, 2, 3), (2, 1, 3, 1, 2)
    ]  # fmt: skip


def test_phrase_holding_a_weak_match_later_in_the_hypothesis_is_contested() -> None:
    """Jar facts (jar: ``-m "exact paraphrase"``, ``a b d`` -> ``a c`` and ``d`` -> ``c``)."""
    m = Meteor(lang="en", modules=("exact", "paraphrase"), normalize=False, paraphrase_table=TinyTable(_ABD))
    assert m.sentence_score("x a b d", ["a c"]).alignment == [(1, 3, 0, 2, 1)]
    assert m.sentence_score("x y a b d", ["z a c"]).alignment == [(2, 3, 1, 2, 1)]
    assert m.sentence_score("a b d", ["x a c"]).alignment == [(0, 1, 1, 1, 0)]  # hs < rs: the exact match
    assert m.sentence_score("a b d", ["x y a c"]).alignment == [(0, 1, 2, 1, 0)]
    real = Meteor(lang="en", normalize=False)  # WMT22 segment 2406 shrunk
    assert real.sentence_score("x will be opened", ["will open"]).alignment == [(1, 3, 0, 2, 3)]


@pytest.mark.parametrize(
    "hyp, ref, expected",
    [
        ("a b cars x", "y a c car car", [(0, 2, 1, 2, 2), (2, 1, 3, 1, 1)]),
        ("a b cars x", "car y a c car", [(0, 2, 2, 2, 2), (2, 1, 4, 1, 1)]),
        ("a b x", "y a c car car", [(0, 1, 1, 1, 0)]),
    ],
)
def test_phrase_extended_by_a_weak_match_is_contested(hyp: str, ref: str, expected) -> None:
    """A stem match extending the phrase's chunk (jar: ``-m "exact stem paraphrase"``, ``a b`` -> ``a c``)."""
    m = Meteor(lang="en", modules=("exact", "stem", "paraphrase"), normalize=False, paraphrase_table=TinyTable(_AE_C))
    assert m.sentence_score(hyp, [ref]).alignment == expected


@pytest.mark.parametrize(
    "modules", [("exact", "synonym"), ("exact", "stem", "synonym"), ("exact", "stem", "synonym", "paraphrase")]
)
def test_ambiguous_synonym_extending_a_detour_matches_the_jar(modules: tuple[str, ...]) -> None:
    """``back`` = ``rear`` and ``back`` = ``covered`` are WordNet synonyms; jar-checked with each module mix."""
    m = Meteor(lang="en", modules=modules, normalize=False)
    assert pairs_of(m, "the back covered", "the rear is covered the") == [(0, 4, "exact"), (2, 3, "exact")]
    assert pairs_of(m, "the back covered", "the rear is covered") == [(0, 0, "exact"), (1, 1, "synonym"), (2, 3, "exact")]


def test_weak_pair_from_two_modules_extending_a_detour_matches_the_jar() -> None:
    """``cars`` = ``car`` is both a stem and a synonym match; jar-checked with ``exact stem synonym``."""
    m = Meteor(lang="en", modules=("exact", "stem", "synonym"), normalize=False)
    assert pairs_of(m, "the cars x", "the car y the") == [(0, 3, "exact")]
    assert pairs_of(m, "the cars", "the car the") == [(0, 2, "exact")]
    # another placement of ``cars``: the jar keeps the detour with the stem
    assert pairs_of(m, "the cars", "the car car the") == [(0, 0, "exact"), (1, 1, "stem")]
    # one module only: nothing is ambiguous
    assert pairs_of(EXACT_STEM, "the cars", "the car the") == [(0, 0, "exact"), (1, 1, "stem")]


def test_one_to_one_candidates_are_fixed_and_each_word_is_used_once() -> None:
    cands = [(0, 1, 1, 1, 0), (1, 1, 0, 1, 0), (1, 1, 2, 1, 0)]
    got = align(["a", "b"], ["b", "a", "b"], cands, {0})
    assert (0, 1, 1, 1, 0) in got
    used_h = [h for h, *_ in got]
    used_r = [m[2] for m in got]
    assert len(set(used_h)) == len(used_h) and len(set(used_r)) == len(used_r)


def _chunks(matches: list[tuple[int, int, int, int, int]], hyp_len: int = 6, ref_len: int = 6) -> float:
    """The chunk count the scorer's statistics give an alignment (stage 0 of 4)."""
    rows = np.array(matches, dtype=np.int64).reshape(-1, 5)
    out = segment_stats(
        np.zeros(hyp_len, np.int64), np.array([0, hyp_len]), np.zeros(ref_len, np.int64), np.array([0, ref_len]),
        rows, np.array([0, len(rows)]), 4,
    )
    return float(out[0, 4 + 4 * 4])


def test_chunks_count_runs_contiguous_in_both_sentences() -> None:
    assert _chunks([(0, 1, 0, 1, 0), (1, 1, 1, 1, 0), (2, 1, 5, 1, 0)]) == 2
    assert _chunks([(0, 2, 3, 1, 3), (2, 1, 4, 1, 0)]) == 1
    assert _chunks([]) == 0


def test_long_and_repetitive_segments_finish() -> None:
    m = Meteor(lang="en", modules=("exact", "stem"), normalize=False)
    hyp = " ".join(["the"] * 200)
    ref = " ".join(["the"] * 150 + ["thes"] * 50)
    score = m.sentence_score(hyp, [ref])
    assert 0.0 < score.score <= 1.0
    long_hyp = " ".join(f"w{i % 97}" for i in range(500))
    long_ref = " ".join(f"w{(i * 7) % 97}" for i in range(500))
    assert m.sentence_score(long_hyp, [long_ref]).stats.test_length == 500


@pytest.mark.parametrize(
    "table, expected",
    [
        ([("p", "q r"), ("p", "q r s"), ("q r s", "p")], [(0, 1, 1, 3, 1)]),
        ([("q r s", "p"), ("p", "q r"), ("p", "q r s")], [(0, 1, 1, 3, 1)]),
        ([("p", "q r"), ("p", "q r s")], [(0, 1, 1, 2, 1)]),  # one copy, offered after ``q r``
    ],
)
def test_paraphrase_listed_both_ways_is_shadowed_only_where_first_offered(table, expected) -> None:
    """Jar facts (jar: ``-m "exact paraphrase"``, the table as ``-a``): ``p`` = ``q r s`` found first from the
    reference phrase is not shadowed by ``p`` = ``q r`` offered before its second copy."""
    assert _paraphrase_alignment(table, "p", "x q r s") == expected


def test_paraphrase_listed_both_ways_on_real_text_matches_the_jar() -> None:
    """WMT22 segment 811 shrunk, all English modules (jar-checked with ``Matcher -l en``)."""
    m = Meteor(lang="en", normalize=False)
    assert m.sentence_score("x besides", ["in addition to"]).alignment == [(1, 1, 0, 3, 3)]
    assert m.sentence_score("besides", ["x in addition to"]).alignment == [(0, 1, 1, 3, 3)]


_AE_ZB = [("a b", "a e"), ("z", "e"), ("b", "e")]
_AC_D = [("a b", "a c"), ("d", "c")]


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        # ``z`` = ``e`` (before the phrase, farther from the diagonal) contests it: the phrase wins, also over
        # ``a`` = ``a`` plus ``b`` = ``e`` (offered after ``z`` = ``e``)
        (_AE_ZB, "z a b", "y w a e", [(1, 2, 2, 2, 1)]),
        (_AE_ZB, "z x a b", "y a e", [(2, 2, 1, 2, 1)]),
        (_AE_ZB, "q a b", "y w a e", [(1, 1, 2, 1, 0), (2, 1, 3, 1, 1)]),  # no contester
        (_AE_ZB, "z a b", "z y w a e", [(0, 1, 0, 1, 0), (1, 1, 3, 1, 0), (2, 1, 4, 1, 1)]),  # ``z`` placed before
        # a contester nearer the diagonal than the phrase does not count
        (_AC_D, "d x a b", "a c", [(2, 1, 0, 1, 0)]),
        (_AC_D, "d a b", "a c", [(1, 2, 0, 2, 1)]),
        (_AC_D, "d x y z a b", "y y a c", [(2, 1, 0, 1, 0), (4, 2, 2, 2, 1)]),
        (_AC_D, "d x y z a b", "y a c", [(2, 1, 0, 1, 0), (4, 1, 1, 1, 0)]),
        # as far from the diagonal: below coverage, so a split of the same coverage wins
        (_AC_D + [("b", "c")], "d a b", "a c", [(1, 1, 0, 1, 0), (2, 1, 1, 1, 1)]),
        (_AC_D + [("b", "c")], "d x a b", "y y y a c", [(2, 2, 3, 2, 1)]),
    ],
)
def test_phrases_contested_from_before_match_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Cases as the jar's Matcher aligned them (``-m "exact paraphrase"``, the table as ``-a``)."""
    assert _paraphrase_alignment(table, hyp, ref) == expected


def test_phrases_contested_from_before_on_real_text_match_the_jar() -> None:
    """WMT22 segments 1568 and 2911 shrunk, all English modules (jar-checked with ``Matcher -l en``); and a stem
    split offered before the contester keeps its tie (``-m "exact stem paraphrase"``, crafted table)."""
    m = Meteor(lang="en", normalize=False)
    assert m.sentence_score("its the will become", ["gazeta that it will be"]).alignment == [(2, 2, 3, 2, 3)]
    assert m.sentence_score("make will happen work", ["the work will be"]).alignment == [
        (1, 2, 2, 2, 3), (3, 1, 1, 1, 0)
    ]  # fmt: skip
    table = TinyTable([("a cars", "a car"), ("z", "car")])
    stems = Meteor(lang="en", modules=("exact", "stem", "paraphrase"), normalize=False, paraphrase_table=table)
    assert stems.sentence_score("z a cars", ["y w a car"]).alignment == [(1, 1, 2, 1, 0), (2, 1, 3, 1, 1)]


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        ([("a b", "a e"), ("z", "e")], "a b q z", "y a e", [(0, 2, 1, 2, 1)]),  # as far: above a single exact match
        ([("a b", "a e"), ("z", "e")], "a b q w z", "y a e", [(0, 2, 1, 2, 1)]),  # farther
        ([("a b", "a e"), ("z", "e")], "a b z", "y a e", [(0, 1, 1, 1, 0)]),  # on the diagonal: no contest
        (_AE_ZB, "a b q w z", "y a e", [(0, 1, 1, 1, 0), (1, 1, 2, 1, 1)]),  # ``b`` = ``e`` offered first: split
    ],
)
def test_phrases_contested_from_after_match_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Jar facts (jar: ``-m "exact paraphrase"``, the table as ``-a``)."""
    assert _paraphrase_alignment(table, hyp, ref) == expected


def test_phrase_contested_from_after_on_real_text_matches_the_jar() -> None:
    """WMT22 segment 412 shrunk, all English modules (jar-checked with ``Matcher -l en``): ``time`` = ``period``
    4-2 is farther from the diagonal than ``soviet era`` 0-1, 3-2 is as far."""
    m = Meteor(lang="en", normalize=False)
    assert m.sentence_score('soviet era the " time', ["the soviet period"]).alignment == [
        (0, 2, 1, 2, 3), (2, 1, 0, 1, 0)
    ]  # fmt: skip
    assert m.sentence_score("soviet era the time", ["the soviet period"]).alignment == [
        (0, 1, 1, 1, 0), (1, 1, 2, 1, 3), (2, 1, 0, 1, 0)
    ]  # fmt: skip


_AB_T = [("a b", "x"), ("a b troops", "x")]


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        # ``troops`` = ``troop`` listed both ways (two candidates): the longer phrase wins the tie
        (_AB_T + [("troops", "troop"), ("troop", "troops")], "q a b troops", "x v troop", [(1, 3, 0, 1, 1)]),
        (_AB_T + [("troops", "troop"), ("troop", "troops")], "q a b troops", "x v w u troop", [(1, 3, 0, 1, 1)]),
        # proposed once, on the diagonal, or before the phrase: the shorter one (offered first)
        (_AB_T + [("troops", "troop")], "q a b troops", "x v troop", [(1, 2, 0, 1, 1)]),
        (_AB_T + [("troops", "troop"), ("troop", "troops")], "a b troops", "x v troop", [(0, 2, 0, 1, 1)]),
        (_AB_T + [("troops", "troop"), ("troop", "troops")], "q a b troops", "troop v x", [(1, 2, 2, 1, 1)]),
    ],
)
def test_longer_phrase_absorbing_a_doubly_proposed_word_matches_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Jar facts (jar: ``-m "exact paraphrase"``, the table as ``-a``)."""
    assert _paraphrase_alignment(table, hyp, ref) == expected


def test_longer_phrase_absorbing_a_doubly_proposed_word_on_real_text_matches_the_jar() -> None:
    """WMT22 segment 1150 shrunk, all English modules (``troops`` = ``troop`` is a stem, synonym and paraphrase
    match; jar-checked with ``Matcher -l en``)."""
    m = Meteor(lang="en", normalize=False)
    assert m.sentence_score("the of russian troops", ["russia 's troop"]).alignment == [(1, 3, 0, 1, 3)]
    assert m.sentence_score("of russian troops", ["russia 's troop"]).alignment == [(0, 2, 0, 1, 3)]


_AB_AC = [("a b", "a c")]


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        # the diagonal ``a`` has another copy and a phrase starting with it: the other copy alone
        (_AB_AC, "a b", "a c x a", [(0, 1, 3, 1, 0)]),
        (_AB_AC, "a b", "a c x x a", [(0, 1, 4, 1, 0)]),
        (_AB_AC, "a b z", "a c x a z", [(0, 1, 3, 1, 0), (2, 1, 4, 1, 0)]),
        (_AB_AC, "a b", "a c b a", [(0, 1, 3, 1, 0), (1, 1, 2, 1, 0)]),
        (_AB_AC + [("b", "c")], "a b", "a c x a", [(0, 1, 3, 1, 0)]),
        (_AB_AC + [("b", "c")], "a b", "a c x a c", [(0, 1, 3, 1, 0), (1, 1, 4, 1, 1)]),
        # an earlier copy counts the same way
        (_AB_AC, "z w a b", "a q a c", [(2, 1, 0, 1, 0)]),
        (_AB_AC + [("b", "c")], "z a b", "a a c", [(1, 1, 0, 1, 0)]),
        # no other copy, off the diagonal, or the phrase's reference word matched from outside it: kept
        (_AB_AC + [("b", "c")], "a b", "a c", [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1)]),
        (_AB_AC + [("b", "c")], "a b", "y a c x a", [(0, 1, 1, 1, 0), (1, 1, 2, 1, 1)]),
        (_AB_AC + [("b", "c")], "a b b", "a c x a", [(0, 1, 0, 1, 0), (1, 1, 1, 1, 1)]),
    ],
)
def test_diagonal_start_with_another_copy_matches_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Jar facts (jar: ``-m "exact paraphrase"``, the table as ``-a``)."""
    assert sorted(_paraphrase_alignment(table, hyp, ref)) == expected


def test_diagonal_start_with_another_copy_on_real_text_matches_the_jar() -> None:
    """WMT22 segment 430 and a shrink of it, all English modules (``to give`` = ``to grant`` is a paraphrase,
    ``give`` = ``grant`` a synonym and paraphrase match; jar-checked with ``Matcher -l en``)."""
    m = Meteor(lang="en", normalize=False)
    assert m.sentence_score("to give", ["to grant x to"]).alignment == [(0, 1, 3, 1, 0)]
    hyp, ref = "mintsifra wants to give writers residences", "mintsifry intends to grant residences to writers"
    assert sorted(m.sentence_score(hyp, [ref]).alignment) == [(2, 1, 5, 1, 0), (4, 1, 6, 1, 0), (5, 1, 4, 1, 0)]


_B_C_BOTH_WAYS = [("b", "c"), ("c", "b")]


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        # on or below the diagonal, ``a`` free farther away (before, or either side on the diagonal): pair dropped
        (_B_C_BOTH_WAYS, "x b a", "a c a", [(2, 1, 0, 1, 0)]),
        (_B_C_BOTH_WAYS, "z b a", "a c a", [(2, 1, 0, 1, 0)]),
        (_B_C_BOTH_WAYS, "b a", "c a a", [(1, 1, 2, 1, 0)]),
        (_B_C_BOTH_WAYS, "y x b a", "a c a", [(3, 1, 0, 1, 0)]),
        (_B_C_BOTH_WAYS, "z y x b a", "a q c a", [(4, 1, 0, 1, 0)]),
        # kept: listed once, above the diagonal, the other placement not farther, after the pair off the
        # diagonal, no other placement, or the chunk goes on
        ([("b", "c")], "x b a", "a c a", [(1, 1, 1, 1, 1), (2, 1, 2, 1, 0)]),
        (_B_C_BOTH_WAYS, "b a", "a c a", [(0, 1, 1, 1, 1), (1, 1, 2, 1, 0)]),
        (_B_C_BOTH_WAYS, "x b a", "a y c a", [(1, 1, 2, 1, 1), (2, 1, 3, 1, 0)]),
        (_B_C_BOTH_WAYS, "x b a", "c a a", [(1, 1, 0, 1, 1), (2, 1, 1, 1, 0)]),
        (_B_C_BOTH_WAYS, "x b a", "c a y a", [(1, 1, 0, 1, 1), (2, 1, 1, 1, 0)]),
        (_B_C_BOTH_WAYS, "y x b a", "q c a x x x a", [(1, 1, 3, 1, 0), (2, 1, 1, 1, 1), (3, 1, 2, 1, 0)]),
        (_B_C_BOTH_WAYS, "z b a", "y c a", [(1, 1, 1, 1, 1), (2, 1, 2, 1, 0)]),
        (_B_C_BOTH_WAYS, "x b a w", "a c a w", [(1, 1, 1, 1, 1), (2, 1, 2, 1, 0), (3, 1, 3, 1, 0)]),
    ],
)
def test_doubled_pair_given_up_for_a_free_farther_placement_matches_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Jar facts (jar: ``-m "exact paraphrase"``, the table as ``-a``; the same at ``-x`` 4, 40 and 100)."""
    assert sorted(_paraphrase_alignment(table, hyp, ref)) == expected


def test_doubled_pair_given_up_on_real_text_matches_the_jar() -> None:
    """WMT22 segment 136 shrunk, all English modules (``sliding`` = ``slipping`` is a synonym and a paraphrase
    match; jar-checked with ``Matcher -l en``); with ``exact synonym`` only the jar keeps the synonym."""
    m = Meteor(lang="en", normalize=False)
    assert m.sentence_score("suppress sliding and", ["and slipping and"]).alignment == [(2, 1, 0, 1, 0)]
    assert sorted(m.sentence_score("y x sliding and", ["and slipping and"]).alignment) == [(3, 1, 0, 1, 0)]
    assert sorted(m.sentence_score("x sliding and", ["and y slipping and"]).alignment) == [
        (1, 1, 2, 1, 2), (2, 1, 3, 1, 0)
    ]  # fmt: skip
    synonyms = Meteor(lang="en", modules=("exact", "synonym"), normalize=False)
    assert sorted(synonyms.sentence_score("suppress sliding and", ["and slipping and"]).alignment) == [
        (1, 1, 1, 1, 1), (2, 1, 2, 1, 0)
    ]  # fmt: skip


@pytest.mark.parametrize(
    "hyp, ref, expected",
    [
        (
            "it would seem that almost all girls dream of princesses in",
            "it would seem that almost every little girl dreams of a princess in",
            [(0, 1, 0, 1, 0), (1, 1, 1, 1, 0), (2, 1, 2, 1, 0), (3, 1, 3, 1, 0), (4, 2, 4, 2, 3), (6, 1, 7, 1, 1),
             (7, 1, 8, 1, 1), (8, 1, 9, 1, 0), (9, 1, 11, 1, 1), (10, 1, 12, 1, 0)],
        ),
        (
            "india has already in called for the",
            "the indian had back in calls for in",
            [(0, 1, 1, 1, 3), (1, 1, 2, 1, 2), (2, 1, 3, 2, 3), (3, 1, 7, 1, 0), (4, 1, 5, 1, 1), (5, 1, 6, 1, 0),
             (6, 1, 0, 1, 0)],
        ),
    ],
)  # fmt: skip
def test_doubled_pair_opening_a_chunk_survives_pruning_on_real_text(hyp: str, ref: str, expected) -> None:
    """WMT22 segments 2517 and 2563 shrunk, all English modules (``princesses`` = ``princess`` 9-11 and
    ``called`` = ``calls`` 4-5 are stem and synonym matches); the jar keeps the pair at every beam from 1 to 200
    (``Matcher -l en -x``), and a search that charges its chunk while pruning drops it at beam 40."""
    m = Meteor(lang="en", normalize=False)
    assert sorted(m.sentence_score(hyp, [ref]).alignment) == expected


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        (_B_C_BOTH_WAYS, "x a b", "a a c", [(1, 1, 0, 1, 0)]),
        (_B_C_BOTH_WAYS, "a b", "a c a", [(0, 1, 2, 1, 0)]),
        (_B_C_BOTH_WAYS, "x a b", "y a c a", [(1, 1, 3, 1, 0)]),
        ([("b", "c")], "x a b", "a a c", [(1, 1, 1, 1, 0), (2, 1, 2, 1, 1)]),  # listed once: fixed
        (_B_C_BOTH_WAYS, "y x a b", "q a c a", [(2, 1, 1, 1, 0), (3, 1, 2, 1, 1)]),  # no detour
    ],
)
def test_pair_listed_both_ways_extending_a_detour_earns_nothing(table, hyp: str, ref: str, expected) -> None:
    """Jar facts (jar: ``-m "exact paraphrase"``, the
    table as ``-a``, beams 40 and 100)."""
    assert sorted(_paraphrase_alignment(table, hyp, ref)) == expected


_W_N = [("w", "h b"), ("n", "h b o")]  # found from the hypothesis words: offered by hypothesis position
_W_N_REF = [("h b", "w"), ("h b o", "n")]  # found from the reference phrases: offered in the table's order


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        # the shorter paraphrase, offered first and off the diagonal, shadows the longer one at its reference word
        (_W_N, "p w n", "h b o", [(1, 1, 0, 2, 1)]),
        (_W_N, "p q w n", "h b o", [(2, 1, 0, 2, 1)]),
        (_W_N, "p w q n", "h b o", [(1, 1, 0, 2, 1)]),
        (_W_N, "w p q n", "x y z h b o", [(0, 1, 3, 2, 1)]),
        (_W_N, "p w n", "x y h b o", [(1, 1, 2, 2, 1)]),
        (_W_N_REF, "p n w", "h b o", [(2, 1, 0, 2, 1)]),
        (_W_N_REF, "n w", "h b o", [(1, 1, 0, 2, 1)]),
        # the shorter one on the diagonal, or offered after the longer one: the longer one wins on coverage
        (_W_N, "w n", "h b o", [(1, 1, 0, 3, 1)]),
        (_W_N, "p w n", "x h b o", [(2, 1, 1, 3, 1)]),
        (_W_N, "p n w", "h b o", [(1, 1, 0, 3, 1)]),
        (_W_N_REF, "w n", "h b o", [(1, 1, 0, 3, 1)]),
    ],
)
def test_shorter_paraphrase_shadowing_across_hypothesis_words_matches_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Jar facts (jar: ``-m "exact paraphrase"``, the table as ``-a``; the same at beams 4, 10, 40 and 100)."""
    assert sorted(_paraphrase_alignment(table, hyp, ref)) == expected


def test_shorter_paraphrase_shadowing_across_hypothesis_words_on_real_text_matches_the_jar() -> None:
    """WMT22 segment 1333 shrunk, all English modules (``was`` = ``has been`` and ``not`` = ``has been no`` are
    paraphrases; jar-checked with ``Matcher -l en`` at beams 4, 10, 40 and 100)."""
    m = Meteor(lang="en", normalize=False)
    assert m.sentence_score("progress was not", ["has been no"]).alignment == [(1, 1, 0, 2, 3)]


_AM_OAM = [("e m", "a m"), ("e m", "o a m")]  # found from the reference phrase: ``a m`` offered first


@pytest.mark.parametrize(
    "hyp, ref, expected",
    [
        # the later ``o`` extends a chunk and is no nearer the diagonal than the free earlier ``o``: no tie lost,
        # so ``a m`` (offered first) wins
        ("p o a m d o", "e m d o", [(2, 2, 0, 2, 1), (4, 1, 2, 1, 0), (5, 1, 3, 1, 0)]),
        ("p q o a m d o", "e m d o", [(3, 2, 0, 2, 1), (5, 1, 2, 1, 0), (6, 1, 3, 1, 0)]),
        ("p o a m o", "e m o", [(2, 2, 0, 2, 1), (4, 1, 2, 1, 0)]),
        # the later ``o`` nearer the diagonal: it loses the tie, ``o a m`` wins
        ("o a m d o", "e m d o", [(0, 3, 0, 2, 1), (3, 1, 2, 1, 0), (4, 1, 3, 1, 0)]),
        ("p o a m d o", "x y e m d o", [(1, 3, 2, 2, 1), (4, 1, 4, 1, 0), (5, 1, 5, 1, 0)]),
        ("p o a m o", "x e m o", [(1, 3, 1, 2, 1), (4, 1, 3, 1, 0)]),
        # no chunk to extend: the earlier ``o`` takes the reference word
        ("p o a m d x o", "e m d y o", [(1, 1, 4, 1, 0), (2, 2, 0, 2, 1), (4, 1, 2, 1, 0)]),
    ],
)
def test_later_sibling_beside_a_split_phrase_matches_the_jar(hyp: str, ref: str, expected) -> None:
    """Jar facts (jar: ``-m "exact paraphrase"``, the table as ``-a``; the same at beams 4, 10, 40 and 100)."""
    m = Meteor(lang="en", modules=("exact", "paraphrase"), normalize=False, paraphrase_table=TinyTable(_AM_OAM))
    assert sorted(m.sentence_score(hyp, [ref]).alignment) == expected


def test_later_sibling_beside_a_split_phrase_on_real_text_matches_the_jar() -> None:
    """WMT22 segment 4 shrunk, all English modules (``a million`` and ``of a million`` = ``one million`` are
    paraphrases; jar-checked with ``Matcher -l en`` at beams 4, 10, 40 and 100)."""
    m = Meteor(lang="en", normalize=False)
    ref = ["one million doses of"]
    assert sorted(m.sentence_score("purchase of a million doses of", ref).alignment) == [
        (2, 2, 0, 2, 3), (4, 1, 2, 1, 0), (5, 1, 3, 1, 0)
    ]
    assert sorted(m.sentence_score("of a million doses of", ref).alignment) == [
        (0, 3, 0, 2, 3), (3, 1, 2, 1, 0), (4, 1, 3, 1, 0)
    ]


_OTA_TA = [("o t a", "n a"), ("t a", "b n a")]


@pytest.mark.parametrize(
    "hyp, ref, expected",
    [
        # the earlier sibling at least two words farther from the diagonal than the later one: the longer phrase
        ("o t a o", "b n a o", [(0, 3, 1, 2, 1), (3, 1, 3, 1, 0)]),
        ("x o t a o", "y b n a o", [(1, 3, 2, 2, 1), (4, 1, 4, 1, 0)]),
        ("o t a o", "y y b n a o", [(0, 3, 3, 2, 1), (3, 1, 5, 1, 0)]),
        ("o t a q o", "b n a q o", [(0, 3, 1, 2, 1), (3, 1, 3, 1, 0), (4, 1, 4, 1, 0)]),
        ("q o t a o", "q b n a o", [(0, 1, 0, 1, 0), (1, 3, 2, 2, 1), (4, 1, 4, 1, 0)]),
        ("o o t a o", "y b n a o", [(1, 3, 2, 2, 1), (4, 1, 4, 1, 0)]),  # another free earlier copy: no matter
        ("o x o t a o", "y y b n a o", [(2, 3, 3, 2, 1), (5, 1, 5, 1, 0)]),
        ("x o t a i o", "b n a i o", [(1, 3, 1, 2, 1), (4, 1, 3, 1, 0), (5, 1, 4, 1, 0)]),
        ("x x o t a i j k o", "b n a i j k o", [(2, 3, 1, 2, 1), (5, 1, 3, 1, 0), (6, 1, 4, 1, 0), (7, 1, 5, 1, 0), (8, 1, 6, 1, 0)]),
        # one word farther or less: coverage decides
        ("x o t a o", "b n a o", [(2, 2, 0, 3, 1), (4, 1, 3, 1, 0)]),
        ("x x o t a o", "y b n a o", [(3, 2, 1, 3, 1), (5, 1, 4, 1, 0)]),
        ("x x o t a i j o", "b n a i j o", [(3, 2, 0, 3, 1), (5, 1, 3, 1, 0), (6, 1, 4, 1, 0), (7, 1, 5, 1, 0)]),
        ("x x x o t a i j o", "b n a i j o", [(4, 2, 0, 3, 1), (6, 1, 3, 1, 0), (7, 1, 4, 1, 0), (8, 1, 5, 1, 0)]),
        # the later sibling extends no chunk: the earlier one takes the reference word
        ("o t a q o", "b n a o", [(0, 1, 3, 1, 0), (1, 2, 0, 3, 1)]),
        ("o t a o", "b n a q o", [(0, 1, 4, 1, 0), (1, 2, 0, 3, 1)]),
    ],
)
def test_later_sibling_beside_a_phrase_split_the_other_way_matches_the_jar(hyp: str, ref: str, expected) -> None:
    """Jar facts (jar: ``-m "exact paraphrase"``, the table as ``-a``; the same at beams 4, 10, 40 and 100)."""
    assert sorted(_paraphrase_alignment(_OTA_TA, hyp, ref)) == expected


def test_later_sibling_beside_a_phrase_split_the_other_way_on_real_text_matches_the_jar() -> None:
    """WMT22 segment 1452 shrunk, all English modules (jar-checked with ``Matcher -l en`` at beams 4, 10, 40
    and 100): ``of the average`` = ``an average`` rather than ``the average`` = ``by an average``."""
    m = Meteor(lang="en", normalize=False)
    assert sorted(m.sentence_score("of the average inhabitant of", ["by an average inhabitant of"]).alignment) == [
        (0, 3, 1, 2, 3), (3, 1, 3, 1, 0), (4, 1, 4, 1, 0)
    ]
    got = m.sentence_score("the footprint of the average inhabitant of", ["footprint left by an average inhabitant of"])
    assert sorted(got.alignment) == [(1, 1, 0, 1, 0), (2, 3, 3, 2, 3), (5, 1, 5, 1, 0), (6, 1, 6, 1, 0)]


_AB_AC = [("a b", "a c"), ("b", "c")]


@pytest.mark.parametrize(
    "table, hyp, ref, expected",
    [
        # the later sibling (where the phrase starts too) nearer the diagonal, opening a chunk: the earlier one alone
        (_AB_AC, "a a b", "x a c", [(0, 1, 1, 1, 0)]),
        (_AB_AC, "a a b", "x y a c", [(0, 1, 2, 1, 0)]),
        (_AB_AC, "q a a b", "x y a c", [(1, 1, 2, 1, 0)]),
        (_AB_AC, "a q a b", "x y a c", [(0, 1, 2, 1, 0)]),
        (_AB_AC, "a a a b", "a x w a c", [(0, 1, 0, 1, 0), (1, 1, 3, 1, 0)]),  # any farther sibling left free
        ([("a b", "a c")], "a a b", "x a c", [(0, 1, 1, 1, 0)]),  # the phrase on the diagonal loses too
        ([("a b", "a c")], "q a a b", "x y a c", [(1, 1, 2, 1, 0)]),
        # the same hypothesis word at an earlier, farther reference word
        ([("a c", "a b"), ("c", "b")], "x y a c", "a a b", [(2, 1, 0, 1, 0)]),
        ([("a c", "a b"), ("c", "b")], "x a c", "a a b", [(1, 1, 0, 1, 0)]),
        # the later sibling not nearer, or extending a chunk: coverage decides
        (_AB_AC, "a a b", "a c", [(1, 1, 0, 1, 0), (2, 1, 1, 1, 1)]),
        (_AB_AC, "q a a b", "x a c", [(2, 1, 1, 1, 0), (3, 1, 2, 1, 1)]),
        (_AB_AC, "a q a b", "x a c", [(2, 1, 1, 1, 0), (3, 1, 2, 1, 1)]),
        (_AB_AC, "a q a b", "y x q a c", [(1, 1, 2, 1, 0), (2, 1, 3, 1, 0), (3, 1, 4, 1, 1)]),
        # the phrase at a later sibling's place loses the tie with the split as that sibling would
        (_AB_AC, "a q a b", "x q a c", [(1, 1, 1, 1, 0), (2, 1, 2, 1, 0), (3, 1, 3, 1, 1)]),
        (_AB_AC, "y q a b", "x q a c", [(1, 1, 1, 1, 0), (2, 1, 2, 1, 0), (3, 1, 3, 1, 1)]),
        # the weak pair after it listed both ways: off the diagonal, coverage decides again
        (_AB_AC + [("c", "b")], "a a b", "x y a c", [(1, 1, 2, 1, 0), (2, 1, 3, 1, 1)]),
        # a phrase of another hypothesis word at the earlier sibling's reference word, nearer the diagonal
        ([("b c", "a c")], "a b c d", "y a c d z a", [(0, 1, 1, 1, 0), (2, 1, 2, 1, 0), (3, 1, 3, 1, 0)]),
        ([("b c", "a c")], "a x b c", "y y a c d a", [(0, 1, 2, 1, 0), (3, 1, 3, 1, 0)]),
        ([("b c", "a c")], "x a b c d", "y a c d z a", [(1, 1, 5, 1, 0), (2, 2, 1, 2, 1), (4, 1, 3, 1, 0)]),
    ],
)
def test_later_sibling_with_a_phrase_nearer_the_diagonal_matches_the_jar(table, hyp: str, ref: str, expected) -> None:
    """Jar facts (jar: ``-m "exact paraphrase"``, the table as ``-a``; the same at beams 4, 10, 40 and 100)."""
    assert sorted(_paraphrase_alignment(table, hyp, ref)) == expected


def test_later_sibling_with_a_phrase_nearer_the_diagonal_on_real_text_matches_the_jar() -> None:
    """WMT22 segments 1625 and 2657 shrunk, all English modules (jar-checked with ``Matcher -l en`` at beams 4,
    10, 40 and 100): the earlier ``the`` alone rather than ``the other`` = ``the second`` (or the later ``the`` with
    ``other`` = ``second``); with ``film`` = ``cinema`` proposed three times (synonym, and the table both
    ways) after the later ``the``, which is off the diagonal, the later one with it."""
    m = Meteor(lang="en", normalize=False)
    assert sorted(m.sentence_score("the the other", ["in the second"]).alignment) == [(0, 1, 1, 1, 0)]
    hyp, ref = "half of the house , and a table on the other half", "and a table with treats in the second one"
    got = m.sentence_score(hyp, [ref])
    assert sorted(got.alignment) == [(2, 1, 6, 1, 0), (5, 1, 0, 1, 0), (6, 1, 1, 1, 0), (7, 1, 2, 1, 0)]
    got = m.sentence_score("the y the film", ["x y in the cinema"])
    assert sorted(got.alignment) == [(1, 1, 1, 1, 0), (2, 1, 3, 1, 0), (3, 1, 4, 1, 2)]
    # WMT22 segment 2657 shrunk: ``to`` 0-1 with ``full`` rather than ``the full`` = ``to full`` 1-1
    got = m.sentence_score("to the full air", ["due to full air and to"])
    assert sorted(got.alignment) == [(0, 1, 1, 1, 0), (2, 1, 2, 1, 0), (3, 1, 3, 1, 0)]


@pytest.mark.parametrize(
    ("hyp", "ref", "expected"),
    [
        # the phrase 1-1 has a sibling 1-0 farther from the diagonal: the synonym after it earns nothing
        ("x have taken", "they had their fill", [(1, 1, 0, 2, 3)]),
        ("jellyfish have taken", "they had their fill", [(1, 1, 0, 2, 3)]),
        ("x y have taken", "w they had their fill", [(2, 1, 1, 2, 3)]),
        # the earlier sibling not farther: the nearer phrase with ``taken`` = ``fill``
        ("have taken", "they had their fill", [(0, 1, 1, 2, 3), (1, 1, 3, 1, 2)]),
        ("x have taken", "y they had their fill", [(1, 1, 2, 2, 3), (2, 1, 4, 1, 2)]),
    ],
)
def test_weak_extension_of_a_phrase_moved_nearer_the_diagonal_matches_the_jar(hyp: str, ref: str, expected) -> None:
    """WMT22 segment 236 shrunk, all English modules (jar: ``Matcher -l en``, the same at beams 4 and 40)."""
    m = Meteor(lang="en", normalize=False)
    assert sorted(m.sentence_score(hyp, [ref]).alignment) == expected


@pytest.mark.parametrize(
    ("hyp", "ref", "beam", "expected"),
    [
        # ``to`` = ``to`` is offered before the tied phrase ``the use`` = ``to use`` and survives at beam 1
        ("the use of x to", "to use", 1, [(1, 1, 1, 1, 0), (4, 1, 0, 1, 0)]),
        ("the use to", "to use y", 1, [(1, 1, 1, 1, 0), (2, 1, 0, 1, 0)]),
        ("x the use of to", "to use", 1, [(2, 1, 1, 1, 0), (4, 1, 0, 1, 0)]),
        ("to the use", "to use", 1, [(0, 1, 0, 1, 0), (2, 1, 1, 1, 0)]),
        ("to the use", "to use", 2, [(0, 1, 0, 1, 0), (2, 1, 1, 1, 0)]),
        ("the use of to to", "to use to", 1, [(1, 1, 1, 1, 0), (3, 1, 0, 1, 0), (4, 1, 2, 1, 0)]),
        # a stronger phrase still wins at beam 1; from beam 3 the two exact matches it blocks
        ("for the use of to", "to use", 1, [(0, 4, 0, 2, 3)]),
        ("for the use of to", "to use", 3, [(2, 1, 1, 1, 0), (4, 1, 0, 1, 0)]),
    ],
)
def test_paraphrase_counts_are_not_compared_while_pruning(hyp: str, ref: str, beam: int, expected) -> None:
    """Jar facts (jar: ``Matcher -l en -x BEAM``, all English modules, the real paraphrase table)."""
    m = Meteor(lang="en", normalize=False)
    h, r = hyp.split(), ref.split()
    assert align(h, r, m.candidates([(h, r)])[0], m._exact_stages, beam) == expected


def test_paraphrase_counts_unseen_while_pruning_on_real_text() -> None:
    """WMT22 segment 1300 (jar at beam 40, all English modules): ``use`` = ``use`` with ``to`` far off
    at 36-14 rather than ``for the use of`` = ``to use``, which only a search that compares paraphrase counts
    while pruning keeps (this one did at beam 40 before, not at 100)."""
    hyp = (
        "in exchange for these services , wagner 's subsidiaries receive certain privileges and licenses for the use"
        " of minerals and natural resources , as well as for the supply of weapons , technologies and military"
        ' services to these countries , " the article says .'
    )
    ref = (
        "in exchange for these services , wagner 's subsidiaries receive certain privileges and licenses to use"
        " minerals and natural resources , as well as to supply weapons , technologies and military services to"
        ' these countries , " says the article .'
    )
    got = sorted(Meteor(lang="en", normalize=False).sentence_score(hyp, [ref]).alignment)
    expected = [(i, 1, i, 1, 0) for i in range(14)] + [(16, 1, 15, 1, 0)]
    expected += [(h, 1, h - 2, 1, 0) for h in range(18, 23)] + [(23, 4, 21, 4, 3), (28, 1, 25, 1, 0)]
    expected += [(h, 1, h - 4, 1, 0) for h in range(30, 36)] + [(36, 1, 14, 1, 0)]
    expected += [(h, 1, h - 4, 1, 0) for h in range(37, 41)]
    expected += [(41, 1, 38, 1, 0), (42, 1, 39, 1, 0), (43, 1, 37, 1, 0), (44, 1, 40, 1, 0)]
    assert got == expected


@pytest.mark.parametrize(
    ("hyp", "ref", "small", "large"),
    [
        ("for clothes .", "features of garment", [(1, 1, 2, 1, 2)], []),
        (", he began to cough", "coughing endlessly ,", [(0, 1, 2, 1, 0), (4, 1, 0, 1, 1)], [(0, 1, 2, 1, 0)]),
        (
            ": 3 years",
            "recommended age : 3 years",
            [(0, 1, 2, 1, 0), (1, 1, 3, 1, 0), (2, 1, 1, 1, 2)],
            [(0, 1, 2, 1, 0), (1, 1, 3, 1, 0), (2, 1, 4, 1, 0)],
        ),
        (
            "the mattress are above average hardness",
            "mattress are medium",
            [(1, 1, 0, 1, 0), (2, 1, 1, 1, 0), (4, 1, 2, 1, 2)],
            [(1, 1, 0, 1, 0), (2, 1, 1, 1, 0)],
        ),
        (
            "features of such",
            "one of the characteristic features of",
            [(0, 1, 3, 1, 2), (1, 1, 1, 1, 0)],
            [(0, 1, 4, 1, 0), (1, 1, 5, 1, 0)],
        ),
    ],
)
def test_open_chunks_are_not_charged_while_pruning_with_every_module(hyp: str, ref: str, small, large) -> None:
    """Random WMT22 windows ( jar: ``Matcher -l en -x BEAM``, all English modules): at beams 1 and 2 the
    jar keeps a one-word weak match opening a chunk of its own (its chunk is not charged while pruning), at beam
    40 the final rank drops it or prefers another placement."""
    m = Meteor(lang="en", normalize=False)
    h, r = hyp.split(), ref.split()
    candidates = m.candidates([(h, r)])[0]
    for beam in (1, 2):
        assert align(h, r, candidates, m._exact_stages, beam) == small
    assert align(h, r, candidates, m._exact_stages, 40) == large
