"""The scorer's kernels compiled ahead of time into one extension module, kept in the user's cache.

WHY: numba's machine code, even cached, costs every process 0.6-0.7 s of
CPU time before the first pair (importing numba 0.35 s, setting up its type
registries 0.25 s, loading the cached code): more than scoring 2,000 Spanish
pairs takes, and the reason ``tmtprime meteor`` was slower than the jar on
them (issue 30). The same kernels compiled once by ``numba.pycc`` into an
extension module load in about a millisecond, and numba is not imported at all.

The library is built once per installation (numba, NumPy, Python and the
kernels' sources make up its name), in a child process so that no compiler
output reaches the command's stdout; it needs a C compiler. Where it cannot be
built the reason is kept beside it, said once, and numba's JIT (cached) runs
the kernels as before. Each exported kernel names the argument types it is
compiled for; a call with other types (the machine code would read them as
garbage) goes to numba's JIT instead (:meth:`Native.fits`).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import types
from pathlib import Path

import numpy as np

from tmtprime.progress import Reporter, silent

KERNEL_MODULES = (
    "tmtprime.meteor.matchers",
    "tmtprime.meteor.stats",
    "tmtprime.meteor.aligner",
    "tmtprime.meteor.paraphrase_index",
    "tmtprime.meteor.paraphrase_lookup",
)
"""Every module whose kernels are exported (imported by the build; their sources are part of the name)."""

_PREFIX = "tmtprime_kernels_"
_SCALARS = {
    "int64": (int, np.integer),
    "uint64": (int, np.integer),
    "boolean": (bool, np.bool_),
    "float64": (float, np.floating),
}


class Native:
    """One exported machine-code function and the argument types it was compiled for."""

    def __init__(self, func: types.BuiltinFunctionType, signature: str) -> None:
        self.func = func
        self._args = [(np.dtype(bool if kind == "boolean" else kind) if ndim else kind, ndim)
                      for kind, ndim in argument_types(signature)]  # fmt: skip

    def fits(self, args: tuple) -> bool:
        """Whether ``args`` have exactly the compiled types (arrays: dtype and dimensions; scalars: kind)."""
        if len(args) != len(self._args):
            return False
        for value, (kind, ndim) in zip(args, self._args):
            if ndim:
                if not isinstance(value, np.ndarray) or value.ndim != ndim or value.dtype != kind:
                    return False
            elif not isinstance(value, _SCALARS[kind]) or (kind != "boolean" and isinstance(value, (bool, np.bool_))):
                return False
        return True


def argument_types(signature: str) -> list[tuple[str, int]]:
    """``(type name, dimensions)`` of each argument of a numba signature string such as
    ``int64[:,:](int64[:], boolean, int64)``; an array of dtype ``uint32`` has type name ``uint32``."""
    depth, start = 0, None
    for k in range(len(signature) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(signature[k], 0)
        if depth == 0:
            start = k
            break
    if start is None or not signature.endswith(")"):
        raise ValueError(f"not a signature: {signature}")
    parts, depth, word = [], 0, ""
    for ch in signature[start + 1 : -1]:
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(word)
            word = ""
        else:
            word += ch
    parts.append(word)
    out = []
    for part in (p.strip() for p in parts if p.strip()):
        m = re.fullmatch(r"(\w+)(?:\[([:, ]*)\])?", part)
        if m is None or (m.group(2) is None and m.group(1) not in _SCALARS):
            raise ValueError(f"unsupported argument type {part!r} in {signature}")
        out.append((m.group(1), m.group(2).count(":") if m.group(2) else 0))
    return out


def _sources() -> list[Path]:
    here = Path(__file__).resolve().parent
    return [here / "compiled.py", here / "kernel_library.py",
            *(here / f"{name.rsplit('.', 1)[1]}.py" for name in KERNEL_MODULES)]  # fmt: skip


def stamp() -> str:
    """What the library's machine code depends on, hashed: Python, NumPy, numba (found without importing
    it) and the kernels' sources."""
    parts = [sys.version, np.__version__]
    spec = importlib.util.find_spec("numba")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("numba is not installed")
    numba_dir = Path(next(iter(spec.submodule_search_locations)))
    parts += sorted(p.name for p in numba_dir.parent.glob("numba-*.dist-info"))
    parts.append(str((numba_dir / "__init__.py").stat().st_mtime_ns))
    digest = hashlib.sha1("|".join(parts).encode())
    for path in _sources():
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def library_dir() -> Path:
    """Where libraries are kept: ``kernels/`` in TMTprime's cache directory (OSError when none is writable)."""
    from tmtprime.paths import cache_dir

    return cache_dir() / "kernels"


def _library_file(directory: Path, name: str) -> Path:
    return directory / (name + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))


def load() -> types.ModuleType | None:
    """This installation's library, or None when it is not built (or cannot be: no cache, no numba)."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return None  # the user asked for numba's interpreter (debugging): no machine code at all
    try:
        name = _name()
        path = _library_file(library_dir(), name)
    except (OSError, ModuleNotFoundError):
        return None
    if not path.is_file():  # checked even when loaded: another cache directory may lack it
        return None
    if name in sys.modules:
        return sys.modules[name]
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    if spec is None:
        return None
    try:
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    except ImportError:  # damaged or foreign file: rebuilt by the next compile_now
        path.unlink(missing_ok=True)
        return None
    sys.modules[name] = module
    return module


def failure() -> str | None:
    """Why this installation's library could not be built, if a build failed (then none is tried again)."""
    try:
        note = library_dir() / (_name() + ".failed")
        return (note.read_text(encoding="utf-8").strip() or "unknown reason") if note.is_file() else None
    except (OSError, ModuleNotFoundError):
        return None


def build(reporter: Reporter | None = None) -> str | None:
    """Build this installation's library in a child process; None when done, else the reason it failed
    (also kept beside it, so later runs use numba's JIT without trying again).

    ``reporter`` can cancel it (the child is stopped; nothing is kept and a later run tries again).
    """
    reporter = silent(reporter)
    try:
        directory = library_dir()
        name = _name()
        directory.mkdir(parents=True, exist_ok=True)
    except ModuleNotFoundError as error:
        return str(error)
    except OSError as error:
        return f"no writable cache directory ({error})"
    with tempfile.TemporaryDirectory(dir=directory, prefix=".build-") as tmp:
        root = str(Path(__file__).resolve().parents[2])  # this package, wherever it is installed
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        log = Path(tmp) / "build.log"
        with open(log, "w", encoding="utf-8") as out:
            child = subprocess.Popen([sys.executable, "-m", "tmtprime.meteor.kernel_library", name, tmp],
                                     stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env)  # fmt: skip
            try:
                while child.poll() is None:
                    reporter.check()
                    try:
                        child.wait(0.2)
                    except subprocess.TimeoutExpired:
                        pass
            finally:
                if child.poll() is None:  # cancelled (or interrupted): stop the compiler too
                    child.kill()
                    child.wait()
        built = _library_file(Path(tmp), name)
        if child.returncode == 0 and built.is_file():
            os.replace(built, _library_file(directory, name))  # atomic: a concurrent build replaces it whole
            _drop_others(directory, name)
            return None
        lines = [line.strip() for line in log.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]
        reason = lines[-1] if lines else f"exit status {child.returncode}"
    (directory / (name + ".failed")).write_text(reason + "\n", encoding="utf-8")
    return reason


def _environment() -> str:
    """This Python environment (its prefix and version), hashed: the part of a library's name that says whose it is."""
    return hashlib.sha1(f"{sys.prefix}|{sys.version}".encode()).hexdigest()[:8]


def _name() -> str:
    """The module name of this installation's library: its environment, then :func:`stamp`."""
    return f"{_PREFIX}{_environment()}_{stamp()}"


def _drop_others(directory: Path, keep: str) -> None:
    """This environment's libraries (and failure notes) of earlier sources or packages: never loaded again.
    Another environment's are left alone (two virtual environments may share one cache)."""
    for path in directory.glob(f"{_PREFIX}{_environment()}_*"):
        if not path.name.startswith(keep):
            path.unlink(missing_ok=True)


def _compile(name: str, out_dir: str) -> None:
    """The child's work: every exported kernel of :data:`KERNEL_MODULES` into ``out_dir/name``."""
    import warnings

    from tmtprime.meteor.compiled import exported

    for module in KERNEL_MODULES:
        importlib.import_module(module)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc is announced as deprecated; the JIT remains the fallback
        from numba.pycc import CC

        cc = CC(name)
        cc.output_dir = out_dir
        cc.verbose = False
        for export_name, signature, func in exported():
            cc.export(export_name, signature)(func)
        cc.compile()


if __name__ == "__main__":
    try:
        _compile(sys.argv[1], sys.argv[2])
    except Exception as error:  # noqa: BLE001  (any failure: its first line is the reason the parent keeps)
        text = str(error).strip().splitlines()
        first = text[0].split(". ")[0] if text else ""
        print(f"{type(error).__name__}: {first}".rstrip(": "), file=sys.stderr)
        sys.exit(1)
