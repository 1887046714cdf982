"""Progress and cancellation for long work: one small reporter for the CLI and the GUI.

Long work (import, TM lookup, MT, training, recommendation, reports) takes a
:class:`Reporter` — status text, progress, and a "was cancel requested?"
flag, the task-state split of Orange3 — so the same function drives a CLI
progress bar (:class:`ConsoleReporter`) and a GUI worker thread (a subclass
that emits Qt signals, in ``tmtprime.gui``). Work calls :meth:`Reporter.check`
(or iterates through :meth:`Reporter.track`) between steps; a cancel raises
:class:`~tmtprime.errors.Cancelled`, and the unit of work it interrupts rolls
back, so the store is left as it was.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

from tmtprime.errors import Cancelled

T = TypeVar("T")

class Reporter:
    """Receives status and progress of one task and carries its cancel flag.

    The base class reports nothing (a silent task that can still be
    cancelled); subclasses override :meth:`on_status` and :meth:`on_progress`.
    Thread-safe: the cancel flag is set from the UI thread while work runs on
    another one.
    """

    def __init__(self) -> None:
        self._cancel = threading.Event()

    def __deepcopy__(self, memo: dict) -> Reporter:
        """The reporter itself: a copy of the work (scikit-learn's ``clone``) reports to the same task."""
        return self

    # what the work calls
    def status(self, text: str) -> None:
        """A new phase of the work began (``"reading TM"``, ``"grid search"``)."""
        self.on_status(text)

    def progress(self, done: int, total: int | None = None) -> None:
        """``done`` of ``total`` steps of the current phase are finished."""
        self.on_progress(done, total)

    def check(self) -> None:
        """Raise :class:`~tmtprime.errors.Cancelled` if a cancel was requested."""
        if self._cancel.is_set():
            raise Cancelled()

    def track(self, items: Iterable[T], *, total: int | None = None, desc: str = "", unit: str = "it") -> Iterator[T]:
        """Yield ``items`` as one phase: status ``desc``, progress per item, a cancel check before each."""
        if total is None and hasattr(items, "__len__"):
            total = len(items)  # type: ignore[arg-type]
        if desc:
            self.status(desc)
        self.progress(0, total)
        done = 0
        for item in items:
            self.check()
            yield item
            done += 1
            self.progress(done, total)
        self.finish_phase()

    def finish_phase(self) -> None:
        """The current phase is over (a progress bar may close)."""

    # what the caller (CLI, GUI) calls
    def request_cancel(self) -> None:
        """Ask the work to stop at its next check."""
        self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel.is_set()

    # what subclasses override
    def on_status(self, text: str) -> None:
        pass

    def on_progress(self, done: int, total: int | None) -> None:
        pass


class CancelOnly(Reporter):
    """Shares another reporter's cancel flag and reports nothing: for the steps inside one phase of a
    caller that reports the phase itself (one line per document, not one phase per document)."""

    def __init__(self, outer: Reporter) -> None:
        super().__init__()
        self._outer = outer

    def check(self) -> None:
        self._outer.check()

    @property
    def cancel_requested(self) -> bool:
        return self._outer.cancel_requested


class ConsoleReporter(Reporter):
    """Progress on stderr: a tqdm bar on a terminal, a few plain lines in a log (``-q``: a plain Reporter instead).

    When the stream is not a terminal, a phase prints its start, then a line
    at most every ``interval`` seconds, then its end — no carriage-return spam
    in CI logs or files.
    """

    def __init__(self, *, stream: TextIO | None = None, interval: float = 10.0) -> None:
        super().__init__()
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self._desc = ""
        self._bar = None
        self._last_line = 0.0
        self._last: tuple[int, int | None] = (0, None)
        try:
            self._tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self._tty = False

    def on_status(self, text: str) -> None:
        self._close_bar()
        self._desc = text
        self._last = (0, None)
        if not self._tty:
            print(f"{text} ...", file=self.stream, flush=True)
            self._last_line = time.monotonic()

    def on_progress(self, done: int, total: int | None) -> None:
        self._last = (done, total)
        if self._tty:
            if self._bar is None:
                from tqdm import tqdm

                self._bar = tqdm(total=total, desc=self._desc, leave=False, dynamic_ncols=True, file=self.stream)
            if total is not None and self._bar.total != total:
                self._bar.total = total
            self._bar.n = done
            self._bar.refresh()
            return
        now = time.monotonic()
        if now - self._last_line >= self.interval:
            of = f"/{total}" if total is not None else ""
            print(f"{self._desc or 'working'}: {done}{of}", file=self.stream, flush=True)
            self._last_line = now

    def finish_phase(self) -> None:
        self._close_bar()
        if not self._tty and self._desc:
            done, total = self._last
            of = f"/{total}" if total is not None else ""
            print(f"{self._desc}: {done}{of} done", file=self.stream, flush=True)

    def _close_bar(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def silent(reporter: Reporter | None) -> Reporter:
    """``reporter``, or a silent one: the library's default is to report nothing (a CLI passes a console one)."""
    return reporter if reporter is not None else Reporter()
