"""The scorer's compiled parts (aligner, matchers, statistics, paraphrase lookups): numba, loaded only when it pays.

WHY lazy: importing numba and loading the cached machine code costs
0.4-0.7 s of CPU time, more than scoring a hundred pairs takes in plain
Python; ``tmtprime meteor`` on one pair must start in under 0.3 s (issue
30). So each kernel is written once, in the subset of Python numba
compiles, and runs as plain Python over NumPy arrays until the work done
would have paid for numba, in one batch or over many small ones
(:func:`want_compiled`, :data:`COMPILE_FROM`); from then on this process
runs the machine code: the kernel library built once per installation
(:mod:`~tmtprime.meteor.kernel_library`, no numba import), else numba's JIT.
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
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

COMPILE_FROM = 10_000
"""Tokens x modules of one batch from which numba is loaded: plain Python takes about 0.06 ms per token per
module, loading numba 0.4-0.7 s of CPU time (docs/experiments/meteor-speed.md)."""

# work: tokens x modules matched as plain Python so far; library: the kernel library in use (None: numba's JIT),
# generation: counts its changes
_state: dict[str, Any] = {"on": False, "work": 0, "library": None, "generation": 0}


class Kernel:
    """One function, run as plain Python or, once :func:`use_compiled` ran, as machine code: the kernel
    library's (:mod:`~tmtprime.meteor.kernel_library`) when the arguments fit one of ``exports``, else numba's."""

    def __init__(self, func: Callable, wraps: bool, exports: tuple[str, ...] = ()) -> None:
        self.py = func
        self._wraps = wraps  # uint64 hash arithmetic: wraps silently in machine code, warns in NumPy scalars
        self.exports = exports  # numba signatures compiled into the library (kernels called from Python)
        self._jit: Callable | None = None
        self._native: tuple[int, list[Any]] = (-1, [])  # (library generation, its functions for this kernel)
        self.__doc__, self.__name__, self.__wrapped__ = func.__doc__, func.__name__, func
        if exports:
            _EXPORTED.append(self)

    def __call__(self, *args: Any) -> Any:
        if _state["on"]:
            generation, natives = self._native
            if generation != _state["generation"]:
                natives = self._find_natives()
            for native in natives:
                if native.fits(args):
                    return native.func(*args)
            return self.jit(*args)
        if self._wraps:
            with np.errstate(over="ignore"):
                return self.py(*args)
        return self.py(*args)

    def export_names(self) -> list[str]:
        """The library's name of each of ``exports``."""
        module = self.py.__module__.rsplit(".", 1)[-1]
        return [f"{module}__{self.__name__.lstrip('_')}__{k}" for k in range(len(self.exports))]

    def _find_natives(self) -> list[Any]:
        library = _state["library"]
        natives = []
        if library is not None:
            from tmtprime.meteor.kernel_library import Native

            natives = [Native(getattr(library, name), sig) for name, sig in zip(self.export_names(), self.exports)
                       if hasattr(library, name)]  # fmt: skip
        self._native = (_state["generation"], natives)
        return natives

    def resolved(self) -> Callable:
        """The Python function with the kernels it calls replaced by their numba dispatchers (what numba compiles)."""
        func = self.py
        found = {name: func.__globals__.get(name) for name in func.__code__.co_names}
        names = {name: k.jit for name, k in found.items() if isinstance(k, Kernel) and k is not self}
        if not names:
            return func
        return types.FunctionType(func.__code__, {**func.__globals__, **names}, func.__name__,
                                  func.__defaults__, func.__closure__)  # fmt: skip

    @property
    def jit(self) -> Callable:
        """The numba dispatcher; the kernels this one calls are seen by numba as their own dispatchers."""
        if self._jit is None:
            numba = _import_numba()
            func = self.resolved()
            try:
                self._jit = numba.njit(cache=True)(func)
            except RuntimeError:  # numba found no writable cache location
                self._jit = numba.njit(func)
        return self._jit


_EXPORTED: list[Kernel] = []


def exported() -> Iterator[tuple[str, str, Callable]]:
    """(library name, signature, function to compile) of every exported kernel of the modules imported so far."""
    for kernel in _EXPORTED:
        for name, signature in zip(kernel.export_names(), kernel.exports):
            yield name, signature, kernel.resolved()


def compiled(func: Callable | None = None, *, wraps: bool = False, exports: tuple[str, ...] = ()) -> Any:
    """``func`` as a :class:`Kernel`; ``wraps=True`` for unsigned arithmetic meant to wrap around; ``exports``:
    the numba signatures it is compiled for in the kernel library (a kernel called from Python code)."""
    if func is None:
        return lambda f: compiled(f, wraps=wraps, exports=exports)
    return Kernel(func, wraps, exports)


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

    The machine code is this installation's kernel library when it was
    built (:mod:`~tmtprime.meteor.kernel_library`, by ``aligner.compile_now``):
    numba is then not even imported. Otherwise numba's JIT compiles the
    kernels, cached in TMTprime's per-user cache directory (``numba/`` inside
    ``TMTPRIME_CACHE_DIR`` or ``~/.cache/tmtprime``), never next to the
    installed package: a read-only or system-wide site-packages works, the
    one-off compile is paid once per user (and announced). A
    ``NUMBA_CACHE_DIR`` the user set wins. Without any writable place it
    compiles in every process.
    """
    if on:
        from tmtprime.meteor.kernel_library import load

        library = load()
        if library is not _state["library"]:
            _state["library"], _state["generation"] = library, _state["generation"] + 1
    _state["on"], _state["work"] = on, 0


def library_in_use() -> bool:
    """Whether kernels run from the kernel library (not numba's JIT) when they run as machine code."""
    return _state["library"] is not None


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
    if not os.environ.get("NUMBA_CACHE_DIR"):
        from tmtprime.paths import cache_dir

        try:
            numba.config.CACHE_DIR = str(cache_dir() / "numba")
        except OSError:  # no writable home: numba looks for a place of its own
            pass
    return numba


def compiled_in_use() -> bool:
    """Whether kernels run as machine code in this process."""
    return _state["on"]
