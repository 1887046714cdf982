"""Statistics, the score formula and the task parameter sets (no jar needed).

Expected numbers are the Meteor 1.5 jar's, recorded from its ``-stdio SING``
and ``-vOut`` answers for the statistics below (they are reproducible with
``tmtprime meteor - - -stdio``; ``test_jar_parity.py`` re-checks against the jar).
"""

from __future__ import annotations

import math

import pytest

from tmtprime.errors import UsageError
from tmtprime.meteor.javafmt import java_double
from tmtprime.meteor.params import resolve_config
from tmtprime.meteor.stats import MeteorStats, compute_score, sum_stats

RANK_EN = (0.85, 0.2, 0.6, 0.75)
Z = [0.0] * 12


def stats(*head: float, tail=(0.0, 0.0, 0.0)) -> MeteorStats:
    """testLen refLen testFunc refFunc + stage-0 (tc rc tf rf), zero stages 1-3, chunks tw rw."""
    return MeteorStats.from_list(list(head) + Z + list(tail))


@pytest.mark.parametrize(
    "head, tail, jar",
    [
        ([4, 4, 0, 0, 4, 4, 0, 0], (1, 4, 4), "1.0"),
        ([4, 4, 0, 0, 4, 4, 0, 0], (2, 4, 4), "0.4776696620223255"),
        ([4, 5, 0, 0, 4, 4, 0, 0], (1, 4, 4), "0.4497196124097984"),
        ([4, 4, 0, 0, 4, 3, 0, 0], (1, 4, 4), "0.4248974260105563"),
        ([4, 4, 0, 0, 4, 4, 0, 0], (1, 0, 0), "1.0"),
        ([4, 4, 4, 4, 4, 4, 0, 0], (1, 4, 4), "3.0"),
        ([0, 4, 0, 0, 0, 4, 0, 0], (1, 0, 4), "0.0"),
        ([4, 4, 0, 0, 3, 3, 0, 0], (0, 0, 0), "0.0"),
        ([4, 4, 0, 0, -1, 3, 0, 0], (1, 3, 3), "0.9719157430197407"),
    ],
)
def test_sing_answers(head, tail, jar) -> None:
    st = stats(*head, tail=tail)
    assert java_double(compute_score(st, [1.0], *RANK_EN).score) == jar


def test_full_single_chunk_match_zeroes_chunks_in_the_statistics() -> None:
    st = stats(4, 4, 0, 0, 4, 4, 0, 0, tail=(1, 4, 4))
    parts = compute_score(st, [1.0], *RANK_EN)
    assert parts.score == 1.0 and parts.penalty == 0.0
    assert st.chunks == 0.0
    # so an identical segment adds no chunk to the system total (EVAL of two such lines -> 1.0)
    other = stats(4, 4, 0, 0, 4, 4, 0, 0, tail=(1, 4, 4))
    compute_score(other, [1.0], *RANK_EN)
    assert compute_score(sum_stats([st, other]), [1.0], *RANK_EN).score == 1.0


def test_partial_match_keeps_its_chunks_and_corpus_uses_summed_stats() -> None:
    a = stats(4, 4, 0, 0, 2, 2, 0, 0, tail=(1, 2, 2))
    b = stats(4, 4, 0, 0, 2, 2, 0, 0, tail=(1, 2, 2))
    sa = compute_score(a, [1.0], *RANK_EN).score
    total = compute_score(sum_stats([a, b]), [1.0], *RANK_EN).score
    assert java_double(sa) == "0.23883483101116276"
    assert java_double(total) == "0.23883483101116276"
    assert a.chunks == 1.0
    c = stats(10, 10, 0, 0, 10, 10, 0, 0, tail=(5, 10, 10))
    compute_score(c, [1.0], *RANK_EN)
    mean_of_segments = (sa + compute_score(c.copy(), [1.0], *RANK_EN).score) / 2
    corpus = compute_score(sum_stats([a, c]), [1.0], *RANK_EN).score
    assert not math.isclose(corpus, mean_of_segments)


def test_delta_weights_content_above_function_words() -> None:
    # one function word and one content word, only the function word matched vs only the content word
    func_only = stats(2, 2, 1, 1, 0, 0, 1, 1, tail=(1, 1, 1))
    content_only = stats(2, 2, 1, 1, 1, 1, 0, 0, tail=(1, 1, 1))
    p_f = compute_score(func_only, [1.0], *RANK_EN).precision
    p_c = compute_score(content_only, [1.0], *RANK_EN).precision
    assert p_f == pytest.approx(0.25) and p_c == pytest.approx(0.75)


def test_module_weights_apply_per_stage() -> None:
    st = MeteorStats.from_list([2, 2, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0] + [0.0] * 8 + [1, 2, 2])
    parts = compute_score(st, [1.0, 0.6], *RANK_EN)
    assert parts.precision == pytest.approx(0.8) and parts.recall == pytest.approx(0.8)


def test_stats_round_trip_and_ignore_extra_numbers() -> None:
    values = [float(i) for i in range(23)]
    assert MeteorStats.from_list(values + [99.0]).to_list() == values
    with pytest.raises(ValueError):
        MeteorStats.from_list(values[:10])


@pytest.mark.parametrize(
    "value, text",
    [(1.0, "1.0"), (0.0, "0.0"), (1e-4, "1.0E-4"), (0.001, "0.001"), (0.000999, "9.99E-4"),
     (1234567.0, "1234567.0"), (1e7, "1.0E7"), (math.nan, "NaN"), (0.8999999999999999, "0.8999999999999999")],
)  # fmt: skip
def test_numbers_print_like_java(value: float, text: str) -> None:
    assert java_double(value) == text


@pytest.mark.parametrize(
    "lang, task, params, weights, modules",
    [
        ("en", "rank", (0.85, 0.2, 0.6, 0.75), (1.0, 0.6, 0.8, 0.6), ("exact", "stem", "synonym", "paraphrase")),
        ("en", "adq", (0.75, 1.4, 0.45, 0.7), (1.0, 1.0, 0.6, 0.8), ("exact", "stem", "synonym", "paraphrase")),
        ("en", "hter", (0.4, 1.5, 0.35, 0.55), (1.0, 0.2, 0.6, 0.8), ("exact", "stem", "synonym", "paraphrase")),
        ("en", "li", (0.75, 1.4, 0.7, 0.5), (1.0, 0.5, 0.5, 0.5), ("exact", "stem", "synonym", "paraphrase")),
        ("en", "tune", (0.5, 1.0, 0.5, 0.5), (1.0, 0.5, 0.5, 0.5), ("exact", "stem", "synonym", "paraphrase")),
        ("en", "util", (0.65, 0.1, 0.55, 0.65), (1.0, 0.0, 0.0, 0.8), ("exact", "stem", "synonym", "paraphrase")),
        ("fr", "rank", (0.9, 1.4, 0.6, 0.65), (1.0, 0.2, 0.4), ("exact", "stem", "paraphrase")),
        ("de", "rank", (0.95, 1.0, 0.55, 0.55), (1.0, 0.8, 0.2), ("exact", "stem", "paraphrase")),
        ("es", "rank", (0.65, 1.3, 0.5, 0.8), (1.0, 0.8, 0.6), ("exact", "stem", "paraphrase")),
        ("cz", "rank", (0.95, 0.2, 0.6, 0.8), (1.0, 0.4), ("exact", "paraphrase")),
        ("fr", "adq", (0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0), ("exact", "stem", "paraphrase")),
        ("de", "tune", (0.5, 1.0, 0.5, 0.5), (1.0, 0.5, 0.5), ("exact", "stem", "paraphrase")),
        ("ru", "rank", (0.75, 1.4, 0.7, 0.5), (1.0, 0.5, 0.5), ("exact", "stem", "paraphrase")),
        ("da", "rank", (0.0, 0.0, 0.0, 0.0), (0.0, 0.0), ("exact", "stem")),
        ("da", None, (0.75, 1.4, 0.7, 0.5), (1.0, 0.5), ("exact", "stem")),
        ("other", "adq", (0.75, 1.4, 0.7, 0.5), (1.0,), ("exact",)),
    ],
)
def test_task_parameter_sets_are_the_jars(lang, task, params, weights, modules) -> None:
    c = resolve_config(lang, task)
    assert c.params == params and c.weights == weights and c.modules == modules


def test_overrides_make_a_custom_task_with_positional_weights() -> None:
    c = resolve_config("en", "rank", modules=["stem", "exact"])
    assert c.task_name == "Custom" and c.weights == (1.0, 0.6)
    c = resolve_config("cz", None, modules=["exact", "exact", "exact"])
    assert c.weights == (1.0, 0.4, 0.0)
    c = resolve_config("en", None, modules=["exact"], weights=[0.5, 0.7])
    assert c.weights == (0.5,)
    c = resolve_config("en", "adq", params=[0.1, 0.2, 0.3, 0.4])
    assert c.params == (0.1, 0.2, 0.3, 0.4) and c.task_name == "Custom"
    assert resolve_config("da").task_name == "Language-Independent"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"task": "foo"}, "Unknown task (foo)"),
        ({"modules": ["exact", "foo"]}, "Unknown module (foo)"),
        ({"params": [0.5, 0.5]}, "-p needs 4 numbers"),
        ({"weights": [0.5, 0.5, 0.5, 0.5, 0.5]}, "-w needs one weight per module"),
        ({"lang": "xy"}, "Unknown language (xy)"),
    ],
)
def test_bad_configuration_is_a_usage_error(kwargs, message) -> None:
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        resolve_config(**kwargs)
