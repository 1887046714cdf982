"""Translation-memory lookup: CAT-style word-level fuzzy matching over an imported TM.

* :mod:`tmtprime.tm.tokenize` — what a token is (words, numbers, placeholders, punctuation);
* :mod:`tmtprime.tm.fuzzy` — the fuzzy score (``score_pair``, ``fuzzy_score``) and match types;
* :mod:`tmtprime.tm.index` — ``TMIndex``: best-k lookup over a large TM, lossless filters;
* :mod:`tmtprime.tm.lookup` — ``lookup_segments``: many segments, deduplicated, optionally in workers;
* :mod:`tmtprime.tm.repetitions` — first occurrences vs repetitions inside a document.

A project's TM against its documents is a use case: :func:`tmtprime.workflows.lookup_tm`.

Submodules are imported on demand so that ``import tmtprime.tm`` stays cheap.
"""
