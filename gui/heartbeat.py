"""A heartbeat for benchmarks: with ``TMTPRIME_HEARTBEAT=FILE``, the window writes to FILE how late its UI thread is.

``bench/gui_xvfb.py`` runs the real application under an X server, drives it
with xdotool as a user would, and reads this file. Lines, ``T`` being
``time.monotonic()`` (one clock for every process of the machine):

* ``gap T MS``: a tick of a 10 ms timer came ``MS`` ms after the one before
  (written when above 20 ms);
* ``busy T 0|1``: the window starts or stops waiting for work (``MainWindow.busy``);
* ``at NAME X Y``: the screen point of something a benchmark clicks (the
  segment list's Confidence header and text filter), written whenever the
  window becomes quiet or another tab is shown.

Without the variable nothing is installed.
"""

from __future__ import annotations

import os
import time
from typing import TextIO

from PySide6.QtCore import QObject, QPoint, QTimer

TICK_MS = 10
WRITE_ABOVE_MS = 20


class Heartbeat(QObject):
    """The timer and the file of one window."""

    def __init__(self, window, out: TextIO) -> None:  # noqa: ANN001 - MainWindow
        super().__init__(window)
        self.window, self.out = window, out
        self.last = time.monotonic()
        self.busy: bool | None = None
        self.timer = QTimer(self, interval=TICK_MS)
        self.timer.timeout.connect(self.tick)
        self.timer.start()
        window.tabs.currentChanged.connect(lambda _i: QTimer.singleShot(300, self.where))

    def write(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def tick(self) -> None:
        now = time.monotonic()
        if (now - self.last) * 1000 > WRITE_ABOVE_MS:
            self.write(f"gap {now:.4f} {(now - self.last) * 1000:.1f}")
        self.last = now
        busy = self.window.busy
        if busy != self.busy:
            self.busy = busy
            self.write(f"busy {now:.4f} {int(busy)}")
            if not busy:
                self.where()

    def where(self) -> None:
        """Where the segment list's Confidence header and text filter are on the screen."""
        from tmtprime.gui.segments import COLUMNS

        view = self.window.segments
        header = view.table.horizontalHeader()
        column = COLUMNS.index("Confidence")
        centre = QPoint(header.sectionViewportPosition(column) + header.sectionSize(column) // 2, header.height() // 2)
        for name, point in (("confidence-header", header.viewport().mapToGlobal(centre)),
                            ("text-filter", view.text.mapToGlobal(view.text.rect().center()))):  # fmt: skip
            self.write(f"at {name} {point.x()} {point.y()}")


def install(window) -> Heartbeat | None:  # noqa: ANN001 - MainWindow
    """Start the heartbeat of ``window`` if ``TMTPRIME_HEARTBEAT`` names a file (appended to)."""
    path = os.environ.get("TMTPRIME_HEARTBEAT")
    if not path:
        return None
    return Heartbeat(window, open(path, "a", encoding="utf-8"))  # noqa: SIM115 - open while the window lives
