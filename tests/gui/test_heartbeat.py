"""The benchmark hook (gui/heartbeat.py): nothing without TMTPRIME_HEARTBEAT; with it, the window writes when it is
busy and where the bench clicks (bench/gui_xvfb.py drives the real application with those points)."""

from __future__ import annotations

from PySide6.QtCore import QPoint

from tests.gui.conftest import wait_idle
from tmtprime.gui import heartbeat
from tmtprime.gui.segments import COLUMNS


def test_without_the_variable_nothing_is_installed(window, monkeypatch):
    monkeypatch.delenv("TMTPRIME_HEARTBEAT", raising=False)
    assert heartbeat.install(window) is None


def test_the_window_writes_its_busy_changes_and_where_the_bench_clicks(window, qtbot, tmp_path, monkeypatch):
    beat = tmp_path / "beat.txt"
    monkeypatch.setenv("TMTPRIME_HEARTBEAT", str(beat))
    wait_idle(qtbot, window)
    installed = heartbeat.install(window)
    assert installed is not None
    window.refresh()  # the views read the project again: busy, then quiet
    qtbot.waitUntil(lambda: "busy" in beat.read_text() and not window.busy, timeout=60000)
    qtbot.wait(100)
    lines = [line.split() for line in beat.read_text().splitlines()]
    states = [line[2] for line in lines if line[0] == "busy"]
    assert states[-1] == "0" and "1" in states, states
    at = {line[1]: QPoint(int(line[2]), int(line[3])) for line in lines if line[0] == "at"}
    header, text = window.segments.table.horizontalHeader(), window.segments.text
    assert header.logicalIndexAt(header.viewport().mapFromGlobal(at["confidence-header"]).x()) == COLUMNS.index("Confidence")
    assert text.rect().contains(text.mapFromGlobal(at["text-filter"]))
    installed.timer.stop()
