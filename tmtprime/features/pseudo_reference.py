"""Agreement of a translation with an independent MT of its source: a pseudo-reference.

Where two unrelated systems agree, the source is easy and the translation
likely fine; where they diverge, the sentence is hard (Soricut & Echihabi 2010;
Soricut et al., the best WMT12 QE system). A rule-based engine installed on the
machine (Apertium, for the pairs it has) gives such a second opinion with no
data of the project. Columns (``qe_pseudo_*``): TER of the translation against
the engine's output (0-1+), chrF and sentence BLEU (0-100).
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
    """Apertium for the pair where it is installed here, else None (the columns are then absent)."""
    from tmtprime.mt.apertium import ApertiumEngine

    engine = ApertiumEngine(source_lang=source_lang, target_lang=target_lang)
    try:
        engine.chain  # noqa: B018 - resolves the installed mode, raises if there is none
    except TmtprimeError:
        return None
    return engine


def pseudo_reference_scores(engine: MTEngine, sources: Sequence[str], targets: Sequence[str]) -> np.ndarray:
    """Per pair: TER / 100, chrF and BLEU of the target against ``engine``'s translation of its source."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    unique = list(dict.fromkeys(sources))
    translated = dict(zip(unique, engine.translate(unique))) if unique else {}
    ter, chrf, bleu = TER(), CHRF(), BLEU(effective_order=True)
    out = np.zeros((len(sources), len(PSEUDO_NAMES)))
    for i, (s, t) in enumerate(zip(sources, targets)):
        ref = translated[s]
        if not ref.strip() or not t.strip():
            out[i] = (1.0 if ref.strip() or t.strip() else 0.0, 0.0, 0.0)
            continue
        out[i] = (ter.sentence_score(t, [ref]).score / 100.0, chrf.sentence_score(t, [ref]).score,
                  bleu.sentence_score(t, [ref]).score)
    return out
