"""The structure the team is held to: the import contracts of pyproject.toml (layers, the scorer a leaf, Qt only
in the window, the doors through the use cases) hold under ``lint-imports`` (import-linter, the dev extra), and
no module is over 600 lines nor a docstring over 40."""

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


MAX_MODULE_LINES = 600
MAX_DOCSTRING_LINES = 40


def _sources() -> list:
    """Every module of the library and of the window (``tmtprime/gui`` is a link to ``gui/``: read once)."""
    library = [p for p in (ROOT / "tmtprime").rglob("*.py") if "gui" not in p.relative_to(ROOT / "tmtprime").parts[:1]]
    return sorted(library + list((ROOT / "gui").rglob("*.py")))


def _long_docstrings(path) -> list[str]:  # noqa: ANN001 - a Path
    """Docstrings of ``path`` (module, class, function, and the string under an attribute) over the limit."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            lines = len(node.value.value.splitlines())
            if lines > MAX_DOCSTRING_LINES:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: a docstring of {lines} lines")
    return found


def _size_findings(sources) -> list[str]:  # noqa: ANN001 - Paths
    findings = [
        f"{p.relative_to(ROOT)}: {n} lines"
        for p in sources
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    ]
    return findings + [f for p in sources for f in _long_docstrings(p)]


def test_the_sizes_hold():
    """Modules <= 600 lines and docstrings <= 40 lines, over tmtprime/ and gui/."""
    sources = _sources()
    assert len(sources) > 100 and any(p.parts[-2] == "gui" for p in sources)
    findings = _size_findings(sources)
    assert not findings, "\n".join(findings)


def test_the_size_check_sees_a_long_module_and_docstring(tmp_path, monkeypatch):
    """The check above can fail: a module over the limit and a long docstring are both reported."""
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    long = tmp_path / "long.py"
    long.write_text('"""' + "\n" * (MAX_DOCSTRING_LINES + 1) + '"""\n' + "x = 1\n" * (MAX_MODULE_LINES - MAX_DOCSTRING_LINES - 1), encoding="utf-8")
    short = tmp_path / "short.py"
    short.write_text('"""Fine."""\n' + "x = 1\n" * (MAX_MODULE_LINES - 1), encoding="utf-8")
    assert _size_findings([long, short]) == [
        f"long.py: {MAX_MODULE_LINES + 1} lines", f"long.py:1: a docstring of {MAX_DOCSTRING_LINES + 1} lines"
    ]
