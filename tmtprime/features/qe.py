"""Black-box quality-estimation features of one (source, translation) pair.

What predicts post-editing effort when nothing is known of the MT system and
there may be no TM: the 17 features of the WMT12 QE shared task's baseline
(Callison-Burch et al. 2012; Specia et al. 2013) plus general-language word
frequencies and character LMs. Columns come in groups, each present only
when its resource exists (absent, not faked):

* ``surface`` (always): lengths, mean token length, target type/token ratio,
  punctuation, numbers, capitals and words copied from the source;
* ``wordfreq``: Zipf frequencies of both sides (:mod:`~tmtprime.features.frequency`)
  where ``wordfreq`` has both languages;
* ``lm``, ``charlm``, ``bands``, ``lexicon``: from a :class:`~tmtprime.features.corpus.QECorpus`
  (word and character LMs of each side, n-gram frequency quartiles of the source,
  IBM Model 1 ambiguity and lexical scores);
* ``general``: the same corpus columns from a general-domain bitext TMTprime
  ships for the language pair (:mod:`~tmtprime.features.general_corpus`);
* ``pseudo``: agreement with an installed rule-based MT of the source, and
  ``roundtrip``: the translation translated back by it, against the source
  (:mod:`~tmtprime.features.pseudo_reference`);
* ``dictionary``: the source's content words whose translations in that MT's
  bilingual dictionary occur in the translation, and the reverse
  (:mod:`~tmtprime.features.bilingual_dictionary`).

Names are ``qe_<group>_<feature>``, so an ablation drops a group by prefix.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

from tmtprime.errors import ModelError
from tmtprime.features.bilingual_dictionary import DICTIONARY_NAMES, ApertiumDictionary
from tmtprime.features.corpus import BAND_ORDERS, QECorpus, char_units
from tmtprime.features.frequency import FREQUENCY_NAMES, base_language, frequency_features, has_frequencies
from tmtprime.features.pseudo_reference import PSEUDO_NAMES, pseudo_reference_scores, roundtrip_scores
from tmtprime.mt.engine import MTEngine
from tmtprime.tokens import CODE_PATTERNS, is_word, lower_tokens, tokenize

GROUPS = ("surface", "wordfreq", "lm", "charlm", "bands", "lexicon", "general", "pseudo", "roundtrip", "dictionary")
_CORPUS_GROUPS = ("lm", "charlm", "bands", "lexicon")
QE_FEATURE_SET_VERSION = "1"
"""Bumped whenever a QE feature's definition changes."""

_SURFACE = (
    "src_tokens",
    "tgt_tokens",
    "len_ratio",
    "char_ratio",
    "src_token_chars",
    "tgt_token_chars",
    "tgt_occurrences",
    "src_punct",
    "tgt_punct",
    "punct_diff",
    "number_mismatch",
    "capital_diff",
    "copied_share",
)
_LM = ("src_logprob", "src_total", "src_oov", "tgt_logprob", "tgt_total", "tgt_min", "tgt_oov")
_CHARLM = ("src_logprob", "tgt_logprob")
_BANDS = (*(f"{n}gram_q{q}" for n in BAND_ORDERS for q in (1, 4)), "unigrams_seen")
_LEXICON = ("translations_0.2", "translations_0.01_weighted", "fwd_logprob", "src_coverage", "tgt_coverage")
_NUMBER = CODE_PATTERNS["number"]


def _surface(source: str, target: str, src: list[str], tgt: list[str]) -> list[float]:
    src_words = [t for t in src if is_word(t)]
    tgt_words = [t for t in tgt if is_word(t)]
    src_punct = sum(1 for t in src if not t[0].isalnum())
    tgt_punct = sum(1 for t in tgt if not t[0].isalnum())
    src_numbers, tgt_numbers = Counter(_NUMBER.findall(source)), Counter(_NUMBER.findall(target))
    src_caps = sum(1 for t in tokenize(source)[1:] if t[:1].isupper())
    tgt_caps = sum(1 for t in tokenize(target)[1:] if t[:1].isupper())
    src_vocab = set(src_words)
    return [
        float(len(src)),
        float(len(tgt)),
        math.log((len(tgt) + 1) / (len(src) + 1)),
        math.log((len(target) + 1) / (len(source) + 1)),
        sum(map(len, src_words)) / max(len(src_words), 1),
        sum(map(len, tgt_words)) / max(len(tgt_words), 1),
        len(tgt_words) / max(len(set(tgt_words)), 1),
        float(src_punct),
        float(tgt_punct),
        abs(src_punct - tgt_punct) / max(len(src), 1),
        float(sum(((src_numbers - tgt_numbers) + (tgt_numbers - src_numbers)).values())),
        float(abs(src_caps - tgt_caps)),
        sum(1 for t in tgt_words if t in src_vocab) / max(len(tgt_words), 1),
    ]


class QEFeatures:
    """Feature matrix of (source, target) pairs from the resources at hand.

    ``QEFeatures("en", "es", corpus).transform(sources, targets)`` returns one
    row per pair with columns :attr:`names`; ``groups`` restricts the columns
    to some of :data:`GROUPS` (for ablations). Deterministic: the same pairs
    and resources give the same matrix.
    """

    def __init__(self, source_lang: str, target_lang: str, corpus: QECorpus | None = None, groups: Sequence[str] = GROUPS,
                 general: QECorpus | None = None, pseudo: MTEngine | None = None, back: MTEngine | None = None,
                 dictionary: ApertiumDictionary | None = None) -> None:
        unknown = set(groups) - set(GROUPS)
        if unknown:
            raise ModelError(f"unknown QE feature group(s) {sorted(unknown)}: choose from {', '.join(GROUPS)}")
        self.source_lang, self.target_lang, self.corpus = source_lang, target_lang, corpus
        available = {
            "surface": True,
            "wordfreq": has_frequencies(source_lang) and has_frequencies(target_lang),
            "lm": corpus is not None and corpus.source_lm_ is not None and corpus.target_lm_ is not None,
            "charlm": corpus is not None and corpus.source_char_lm_ is not None and corpus.target_char_lm_ is not None,
            "bands": corpus is not None and corpus.source_bands_ is not None,
            "lexicon": corpus is not None and corpus.lexicon_ is not None,
            "general": general is not None,
            "pseudo": pseudo is not None,
            "roundtrip": back is not None,
            "dictionary": dictionary is not None,
        }
        self.pseudo, self.back, self.dictionary = pseudo, back, dictionary
        self.groups = tuple(g for g in GROUPS if g in groups and available[g])
        self._general = QEFeatures(source_lang, target_lang, general, _CORPUS_GROUPS) if "general" in self.groups else None

    @property
    def fingerprint(self) -> str:
        """Identifies the columns' values: languages, groups and the corpus the models came from."""
        corpus = self.corpus.fingerprint_ if self.corpus is not None else "none"
        if self._general is not None:
            corpus += f"+{self._general.corpus.fingerprint_}"
        if "pseudo" in self.groups:
            corpus += f"+{self.pseudo.describe()}"
        if "roundtrip" in self.groups:
            corpus += f"+back:{self.back.describe()}"
        if "dictionary" in self.groups:
            corpus += f"+{self.dictionary.describe()}"
        key = f"{base_language(self.source_lang)}|{base_language(self.target_lang)}|{','.join(self.groups)}|{corpus}"
        return hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]

    @property
    def names(self) -> tuple[str, ...]:
        per_group = {
            "surface": _SURFACE,
            "wordfreq": tuple(f"src_{n}" for n in FREQUENCY_NAMES[:-1]) + tuple(f"tgt_{n}" for n in FREQUENCY_NAMES),
            "lm": _LM,
            "charlm": _CHARLM,
            "bands": _BANDS,
            "lexicon": _LEXICON,
            "general": tuple(n.removeprefix("qe_") for n in self._general.names) if self._general is not None else (),
            "pseudo": PSEUDO_NAMES,
            "roundtrip": PSEUDO_NAMES,
            "dictionary": DICTIONARY_NAMES,
        }
        return tuple(f"qe_{g}_{n}" for g in self.groups for n in per_group[g])

    def transform(self, sources: Sequence[str], targets: Sequence[str]) -> np.ndarray:
        if len(sources) != len(targets):
            raise ModelError(f"{len(sources)} sources but {len(targets)} translations: QE features need pairs")
        src = [lower_tokens(s) for s in sources]
        tgt = [lower_tokens(t) for t in targets]
        parts: list[np.ndarray] = []
        corpus = self.corpus
        for group in self.groups:
            if group == "surface":
                parts.append(np.array([_surface(s, t, a, b) for s, t, a, b in zip(sources, targets, src, tgt)]).reshape(len(src), len(_SURFACE)))
            elif group == "wordfreq":
                parts.append(frequency_features(src, self.source_lang)[:, :-1])  # "foreign" is for targets
                parts.append(frequency_features(tgt, self.target_lang, self.source_lang))
            elif group == "lm":
                s_lm, t_lm = corpus.source_lm_.score(src), corpus.target_lm_.score(tgt)
                s_total = s_lm[:, 0] * (np.fromiter(map(len, src), float, len(src)) + 1)
                t_total = t_lm[:, 0] * (np.fromiter(map(len, tgt), float, len(tgt)) + 1)
                parts.append(np.column_stack([s_lm[:, 0], s_total, s_lm[:, 2], t_lm[:, 0], t_total, t_lm[:, 1], t_lm[:, 2]]))
            elif group == "charlm":
                s_c = corpus.source_char_lm_.score([char_units(s) for s in sources])[:, 0]
                t_c = corpus.target_char_lm_.score([char_units(t) for t in targets])[:, 0]
                parts.append(np.column_stack([s_c, t_c]))
            elif group == "bands":
                parts.append(corpus.source_bands_.shares(src))
            elif group == "lexicon":
                parts.append(np.hstack([corpus.translations_per_word(src), corpus.lexicon_.score(src, tgt)]))
            elif group == "general":
                parts.append(self._general.transform(sources, targets))
            elif group == "pseudo":
                parts.append(pseudo_reference_scores(self.pseudo, sources, targets))
            elif group == "roundtrip":
                parts.append(roundtrip_scores(self.back, sources, targets))
            elif group == "dictionary":
                parts.append(self.dictionary.transform(sources, targets))
        if not parts:
            return np.empty((len(sources), 0))
        return np.hstack(parts)
