"""Use case "import": files into a project, each in its own transaction.

A bad file (or a cancel while it is read) changes nothing and stops the
call with an error naming the file, the line or unit, and the problem; the
files imported before it stay imported. The format is detected from the
content unless ``fmt`` says otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

from tmtprime.errors import UsageError
from tmtprime.formats import ColumnMapping, detect_format, read_tm
from tmtprime.progress import Reporter
from tmtprime.store import ImportResult, Store, import_file
from tmtprime.store.corpora import CorpusRecord
from tmtprime.store.importer import infer_role


def import_files(
    store: Store,
    files: Sequence[str | os.PathLike[str]],
    *,
    role: str | None = None,
    fmt: str | None = None,
    mapping: ColumnMapping | None = None,
    name: str | None = None,
    target_file: str | os.PathLike[str] | None = None,
    reporter: Reporter | None = None,
) -> list[ImportResult]:
    """Import ``files`` as ``role`` (``tm``, ``dev`` or ``document``); one result per file, in order.

    Corpora (role ``corpus``) go through :func:`import_corpora`.

    Without a role each file gets the one its content makes unambiguous (a TMX is a TM, anything
    else a document: :func:`~tmtprime.store.importer.infer_role`), and its result says why.
    """
    reporter = reporter or Reporter()
    if name and len(files) > 1:
        raise UsageError("a document name names one document: give one file with it (--name)")
    if target_file and len(files) > 1:
        raise UsageError("a target file is the translation of one file: give one file with it (--target-file)")
    results = []
    for file in files:
        reporter.check()
        chosen, why = (role, None) if role else infer_role(file, fmt)
        result = import_file(store, file, role=chosen, fmt=fmt, mapping=mapping, name=name, target_file=target_file, reporter=reporter)
        results.append(replace(result, role_reason=why))
    return results


def import_corpora(
    store: Store,
    files: Sequence[str | os.PathLike[str]],
    *,
    fmt: str | None = None,
    mapping: ColumnMapping | None = None,
    target_file: str | os.PathLike[str] | None = None,
    reporter: Reporter | None = None,
) -> list[CorpusRecord]:
    """Import corpora as project resources (plain text: monolingual target text; else parallel), each in one transaction."""
    reporter = reporter or Reporter()
    if target_file and len(files) > 1:
        raise UsageError("a target file is the translation of one file: give one file with it (--target-file)")
    return [store.corpora.import_file(f, fmt=fmt, mapping=mapping, target_file=target_file, reporter=reporter) for f in files]


def file_format(path: str | os.PathLike[str]) -> str:
    """The format ``path`` would be imported as (``csv``/``tsv`` take a column mapping); a bad file is refused here."""
    return detect_format(path)


def file_pairs(
    path: str | os.PathLike[str],
    *,
    mapping: ColumnMapping | None = None,
    source_lang: str | None = None,
    target_lang: str | None = None,
    target_file: str | os.PathLike[str] | None = None,
) -> list[tuple[str, str]]:
    """The (source, target) pairs of a TM or bitext file outside a project (what the scorer's resource builders learn from)."""
    _info, units = read_tm(path, mapping=mapping, source_lang=source_lang, target_lang=target_lang, target_file=target_file)
    return [(u.source, u.target) for u in units]
