"""A project that stays whole while file dialogs list its folder and another process changes it (issue 27 item 1).

Qt's file dialogs used to read the project file (content sniffing for the
"type" column); closing that descriptor dropped the process's SQLite locks,
and a CLI job then deleted the WAL under the window (data lost, then "disk
image is malformed"). The scenario (``project_whole.run_scenario``) runs here
in the offscreen window and, as a user would meet it, in the real application
under Xvfb.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, require
from tests.gui.conftest import wait_idle
from tests.gui.project_whole import NEW_DOCUMENT, run_scenario


def _check(result: dict, project: Path) -> None:
    folder = str(project.parent)
    assert result["listed"] == [folder, folder, folder], result["listed"]
    assert result["deleted_descriptors"] == []
    assert result["integrity"] == "ok"
    assert NEW_DOCUMENT in result["documents_after_refresh"]
    assert result["reopened"] is True
    assert result["errors"] == []


def test_dialogs_and_a_cli_import_leave_the_project_whole(window, project_path):
    _check(run_scenario(window, project_path), project_path)


def test_the_window_holds_no_project_file_between_units_of_work(window, project_path, qtbot):
    window.segments.reload()
    wait_idle(qtbot, window)  # between units of work: the page, the bands, the estimate and the status are read
    fd_dir = Path(f"/proc/{os.getpid()}/fd")
    held = []
    for fd in fd_dir.iterdir():
        try:
            held.append(os.readlink(fd))
        except OSError:
            pass
    assert not [h for h in held if h.startswith(str(project_path))]


def test_a_storage_error_in_a_slot_is_a_message_in_the_window(window, project_path):
    from tmtprime.errors import StoreError

    try:
        raise StoreError(f"{project_path}: database disk image is malformed")
    except StoreError:
        sys.excepthook(*sys.exc_info())
    assert window.errors == [f"{project_path}: database disk image is malformed"]
    window.errors.clear()


def test_the_real_application_under_xvfb_keeps_the_project_whole(project_path, tmp_path):
    require(shutil.which("xvfb-run") is not None, "xvfb-run")
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", XDG_CONFIG_HOME=str(tmp_path / "config"),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))  # fmt: skip
    out = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", sys.executable, str(ROOT / "tests" / "gui" / "whole_app.py"), str(project_path)],
        capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    _check(result, project_path)
    assert result["alive"] is True
