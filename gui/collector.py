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
CHECK_FULL_S = 1.0
"""How often, at most, the oldest generation is counted to see whether a full collection is due (a few ms)."""


class UiThreadCollector(QObject):
    """Turns automatic collection off and collects from a timer of the UI thread instead; :meth:`stop` undoes it."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self._was_enabled = gc.isenabled()
        self._long_lived = 0
        self._last_check = 0.0
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
            self._long_lived = len(gc.get_objects(2))
            self._timer.start()

    def collect(self) -> int:
        """Collect the oldest generation due, as the automatic collector would; the objects freed."""
        counts = gc.get_count()
        if counts[2] > self.thresholds[2] and self._full_due():
            freed = gc.collect(2)
            self._long_lived = len(gc.get_objects(2))
            return freed
        for generation in (1, 0):
            if counts[generation] > self.thresholds[generation]:
                return gc.collect(generation)
        return 0

    def _full_due(self) -> bool:
        """CPython's rule: a full collection once the oldest generation grew by a quarter since the last one (a full
        collection walks every object with the interpreter lock held: 0.1 s for 150,000 objects at load 30)."""
        now = time.monotonic()
        if now - self._last_check < CHECK_FULL_S:
            return False
        self._last_check = now
        return len(gc.get_objects(2)) > 1.25 * self._long_lived

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
