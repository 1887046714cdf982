"""Heavy project work in a child process, so the UI thread never waits for the worker's hold on the GIL.

A worker *thread* shares the interpreter lock with the UI thread: long
stretches of compiled code that keep it (a model fit, a bulk insert) stop
painting and input for seconds. Import, lookup, MT, training and
recommendation therefore run in ``python -m tmtprime.gui.worker``. The task
is a function of ``(store, reporter, **options)`` (one of :mod:`.work`, the
way Orange3 hands its task function to the executor): the parent pickles the
function itself (by its module and name), the project URL and the options
into one line, then sends ``cancel`` if asked; the child answers with JSON
lines (``status``, ``progress``, then ``done``/``error``/``cancelled``) and
opens the project itself. A cancel or an error leaves the store as the use
case leaves it: unchanged. No Qt here.
"""

from __future__ import annotations

import base64
import json
import os
import pickle
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tmtprime.errors import Cancelled, TmtprimeError
from tmtprime.progress import Reporter
from tmtprime.store import Store

Task = Callable[..., Any]
"""``task(store, reporter, **options)``, a module-level function (it travels by name); returns JSON data."""


def encode_request(task: Task, url: str, options: dict[str, Any]) -> str:
    """The one line the child reads: the task function, the project URL and the options, pickled."""
    if "<" in task.__qualname__:  # a lambda or a local function cannot be found again in the child
        raise TypeError(f"a worker task must be a module-level function, not {task.__qualname__}")
    return base64.b64encode(pickle.dumps((task, url, options))).decode("ascii")


def run_in_process(task: Task, url: str, options: dict[str, Any], reporter: Reporter) -> Any:
    """Run ``task(store, reporter, **options)`` on the project at ``url`` in a child process, relaying its progress.

    Blocks the calling (worker) thread, which mostly waits on the pipe; the
    reporter's cancel flag is forwarded to the child.
    """
    request = encode_request(task, url, options)
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    child = subprocess.Popen(
        [sys.executable, "-m", "tmtprime.gui.worker"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", env=env, bufsize=1,
    )  # fmt: skip
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
        for line in child.stdout:
            message = json.loads(line)
            if "status" in message:
                reporter.status(message["status"])
            elif "progress" in message:
                done, total = message["progress"]
                reporter.progress(done, total)
            elif "done" in message:
                return message["done"]
            elif "error" in message:
                raise TmtprimeError(message["error"])
            elif "cancelled" in message:
                raise Cancelled()
        raise TmtprimeError(f"the worker process stopped unexpectedly (exit status {child.wait()})")
    finally:
        finished.set()
        try:
            child.stdin.close()
        except OSError:
            pass
        child.wait()


class _PipeReporter(Reporter):
    """The child's reporter: JSON lines on stdout (progress at most every 30 ms), ``cancel`` read from stdin."""

    def __init__(self, out: Any) -> None:
        super().__init__()
        self._out = out
        self._last = 0.0
        self._lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
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


def _listen(reporter: Reporter) -> None:
    for line in sys.stdin:
        if line.strip() == "cancel":
            reporter.request_cancel()


def child_main() -> int:
    """The child process: read the request, run it, answer."""
    task, url, options = pickle.loads(base64.b64decode(sys.stdin.readline()))
    reporter = _PipeReporter(sys.stdout)
    sys.stdout = sys.stderr  # anything else the library prints stays out of the answers
    threading.Thread(target=_listen, args=(reporter,), daemon=True).start()
    try:
        with Store.open(url) as store:
            result = task(store, reporter, **options)
    except Cancelled:
        reporter.send({"cancelled": True})
    except TmtprimeError as error:
        reporter.send({"error": str(error)})
    except Exception as error:  # a bug: one line for the user, the traceback on the child's stderr
        traceback.print_exc()
        reporter.send({"error": f"internal error ({type(error).__name__}): {error}"})
    else:
        reporter.send({"done": result})
    return 0


if __name__ == "__main__":
    raise SystemExit(child_main())
