"""A complete Meteor scorer, drop-in compatible with the reference Meteor 1.5.

Normalizer, resources, matchers (exact, stem, synonym, paraphrase), the
beam-search aligner, statistics and scoring, and task parameter sets. A leaf
library: it imports nothing else from tmtprime except errors, paths, progress,
parallel and (to word-align a bitext for the resource builders) the IBM Model 1
of :mod:`tmtprime.align.ibm1` (checked by the import contracts in pyproject.toml).

``from tmtprime.meteor import Meteor`` is the entry point (sacrebleu style)::

    Meteor(lang="en", task="rank").sentence_score(hyp, [ref]).score

The scorer is imported on first use, so that ``import tmtprime.meteor`` (done
by every CLI start-up) stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tmtprime.meteor.scorer import Meteor, MeteorScore

__all__ = ["Meteor", "MeteorScore"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from tmtprime.meteor import scorer

        return getattr(scorer, name)
    raise AttributeError(f"module 'tmtprime.meteor' has no attribute {name!r}")
