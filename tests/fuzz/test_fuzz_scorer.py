"""Random pairs through the Meteor scorer: a score in [0, 1] or a clean error; long pairs within 2 GB."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from tests.fuzz.harness import ROOT, SCORER_LANGUAGES, fuzz_scorer

PER_LANGUAGE = 150


@pytest.fixture(scope="module")
def tallies():
    # 5,000-token pairs take seconds each: CI scores them in the test below, the bench in the mix
    return fuzz_scorer(PER_LANGUAGE, seed=0, long_every=10**9, timeout=60.0)


@pytest.mark.parametrize("lang", SCORER_LANGUAGES)
def test_every_random_pair_scores_or_fails_cleanly(tallies, lang: str) -> None:
    tally = tallies[lang]
    assert tally.inputs == PER_LANGUAGE
    assert tally.bad == 0, "\n".join(tally.failures)
    assert tally.counts["ok"] > 0


_LONG_PAIR = """
import random, sys
from tests.fuzz.harness import _WORDS
from tmtprime.meteor import Meteor
rng = random.Random(5)
pool = _WORDS["en"] + [w + "s" for w in _WORDS["en"]] + list(".,;:!?")
hyp = " ".join(rng.choices(pool, k=7000))
ref = " ".join(rng.choices(pool, k=7000))
score = Meteor(lang="en").sentence_score(hyp, [ref]).score
assert 0.0 <= score <= 1.0, score
print(score)
"""


def _limit_address_space() -> None:
    limit = 2_000_000 * 1024  # ulimit -v 2000000, the jar's 2 GB heap
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_a_7000_token_pair_scores_in_a_2_gb_address_space() -> None:
    """The matchers and the aligner grow with matches and kept paths, not with hypothesis x reference
    (reserving hyp x ref rows raised MemoryError on this pair)."""
    done = subprocess.run(
        [sys.executable, "-c", _LONG_PAIR], cwd=ROOT, capture_output=True, text=True, timeout=600,
        preexec_fn=_limit_address_space,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert 0.0 <= float(done.stdout.strip()) <= 1.0
