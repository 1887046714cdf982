"""Best-k TM lookup: the index returns exactly what scoring every unit returns."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tmtprime.errors import UsageError
from tmtprime.tm.fuzzy import score_pair
from tmtprime.tm.index import TMIndex
from tmtprime.tm.lookup import lookup_segments

WORDS = ["open", "Open", "file", "the", "a", "save", "as", "new", "copy", "delete", "folder", "%s", "{0}", "3", ":", "...", "?"]


def brute_force(sources, query, threshold, k, context=None, contexts=None):
    """Reference: score_pair against every unit, same ranking rules as the index."""
    scored = []
    for i, src in enumerate(sources):
        s = score_pair(query, src, context_a=context, context_b=contexts[i] if contexts else None)
        if s.score >= threshold:
            scored.append((s.score, s.match_type, i))
    rank = {"context": 3, "exact": 2, "100": 1, "fuzzy": 0}
    return sorted(scored, key=lambda x: (-x[0], -rank[x[1]], x[2]))


def sentence(rng: random.Random, n_max: int = 9) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, n_max)))


@pytest.fixture(scope="module")
def random_tm():
    rng = random.Random(7)
    sources = [sentence(rng) for _ in range(1500)]
    return sources, TMIndex(sources, [f"T{i}" for i in range(len(sources))])


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(st.sampled_from(WORDS), max_size=10),
    threshold=st.sampled_from([0.0, 30.0, 50.0, 70.0, 85.0, 100.0]),
    k=st.integers(1, 5),
)
def test_index_equals_exhaustive_search(random_tm, words, threshold, k):
    sources, index = random_tm
    query = " ".join(words)
    fast = index.lookup(query, threshold=threshold, k=k)
    slow = index.lookup(query, threshold=threshold, k=k, exhaustive=True)
    assert [(m.unit, m.score, m.match_type) for m in fast] == [(m.unit, m.score, m.match_type) for m in slow]


def test_scores_and_threshold_agree_with_score_pair(random_tm):
    sources, index = random_tm
    rng = random.Random(3)
    for _ in range(40):
        query = sentence(rng)
        found = index.lookup(query, threshold=50, k=1000)
        expected = brute_force(sources, query, 50, 1000)
        # same set of (unit, score) above the threshold; ties may be ordered by character similarity
        assert sorted((m.unit, m.score) for m in found) == sorted((i, s) for s, _t, i in expected)
        assert [m.score for m in found] == sorted((m.score for m in found), reverse=True)
        for m in found:
            assert m.score == score_pair(query, sources[m.unit]).score


def test_index_recall_on_a_realistic_tm_is_complete():
    """Perturbed sentences: every brute-force match above 50 is found by the index."""
    rng = random.Random(11)
    base = [
        "Cannot open the file %s", "Save the document as a new file", "Delete the selected folder?",
        "The file {0} already exists. Replace it?", "Copy 3 files to the folder", "Open recent documents",
    ]
    vocab = "the a file folder document open save copy new selected recent cannot replace exists".split()
    sources = []
    for _ in range(800):
        words = rng.choice(base).split()
        for _ in range(rng.randint(0, 3)):
            words.insert(rng.randrange(len(words) + 1), rng.choice(vocab))
        sources.append(" ".join(words))
    index = TMIndex(sources, sources)
    queries = [rng.choice(base) for _ in range(30)] + [sentence(rng) for _ in range(30)]
    expected = found = 0
    for q in queries:
        truth = {(i, s) for s, _t, i in brute_force(sources, q, 50, 10**6)}
        got = {(m.unit, m.score) for m in index.lookup(q, threshold=50, k=10**6)}
        expected += len(truth)
        found += len(truth & got)
        assert got <= truth
    assert expected > 1000 and found == expected


def test_best_k_ranking_exact_before_100_before_fuzzy_and_context_first():
    sources = ["Open the file", "Open  the file", "Open the file", "open the file", "Open a file"]
    contexts = [None, None, "menu", None, None]
    index = TMIndex(sources, ["a", "b", "c", "d", "e"], contexts)
    got = index.lookup("Open the file", context="menu", threshold=50, k=5)
    assert [(m.unit, m.match_type, m.score) for m in got] == [
        (2, "context", 100.0), (0, "exact", 100.0), (1, "100", 100.0), (3, "fuzzy", 99.0), (4, "fuzzy", 66.67),
    ]
    assert got[0].target == "c" and got[0].source == "Open the file"
    assert [m.unit for m in index.lookup("Open the file", threshold=50, k=2)] == [0, 2]
    assert [m.match_type for m in index.lookup("Open the file", threshold=50, k=2)] == ["exact", "exact"]


def test_equal_scores_are_ordered_by_character_similarity():
    index = TMIndex(["Delete all text now", "Delete all date now"], ["x", "y"])
    got = index.lookup("Delete all data now", threshold=50, k=2)
    assert [m.score for m in got] == [75.0, 75.0]
    assert got[0].unit == 1 and got[0].char_similarity > got[1].char_similarity


def test_unknown_words_and_empty_queries():
    index = TMIndex(["", "...", "Open file"], ["", "…", "Abrir archivo"])
    assert index.lookup("zzz qqq", threshold=0, k=3)[0].score == 0.0
    assert index.lookup("zzz qqq", threshold=1) == []
    assert [(m.unit, m.match_type) for m in index.lookup("...", threshold=50)] == [(1, "exact")]
    assert [(m.unit, m.match_type) for m in index.lookup("", threshold=50)] == [(0, "exact")]
    assert TMIndex([], []).lookup("Open file") == []


def test_bad_arguments_are_usage_errors():
    index = TMIndex(["a"], ["b"])
    with pytest.raises(UsageError, match="between 0 and 100"):
        index.lookup("a", threshold=120)
    with pytest.raises(UsageError, match="at least 1"):
        index.lookup("a", k=0)
    with pytest.raises(UsageError, match="same length"):
        TMIndex(["a", "b"], ["x"])


def test_lookup_segments_dedupes_and_keeps_order_in_process_and_in_workers(random_tm):
    sources, index = random_tm
    queries = ["open the file", "save as", "open the file", "delete folder", "save as"]
    contexts = [None, None, "ctx", None, None]
    one = lookup_segments(index, queries, contexts, threshold=50, k=2)
    assert one[0] is one[0] and one[1] is one[4]
    assert [[m.unit for m in r] for r in one] == [[m.unit for m in index.lookup(q, context=c, threshold=50, k=2)] for q, c in zip(queries, contexts)]
    two = lookup_segments(index, queries, contexts, threshold=50, k=2, n_jobs=2)
    assert [[(m.unit, m.score) for m in r] for r in two] == [[(m.unit, m.score) for m in r] for r in one]


def test_ties_at_the_kth_score_survive_the_early_stop():
    """Hundreds of units tie at 66.67 (a repeating decimal); the best by character similarity
    sits last in the TM, after the first scored chunk, and must still win the tie."""
    sources = [f"open the zzzzzzzz{i:03d}" for i in range(300)] + ["open the fil"]
    index = TMIndex(sources, sources)
    got = index.lookup("open the file", threshold=50, k=1)
    assert got[0].unit == 300 and got[0].score == 66.67
    assert [m.unit for m in got] == [m.unit for m in index.lookup("open the file", threshold=50, k=1, exhaustive=True)]
