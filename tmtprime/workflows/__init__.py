"""The use cases of TMTprime: what the CLI and the desktop application both call.

Each use case is one plain function taking the open :class:`~tmtprime.store.Store`
(except ``run_job``/``run_demo``, which make their own), its options as keyword
arguments, and an optional :class:`~tmtprime.progress.Reporter` for status,
progress and cancellation. Each raises a :class:`~tmtprime.errors.TmtprimeError`
subclass with a message a user can act on, and a cancel
(:class:`~tmtprime.errors.Cancelled`) leaves the store as it was: the writes of
a use case come after its last cancel check, each in one transaction
(``import_files``: one per file; files imported before a cancel stay)::

    from tmtprime.progress import ConsoleReporter
    from tmtprime.store import Store
    from tmtprime import workflows as wf

    with Store.open("P.db") as store:
        wf.import_files(store, ["tm.tmx"], role="tm")                  # -> [ImportResult]
        wf.import_files(store, ["job.xlf"], role="document")
        wf.lookup_tm(store, threshold=50, k=3)                          # -> LookupResult
        wf.translate(store, "apertium")                                 # or an MTEngine -> TranslateResult
        wf.repair_tm(store, "apertium", min_fuzzy=50)                   # repaired TM matches -> RepairResult
        wf.train(store, name="m1")                                      # dev data needed -> TrainResult
        wf.recommend(store, systems=["tm-lookup", "apertium_eng-spa"])  # -> RecommendResult
        wf.evaluate(store)                                              # -> EvaluationResult
        wf.estimate(store, scheme="matecat")                            # -> tmtprime.cost.CostEstimate
        wf.report(store, "html", "report.html")                         # text/csv/json/html/pdf/trados-xml
        wf.export(store, "xliff", "out/", reporter=ConsoleReporter())   # -> ExportResult

    wf.run_job(wf.JobOptions(documents=["a.xlf"], tms=["tm.tmx"], out_dir="out"))  # -> JobResult
    wf.run_demo("tmtprime-demo")                                                  # the bundled sample
    wf.score_files(Meteor(lang="es"), "hyp.txt", "ref.txt")                       # -> MeteorFilesResult

Use cases return a ``*Result`` with ``render()`` (older names: ``_OLD_NAMES``).
Modules are named for the use case they hold, beside what they share
(``selection``, ``project_data``, ``model_choice``). The names above are
imported on first use, so ``import tmtprime.workflows`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "import_files": "importing",
    "file_format": "importing",
    "file_pairs": "importing",
    "lookup_tm": "lookup",
    "LookupResult": "lookup",
    "translate": "translation",
    "make_engine": "translation",
    "TranslateResult": "translation",
    "repair_tm": "repair",
    "RepairResult": "repair",
    "train": "training",
    "TrainResult": "training",
    "training_data_problem": "training_data",
    "SegmentQuery": "segment_page",
    "SegmentLine": "segment_page",
    "PickBands": "segment_page",
    "pick_bands": "segment_page",
    "segment_lines": "segment_page",
    "segment_line": "segment_page",
    "choose": "segment_page",
    "export_shown": "segment_page",
    "recommend": "recommendation",
    "RecommendResult": "recommendation",
    "evaluate": "evaluation",
    "estimate": "estimation",
    "report": "reporting",
    "export": "exporting",
    "run_job": "run",
    "JobOptions": "run",
    "JobResult": "run",
    "DocumentResult": "run",
    "run_demo": "demo",
    "project_status": "status",
    "ProjectStatus": "status",
    "score_pair": "meteor_scoring",
    "score_files": "meteor_scoring",
    "read_segment_files": "meteor_scoring",
    "score_segment_files": "meteor_scoring",
    "module_choice": "meteor_scoring",
    "MeteorFilesResult": "meteor_scoring",
    "create_project": "project_info",
    "project_info": "project_info",
    "remove_document": "project_info",
    "list_schemes": "schemes",
    "get_scheme": "schemes",
    "check_scheme_file": "schemes",
    "save_scheme": "schemes",
    "write_evaluation_plots": "evaluation",
    "ChosenModel": "model_choice",
    "model_for": "model_choice",
    "model_from_file": "model_choice",
}

# Old spellings of result types (issue 28); not in __all__.
_OLD_NAMES = {
    "LookupReport": "LookupResult",
    "TranslateReport": "TranslateResult",
    "TrainOutcome": "TrainResult",
    "RecommendOutcome": "RecommendResult",
    "DocumentOutcome": "DocumentResult",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    name = _OLD_NAMES.get(name, name)
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tmtprime.workflows' has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
