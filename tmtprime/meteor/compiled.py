"""numba compilation with an on-disk cache, shared by the scorer's compiled parts (aligner, matchers, statistics).

WHY one place: every compiled function must agree on where machine code is
cached, and on what happens when no cache directory is writable.
"""

from __future__ import annotations

from collections.abc import Callable

import numba

from tmtprime.paths import cache_dir


def compiled(func: Callable) -> Callable:
    """``func`` compiled on first use, the machine code cached on disk for the next runs.

    numba caches next to this file, or in its user-wide cache when the
    package directory is not writable (a system-wide install); only where
    neither can be written does it fall back to TMTprime's cache directory
    (``TMTPRIME_CACHE_DIR``), and without any writable place it compiles
    in every process (the aligner, the matchers and the statistics).
    """
    try:
        return numba.njit(cache=True)(func)
    except RuntimeError:  # numba found no writable cache location
        pass
    try:
        numba.config.CACHE_DIR = str(cache_dir() / "numba")
        return numba.njit(cache=True)(func)
    except (OSError, RuntimeError):
        return numba.njit(func)
