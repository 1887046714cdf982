"""The import contracts of pyproject.toml (layers, the scorer a leaf, Qt only in the window, the doors through
the use cases) hold: ``lint-imports`` (import-linter, the dev extra) must report every contract kept."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def _lint_imports() -> list[str]:
    found = shutil.which("lint-imports")
    if found:
        return [found]
    pytest.importorskip("importlinter", reason="import-linter (the dev extra) is not installed")
    return [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"]


def test_the_import_contracts_hold():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    out = subprocess.run([*_lint_imports(), "--no-cache"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout and "BROKEN" not in out.stdout


def test_every_contract_names_what_it_guards():
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    kinds = {c["type"] for c in contracts}
    assert kinds == {"layers", "forbidden"}
    leaf = next(c for c in contracts if c.get("source_modules") == ["tmtprime.meteor"])
    assert "tmtprime.features" in leaf["forbidden_modules"] and "tmtprime.store" in leaf["forbidden_modules"]
