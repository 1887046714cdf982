"""The project work the GUI starts, each a function of ``(store, reporter)`` run on the worker thread.

Thin adapters to the library's use cases: they choose the options the views
offer and return the one-line summary the status bar shows. No business
logic lives here.
"""

from __future__ import annotations

from collections.abc import Sequence

from tmtprime.formats import ColumnMapping

from tmtprime.progress import Reporter
from tmtprime.store import Store
from tmtprime.gui.tasks import progress_callback


def lookup(store: Store, reporter: Reporter) -> str:
    """TM lookup for every segment of the project's documents."""
    from tmtprime.tm.project import lookup_project

    reporter.status("TM lookup")
    return lookup_project(store, callback=progress_callback(reporter)).render().splitlines()[0]


def translate(store: Store, reporter: Reporter) -> str:
    """Local MT (Apertium, the pair of the project's languages) for segments without it."""
    from tmtprime.mt.engine import create_engine
    from tmtprime.mt.project import translate_project

    project = store.project()
    engine = create_engine("apertium", source_lang=project.source_lang, target_lang=project.target_lang)
    return translate_project(store, engine, callback=progress_callback(reporter)).render().splitlines()[0]


def recommend(
    store: Store,
    reporter: Reporter,
    *,
    systems: Sequence[str] | None = None,
    model: str | None = None,
    mt_threshold: float | None = None,
) -> str:
    """Recommend a candidate for every segment of the documents."""
    from tmtprime.recommend.project import recommend_project

    reporter.status("recommending")
    outcome = recommend_project(store, model_name=model, mt_threshold=mt_threshold, callback=progress_callback(reporter))
    return f"recommended {outcome.segments} segments with model {outcome.model!r}"


def train(store: Store, reporter: Reporter) -> str:
    """Train on the project's dev data; returns the model's name."""
    from tmtprime.recommend.project import train_project

    reporter.status("training")
    name, _card, _model = train_project(store)
    return name


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
    """Import each file (one transaction each; ``mapping`` for CSV/TSV), then TM lookup and MT if asked."""
    from tmtprime.formats import detect_format
    from tmtprime.store import import_file

    lines = []
    for path in files:
        reporter.check()
        reporter.status(f"importing {path.rsplit('/', 1)[-1]}")
        tabular = detect_format(path) in ("csv", "tsv")
        result = import_file(store, path, role=role, mapping=mapping if tabular else None, progress=progress_callback(reporter))
        lines.append(result.summary())
    if then_lookup:
        lines.append(lookup(store, reporter))
    if then_translate:
        lines.append(translate(store, reporter))
    return "; ".join(lines)
