"""Python's cyclic garbage collector, run on the UI thread only.

CPython collects on whichever thread crosses the allocation threshold. The
window's worker threads allocate most (unpickling a page of the segment list,
an estimate, a chart's PNG, a child's JSON lines), so a collection there
finalised Qt objects left in reference cycles by a closed window or view (its
models, QSettings, QPixmap, the Python wrappers of its widgets) off the thread
that owns them; the process died with a segmentation fault now and then
(docs/experiments/gui.md, session 4). While the application runs, automatic
collection is off and a timer on the UI thread collects the generations whose
counts passed the thresholds Python would have used.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QCoreApplication, QObject, QTimer

INTERVAL_MS = 100
"""How often the UI thread looks at the collector's counts."""
FULL_EVERY_S = 1.0
"""A full (oldest-generation) collection at most this often: it walks every object and holds the lock."""


class UiThreadCollector(QObject):
    """Turns automatic collection off and collects from a timer of the UI thread instead; :meth:`stop` undoes it."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self._was_enabled = gc.isenabled()
        self._last_full = time.monotonic()
        self._timer = QTimer(self, interval=INTERVAL_MS)
        self._timer.timeout.connect(self.collect)
        self.start()

    @property
    def running(self) -> bool:
        return self._timer.isActive()

    def start(self) -> None:
        """Automatic collection off, the timer on."""
        if not self.running:
            self._was_enabled = gc.isenabled()
            gc.disable()
            self._timer.start()

    def collect(self) -> int:
        """Collect the oldest generation whose count passed its threshold (as the automatic collector does); objects freed."""
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > self.thresholds[generation]:
                if generation == 2:
                    if time.monotonic() - self._last_full < FULL_EVERY_S:
                        continue
                    self._last_full = time.monotonic()
                return gc.collect(generation)
        return 0

    def stop(self) -> None:
        """Back to automatic collection (on any thread) as before the application started, once the garbage left is
        collected here (call it on the UI thread, with the windows to drop deleted)."""
        if not self.running:
            return
        self._timer.stop()
        gc.collect()
        if self._was_enabled:
            gc.enable()


def install(app: QCoreApplication) -> UiThreadCollector:
    """The application's collector, made on first call (``app`` owns it; call from the UI thread)."""
    existing = app.findChild(UiThreadCollector)
    if isinstance(existing, UiThreadCollector):
        existing.start()
        return existing
    return UiThreadCollector(app)
