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


DOOR_NAMES: dict[str, set[str] | None] = {
    "tmtprime": {"__version__", "workflows"},
    "tmtprime.workflows": None,
    "tmtprime.errors": None,
    "tmtprime.progress": None,
    "tmtprime.store": {"Store"},
    "tmtprime.formats": {"ColumnMapping"},
    "tmtprime.formats.model": None,
    "tmtprime.meteor": None,
    "tmtprime.report": {"figures"},
    "tmtprime.report.figures": None,
    "tmtprime.parallel": {"dask_cluster"},
    "tmtprime.cli": None,
    "tmtprime.gui": None,
}
"""What the doors may import below ``tmtprime.workflows``, by module (None: any name; submodules of a module whose
names are all allowed are allowed too): the use cases; the store package's ``Store`` to open a project; errors and
progress; the formats' option types and the domain types use cases return; the scorer; the report's figure
functions and format names (from the light package: the report use case loads the store, which every command would
pay for at start-up); and where work runs (a Dask cluster, chosen by ``--dask`` like the Reporter by ``-q``)."""


def _door_imports(path) -> list[tuple[int, str, str | None]]:  # noqa: ANN001 - a Path
    """``(line, module, name)`` of each ``tmtprime`` import of a module (name None for ``import module``)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "tmtprime":
            found += [(node.lineno, node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, None) for alias in node.names if alias.name.split(".")[0] == "tmtprime"]
    return found


def _door_findings(paths) -> list[str]:  # noqa: ANN001 - Paths
    findings = []
    for path in paths:
        for line, module, name in _door_imports(path):
            allowed = next(
                (DOOR_NAMES[m] for m in _parents(module) if m in DOOR_NAMES and (DOOR_NAMES[m] is None or m == module)),
                False,
            )
            if allowed is False or (allowed is not None and name not in allowed):
                findings.append(f"{path.relative_to(ROOT)}:{line}: imports {module}{'.' + name if name else ''}")
    return findings


def _parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]


def test_the_doors_import_only_the_use_cases_and_what_they_may_use():
    doors = sorted((ROOT / "tmtprime" / "cli").rglob("*.py")) + sorted((ROOT / "gui").rglob("*.py"))
    findings = _door_findings(doors)
    assert not findings, "\n".join(findings)


def test_the_door_check_sees_a_door_reaching_past_the_use_cases(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    door = tmp_path / "door.py"
    door.write_text(
        "from tmtprime import workflows as wf\nfrom tmtprime.store import Store, NewCandidate\n"
        "from tmtprime.formats import ColumnMapping, read_tm\nimport tmtprime.cost.estimate\n"
        "from tmtprime.meteor.scorer import Meteor\nfrom tmtprime.report import figures, html\n",
        encoding="utf-8",
    )
    assert _door_findings([door]) == [
        "door.py:2: imports tmtprime.store.NewCandidate", "door.py:3: imports tmtprime.formats.read_tm",
        "door.py:4: imports tmtprime.cost.estimate", "door.py:6: imports tmtprime.report.html",
    ]


def test_the_doors_contract_names_every_module_below_the_use_cases_they_may_not_use():
    """import-linter's forbidden list cannot say "all but": every module the doors may not use is listed, so a new one
    is caught here instead of slipping past the contract."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    doors = next(c for c in contracts if c.get("source_modules") == ["tmtprime.cli", "tmtprime.gui"])
    forbidden = set(doors["forbidden_modules"])
    top = {p.stem if p.suffix == ".py" else p.name for p in (ROOT / "tmtprime").iterdir()
           if (p.suffix == ".py" or (p / "__init__.py").exists()) and p.name not in ("__init__.py", "__main__.py")}
    whole = {f"tmtprime.{name}" for name in top} - {m for m in DOOR_NAMES if m.count(".") == 1} - {"tmtprime.meteor"}
    partly = {m for m, names in DOOR_NAMES.items() if names is not None and m.count(".") == 1} - {"tmtprime.parallel"}
    inner = {f"{pkg}.{p.stem if p.suffix == '.py' else p.name}" for pkg in partly
             for p in (ROOT / pkg.replace(".", "/")).iterdir()
             if (p.suffix == ".py" or (p / "__init__.py").exists()) and p.name != "__init__.py"}
    wanted = whole | (inner - set(DOOR_NAMES))
    assert wanted - forbidden == set()
