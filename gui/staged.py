"""UI work in small pieces: one step per turn of the event loop, so painting, input and timers go in between.

Showing a new estimate fills five tables, asks for three charts and tells
the other views; done in one slot, those pieces add up to 40-110 ms of the
UI thread on a loaded machine (``bench/gui_heartbeat.py --why``). A
:class:`Steps` runs them one per turn instead (a zero-interval timer).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from PySide6.QtCore import QObject, QTimer, Slot


class Steps(QObject):
    """Runs steps in order, one per turn of the event loop; :meth:`start` again drops those not yet run."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._steps: deque[Callable[[], object]] = deque()
        self._timer = QTimer(self, interval=0)
        self._timer.timeout.connect(self._next)

    @property
    def busy(self) -> bool:
        """Steps are left to run."""
        return bool(self._steps)

    def start(self, steps: Iterable[Callable[[], object]]) -> None:
        """Run ``steps`` from the next turn on (an empty list only drops what was left)."""
        self._steps = deque(steps)
        if self._steps:
            self._timer.start()
        else:
            self._timer.stop()

    @Slot()
    def _next(self) -> None:
        step = self._steps.popleft()
        if not self._steps:
            self._timer.stop()
        step()
