"""Black-box, system-independent features per candidate, including Meteor-derived ones.

* :mod:`~tmtprime.features.extractor` — :class:`CandidateFeatureExtractor`, ``FEATURE_NAMES``;
* :mod:`~tmtprime.features.tm_models` — LMs and IBM Model 1 trained on the project's TM;
* :mod:`~tmtprime.features.lm` — interpolated Kneser-Ney trigram LM;
* :mod:`tmtprime.align.ibm1` (shared with the scorer's resource builders) — IBM Model 1 (numpy EM, sparse batch scoring);
* :mod:`~tmtprime.features.tmdiff` — how the TM source differs from the new source;
* :mod:`~tmtprime.features.editrate` — word edit rates between a segment's candidates and its TM match;
* :mod:`~tmtprime.features.ngrams` — which 2/3/4-grams of a candidate the TM targets contain;
* :mod:`~tmtprime.features.overlap` — Meteor-style exact-match statistics between two strings;
* :mod:`tmtprime.tokens` (shared with TM repair) — tokenizer and inline-code classes of software strings;
* :mod:`~tmtprime.features.qe` — black-box QE features of (source, MT) pairs without a TM (WMT12 baseline and more);
* :mod:`~tmtprime.features.corpus` — LMs, n-gram frequency bands and IBM Model 1 ambiguity from a project's corpora;
* :mod:`~tmtprime.features.frequency` — general word frequencies of 40+ languages (``wordfreq``).
"""
