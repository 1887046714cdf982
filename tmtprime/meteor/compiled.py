"""The scorer's compiled parts (aligner, matchers, statistics, paraphrase lookups): numba, loaded only when it pays.

WHY lazy: importing numba and loading the cached machine code costs
0.4-0.7 s of CPU time, more than scoring a hundred pairs takes in plain
Python; ``tmtprime meteor`` on one pair must start in under 0.3 s (issue
30). So each kernel is written once, in the subset of Python numba
compiles, and runs as plain Python over NumPy arrays until the work done
would have paid for numba, in one batch or over many small ones
(:func:`want_compiled`, :data:`COMPILE_FROM`); from then on this process
runs the machine code.
Both run the same statements on the same integer arrays, so the scores are
the same (tests/meteor/test_compiled_cache.py compares them). Figures:
docs/experiments/meteor-speed.md.

WHY one place: every compiled function must agree on where machine code is
cached, and on what happens when no cache directory is writable.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np

COMPILE_FROM = 10_000
"""Tokens x modules of one batch from which numba is loaded: plain Python takes about 0.06 ms per token per
module, loading numba 0.4-0.7 s of CPU time (docs/experiments/meteor-speed.md)."""

_state = {"on": False, "work": 0}  # work: tokens x modules matched as plain Python so far


class Kernel:
    """One function, run as plain Python or, once :func:`use_compiled` ran, as numba machine code."""

    def __init__(self, func: Callable, wraps: bool) -> None:
        self.py = func
        self._wraps = wraps  # uint64 hash arithmetic: wraps silently in machine code, warns in NumPy scalars
        self._jit: Callable | None = None
        self.__doc__, self.__name__, self.__wrapped__ = func.__doc__, func.__name__, func

    def __call__(self, *args: Any) -> Any:
        if _state["on"]:
            return self.jit(*args)
        if self._wraps:
            with np.errstate(over="ignore"):
                return self.py(*args)
        return self.py(*args)

    @property
    def jit(self) -> Callable:
        """The numba dispatcher; the kernels this one calls are seen by numba as their own dispatchers."""
        if self._jit is None:
            import numba

            func = self.py
            found = {name: func.__globals__.get(name) for name in func.__code__.co_names}
            names = {name: k.jit for name, k in found.items() if isinstance(k, Kernel) and k is not self}
            if names:
                func = types.FunctionType(func.__code__, {**func.__globals__, **names}, func.__name__,
                                          func.__defaults__, func.__closure__)  # fmt: skip
            try:
                self._jit = numba.njit(cache=True)(func)
            except RuntimeError:  # numba found no writable cache location
                self._jit = numba.njit(func)
        return self._jit


def compiled(func: Callable | None = None, *, wraps: bool = False) -> Any:
    """``func`` as a :class:`Kernel`; ``wraps=True`` for unsigned arithmetic meant to wrap around."""
    if func is None:
        return lambda f: compiled(f, wraps=wraps)
    return Kernel(func, wraps)


def pays(tokens: int, modules: int) -> bool:
    """Whether loading the machine code pays for ``tokens`` (hypotheses and references) matched by ``modules``."""
    return tokens * max(modules, 1) >= COMPILE_FROM


def want_compiled(tokens: int, modules: int) -> None:
    """Count a batch of ``tokens`` matched by ``modules``; switch this process to machine code once the batches
    counted so far would have paid for it.

    WHY counted over batches: a caller scoring pair by pair (a loop over
    ``sentence_score``) would otherwise stay in plain Python, 10-30 times
    slower per pair; this way it pays at most about twice the least it could.
    """
    if not _state["on"]:
        _state["work"] += tokens * max(modules, 1)
        if _state["work"] >= COMPILE_FROM:
            use_compiled()


def use_compiled(on: bool = True) -> None:
    """Run every kernel as machine code from now on (``on=False``: as plain Python again, for comparisons).

    The machine code is cached in TMTprime's per-user cache directory
    (``numba/`` inside ``TMTPRIME_CACHE_DIR`` or ``~/.cache/tmtprime``), never
    next to the installed package: a read-only or system-wide site-packages
    works, the one-off compile is paid once per user (and announced, see
    ``aligner.compile_now``). A ``NUMBA_CACHE_DIR`` the user set wins. Without
    any writable place it compiles in every process.
    """
    if on:
        numba = _import_numba()
        if not os.environ.get("NUMBA_CACHE_DIR"):
            from tmtprime.paths import cache_dir

            try:
                numba.config.CACHE_DIR = str(cache_dir() / "numba")
            except OSError:  # no writable home: numba looks for a place of its own
                pass
    _state["on"], _state["work"] = on, 0


def _import_numba() -> types.ModuleType:
    """numba and its array functions, without SciPy's BLAS when nothing loaded it yet.

    numba's array module looks for BLAS (for ``np.dot`` and ``np.linalg``,
    which no kernel here uses) by importing ``scipy.linalg``: 0.2-0.3 s of
    the 0.4-0.7 s numba costs to load. Hidden while numba looks, it finds
    none, and ``scipy.linalg`` imports normally afterwards for anyone else.
    """
    hide = "scipy.linalg" not in sys.modules and "scipy.linalg.cython_blas" not in sys.modules
    if hide:
        sys.modules["scipy.linalg.cython_blas"] = None  # type: ignore[assignment]
    try:
        import numba
        import numba.np.arraymath  # noqa: F401  (its BLAS check runs at import)
    finally:
        if hide:
            del sys.modules["scipy.linalg.cython_blas"]
    return numba


def compiled_in_use() -> bool:
    """Whether kernels run as machine code in this process."""
    return _state["on"]
