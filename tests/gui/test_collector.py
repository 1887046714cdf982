"""Garbage is collected on the UI thread only (gui/collector.py; docs/experiments/gui.md, session 4).

A collection run by a worker thread (the one that unpacks a page or an
estimate from the project's child allocates the most) finalised Qt objects of
closed windows off their thread, and the process segfaulted now and then.
These tests record the thread of every collection that freed something, and
the thread that finalised a closed window's leftovers.
"""

from __future__ import annotations

import gc
import threading
from pathlib import Path

import pytest

from tests.gui.conftest import wait_idle, wait_rows


class _Finalised:
    """Notes the thread it is finalised on; kept in a reference cycle with a Qt object, as a closed view's parts are."""

    threads: list[str] = []

    def __init__(self, qt_object: object) -> None:
        self.qt_object = qt_object
        self.me = self

    def __del__(self) -> None:
        _Finalised.threads.append(threading.current_thread().name)


@pytest.fixture
def collections():
    """(thread name, objects freed) of every collection while the test runs."""
    seen: list[tuple[str, int]] = []

    def note(phase: str, info: dict) -> None:
        if phase == "stop":
            seen.append((threading.current_thread().name, info["collected"]))

    gc.callbacks.append(note)
    _Finalised.threads = []
    yield seen
    gc.callbacks.remove(note)


def _wait_finalised(qtbot, count: int) -> None:
    """Allocate on the UI thread past the youngest generation's threshold; the UI thread's timer then collects."""
    hold = [[] for _ in range(2 * gc.get_threshold()[0])]
    qtbot.waitUntil(lambda: len(_Finalised.threads) == count, timeout=10000)
    del hold


def _off_ui_thread(seen: list[tuple[str, int]]) -> list[tuple[str, int]]:
    main = threading.main_thread().name
    return [(name, freed) for name, freed in seen if name != main]


def test_a_worker_threads_allocations_leave_the_garbage_to_the_ui_thread(qtbot, collections):
    from PySide6.QtCore import QObject, QThreadPool

    from tmtprime.gui.app import application
    from tmtprime.gui.worker import pack, unpack

    application()
    _Finalised(QObject())  # garbage now: only its cycle keeps it
    answer = pack([{"segment": i, "text": f"line {i}", "words": [str(i)] * 3} for i in range(20000)])
    pages = []
    for _ in range(3):
        QThreadPool.globalInstance().start(lambda: pages.append(len(unpack(answer))))
    assert QThreadPool.globalInstance().waitForDone(60000) and pages == [20000] * 3
    _wait_finalised(qtbot, 1)
    assert _Finalised.threads == [threading.main_thread().name]
    assert _off_ui_thread(collections) == []


def test_a_closed_windows_leftovers_are_finalised_on_the_ui_thread_while_pages_arrive(window, qtbot, tmp_path: Path,
                                                                                      collections):  # fmt: skip
    """Open a project, close it for another, F5, page through the list: no collection runs on a worker thread."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QWidget

    from tests.gui.conftest import build_project
    from tmtprime.gui.segments import COLUMNS

    closed = QWidget()
    _Finalised(closed)
    closed.deleteLater()
    del closed
    (tmp_path / "big").mkdir()
    for round_ in range(2):
        _Finalised(QWidget())  # a closed view's parts in a cycle, Python-owned
        assert window.open_project(str(build_project(tmp_path / "big", copies=15)) if round_ else str(window.context.store.location))
        view = window.segments
        window.tabs.setCurrentWidget(view)
        wait_rows(qtbot, view)
        window.act_refresh.trigger()  # F5: every view reloads, the estimate is made again
        view.model.sort(COLUMNS.index("Confidence"), Qt.SortOrder.DescendingOrder)
        view.model.fetch_all()
        wait_idle(qtbot, window)
    _wait_finalised(qtbot, 3)
    assert set(_Finalised.threads) == {threading.main_thread().name}
    assert _off_ui_thread(collections) == []


def test_the_collector_collects_what_passed_the_threshold_and_stop_gives_collection_back(qtbot):
    from tmtprime.gui import collector
    from tmtprime.gui.app import application

    app = application()
    running = collector.install(app)
    assert running is collector.install(app) and running.running and not gc.isenabled()
    gc.collect()
    assert running.collect() == 0  # nothing passed a threshold
    for _ in range(running.thresholds[0] + 1):
        _Finalised(None)
    assert running.collect() >= running.thresholds[0]
    running.stop()
    try:
        assert gc.isenabled() and not running.running
    finally:
        collector.install(app)
    assert not gc.isenabled()


def test_the_window_on_a_real_x_server_survives_frequent_collections(project_path: Path, tmp_path: Path):
    """tests/gui/collections_driver.py on Xvfb: open, page, F5, sort, open another, drop the window; twice."""
    import os
    import shutil
    import subprocess
    import sys

    from tests.conftest import ROOT, require
    from tests.gui.conftest import build_project

    require(shutil.which("xvfb-run") is not None, "xvfb-run")
    (tmp_path / "other").mkdir()
    other = build_project(tmp_path / "other", copies=15)
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", XDG_CONFIG_HOME=str(tmp_path / "config"),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))  # fmt: skip
    out = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", sys.executable, "-X", "faulthandler",
         "-m", "tests.gui.collections_driver", str(project_path), str(other), "2"],
        capture_output=True, text=True, timeout=600, env=env, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0 and "2 rounds" in out.stdout, out.stdout + out.stderr[-3000:]
    assert "error:" not in out.stdout
