"""Contextual bitext-derived paraphrases (seed 002, third paper): sets, single substitution, no transitivity."""

from __future__ import annotations

import pytest

from tmtprime.meteor.bitext_paraphrase import (
    EquivalenceSet, equivalence_sets, expand_reference, padded_streams, score_with_references, substitution_index,
)  # fmt: skip

SETS = [EquivalenceSet("sûr", ("sure", "certain")), EquivalenceSet("certain", ("certain", "some"))]


def test_single_substitution_without_transitivity() -> None:
    assert expand_reference("I am sure", SETS, "en") == ["i am sure", "i am certain"]  # never "some" (no transitivity)
    assert expand_reference("Certain things", SETS, "en") == ["certain things", "sure things", "some things"]
    # one substitution at a time: never both words replaced together
    both = expand_reference("sure and sure", SETS, "en")
    assert both == ["sure and sure", "certain and sure", "sure and certain"]
    assert expand_reference("sure and sure", SETS, "en", max_refs=2) == both[:2]


def test_phrases_substitute_as_units() -> None:
    sets = [EquivalenceSet("nous attendons", ("we would expect", "we certainly expect"))]
    assert expand_reference("We would expect more", substitution_index(sets), "en") == [
        "we would expect more", "we certainly expect more",
    ]  # fmt: skip


def test_equivalence_sets_from_the_bitext_exclude_closed_class_words() -> None:
    bitext = [
        ("the question is open", "la cuestión está abierta"), ("the question is closed", "la pregunta está cerrada"),
        ("the door is open", "la puerta está abierta"), ("the door is closed", "la puerta está cerrada"),
        ("on the door", "en la puerta"), ("on the door", "a la puerta"),
    ] * 3  # fmt: skip
    sources, references = [s for s, _ in bitext], [r for _, r in bitext]
    sets = {s.source: set(s.phrases) for s in equivalence_sets(sources, references, source_lang="en", lang="es")}
    assert sets["question"] == {"cuestión", "pregunta"}
    assert "on" not in sets  # prepositions (the jar's function words) form no set
    unfiltered = equivalence_sets(sources, references, source_lang="en", lang="es", closed_source=frozenset(), closed_target=frozenset())
    assert {s.source: set(s.phrases) for s in unfiltered}["on"] == {"a", "en"}


def test_scores_with_extra_references() -> None:
    hyps = ["i am certain of it", "some things happen"]
    refs = [expand_reference(r, SETS, "en") for r in ["I am sure of it", "certain things happen"]]
    streams = padded_streams(refs)
    assert streams == [["i am sure of it", "certain things happen"], ["i am certain of it", "sure things happen"],
                       ["i am sure of it", "some things happen"]]  # fmt: skip
    single = score_with_references(hyps, [r[:1] for r in refs], "en")
    multi = score_with_references(hyps, refs, "en")
    assert multi["meteor"] > single["meteor"] and multi["bleu"] > single["bleu"] and multi["ter"] < single["ter"]
    assert multi["ter"] == pytest.approx(0.0)
