"""The statistical models a project's TM yields for the features.

Language models of the TM's target side (for candidates) and source side (for
new source strings), IBM Model 1 in both directions, the set of target-side
n-grams, per-word counts on each side and the TF-IDF index of TM neighbours. They are trained on
the project's own TM whenever features are computed for it, so a shipped
recommender model carries no TM of its own and still speaks the project's
terminology; the fingerprint ties cached feature values to the TM they came from.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from itertools import chain

from tmtprime.errors import ModelError
from tmtprime.align.ibm1 import IBMModel1
from tmtprime.features.lm import KneserNeyLM
from tmtprime.features.neighbours import TMNeighbours
from tmtprime.features.ngrams import NgramSet
from tmtprime.tokens import lower_tokens
from tmtprime.progress import Reporter

_STEPS = ("tokens", "language models", "IBM Model 1 source->target", "IBM Model 1 target->source", "n-grams and neighbours")
"""The phases of :meth:`TMModels.fit`, one progress step each."""


class TMModels:
    """LMs and lexical models trained on (source, target) pairs of a TM."""

    def __init__(self, ibm_iterations: int = 5) -> None:
        self.ibm_iterations = ibm_iterations
        self.fingerprint_: str | None = None

    def fit(self, pairs: Iterable[tuple[str, str]], *, reporter: Reporter | None = None) -> TMModels:
        """Train every model on ``pairs``; each model is one progress step of ``reporter`` (a cancel is checked between)."""
        steps = iter((reporter or Reporter()).track(_STEPS, desc="training the TM models"))
        next(steps)
        digest = hashlib.sha256()
        sources: list[list[str]] = []
        targets: list[list[str]] = []
        for source, target in pairs:
            digest.update(source.encode("utf-8") + b"\t" + target.encode("utf-8") + b"\n")
            sources.append(lower_tokens(source))
            targets.append(lower_tokens(target))
        if not sources:
            raise ModelError("the project has no translation memory: import one with --as tm first")
        self.fingerprint_ = digest.hexdigest()[:16]
        self.n_units_ = len(sources)
        next(steps)
        self.target_lm_ = KneserNeyLM().fit(targets)
        self.source_lm_ = KneserNeyLM().fit(sources)
        next(steps)
        self.forward_ = IBMModel1(self.ibm_iterations).fit(sources, targets)
        next(steps)
        self.reverse_ = IBMModel1(self.ibm_iterations).fit(targets, sources)
        next(steps)
        self.target_ngrams_ = NgramSet().fit(targets)
        self.neighbours_ = TMNeighbours().fit(sources, targets)
        self.source_counts_ = Counter(chain.from_iterable(sources))
        self.target_counts_ = Counter(chain.from_iterable(targets))
        next(steps, None)
        return self

    def source_side_word(self, word: str) -> bool:
        """Whether ``word`` is a source-language word: more than twice as frequent (add-one)
        in the TM sources as in the TM targets. Shared words (names, numbers, product
        terms the team keeps) occur on both sides and do not count."""
        return self.source_counts_[word] + 1 > 2 * (self.target_counts_[word] + 1)

    def check_fitted(self) -> None:
        if self.fingerprint_ is None:
            raise ModelError("the TM models are not trained; call fit() with the project's TM first")
