"""Long work off the UI thread: a Qt-signalling Reporter, a worker, and the runner that owns them.

The split follows Orange3: the work is a plain library function that takes a
:class:`tmtprime.progress.Reporter`; this module only starts it on a pool
thread, turns its status and progress into Qt signals (delivered on the UI
thread), and sets its cancel flag. A :class:`~tmtprime.errors.TmtprimeError`
ends the task with the library's message; a cancel ends it quietly (the work
rolled back, so the store is as it was).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from tmtprime.errors import Cancelled, TmtprimeError
from tmtprime.progress import Reporter
from tmtprime.gui.session import Session
from tmtprime.gui.worker import Task

log = logging.getLogger(__name__)

Work = Callable[[Reporter], Any]
"""A task: a function of the reporter that returns the task's result."""


def ask_child(session: Session, task: Task, options: dict[str, Any], deliver: Any, key: int, *,
              channel: str, reporter: Reporter | None = None) -> None:  # fmt: skip
    """``session.call(task, options)`` on Qt's thread pool; ``deliver`` (a signal) gets ``key`` and the answer or error.

    How a view asks the project's child without waiting: the answer comes as a
    queued signal on the UI thread; a TmtprimeError is delivered, not raised.
    """

    def work() -> None:
        try:
            result = session.call(task, options, reporter or Reporter(), channel=channel)
        except TmtprimeError as error:
            result = error
        try:
            deliver.emit(key, result)
        except RuntimeError:  # its receiver is gone
            pass

    QThreadPool.globalInstance().start(work)


class _Signals(QObject):
    status = Signal(str)
    progress = Signal(int, int)  # done, total (-1: unknown)
    finished = Signal(tuple)  # (result,): a run whose task returned None (a queued Signal(object)) ended in "deallocating None"
    failed = Signal(str)
    cancelled = Signal()


class QtReporter(Reporter):
    """A Reporter whose status and progress are Qt signals (emitted from the worker thread).

    Progress signals are throttled to one every 30 ms (and every phase end), so
    a loop over 100,000 items does not flood the UI thread's event queue. The
    signals' QObject belongs to ``parent`` (on the UI thread): the worker thread
    dropping the last reference to the reporter never deletes it there.
    """

    INTERVAL = 0.03

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__()
        self.signals = _Signals(parent)
        self._last = 0.0

    def on_status(self, text: str) -> None:
        try:
            self.signals.status.emit(text)
        except RuntimeError:  # the window is gone (closing while the task ends): nobody to tell
            pass

    def on_progress(self, done: int, total: int | None) -> None:
        now = time.monotonic()
        if now - self._last >= self.INTERVAL or (total is not None and done >= total) or done == 0:
            self._last = now
            try:
                self.signals.progress.emit(done, -1 if total is None else total)
            except RuntimeError:  # the window is gone
                pass


class _Job(QRunnable):
    def __init__(self, work: Work, reporter: QtReporter) -> None:
        super().__init__()
        self.work = work
        self.reporter = reporter
        self.setAutoDelete(True)

    def run(self) -> None:
        signals = self.reporter.signals
        try:
            result = self.work(self.reporter)
        except Cancelled:
            signals.cancelled.emit()
        except TmtprimeError as error:
            signals.failed.emit(str(error))
        except Exception as error:  # a bug: the user still gets one line, the log the traceback
            log.exception("task failed")
            signals.failed.emit(f"internal error ({type(error).__name__}): {error}")
        else:
            if self.reporter.cancel_requested:
                signals.cancelled.emit()
            else:
                signals.finished.emit((result,))


class TaskRunner(QObject):
    """Runs tasks one at a time, in the order started, on a worker thread and tells the window how each goes.

    ``started(title)``, ``status(text)``, ``progress(done, total)`` and
    ``ended(outcome, message)`` with outcome ``"done"``, ``"failed"`` or
    ``"cancelled"``. The caller's ``on_done(result)`` runs on the UI thread.
    """

    started = Signal(str)
    status = Signal(str)
    progress = Signal(int, int)
    ended = Signal(str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._reporter: QtReporter | None = None
        self._on_done: Callable[[Any], None] | None = None
        self._queue: deque[tuple[str, Work, Callable[[Any], None] | None]] = deque()
        self.title = ""

    @property
    def busy(self) -> bool:
        """A task runs or waits to run."""
        return self._reporter is not None or bool(self._queue)

    @property
    def running(self) -> bool:
        return self._reporter is not None

    def start(self, title: str, work: Work, on_done: Callable[[Any], None] | None = None) -> bool:
        """Start ``work``, or queue it behind the running task."""
        if self._reporter is not None:
            self._queue.append((title, work, on_done))
            return True
        reporter = QtReporter(self)
        reporter.signals.status.connect(self._relay_status)
        reporter.signals.progress.connect(self._relay_progress)
        reporter.signals.finished.connect(self._finished)
        reporter.signals.failed.connect(self._failed)
        reporter.signals.cancelled.connect(self._cancelled)
        self._reporter, self._on_done, self.title = reporter, on_done, title
        self.started.emit(title)
        self._pool.start(_Job(work, reporter))
        return True

    @Slot()
    def cancel(self) -> None:
        """Ask the running task to stop at its next check."""
        if self._reporter is not None:
            self._reporter.request_cancel()
            self.status.emit(self.tr("cancelling…"))

    def wait(self, msecs: int = -1) -> bool:
        """Block until the worker is idle (tests, closing the window)."""
        return self._pool.waitForDone(msecs)

    def _end(self) -> Callable[[Any], None] | None:
        on_done = self._on_done
        if self._reporter is not None:  # its job has sent its last signal (this one): deleted here, on the UI thread
            self._reporter.signals.deleteLater()
        self._reporter, self._on_done = None, None
        return on_done

    def _next(self) -> None:
        if self._queue and self._reporter is None:
            self.start(*self._queue.popleft())

    @Slot(str)
    def _relay_status(self, text: str) -> None:
        self.status.emit(text)

    @Slot(int, int)
    def _relay_progress(self, done: int, total: int) -> None:
        self.progress.emit(done, total)

    @Slot(tuple)
    def _finished(self, wrapped: tuple[Any]) -> None:
        (result,) = wrapped
        on_done = self._end()
        try:
            if on_done is not None:
                on_done(result)
        finally:
            self.ended.emit("done", self.tr("{task}: done").format(task=self.title))
            self._next()

    @Slot(str)
    def _failed(self, message: str) -> None:
        self._end()
        self.ended.emit("failed", message)
        self._next()

    @Slot()
    def _cancelled(self) -> None:
        self._end()
        self.ended.emit("cancelled", self.tr("{task}: cancelled, nothing was changed").format(task=self.title))
        self._next()
