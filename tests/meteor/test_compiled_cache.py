"""The scorer's machine code is cached in TMTprime's per-user cache directory, not in site-packages (issue 30)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_SNIPPET = """
from tmtprime.meteor.compiled import compiled

def add(a, b):
    return a + b

print(compiled(add)(2, 3))
"""


def test_compiled_code_is_cached_in_the_user_cache_dir(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(TMTPRIME_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    script = tmp_path / "snippet.py"
    script.write_text(_SNIPPET, encoding="utf-8")
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "5"
    cached = [p.name for p in (cache / "numba").rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert any(name.endswith(".nbi") for name in cached) and any(name.endswith(".nbc") for name in cached), cached
    assert not list(tmp_path.glob("__pycache__/*.nb*"))  # nothing beside the source
