"""Statistics of a corpus that the black-box QE features compare a sentence with.

Quality estimation without a translation memory (an MT-only project, a new
client) still has corpora: the post-edits a team already made, a monolingual
text of the domain, a parallel corpus. :class:`QECorpus` holds what the WMT12
quality-estimation baseline (Specia et al. 2013, QuEst) reads from them:

* word trigram LMs of each side (:class:`~tmtprime.features.lm.KneserNeyLM`)
  and character trigram LMs (the same model over characters: robust to the
  inflected, rare words a word LM calls unknown);
* frequency bands of the source n-grams (:class:`NgramBands`): a sentence made
  of rare n-grams is hard to translate, one of frequent n-grams is easy;
* IBM Model 1 source→target, whose table says how ambiguous a source word is
  (how many translations it has above a probability threshold).

Each part is optional: a part whose corpus is missing stays ``None`` and its
features are left out (not faked) by :mod:`~tmtprime.features.qe`.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from tmtprime.errors import ModelError
from tmtprime.align.ibm1 import IBMModel1
from tmtprime.features.lm import KneserNeyLM
from tmtprime.tokens import lower_tokens
from tmtprime.progress import Reporter

BAND_ORDERS = (1, 2, 3)
TRANSLATION_THRESHOLDS = (0.01, 0.2)
"""The WMT12 baseline's two cut-offs on t(e|f) for counting translations of a source word."""


def _ngrams(tokens: Sequence[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def char_units(text: str) -> list[str]:
    """The characters of a lower-cased text, runs of white space as one ``_``: the tokens of a character LM."""
    return list("_".join(text.lower().split()))


class NgramBands:
    """Which frequency quartile of a corpus each of its 1/2/3-grams falls in.

    The n-gram types of one order are sorted by corpus frequency and cut where
    the running count passes 1/4, 2/4 and 3/4 of all occurrences: quartile 1
    holds the rare types that make up the first quarter of the text, quartile 4
    the few frequent types that make up its last quarter. (QuEst leaves the cut
    open; by occurrences keeps quartile 4 from being a quarter of the vocabulary.)
    """

    def __init__(self) -> None:
        self.bands_: dict[int, dict[tuple[str, ...], int]] | None = None

    def fit(self, sentences: Iterable[Sequence[str]]) -> NgramBands:
        counts = {n: Counter() for n in BAND_ORDERS}
        for sent in sentences:
            for n in BAND_ORDERS:
                counts[n].update(_ngrams(sent, n))
        if not counts[1]:
            raise ModelError("cannot build n-gram frequency bands: the corpus is empty")
        self.bands_ = {}
        for n, c in counts.items():
            types = sorted(c, key=lambda g: (c[g], g))
            mass = np.cumsum([c[g] for g in types], dtype=np.float64)
            quartile = np.minimum((4 * (mass - 1) // max(mass[-1], 1)).astype(np.int64) + 1, 4) if len(types) else []
            self.bands_[n] = dict(zip(types, (int(q) for q in quartile)))
        self.unigram_counts_ = counts[1]  # keyed by 1-tuples
        return self

    def shares(self, sentences: Sequence[Sequence[str]]) -> np.ndarray:
        """Per sentence: for n = 1, 2, 3 the share of its n-grams in quartile 1 and in
        quartile 4, then the share of its words the corpus has (shape n x 7).
        A sentence too short for an order gets 0 there."""
        if self.bands_ is None:
            raise ModelError("the n-gram bands are not built; call fit() first")
        out = np.zeros((len(sentences), 2 * len(BAND_ORDERS) + 1))
        for i, sent in enumerate(sentences):
            for j, n in enumerate(BAND_ORDERS):
                grams = _ngrams(sent, n)
                if not grams:
                    continue
                bands = self.bands_[n]
                q = [bands.get(g, 0) for g in grams]
                out[i, 2 * j] = q.count(1) / len(q)
                out[i, 2 * j + 1] = q.count(4) / len(q)
            if sent:
                out[i, -1] = sum(1 for t in sent if (t,) in self.unigram_counts_) / len(sent)
        return out


class QECorpus:
    """LMs, n-gram bands and a lexical table from whatever corpora a project has.

    ``fit(source=..., target=..., pairs=...)`` takes raw strings: ``source`` and
    ``target`` are monolingual texts of each language (the sources and
    translations of ``pairs`` are added to them), ``pairs`` (source, target)
    bitext for IBM Model 1. Any of them may be empty.
    """

    def __init__(self, ibm_iterations: int = 5) -> None:
        self.ibm_iterations = ibm_iterations
        self.source_lm_: KneserNeyLM | None = None
        self.target_lm_: KneserNeyLM | None = None
        self.source_char_lm_: KneserNeyLM | None = None
        self.target_char_lm_: KneserNeyLM | None = None
        self.source_bands_: NgramBands | None = None
        self.lexicon_: IBMModel1 | None = None
        self.fingerprint_: str | None = None

    def fit(
        self,
        *,
        source: Iterable[str] = (),
        target: Iterable[str] = (),
        pairs: Iterable[tuple[str, str]] = (),
        reporter: Reporter | None = None,
    ) -> QECorpus:
        rep = reporter or Reporter()
        pairs = [(s, t) for s, t in pairs if s.strip() and t.strip()]
        # each distinct text once: a source paired with both a post-edit and a reference would
        # otherwise leave the LMs without singletons, and Kneser-Ney without a discount
        src_text = list(dict.fromkeys([s for s in source if s.strip()] + [s for s, _ in pairs]))
        tgt_text = list(dict.fromkeys([t for t in target if t.strip()] + [t for _, t in pairs]))
        steps = iter(rep.track(("source side", "target side", "lexical table"), desc="building QE corpus models"))
        digest = hashlib.sha256()
        for side in (src_text, tgt_text, [f"{s}\t{t}" for s, t in pairs]):
            digest.update("\n".join(side).encode("utf-8") + b"\x00")
        self.fingerprint_ = digest.hexdigest()[:16]
        next(steps)
        if src_text:
            src_tokens = [lower_tokens(s) for s in src_text]
            self.source_lm_ = KneserNeyLM().fit(src_tokens)
            self.source_char_lm_ = KneserNeyLM().fit(char_units(s) for s in src_text)
            self.source_bands_ = NgramBands().fit(src_tokens)
        next(steps)
        if tgt_text:
            self.target_lm_ = KneserNeyLM().fit(lower_tokens(t) for t in tgt_text)
            self.target_char_lm_ = KneserNeyLM().fit(char_units(t) for t in tgt_text)
        next(steps)
        if pairs:
            self.lexicon_ = IBMModel1(self.ibm_iterations).fit([lower_tokens(s) for s, _ in pairs], [lower_tokens(t) for _, t in pairs])
            self._translations = {thr: self.lexicon_.translation_counts(thr) for thr in TRANSLATION_THRESHOLDS}
            self._pair_counts = Counter(t for s, _ in pairs for t in lower_tokens(s))
        next(steps, None)
        return self

    def translations_per_word(self, sentences: Sequence[Sequence[str]]) -> np.ndarray:
        """Per sentence: the mean number of translations per source word with t(e|f) > 0.2, and
        the mean with t(e|f) > 0.01 weighted by the inverse corpus frequency of each word
        (the WMT12 baseline's ambiguity features; unknown words count 0 translations)."""
        if self.lexicon_ is None:
            raise ModelError("no parallel corpus: the lexical table is not built")
        vocab = self.lexicon_.src_vocab_
        many, few = self._translations[0.01], self._translations[0.2]
        out = np.zeros((len(sentences), 2))
        for i, sent in enumerate(sentences):
            if not sent:
                continue
            ids = [vocab.get(t, -1) for t in sent]
            out[i, 0] = sum(int(few[k]) if k >= 0 else 0 for k in ids) / len(ids)
            weights = [1.0 / max(self._pair_counts[t], 1) for t in sent]
            out[i, 1] = sum(w * (int(many[k]) if k >= 0 else 0) for w, k in zip(weights, ids)) / sum(weights)
        return out
