"""Function-word lists learned from a monolingual corpus (seed 003: relative frequency >= 1e-3)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tmtprime.meteor.funcwords import frequent_words, learn_function_words, scorer_tokens, write_word_list
from tmtprime.meteor.scorer import Meteor


def test_threshold_is_relative_frequency_at_least_one_in_a_thousand() -> None:
    # 2,000 tokens: "de" 20 times (1e-2), "casa" twice (exactly 1e-3: kept), "perro" once (5e-4: not)
    lines = ["de " * 20, "casa casa perro", " ".join(f"w{k}" for k in range(1977))]
    words = learn_function_words(lines, "es")
    assert words[0] == "de" and "casa" in words and "perro" not in words
    assert not any(w.startswith("w") for w in words)


def test_words_are_counted_as_the_scorer_tokenizes() -> None:
    assert scorer_tokens("¡Hola, Mundo!", "es") == ["¡", "hola", ",", "mundo", "!"]
    assert scorer_tokens("Hej, Verden", "da") == ["hej,", "verden"]  # no normalizer: -lower tokens
    assert frequent_words(Counter()) == []


def test_a_learned_list_drives_the_content_function_split(tmp_path: Path) -> None:
    lines = ["el gato y el perro", "la casa de la playa"] * 10
    path = tmp_path / "es.words"
    write_word_list(learn_function_words(lines, "es", min_frequency=0.15), path)
    assert path.read_text(encoding="utf-8").split() == ["el", "la"]
    learned = Meteor(lang="es", modules=["exact"], function_words_file=path)
    assert learned.function_words == frozenset({"el", "la"})
    # delta weights content and function words differently, so the list changes the score
    default = Meteor(lang="es", modules=["exact"])
    hyp, ref = "el perro de la casa", "el gato de la casa"
    assert learned.sentence_score(hyp, ref).score != default.sentence_score(hyp, ref).score
