"""The project work the GUI starts, each a function of ``(store, reporter)`` run on the worker thread.

Thin adapters to the use cases of :mod:`tmtprime.workflows` (the same ones the
CLI calls): they pass the options the views offer and return the one-line
summary the status bar shows. No business logic lives here.
"""

from __future__ import annotations

from collections.abc import Sequence

from tmtprime import workflows as wf
from tmtprime.formats import ColumnMapping
from tmtprime.progress import Reporter
from tmtprime.store import Store


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def lookup(store: Store, reporter: Reporter, *, repair: bool = False) -> str:
    """TM lookup for every segment of the project's documents; with ``repair``, then each fuzzy match
    repaired with Apertium (``tmtprime tm repair``'s use case, its defaults)."""
    lines = [_first_line(wf.lookup_tm(store, reporter=reporter).render())]
    if repair:
        lines.append(_first_line(wf.repair_tm(store, reporter=reporter).render()))
    return "; ".join(lines)


def translate(store: Store, reporter: Reporter) -> str:
    """Local MT (Apertium, for the project's language pair) where a segment has none yet."""
    return _first_line(wf.translate(store, "apertium", reporter=reporter).render())


def recommend(
    store: Store,
    reporter: Reporter,
    *,
    systems: Sequence[str] | None = None,
    model: str | None = None,
    mt_threshold: float | None = None,
) -> str:
    """Recommend a candidate for every segment of the documents, among ``systems`` (default: all)."""
    outcome = wf.recommend(store, model=model, systems=systems, mt_threshold=mt_threshold, reporter=reporter)
    return _first_line(outcome.render())


def train(store: Store, reporter: Reporter) -> str:
    """Train on the project's dev data; returns the model's name."""
    return wf.train(store, reporter=reporter).name


def import_files(
    store: Store,
    reporter: Reporter,
    files: Sequence[str],
    *,
    role: str,
    mapping: ColumnMapping | None = None,
    then_lookup: bool = False,
    then_translate: bool = False,
) -> str:
    """Import the files (``mapping`` for the CSV/TSV ones), then TM lookup and MT if asked."""
    tables = [f for f in files if wf.file_format(f) in ("csv", "tsv")]
    others = [f for f in files if f not in tables]
    results = []
    if others:
        results += wf.import_files(store, others, role=role, reporter=reporter)
    if tables:
        results += wf.import_files(store, tables, role=role, mapping=mapping, reporter=reporter)
    lines = [r.render() for r in results]
    if then_lookup:
        lines.append(lookup(store, reporter))
    if then_translate:
        lines.append(translate(store, reporter))
    return "; ".join(lines)


def export(store: Store, reporter: Reporter, fmt: str, path: str, *, role: str | None) -> str:
    """Write the picks (the user's overrides included) as ``fmt``."""
    return wf.export(store, fmt, path, role=role, reporter=reporter).render()
