"""The open project's long-lived child process: work that keeps what it read, off the UI process.

The estimate keeps the job it read so that a ticked system or an edited rate
only re-prices it; the segment list keeps its sorted, filtered lines so that
a page is a slice. Kept in the window's process, that reading and sorting
holds the interpreter lock the UI thread needs (gaps of 0.3-2 s measured on
100,000 segments); kept in one child per project (``python -m
tmtprime.gui.worker --serve``, the URL on its first line, never on the
command line), the window only receives small results. :meth:`Session.call` blocks its (non-UI) calling thread, which waits on a
pipe; a dead child is started again by the next call. No Qt here.
"""

from __future__ import annotations

import itertools
import json
import queue
import subprocess
import threading
from typing import Any

from tmtprime.errors import Cancelled, TmtprimeError
from tmtprime.progress import Reporter
from tmtprime.gui.worker import Task, pack, encode_request, relay, start_child

_STOPPED = {"error": "the worker process of the project stopped unexpectedly; try again"}


class Session:
    """Calls into the project's long-lived child, from any number of threads at once."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._child: subprocess.Popen[str] | None = None
        self._answers: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._closed = False
        self.ready = False
        """The child has opened the project and answers (it takes a second or two to start)."""

    def start(self) -> None:
        """Start the child now (it imports the library for a second or two), if it is not running."""
        with self._lock:
            self._ensure_child()

    def _ensure_child(self) -> subprocess.Popen[str]:
        if self._closed:  # closing the project cancels what was still to run for it
            raise Cancelled("the project was closed")
        if self._child is None or self._child.poll() is not None:
            self._child = start_child("--serve")
            threading.Thread(target=self._read, args=(self._child,), daemon=True).start()
            self._send(pack(self.url))
        return self._child

    def _read(self, child: subprocess.Popen[str]) -> None:
        """Route the child's answers to the calls waiting for them; when it ends, end every waiting call."""
        assert child.stdout is not None
        with child.stdout:  # closed once the child has ended it: no pipe left for a collection to find
            for line in child.stdout:
                message = json.loads(line)
                if message.get("ready"):
                    self.ready = True
                    continue
                answers = self._answers.get(message.pop("id", 0))
                if answers is not None:
                    answers.put(message)
        with self._lock:
            for answers in self._answers.values():
                answers.put({"cancelled": True} if self._closed else _STOPPED)

    def _send(self, line: str) -> None:
        child = self._ensure_child()
        assert child.stdin is not None
        try:
            child.stdin.write(line + "\n")
            child.stdin.flush()
        except (BrokenPipeError, ValueError, OSError) as error:
            raise TmtprimeError(f"the worker process of the project cannot be reached ({error})") from None

    def call(self, task: Task, options: dict[str, Any], reporter: Reporter, *, channel: str = "main") -> Any:
        """``task(store, reporter, **options)`` in the child, after the earlier calls on ``channel``; its result.

        Progress goes to ``reporter``; its cancel flag is forwarded.
        """
        encode_request(task, self.url, options)  # refuses what cannot travel
        answers: queue.Queue[dict[str, Any]] = queue.Queue()
        with self._lock:
            request = next(self._ids)
            self._answers[request] = answers
            try:
                self._send(pack((request, channel, task, options)))
            except TmtprimeError:
                del self._answers[request]
                raise

        def messages():  # noqa: ANN202 - the answers, forwarding a cancel while waiting
            sent_cancel = False
            while True:
                try:
                    message = answers.get(timeout=0.05)
                except queue.Empty:
                    if reporter.cancel_requested and not sent_cancel:
                        sent_cancel = True
                        with self._lock:
                            self._send(f"cancel {request}")
                    continue
                yield message

        try:
            return relay(messages(), reporter)
        finally:
            with self._lock:
                self._answers.pop(request, None)

    def close(self) -> None:
        """End the child without waiting for it: it finishes the request it runs and exits, or is stopped after 5 s."""
        with self._lock:
            child, self._child, self._closed = self._child, None, True
        if child is None:
            return
        try:
            assert child.stdin is not None
            child.stdin.close()
        except OSError:
            pass

        def reap() -> None:
            try:
                child.wait(5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()

        threading.Thread(target=reap, daemon=True).start()
