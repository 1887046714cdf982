"""Third-party warnings as a user should see them: once, in words, and not at all under ``-q``.

Libraries warn through Python's ``warnings`` module (Dask's ``UserWarning:
Sending large graph of size 82.71 MiB``, scikit-learn's convergence notes),
which prints a file path, a line number and the code line to stderr, at every
distinct call site. During a command each warning is instead printed once as
``tmtprime: note from dask: Sending large graph ...`` — or dropped when the
user asked for ``-q``. The previous handling is restored afterwards.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


def _package(filename: str) -> str:
    """The top-level package a warning came from, guessed from its file path."""
    parts = filename.replace("\\", "/").split("/")
    for marker in ("site-packages", "dist-packages"):
        if marker in parts and parts.index(marker) + 1 < len(parts):
            return parts[parts.index(marker) + 1].removesuffix(".py")
    return "python"


@contextmanager
def third_party_warnings(*, quiet: bool, stream: TextIO | None = None) -> Iterator[None]:
    """Inside the block: warnings dropped (``quiet``) or each printed once as one line."""
    seen: set[tuple[str, str]] = set()

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:
        text = " ".join(str(message).split())
        key = (category.__name__, text)
        if key in seen:
            return
        seen.add(key)
        print(f"tmtprime: note from {_package(filename)}: {text}", file=stream or sys.stderr)

    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")
        else:
            warnings.simplefilter("default")
            warnings.showwarning = show
        yield
