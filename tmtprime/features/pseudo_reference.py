"""Agreement of a translation with an independent MT: a pseudo-reference and a round trip.

Where two unrelated systems agree, the source is easy and the translation
likely fine; where they diverge, the sentence is hard (Soricut & Echihabi 2010;
Soricut et al., the best WMT12 QE system). A rule-based engine installed on the
machine (Apertium, for the pairs it has) gives such a second opinion with no
data of the project, in two directions:

* ``qe_pseudo_*``: the translation scored against the engine's translation of
  its source;
* ``qe_roundtrip_*``: the engine's translation of the translation back into the
  source language, scored against the source (a translation whose meaning does
  not survive the way back is more likely wrong; a word the engine cannot read
  stays untranslated and costs the score).

Columns of each: TER (0-1+), chrF and sentence BLEU (0-100).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from tmtprime.errors import TmtprimeError
from tmtprime.mt.engine import MTEngine

PSEUDO_NAMES = ("ter", "chrf", "bleu")


@lru_cache(maxsize=4)
def installed_pseudo_engine(source_lang: str, target_lang: str) -> MTEngine | None:
    """Apertium for the pair where it is installed here, else None (the columns are then absent).
    ``installed_pseudo_engine(target, source)`` is the engine of the round trip."""
    from tmtprime.mt.apertium import ApertiumEngine

    engine = ApertiumEngine(source_lang=source_lang, target_lang=target_lang)
    try:
        engine.chain  # noqa: B018 - resolves the installed mode, raises if there is none
    except TmtprimeError:
        return None
    return engine


def agreement(hyps: Sequence[str], refs: Sequence[str]) -> np.ndarray:
    """Per pair: TER / 100, chrF and BLEU of ``hyps[i]`` against ``refs[i]`` (1, 0, 0 where one side is empty)."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    ter, chrf, bleu = TER(), CHRF(), BLEU(effective_order=True)
    out = np.zeros((len(hyps), len(PSEUDO_NAMES)))
    for i, (h, ref) in enumerate(zip(hyps, refs)):
        if not ref.strip() or not h.strip():
            out[i] = (1.0 if ref.strip() or h.strip() else 0.0, 0.0, 0.0)
            continue
        out[i] = (ter.sentence_score(h, [ref]).score / 100.0, chrf.sentence_score(h, [ref]).score,
                  bleu.sentence_score(h, [ref]).score)
    return out


def _translate(engine: MTEngine, texts: Sequence[str]) -> list[str]:
    """``engine``'s output for each text, each distinct text translated once."""
    unique = list(dict.fromkeys(texts))
    translated = dict(zip(unique, engine.translate(unique))) if unique else {}
    return [translated[t] for t in texts]


def pseudo_reference_scores(engine: MTEngine, sources: Sequence[str], targets: Sequence[str]) -> np.ndarray:
    """Per pair: the target scored against ``engine``'s translation of its source."""
    return agreement(targets, _translate(engine, sources))


def roundtrip_scores(back: MTEngine, sources: Sequence[str], targets: Sequence[str]) -> np.ndarray:
    """Per pair: ``back``'s translation of the target (into the source language) scored against the source."""
    return agreement(_translate(back, targets), sources)
