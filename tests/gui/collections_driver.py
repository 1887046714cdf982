"""The real window driven with frequent collections: ``python -m tests.gui.collections_driver PROJECT OTHER ROUNDS``.

Each round opens PROJECT, pages through the segment list, presses F5 (the
estimate is made again), sorts the list, opens OTHER, and drops the window
(closed and deleted); low collector thresholds and a timer forcing a
collection every 5 ms while pages and estimates arrive. Prints ``ROUNDS
rounds`` at the end; a crash ends the process on a signal. Run by
tests/gui/test_collector.py on Xvfb (xcb), the platform a user has.
"""

from __future__ import annotations

import gc
import sys
import time

from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, Qt, QTimer


def _until(done, timeout: float = 120.0) -> None:  # noqa: ANN001
    """Run the event loop until ``done()``."""
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end:
            raise SystemExit("timed out")
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)


def _round(locations: tuple[str, str]) -> bool:
    """One window: each project opened, paged, refreshed, sorted; then the window closed and deleted."""
    from tmtprime.gui.segments import COLUMNS
    from tmtprime.gui.window import MainWindow

    window = MainWindow()
    window.show_error = lambda _title, message: print("error:", message, flush=True)
    window.show()
    try:
        for location in locations:
            if not window.open_project(location):
                return False
            view = window.segments
            window.tabs.setCurrentWidget(view)
            _until(lambda: not view.model.reading)
            window.act_refresh.trigger()
            view.model.sort(COLUMNS.index("Confidence"), Qt.SortOrder.DescendingOrder)
            view.model.fetch_all()
            _until(lambda: not window.busy)
        return True
    finally:
        window.close()
        window.deleteLater()


def main(project: str, other: str, rounds: int) -> int:
    gc.set_threshold(50, 2, 2)  # before the application reads them: a collection every few hundred allocations
    from tmtprime.gui.app import application

    application()
    forced = QTimer(interval=5)
    forced.timeout.connect(lambda: gc.collect(0))
    forced.start()
    for _ in range(rounds):
        if not _round((project, other)):
            return 2
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    print(f"{rounds} rounds", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
