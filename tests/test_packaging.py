"""`pip install .` gives a working `tmtprime` with its resources and models (not only editable).

Builds the wheel, installs it without dependencies into a fresh virtual
environment that sees the system site-packages (so the heavy dependencies are
not downloaded again), and runs the installed command from a directory outside
the repository, so nothing can be picked up from the source tree.
"""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (found,) = out.glob("tmtprime-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    env_dir = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(system_site_packages=True, with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel)],
        check=True,
        capture_output=True,
    )
    return env_dir


def test_wheel_carries_resources_and_models(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "tmtprime/_resources/NOTICE.md" in names
    assert "tmtprime/_models/README.md" in names
    for shipped in (ROOT / "resources").rglob("*"):
        if shipped.is_file():
            assert f"tmtprime/_resources/{shipped.relative_to(ROOT / 'resources').as_posix()}" in names


def test_installed_command_finds_resources_outside_the_source_tree(installed, tmp_path):
    tmtprime = installed / "bin" / "tmtprime"
    out = subprocess.run([str(tmtprime), "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    probe = (
        "import tmtprime, tmtprime.paths as p;"
        "print(tmtprime.__file__); print(p.resources_dir()); print(p.models_dir())"
    )
    out = subprocess.run(
        [str(installed / "bin" / "python"), "-c", probe], capture_output=True, text=True, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    module_file, resources, models = out.stdout.split()
    assert str(installed) in module_file, "the installed package, not the source tree, must be imported"
    assert resources.endswith("tmtprime/_resources") and models.endswith("tmtprime/_models")


def test_tmtprime_gui_is_a_plain_package_in_a_checkout_and_an_editable_install(tmp_path):
    """``tmtprime/gui`` is a link to ``gui/`` (no ``exec`` shim), so importers and tools see its modules as files."""
    link = ROOT / "tmtprime" / "gui"
    assert link.is_symlink() and link.resolve() == (ROOT / "gui").resolve()
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "-e", str(ROOT)], check=True, capture_output=True)
    probe = (
        "import importlib.util, tmtprime.gui, tmtprime.gui.work;"
        "print(tmtprime.gui.__spec__.origin); print(tmtprime.gui.work.__file__);"
        "print(importlib.util.find_spec('tmtprime.gui.worker').origin)"
    )
    out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    init, work, worker = (Path(p).resolve() for p in out.stdout.split())
    assert init == (ROOT / "gui" / "__init__.py").resolve()
    assert work == (ROOT / "gui" / "work.py").resolve() and worker == (ROOT / "gui" / "worker.py").resolve()
