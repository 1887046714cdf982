"""Heavy project work in a child process, so the UI thread never waits for the worker's hold on the GIL.

A worker *thread* shares the interpreter lock with the UI thread: long
stretches of compiled code that keep it (a model fit, a bulk insert, a job
read) stop painting and input for seconds. The work therefore runs in
``python -m tmtprime.gui.worker``: one child per task (:func:`run_in_process`:
import, lookup, MT, training, recommendation), or one long-lived child per
open project (``--serve``, see :mod:`.session`; the URL its first line) for
work that keeps what it read between calls (the estimate's job, a sorted segment list). A task is a
function of ``(store, reporter, **options)`` (one of :mod:`.work` or
:mod:`.served`, the way Orange3 hands its task function to the executor): the
parent pickles the function itself (by its module and name) and the options
into one line; the child answers with JSON lines (``status``, ``progress``,
then ``done`` with the pickled result, ``error`` or ``cancelled``) and opens
the project itself. A cancel or an error leaves the store as the use case
leaves it: unchanged. No Qt here.
"""

from __future__ import annotations

import base64
import json
import os
import pickle
import queue
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tmtprime.errors import Cancelled, TmtprimeError
from tmtprime.progress import Reporter
from tmtprime.store import Store

Task = Callable[..., Any]
"""``task(store, reporter, **options)``, a module-level function (it travels by name); returns picklable data."""


def pack(value: Any) -> str:
    return base64.b64encode(pickle.dumps(value)).decode("ascii")


def unpack(text: str) -> Any:
    return pickle.loads(base64.b64decode(text))


def encode_request(task: Task, url: str, options: dict[str, Any]) -> str:
    """The one line the child reads: the task function, the project URL and the options, pickled."""
    if "<" in task.__qualname__:  # a lambda or a local function cannot be found again in the child
        raise TypeError(f"a worker task must be a module-level function, not {task.__qualname__}")
    return pack((task, url, options))


def start_child(*arguments: str) -> subprocess.Popen[str]:
    """``python -m tmtprime.gui.worker ARGUMENTS``, importing this very ``tmtprime``; JSON lines on its stdout."""
    root = str(Path(__file__).resolve().parents[1])  # gui/ is tmtprime/gui through a link
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", "tmtprime.gui.worker", *arguments],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", env=env, bufsize=1,
    )  # fmt: skip


def relay(messages: Iterable[dict[str, Any]], reporter: Reporter) -> Any:
    """Pass a child's answers to ``reporter`` until the last one: its result, or the error it reports."""
    for message in messages:
        if "status" in message:
            reporter.status(message["status"])
        elif "progress" in message:
            done, total = message["progress"]
            reporter.progress(done, total)
        elif "done" in message:
            return unpack(message["done"])
        elif "error" in message:
            raise TmtprimeError(message["error"])
        elif "cancelled" in message:
            raise Cancelled()
    raise TmtprimeError("the worker process stopped unexpectedly")


def run_in_process(task: Task, url: str, options: dict[str, Any], reporter: Reporter) -> Any:
    """Run ``task(store, reporter, **options)`` on the project at ``url`` in a child process, relaying its progress.

    Blocks the calling (worker) thread, which mostly waits on the pipe; the
    reporter's cancel flag is forwarded to the child.
    """
    request = encode_request(task, url, options)
    child = start_child()
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(request + "\n")
    child.stdin.flush()
    finished = threading.Event()

    def forward_cancel() -> None:
        while not finished.wait(0.05):
            if reporter.cancel_requested:
                try:
                    child.stdin.write("cancel\n")
                    child.stdin.flush()
                except (BrokenPipeError, ValueError, OSError):
                    pass
                return

    threading.Thread(target=forward_cancel, daemon=True).start()
    try:
        return relay((json.loads(line) for line in child.stdout), reporter)
    finally:
        finished.set()
        try:
            child.stdin.close()
        except OSError:
            pass
        child.wait()
        child.stdout.close()  # else its pipe stays open until a collection finds it (a ResourceWarning)


class _PipeReporter(Reporter):
    """The child's reporter: JSON lines on stdout (progress at most every 30 ms), tagged with the request's id."""

    def __init__(self, out: Any, lock: threading.Lock, request: int | None = None) -> None:
        super().__init__()
        self._out = out
        self._lock = lock
        self._request = request
        self._last = 0.0

    def send(self, message: dict[str, Any]) -> None:
        if self._request is not None:
            message = {"id": self._request} | message
        with self._lock:
            self._out.write(json.dumps(message) + "\n")
            self._out.flush()

    def on_status(self, text: str) -> None:
        self.send({"status": text})

    def on_progress(self, done: int, total: int | None) -> None:
        now = time.monotonic()
        if now - self._last >= 0.03 or done == 0 or (total is not None and done >= total):
            self._last = now
            self.send({"progress": [done, total]})


def _answer(task: Task, store: Store, reporter: _PipeReporter, options: dict[str, Any]) -> None:
    """Run one task and send its outcome."""
    try:
        result = task(store, reporter, **options)
    except Cancelled:
        reporter.send({"cancelled": True})
    except TmtprimeError as error:
        reporter.send({"error": str(error)})
    except Exception as error:  # a bug: one line for the user, the traceback on the child's stderr
        traceback.print_exc()
        reporter.send({"error": f"internal error ({type(error).__name__}): {error}"})
    else:
        reporter.send({"done": pack(result)})


def child_main() -> int:
    """The child process: read the request, run it, answer."""
    task, url, options = unpack(sys.stdin.readline())
    out, sys.stdout = sys.stdout, sys.stderr  # anything else the library prints stays out of the answers
    reporter = _PipeReporter(out, threading.Lock())

    def listen() -> None:
        for line in sys.stdin:
            if line.strip() == "cancel":
                reporter.request_cancel()
        reporter.request_cancel()  # the window is gone (its end of the pipe closed): stop, leaving the store as it was

    threading.Thread(target=listen, daemon=True).start()
    with Store.open(url) as store:
        _answer(task, store, reporter, options)
    return 0


def serve_main() -> int:
    """The long-lived child of an open project: requests ``(id, channel, task, options)`` until stdin closes.

    Each channel runs its requests one after another on a thread of its own,
    so a long estimate does not hold up a page of the segment list; ``cancel
    ID`` cancels one request.
    """
    url = unpack(sys.stdin.readline())  # by the pipe, not the command line: a server URL may hold a password
    out, sys.stdout = sys.stdout, sys.stderr
    lock = threading.Lock()
    reporters: dict[int, _PipeReporter] = {}
    channels: dict[str, queue.Queue[tuple[Task, _PipeReporter, dict[str, Any]] | None]] = {}
    threads: list[threading.Thread] = []
    with Store.open(url) as store:
        with lock:
            out.write(json.dumps({"ready": True}) + "\n")
            out.flush()

        def run(requests: queue.Queue[tuple[Task, _PipeReporter, dict[str, Any]] | None]) -> None:
            while (item := requests.get()) is not None:
                task, reporter, options = item
                _answer(task, store, reporter, options)
                reporters.pop(reporter._request or 0, None)

        for line in sys.stdin:
            if line.startswith("cancel "):
                if (reporter := reporters.get(int(line.split()[1]))) is not None:
                    reporter.request_cancel()
                continue
            request, channel, task, options = unpack(line)
            reporter = reporters[request] = _PipeReporter(out, lock, request)
            if channel not in channels:
                channels[channel] = queue.Queue()
                threads.append(threading.Thread(target=run, args=(channels[channel],), daemon=True))
                threads[-1].start()
            channels[channel].put((task, reporter, options))
        for requests in channels.values():
            requests.put(None)
        for thread in threads:
            thread.join()
    return 0


if __name__ == "__main__":
    raise SystemExit(serve_main() if sys.argv[1:2] == ["--serve"] else child_main())
