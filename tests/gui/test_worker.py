"""The window's child-process worker runs the task function it is given, with its options, progress and cancel."""

from __future__ import annotations

import gc
import warnings

import pytest

from tests.conftest import ProgressSpy
from tests.gui.conftest import write_tsv
from tmtprime.errors import Cancelled, TmtprimeError
from tmtprime.formats import ColumnMapping
from tmtprime.gui import work
from tmtprime.gui.worker import encode_request, run_in_process
from tmtprime.store import Store


def test_a_task_function_runs_in_the_child_with_its_options(project_path, tmp_path):
    table = write_tsv(tmp_path / "extra.tsv", ["en", "es"], [["Open the menu", "Abra el menú"], ["Close it", "Ciérrelo"]])
    seen: list[int] = []
    summary = run_in_process(
        work.import_files, str(project_path), {"files": [str(table)], "role": "document",
                                               "mapping": ColumnMapping(source="en", reference="es")},
        ProgressSpy(lambda done, total: seen.append(done)),
    )  # fmt: skip
    assert "extra.tsv" in summary and seen
    with Store.open(project_path) as store:
        doc = next(d for d in store.documents.list() if d.name == "extra.tsv")
        assert [s.reference for s in store.segments.iter(document_id=doc.id)] == ["Abra el menú", "Ciérrelo"]


def test_the_childs_errors_and_a_cancel_come_back_as_the_librarys(project_path, tmp_path):
    with pytest.raises(TmtprimeError, match="nope.tsv"):
        run_in_process(work.import_files, str(project_path), {"files": [str(tmp_path / "nope.tsv")], "role": "tm"},
                       ProgressSpy(lambda done, total: None))  # fmt: skip
    cancelled = ProgressSpy(lambda done, total: None)
    cancelled.request_cancel()
    with pytest.raises(Cancelled):
        run_in_process(work.lookup, str(project_path), {}, cancelled)


def test_only_module_level_functions_can_travel():
    with pytest.raises(TypeError, match="module-level"):
        encode_request(lambda store, reporter: None, "sqlite://", {})


def test_a_finished_task_leaves_no_pipe_of_its_child_open(project_path, tmp_path):
    """The child's stdout is closed when the task ends, not left to a collection (a ResourceWarning in the window)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(TmtprimeError):
            run_in_process(work.import_files, str(project_path), {"files": [str(tmp_path / "nope.tsv")], "role": "tm"},
                           ProgressSpy(lambda done, total: None))  # fmt: skip
        gc.collect()
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []
