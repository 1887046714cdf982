"""The "project stays whole" scenario, shared by the offscreen pytest-qt test and the Xvfb run of the real app.

With the window open on a project: browse the project's folder in each file
dialog (Open project, Import, Export), import a document from the CLI in
another process, refresh, reopen. Returns what a test checks: the app's
descriptors on deleted ``-wal``/``-shm`` files (none may be left), the
project's ``integrity_check`` (made in another process: opening the file here
would itself drop this process's locks), the folders the dialogs listed, and
the documents the segment list shows after the refresh.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QFileSystemModel

NEW_DOCUMENT = "added-by-cli.tsv"


def deleted_project_descriptors(project: Path) -> list[str]:
    """Descriptors of this process on a deleted file of the project (``demo.db-wal (deleted)``)."""
    fd_dir = Path(f"/proc/{os.getpid()}/fd")
    out = []
    for fd in fd_dir.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith(str(project)) and target.endswith("(deleted)"):
            out.append(target)
    return out


def integrity(project: Path) -> str:
    """``PRAGMA integrity_check`` of the project, run in another process."""
    code = "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])"
    return subprocess.run([sys.executable, "-c", code, str(project)], capture_output=True, text=True, check=True).stdout.strip()


def cli_import(project: Path, directory: Path) -> None:
    """Import a small document from the command line, in another process (which checkpoints the WAL on exit)."""
    doc = directory / NEW_DOCUMENT
    doc.write_text("source\tmt_x\nOpen the new window\tAbra la ventana nueva\nClose every tab\tCierre todas las pestañas\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[2]), os.environ.get("PYTHONPATH", "")]))
    subprocess.run([sys.executable, "-m", "tmtprime", "import", str(project), str(doc), "--as", "document", "-q"],
                   check=True, env=env, capture_output=True, text=True)  # fmt: skip


def _wait(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)


class DialogBrowser:
    """Answers the modal dialogs the window opens: lists the project's folder in each file dialog, then cancels.

    A file dialog is left open until its folder is listed and the type column
    filled (the moment Qt's default icon provider would read every file), then
    rejected; the wizard or export dialog around it is then cancelled too.
    """

    LIST_SECONDS = 1.5

    def __init__(self) -> None:
        self.listed: list[str] = []
        self._seen: dict[int, float] = {}
        self._timer = QTimer(interval=50)
        self._timer.timeout.connect(self._poll)
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _poll(self) -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            return
        first = self._seen.setdefault(id(dialog), time.monotonic())
        if isinstance(dialog, QFileDialog):
            model = dialog.findChild(QFileSystemModel)
            if model is None or time.monotonic() - first < self.LIST_SECONDS:
                return
            if model.rowCount(model.index(dialog.directory().absolutePath())) > 0:
                self.listed.append(dialog.directory().absolutePath())
                dialog.reject()
            return
        browse = getattr(dialog, "browse_files", None)
        if browse is not None and not getattr(dialog, "_browsed", False):
            dialog._browsed = True  # type: ignore[attr-defined]
            QTimer.singleShot(0, browse)
        elif getattr(dialog, "_browsed", False):
            dialog.reject()


def run_scenario(window: Any, project: Path) -> dict[str, Any]:
    """Browse in each dialog, import from the CLI, refresh, reopen; what was observed."""
    browser = DialogBrowser()
    try:
        window.open_project_dialog()
        window.import_dialog()
        window.export_dialog()
    finally:
        browser.stop()
    window.segments.reload()  # units of work after the dialogs, as a user's next click makes
    cli_import(project, project.parent)
    after_import = deleted_project_descriptors(project)
    window.refresh()
    _wait(0.5)
    combo = window.segments.document
    documents = [combo.itemText(i) for i in range(combo.count())]
    reopened = window.open_project(str(project))
    _wait(0.5)
    return {
        "listed": browser.listed,
        "deleted_descriptors": after_import + deleted_project_descriptors(project),
        "integrity": integrity(project),
        "documents_after_refresh": documents,
        "reopened": reopened,
        "errors": list(getattr(window, "errors", [])),
    }
