"""numba compilation with an on-disk cache, shared by the scorer's compiled parts (aligner, matchers, statistics).

WHY one place: every compiled function must agree on where machine code is
cached, and on what happens when no cache directory is writable.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numba

from tmtprime.paths import cache_dir


def compiled(func: Callable) -> Callable:
    """``func`` compiled on first use, the machine code cached on disk for the next runs.

    The cache lives in TMTprime's per-user cache directory (``numba/`` inside
    ``TMTPRIME_CACHE_DIR`` or ``~/.cache/tmtprime``), never next to the
    installed package: a read-only or system-wide site-packages works, the
    one-off compile is paid once per user (and announced, see
    ``aligner.compile_now``), and clearing that directory clears both the
    machine code and the note that it exists. A ``NUMBA_CACHE_DIR`` the user
    set wins. Without any writable place it compiles in every process.
    """
    if not os.environ.get("NUMBA_CACHE_DIR"):
        try:
            numba.config.CACHE_DIR = str(cache_dir() / "numba")
        except OSError:  # no writable home: numba looks for a place of its own
            pass
    try:
        return numba.njit(cache=True)(func)
    except RuntimeError:  # numba found no writable cache location
        return numba.njit(func)
