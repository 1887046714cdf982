"""numba loads without the optional packages it would import for nothing (compiled._import_numba, issue 30)."""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import sys
from tmtprime.meteor.aligner import compile_now
compile_now()  # numba, and the machine code of the search loaded (numba types it then)
print(sorted(m for m in ("cffi", "yaml", "pycparser", "scipy.linalg") if m in sys.modules))
import cffi, yaml, scipy.linalg  # not blocked for anyone else afterwards
print(scipy.linalg.norm([3.0, 4.0]))
"""


def test_numba_loads_without_cffi_yaml_or_blas() -> None:
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:2] == ["[]", "5.0"]
