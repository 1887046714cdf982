"""General-domain bitexts shipped with TMTprime, for the QE features of projects in their language pair.

The WMT12 quality-estimation baseline reads LMs and an IBM Model 1 table built
from millions of sentences; a project has at most its own post-edits, TM and
corpora (a few thousand sentences). For a language pair TMTprime ships a bitext
of (``resources/qe/<src>-<tgt>.tsv.gz``: a header ``source``/``target``, one pair a
line, csv-quoted), its models give the ``qe_general_*`` columns beside the
project's own (:mod:`~tmtprime.features.qe`). They never see a project's data, so
they need no cross-fitting and are built once per process.
Sources and licences: ``resources/NOTICE.md``; rebuild with
``bench/prepare_qe_corpus.py``.
"""

from __future__ import annotations

import csv
import gzip
from functools import lru_cache

from tmtprime.features.corpus import QECorpus
from tmtprime.features.frequency import base_language
from tmtprime.paths import resources_dir


def general_bitext_path(source_lang: str, target_lang: str):  # noqa: ANN201 - a Path or None
    """The shipped bitext of a language pair, or None where TMTprime has none."""
    path = resources_dir() / "qe" / f"{base_language(source_lang)}-{base_language(target_lang)}.tsv.gz"
    return path if path.is_file() else None


def general_pairs(source_lang: str, target_lang: str) -> list[tuple[str, str]]:
    """The (source, target) pairs of the shipped bitext of a language pair (none where there is none)."""
    path = general_bitext_path(source_lang, target_lang)
    if path is None:
        return []
    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        rows = csv.reader(f, delimiter="\t")
        next(rows, None)
        return [(row[0], row[1]) for row in rows if len(row) >= 2]


@lru_cache(maxsize=2)
def general_corpus(source_lang: str, target_lang: str) -> QECorpus | None:
    """The QE corpus models of the shipped bitext of a language pair (None where there is none)."""
    pairs = general_pairs(source_lang, target_lang)
    return QECorpus().fit(pairs=pairs) if pairs else None
